"""A tournament's rounds on the league (firmware_py/league/tournament.py), as an organiser runs
one (docs/league.md, "Tournaments"): results count only for the round and the table they were
begun for, once; a round still played holds the next draw back and the page names the tables
still playing; a player who leaves is drawn no more and earns nothing in the rounds left; a
player drawn who did not play earns nothing that round; anything else on the bus changes nothing."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.tournament_results import result

from firmware_py.league.core import League
from firmware_py.league.round_points import round_tag
from firmware_py.league.store import Store
from firmware_py.league.tournament import NotNow, read_entrants, read_towers
from firmware_py.league.tournament_pages import tournament_page
from firmware_py.league.tournament_store import RoundTable

PLAYERS = "Ann\nBen\nCleo\nDan\nEve\nFinn\nRobo (hard)"
TOWERS = ["t1", "t2", "t3"]


def a_league() -> League:
    league = League(Store(Path(":memory:")), "qwixx")
    league.tournament.clock = lambda: datetime(2026, 11, 27, 19, 0, tzinfo=UTC)
    league.tournament.chance = random.Random(7)
    return league


def first_round_begun(rounds: int) -> tuple[League, list[RoundTable]]:
    """A league whose tournament of `rounds` has its first round drawn and started."""
    league = a_league()
    league.tournament.create("Cup", rounds, read_entrants(PLAYERS))
    league.tournament.draw(TOWERS)
    league.tournament.start()
    return league, league.tournament.round_now()[1]


def play_round(league: League, number: int, first_game: int = 1) -> dict[str, tuple[str, ...]]:
    """The round's tables each report a game: the players by their order at the table."""
    _, tables = league.tournament.round_now()
    for at, table in enumerate(tables):
        scores = {name: 50 - 10 * seat for seat, name in enumerate(table.players)}
        league.take(f"qwixx/{table.tower}/result", result(table.tower, first_game + at, scores,
                                                         (1, number)))  # fmt: skip
    return {table.tower: table.players for table in tables}


def points(league: League) -> dict[str, Fraction]:
    return {one.name: one.points for one in league.tournament.totals()}


def test_each_tables_first_game_of_the_round_counts_once():
    """Copies (at-least-once delivery), a second game at the same table, the round's tag from
    a tower not seated for it, and an untagged game count nothing."""
    league, _ = first_round_begun(2)
    seated = play_round(league, 1)
    once = points(league)
    assert sum(once.values()) == 3 * 7  # every table's points average 3
    tower, players = next(iter(seated.items()))
    reversed_scores = {name: 10 * seat for seat, name in enumerate(players)}
    other = next(t for t in TOWERS if t not in seated)
    for topic_tower, payload in [
        (tower, result(tower, 1, {n: 50 - 10 * s for s, n in enumerate(players)}, (1, 1))),
        (tower, result(tower, 9, reversed_scores, (1, 1))),  # a second game: too late
        (other, result(other, 3, reversed_scores, (1, 1))),  # not seated in this round
        (tower, result(tower, 10, reversed_scores, None)),  # an evening's game, no round
    ]:
        league.take(f"qwixx/{topic_tower}/result", payload)
    assert points(league) == once


def test_a_late_table_holds_the_next_round_back_and_is_named():
    league, tables = first_round_begun(3)
    first = tables[0]
    scores = {name: seat for seat, name in enumerate(first.players)}
    league.take(f"qwixx/{first.tower}/result", result(first.tower, 1, scores, (1, 1)))
    with pytest.raises(NotNow, match="round 1 is still being played"):
        league.tournament.draw(TOWERS)
    round_, tables = league.tournament.round_now()
    page = tournament_page(league.tournament.header, round_, tables, [], "")
    assert f"still playing: {tables[1].tower}" in page


def test_a_player_who_leaves_is_drawn_no_more_and_keeps_what_they_earned():
    league, _ = first_round_begun(3)
    play_round(league, 1)
    earned = points(league)["Ann"]
    league.tournament.leave("Ann")
    league.tournament.draw(TOWERS)
    _, tables = league.tournament.round_now()
    assert all("Ann" not in table.players for table in tables)
    assert sum(len(table.players) for table in tables) == 6
    league.tournament.start()
    play_round(league, 2, first_game=20)
    ann = next(one for one in league.tournament.totals() if one.name == "Ann")
    assert ann.points == earned and ann.rounds[1] is None and ann.left_after == 1


def test_a_player_drawn_who_never_played_earns_nothing_that_round():
    league, tables = first_round_begun(1)
    for at, table in enumerate(tables):
        came = table.players[1:] if at == 0 else table.players  # the first one never joined
        scores = {name: 10 * seat for seat, name in enumerate(came)}
        league.take(f"qwixx/{table.tower}/result", result(table.tower, at + 1, scores, (1, 1)))
    absent = tables[0].players[0]
    assert points(league)[absent] == 0


def test_the_organiser_is_told_what_cannot_be_done_now():
    league = a_league()
    with pytest.raises(NotNow, match="no tournament is running"):
        league.tournament.draw(TOWERS)
    league.tournament.create("Cup", 2, read_entrants(PLAYERS))
    with pytest.raises(NotNow, match="draw the first round"):
        league.tournament.start()
    with pytest.raises(NotNow, match="need 2 tables"):
        league.tournament.draw(["t1"])
    with pytest.raises(NotNow, match="a tournament is running"):
        league.tournament.create("Cup", 2, read_entrants(PLAYERS))


@pytest.mark.parametrize(
    ("typed", "why"),
    [("Ann\nBen", "3 to 100 players"), ("Ann\nann\nBen", "look alike"),
     ("Ann\nBen\n\u200b", "letter or digit"), ("Ann\nBen\n" + "x" * 30, "at most 24")],
)  # fmt: skip
def test_the_players_typed_are_checked_as_the_seats_check_names(typed, why):
    with pytest.raises(NotNow, match=why):
        read_entrants(typed)


def test_a_computer_player_is_typed_with_its_level():
    assert [(one.name, one.computer) for one in read_entrants(PLAYERS)][-1] == ("Robo", "hard")


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner)))  # fmt: skip
def test_any_round_tag_is_read_without_a_traceback(value):
    tag = round_tag(json.dumps({"round": value}).encode())
    assert tag is None or (isinstance(tag, tuple) and len(tag) == 2)
    assert round_tag(b"\xff\x00 not json") is None


def test_only_the_towers_the_organiser_named_get_tables():
    """A café's tower that is on the bus but not in the tournament (the bar's table) is never
    drawn; a name that cannot be a tower is refused in words."""
    league = a_league()
    towers = read_towers("t2, t3")
    league.tournament.create("Cup", 1, read_entrants(PLAYERS), towers)
    league.tournament.draw(["t1", "t2", "t3", "bar"])
    _, tables = league.tournament.round_now()
    assert sorted(table.tower for table in tables) == ["t2", "t3"]
    with pytest.raises(NotNow, match="not a tower's id"):
        read_towers("t1 qwixx/#")


def test_a_table_whose_tower_broke_down_is_closed_by_the_organiser():
    """A tower that never reports: the organiser closes the round; that table's players earn
    the mean, 3 each (no fault of theirs), its result coming later counts nothing, and the next
    round can be drawn."""
    league, tables = first_round_begun(2)
    first, broken = tables[0], tables[1]
    scores = {name: seat for seat, name in enumerate(first.players)}
    league.take(f"qwixx/{first.tower}/result", result(first.tower, 1, scores, (1, 1)))
    assert league.tournament.close_round() == [broken.tower]
    earned = points(league)
    assert all(earned[name] == 3 for name in broken.players)
    late = {name: 10 * seat for seat, name in enumerate(broken.players)}
    league.take(f"qwixx/{broken.tower}/result", result(broken.tower, 2, late, (1, 1)))
    assert points(league) == earned
    with pytest.raises(NotNow, match="every table of round 1 has reported"):
        league.tournament.close_round()
    assert league.tournament.draw(TOWERS) == 2
