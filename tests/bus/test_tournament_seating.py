"""A tower in a league's tournament (firmware_py/bus/tournament.py, docs/league.md
"Tournaments"): the league's seating for the round, checked as anything from the bus is; a real
table on simulated hardware seats the round's players, shows the round, starts its game only
once the organiser has started it, tags the game's result with the round, and after a restart
(mid-game or after it) carries that game on and begins no second one for the round."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import HANG
from support.table import until

from firmware_py.app.assembly import attach_bus, build_table
from firmware_py.app.config import SIMULATED
from firmware_py.app.hardware import build_hardware
from firmware_py.bus.inbox import Verdict
from firmware_py.bus.league_players import NotPlayers, read_players
from firmware_py.bus.settings import MqttConfig
from firmware_py.bus.topics import Topics
from firmware_py.bus.tournament import NotASeating, read_seating
from firmware_py.journal.journal import Journal
from firmware_py.rules import Game
from firmware_py.seating import PHONE
from firmware_py.seats.devices import RemoteSeats
from sheets import load_sheet

SETTINGS = MqttConfig(host="localhost", tower_id="t1", commands=("tournament",))
TOPICS = Topics.of(SETTINGS)
PLAYERS = [{"name": "Ann", "computer": "easy"}, {"name": "Ben", "computer": "easy"},
           {"name": "Cleo", "computer": "medium"}]  # fmt: skip


def seating(started: bool, players=PLAYERS, round_: int = 1) -> bytes:
    return json.dumps({
        "tournament": 4, "name": "Friday cup", "round": round_, "rounds": 5, "players": players,
        "drawn": "2026-11-27T19:00:00+00:00",
        "started": "2026-11-27T19:05:00+00:00" if started else None,
    }).encode()  # fmt: skip


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=30),
                    lambda inner: st.lists(inner, max_size=6)
                    | st.dictionaries(st.sampled_from(["tournament", "round", "rounds", "name",
                                                       "players", "computer", "drawn",
                                                       "started", "final", "place", "points",
                                                       "ended"]), inner)))  # fmt: skip
def test_any_message_is_a_seating_or_refused_in_words(value):
    try:
        read_seating(json.dumps(value))
    except NotASeating as why:
        assert str(why)


@pytest.mark.parametrize("key", ["drawn", "started"])
@pytest.mark.parametrize("time", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"])
def test_a_time_no_clock_can_show_is_refused(key, time):
    """Year 1 ahead of UTC (or 9999 behind it) reads as ISO 8601 but overflows on its way to
    the local time the table shows it in: taken, it ended the table's set-up screen in a
    traceback. It is no time the league writes, so the message is refused in words."""
    data = json.loads(seating(started=True))
    data[key] = time
    with pytest.raises(NotASeating, match="not an ISO time"):
        read_seating(json.dumps(data))


def test_brackets_nested_past_python_s_depth_are_no_seating():
    """1,500 "[" fit the seating's 2 KiB and raised RecursionError out of the reading: the
    tower's bus link failed, and came back to the same message, retained on the broker."""
    with pytest.raises(NotASeating, match="not JSON"):
        read_seating("[" * 1500)
    with pytest.raises(NotPlayers, match="not JSON"):
        read_players("[" * 1500)


class Tower:
    """A tower's table and its bus client (never connected: the test hands it messages)."""

    def __init__(self, folder: Path) -> None:
        hardware = build_hardware(SIMULATED, load_sheet("classic").dice_faces)
        self.journal = Journal(folder)
        self.table = build_table(hardware, seats=[], variant="classic", journal=self.journal,
                                 pace=0.002, autoplay=False)  # fmt: skip
        client = attach_bus(self.table, SETTINGS)
        assert client is not None
        self.client = client
        self.running: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Tower:
        self.running = asyncio.create_task(self.table.run())
        await until(lambda: self.table.started)
        return self

    async def __aexit__(self, *_: object) -> None:
        self.table.stop()
        assert self.running is not None
        await self.running

    def hears(self, payload: bytes) -> Verdict:
        return self.client.inbox.take(TOPICS.tournament, payload, retained=True)

    @property
    def game(self) -> Game | None:
        return self.table.game


def test_the_round_is_shown_then_played_once_even_across_restarts(tmp_path):
    asyncio.run(asyncio.wait_for(round_across_restarts(tmp_path), HANG))


async def round_across_restarts(tmp_path: Path) -> None:
    async with Tower(tmp_path) as tower:
        assert tower.hears(seating(started=False)) is Verdict.TAKEN
        view = tower.table.view()
        assert [seat.name for seat in tower.table.seating.seats] == ["Ann", "Ben", "Cleo"]
        assert "Friday cup, round 1 of 5: Ann, Ben, Cleo" in view.message
        assert tower.game is None  # waiting for the organiser's start
        tower.hears(seating(started=True))
        await until(lambda: tower.game is not None)
        assert tower.client.rounds is not None and tower.client.rounds.tag(1) == {
            "tournament": 4, "round": 1}  # fmt: skip
    async with Tower(tmp_path) as tower:  # restarted mid-game: the game carried on
        assert tower.game is not None and not tower.game.over
        tower.hears(seating(started=True))  # retained: heard again at the connection
        await until(lambda: tower.game is not None and tower.game.over)
        await asyncio.sleep(0.05)
    async with Tower(tmp_path) as tower:  # and after the game: no second game for the round
        tower.hears(seating(started=True))
        await asyncio.sleep(0.1)
        assert len(tower.journal.games()) == 1
        assert tower.client.rounds is not None and tower.client.rounds.tag(1) is not None
        published: list[str] = []

        async def broker(payload: str) -> None:
            published.append(payload)

        await tower.client.results.publish_all(broker)  # as the link publishes them
        assert [json.loads(one)["round"] for one in published] == [{"tournament": 4, "round": 1}]


def test_a_seating_waits_for_the_game_on_and_rubbish_is_counted(tmp_path):
    asyncio.run(asyncio.wait_for(seating_while_playing(tmp_path), HANG))


async def seating_while_playing(tmp_path: Path) -> None:
    async with Tower(tmp_path) as tower:
        tower.hears(seating(started=True))
        await until(lambda: tower.game is not None)
        tower.client.inbox.clock = lambda: 5000.0  # (a new second: the inbox's budget)
        assert tower.hears(seating(started=False, round_=2)) is Verdict.TAKEN
        assert tower.table.seating.names() == ["Ann", "Ben", "Cleo"]  # the game goes on
        tower.client.inbox.clock = lambda: 5001.0
        for rubbish in (b"{", b"[]", seating(True, [{"name": " x"}]), b"x" * 3000):
            assert tower.hears(rubbish) is Verdict.IGNORED
        assert tower.client.inbox.counts.malformed == 4


def test_a_person_drawn_is_seated_by_the_phone_that_joins_with_their_name(tmp_path):
    """A person's seat waits for the phone that joins with their name (as names are compared:
    "zoë" is Zoë's), not for the first phone that opens the page; then the round starts with
    them."""
    asyncio.run(asyncio.wait_for(person_joins(tmp_path), HANG))


async def person_joins(tmp_path: Path) -> None:
    async with Tower(tmp_path) as tower:
        phones = RemoteSeats(tower.table.door(PHONE))
        players = [{"name": "Zoë", "computer": None}, *PLAYERS[:2]]
        tower.hears(seating(started=False, players=players))
        assert phones.connect("guest-phone", "guest") is None  # a guest opens the page
        assert phones.seat_of("guest-phone") is None
        assert phones.join("zoes-phone", "zoe", "zoë") is None
        assert phones.seat_of("zoes-phone") == "Zoë"
        assert [seat.name for seat in tower.table.seating.seats] == ["Zoë", "Ann", "Ben"]
        tower.client.inbox.clock = lambda: 7000.0  # (a new second: the inbox's budget)
        tower.hears(seating(started=True, players=players))
        await until(lambda: tower.game is not None)
        assert [player.name for player in tower.game.players] == ["Zoë", "Ann", "Ben"]


ENDED = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=1)  # this evening


def ended(top: list[dict], at: datetime = ENDED) -> bytes:
    return json.dumps({"tournament": 4, "name": "Friday cup", "rounds": 5,
                       "ended": at.isoformat(), "final": top}).encode()  # fmt: skip


@pytest.mark.parametrize("points", ["²", "١٢", "9½"])
def test_top_players_points_in_other_digits_are_refused(points):
    """Points are shown on every display as sent: "²" or Arabic-Indic digits (digits to
    str.isdigit) are not a number of points the league sends, so the message is refused."""
    with pytest.raises(NotASeating, match="points that are not a number"):
        read_seating(ended([{"place": 1, "name": "Ann", "points": points}]))


def test_the_tournament_s_end_shows_its_top_players_between_games(tmp_path):
    """Issue 42: "the top players named at the end": the league's last message names them;
    the tower shows them as it showed the round (the set-up's message: the main display, the
    terminal, the phones) and in its news, and seats nobody anew."""
    asyncio.run(asyncio.wait_for(tournament_ends(tmp_path), HANG))


async def tournament_ends(tmp_path: Path) -> None:
    async with Tower(tmp_path) as tower:
        tower.hears(seating(started=False))
        tower.client.inbox.clock = lambda: 6000.0  # (a new second: the inbox's budget)
        top = [{"place": 1, "name": "Ann", "points": "9"}, {"place": 2, "name": "Ben",
               "points": "8.5"}, {"place": 2, "name": "Cleo", "points": "8.5"}]  # fmt: skip
        assert tower.hears(ended(top)) is Verdict.TAKEN
        ends_at = ENDED.astimezone()
        words = f"Friday cup is over (ended at {ends_at:%H:%M}): 1. Ann 9, 2. Ben 8.5, 2. Cleo 8.5"
        assert tower.table.view().message == words
        assert words in tower.table.newsfeed.lines
        assert tower.table.seating.names() == ["Ann", "Ben", "Cleo"]  # the last round's
        assert tower.game is None  # nothing started
        tower.client.inbox.clock = lambda: 6001.0
        for rubbish in (ended([{"place": 0, "name": "Ann", "points": "9"}]),
                        ended([{"place": 1, "name": "Ann", "points": "lots"}]),
                        ended([{"place": 1, "name": " Ann", "points": "9"}])):  # fmt: skip
            assert tower.hears(rubbish) is Verdict.IGNORED
        assert tower.table.view().message == words


def test_a_tower_switched_on_days_later_does_not_greet_with_the_old_standings(tmp_path):
    """The league's end stays retained on the bus: a tower restarted the next evening hears
    it again, takes it as a good message, and shows no winners of a tournament long over."""
    asyncio.run(asyncio.wait_for(an_old_end_is_heard(tmp_path), HANG))


async def an_old_end_is_heard(tmp_path: Path) -> None:
    async with Tower(tmp_path) as tower:
        before = tower.table.view().message
        top = [{"place": 1, "name": "Ann", "points": "9"}]
        assert tower.hears(ended(top, at=ENDED - timedelta(days=2))) is Verdict.TAKEN
        assert "is over" not in tower.table.view().message
        assert tower.table.view().message == before
        assert not [line for line in tower.table.newsfeed.lines if "is over" in line]
