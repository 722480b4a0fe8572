"""The league says which tower's clock is off (docs/league.md, "Clocks"): a tower's state says
its time as it is sent; from one the broker forwards as it comes (not one from its retained
store) the league sees how far the tower's clock is from its own, and its page's "Tables now"
says so past two minutes. A forged clock can only make that note wrong: a time that is no
time is counted as malformed and the page is drawn as ever. The games' times are never
changed."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from firmware_py.league.clocks import clock_words, duration_words
from firmware_py.league.core import League
from firmware_py.league.pages import league_page
from firmware_py.league.store import Store

LEAGUE_NOW = datetime(2026, 11, 22, 20, 0, tzinfo=UTC)
KITCHEN = "qwixx/kitchen/state"


def state(clock: object = None, **more: object) -> bytes:
    """A tower's state between games, saying `clock` (left out: None)."""
    fields: dict[str, object] = {"state": "attract", "variant": "classic", "seats": [], **more}
    if clock is not None:
        fields["clock"] = clock
    return json.dumps(fields).encode()


def at(offset: timedelta) -> str:
    """The time a tower says whose clock is `offset` ahead of the league's (as towers say it)."""
    return (LEAGUE_NOW + offset).isoformat(timespec="milliseconds")


@pytest.fixture
def league() -> League:
    league = League(Store(Path(":memory:")), "qwixx", wall=lambda: LEAGUE_NOW)
    league.take("qwixx/kitchen/availability", b"online")
    return league


def front_page(league: League) -> str:
    return league_page(league.ratings.standings(), league.store.towers(), league.tables,
                       league.clocks_ahead, [], 100)  # fmt: skip


BEHIND = (
    'kitchen</b>: between games<br><span class="clock">its clock is 3 h 12 min behind the '
    "league&#x27;s: its games may be missing from this evening (docs/league.md, &quot;Clocks&quot;)"
)


def test_a_tower_whose_clock_is_behind_is_named_on_the_page(league):
    league.take(KITCHEN, state(at(-timedelta(hours=3, minutes=12))))
    assert BEHIND in front_page(league)


def test_a_clock_within_two_minutes_is_not_mentioned(league):
    league.take(KITCHEN, state(at(timedelta(minutes=-1, seconds=-59))))
    assert "its clock" not in front_page(league)


def test_a_retained_state_is_no_measure_of_the_towers_clock(league):
    """The broker's retained state may be hours old: its time says nothing of the clock."""
    league.take(KITCHEN, state(at(-timedelta(hours=5))), retained=True)
    assert "its clock" not in front_page(league)
    league.take(KITCHEN, state(at(-timedelta(hours=3, minutes=12))))
    league.take(KITCHEN, state(at(-timedelta(hours=9))), retained=True)
    assert BEHIND in front_page(league)  # the last live state's word stands


def test_a_clock_put_right_takes_the_note_away(league):
    league.take(KITCHEN, state(at(-timedelta(hours=3, minutes=12))))
    league.take(KITCHEN, state(at(timedelta(seconds=3))))
    assert "its clock" not in front_page(league)


def test_a_tower_off_the_bus_or_too_old_to_say_its_time_has_no_note(league):
    league.take(KITCHEN, state(at(-timedelta(days=2))))
    league.take(KITCHEN, state())  # a tower from before `clock`: nothing known
    assert "its clock" not in front_page(league)
    league.take(KITCHEN, state(at(-timedelta(days=2))))
    league.take("qwixx/kitchen/availability", b"offline")
    assert "its clock" not in front_page(league)


def test_a_tower_ahead_is_said_too_with_what_it_costs(league):
    players = [{"name": "Ann", "score": 12}, {"name": "Ben", "score": 3}]
    league.take(KITCHEN, state(at(timedelta(days=1, hours=4)), state="roll", seats=players,
                               active="Ann"))  # fmt: skip
    assert (
        'kitchen</b>: classic: Ann 12, Ben 3; Ann rolls<br><span class="clock">its clock is '
        "1 day 4 h ahead of the league&#x27;s: its games are rated out of order"
    ) in front_page(league)


@pytest.mark.parametrize(
    "forged",
    [
        "no time", "", 12345, True, ["2026-11-22T20:00:00+00:00"], {"at": 1},
        "2026-11-22T20:00:00",  # no offset from UTC: whose time?
        "0001-01-01T00:00:00+00:00", "9999-12-31T23:59:59.999999+00:00",  # absurd
        "0001-01-01T00:00:00+23:59", "2026-11-22T20:00:00+00:00" + " " * 40,
        "2026-02-30T20:00:00+00:00",
    ],
)  # fmt: skip
def test_a_forged_clock_is_counted_and_the_page_is_drawn(league, forged):
    league.take(KITCHEN, state(at(-timedelta(hours=3, minutes=12))))
    league.take(KITCHEN, state(forged, state="roll", seats=[{"name": "Zed", "score": 1}]))
    assert league.store.counts()["malformed"] == 1
    page = front_page(league)
    assert BEHIND in page and "Zed" not in page  # the forged state changed nothing


def test_the_games_times_are_never_changed(league):
    league.take(KITCHEN, state(at(-timedelta(hours=3))))
    finished = "2026-11-22T16:55:00+00:00"
    result = {
        "id": "kitchen-000001", "tower": "kitchen", "game": 1, "variant": "classic",
        "started": None, "finished": finished, "reason": "locks", "winners": ["Ann"],
        "players": [{"name": "Ann", "seat": 1, "kind": "pad", "level": None, "score": 30,
                     "penalties": 0, "place": 1}],
    }  # fmt: skip
    league.take("qwixx/kitchen/result", json.dumps(result).encode())
    assert [game.finished for game in league.store.latest(5)] == [finished]


@pytest.mark.parametrize(
    ("span", "words"),
    [
        (timedelta(minutes=5), "5 min"),
        (timedelta(hours=3, minutes=12), "3 h 12 min"),
        (timedelta(hours=3, seconds=20), "3 h"),
        (timedelta(days=1, hours=4, minutes=30), "1 day 4 h"),
        (timedelta(days=20, minutes=3), "20 days"),
        (timedelta(minutes=2, seconds=31), "3 min"),
    ],
)
def test_a_span_is_said_as_people_say_it(span, words):
    assert duration_words(span) == words


def test_two_minutes_either_way_is_no_news():
    assert clock_words(timedelta(minutes=2)) is None
    assert clock_words(-timedelta(minutes=2)) is None
    assert clock_words(-timedelta(minutes=2, seconds=1)) == (
        "its clock is 2 min behind the league's: its games may be missing from this evening "
        '(docs/league.md, "Clocks")'
    )
