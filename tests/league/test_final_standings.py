"""The final standings of a tournament (docs/league.md, "Tournaments": placement points summed
over the rounds; players level on points are told apart by the Qwixx points they scored in
their tables' games counted; level on both, they share the place). The championship's texts
name no tie-break: this is the league's, and the page says it."""

from __future__ import annotations

import json
import random
import re
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from support.tournament_results import result

from firmware_py.league.core import League
from firmware_py.league.store import Store
from firmware_py.league.tournament import Total, read_entrants
from firmware_py.league.tournament_pages import ranks, tournament_page

SIX = "Ann\nBen\nCleo\nDan\nEve\nFinn"


def ended_after_one_round(scores_by_seat: list[int]) -> League:
    """Six players drawn at t1 and t2 (three each); each table scores by seat; then ended."""
    league = League(Store(Path(":memory:")), "qwixx")
    league.tournament.clock = lambda: datetime(2026, 11, 27, 19, 0, tzinfo=UTC)
    league.tournament.chance = random.Random(3)
    league.tournament.create("Cup", 1, read_entrants(SIX))
    league.tournament.draw(["t1", "t2"])
    league.tournament.start()
    for number, table in enumerate(league.tournament.round_now()[1], start=1):
        offset = 0 if number == 1 else 1  # t2's winner scores a point less than t1's
        scores = {
            name: score - offset for name, score in zip(table.players, scores_by_seat, strict=True)
        }
        league.take(f"qwixx/{table.tower}/result", result(table.tower, 1, scores, (1, 1)))
    league.tournament.end(["t1", "t2"])
    return league


def final_page(league: League) -> str:
    header = league.tournament.header
    round_, tables = league.tournament.round_now()
    return tournament_page(header, round_, tables, league.tournament.totals(), "")


def test_two_table_winners_level_on_points_are_told_apart_by_the_points_they_scored():
    league = ended_after_one_round([40, 30, 20])
    t1, t2 = (table.players for table in league.tournament.round_now()[1])
    page = final_page(league)
    winners = page.split("<h2>Winners</h2>")[1].split("</ul>")[0]
    assert f"1. {t1[0]}: 5 (40 scored)" in winners
    assert f"2. {t2[0]}: 5 (39 scored)" in winners
    assert "Final standings" in page


def test_players_level_on_points_and_scored_share_their_place():
    league = ended_after_one_round([40, 30, 30])
    totals = league.tournament.totals()
    shared = [rank for rank, one in zip(ranks(totals), totals, strict=True) if one.scored == 30]
    assert shared == [3, 3]  # t1's two seconds: 4 points each and 30 scored
    assert len(re.findall(r"<li>3\. ", final_page(league))) == 2  # both named third


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(-20, 150)), min_size=1, max_size=30))
def test_a_place_is_one_more_than_the_players_strictly_ahead(standings):
    """Whatever the points: ranks never go down the list and ties share one place."""
    totals = sorted((Total(f"p{n}", Fraction(points), (), None, scored)
                     for n, (points, scored) in enumerate(standings)),
                    key=lambda one: (-one.points, -one.scored))  # fmt: skip
    places = ranks(totals)
    assert places[0] == 1 and places == sorted(places)
    for rank, one, before in zip(places[1:], totals[1:], totals, strict=False):
        assert (rank == places[totals.index(before)]) == (one.standing == before.standing)


def test_each_tower_of_the_tournament_hears_the_top_players_the_page_names():
    """At the end the towers are told the winners (issue 42: "the top players named at the
    end"; they show them, tests/bus/test_tournament_seating.py), the same as the page's, in
    place of their seating; a tie for third names both."""
    league = ended_after_one_round([40, 30, 30])
    t1, t2 = (table.players for table in league.tournament.round_now()[1])
    messages = league.tournament.messages()
    assert set(messages) == {"t1", "t2"} and len(set(messages.values())) == 1
    told = json.loads(messages["t1"])
    assert (told["name"], told["ended"]) == ("Cup", "2026-11-27T19:00:00+00:00")
    assert told["final"] == [{"place": 1, "name": t1[0], "points": "5"},
                             {"place": 2, "name": t2[0], "points": "5"},
                             {"place": 3, "name": t1[1], "points": "2"},
                             {"place": 3, "name": t1[2], "points": "2"}]  # fmt: skip
    winners = final_page(league).split("<h2>Winners</h2>")[1].split("</ul>")[0]
    assert [one["name"] for one in told["final"]] == re.findall(r"<li>\d\. (\w+):", winners)


def test_a_tower_that_sat_every_round_out_hears_the_final_standings_too():
    """docs/league.md, "Tournaments": every tower names the top players at the end. Six
    players on three towers sit at two tables of three; the third tower heard each round that
    it sits out, and hears the end as the others do (it was told nothing before: it kept
    showing the round)."""
    league = League(Store(Path(":memory:")), "qwixx")
    league.tournament.chance = random.Random(3)
    league.tournament.create("Cup", 1, read_entrants(SIX))
    league.tournament.draw(["t1", "t2", "t3"])
    seated = {table.tower for table in league.tournament.round_now()[1]}
    (idle,) = {"t1", "t2", "t3"} - seated
    league.tournament.start()
    for table in league.tournament.round_now()[1]:
        scores = dict(zip(table.players, [30, 20, 10], strict=True))
        league.take(f"qwixx/{table.tower}/result", result(table.tower, 1, scores, (1, 1)))
    league.tournament.outbox.clear()
    league.tournament.end(["t1", "t2", "t3"])
    told = {tower: json.loads(message) for tower, message in league.tournament.outbox.items()}
    assert set(told) == {"t1", "t2", "t3"}
    assert told[idle] == told[min(seated)] and told[idle]["final"][0]["place"] == 1
