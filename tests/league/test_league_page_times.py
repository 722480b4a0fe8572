"""When a game ended, as the league's page says it (firmware_py/league/pages.py): in the café's
local time, as the tournament's page and every tower say times. The towers send UTC; the page
showed that as it came, so in Berlin a game that ended at 20:31 said 19:31, and a player's page,
which spans evenings, gave no day."""

from __future__ import annotations

import time

import pytest

from firmware_py.league.incoming import Placing, Result
from firmware_py.league.pages import league_page, player_page
from firmware_py.league.ratings import Standing

BERLIN_IN_WINTER = "CET-1"  # POSIX: one hour ahead of UTC, no summer time (no tz database needed)


@pytest.fixture
def in_berlin(monkeypatch):
    monkeypatch.setenv("TZ", BERLIN_IN_WINTER)
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def game(number: int, finished: str | None) -> Result:
    ann = Placing("Ann", 1, "phone", None, 41, 0, 1)
    return Result(f"kitchen-{number:06d}", "kitchen", number, "classic", None, finished,
                  "locks", (ann,))  # fmt: skip


def test_the_evening_s_games_end_at_the_caf_s_local_time(in_berlin):
    page = league_page([], {"kitchen": True}, {}, {}, [game(12, "2026-11-27T19:31:40+00:00")], 100)
    assert "<td>20:31</td>" in page
    assert "19:31" not in page


def test_a_player_s_games_say_their_day_as_well(in_berlin):
    ann = Standing("ann", "Ann", "phone", 27.0, 6.0, games=2, wins=2)
    games = [game(12, "2026-11-27T23:10:00+00:00"), game(3, "2026-11-20T19:31:40+00:00")]
    page = player_page(ann, 1, games)
    assert "<td>Sat 2026-11-28 00:10</td>" in page  # after midnight in Berlin: the next day
    assert "<td>Fri 2026-11-20 20:31</td>" in page


def test_a_game_without_an_end_time_has_an_empty_cell(in_berlin):
    page = league_page([], {"kitchen": True}, {}, {}, [game(12, None)], 100)
    assert "<tr><td></td><td>kitchen</td>" in page
