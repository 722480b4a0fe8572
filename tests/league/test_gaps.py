"""A result the broker dropped in the middle of an evening is asked for again (docs/league.md,
"Nothing lost"): a broker whose queue for a stalled league overflows drops the newest results
of a burst, and a later game's result can reach the league before it asks the tower again;
asking "after the newest kept" then skipped the dropped ones for good. Each result names the
game before it (`previous`), so the league sees the gap and asks from it at its next round."""

from __future__ import annotations

import json
from pathlib import Path

from firmware_py.league.core import League
from firmware_py.league.store import Store


def result(number: int, previous: int | None, tower: str = "t1") -> bytes:
    """Game `number` of `tower`, begun at 19:NN on 22 November, after game `previous`."""
    players = [
        {"name": name, "seat": seat, "kind": "pad", "level": None, "score": 40 - seat,
         "penalties": 0, "place": seat}
        for seat, name in enumerate(("Ann", "Ben"), start=1)
    ]  # fmt: skip
    began = f"2026-11-22T19:{number:02d}:00+00:00"
    game = {
        "id": game_id(tower, number), "tower": tower, "game": number, "variant": "classic",
        "started": began, "finished": began.replace(":00+", ":30+"), "reason": "locks",
        "winners": ["Ann"], "players": players,
        "previous": None if previous is None else game_id(tower, previous),
    }  # fmt: skip
    return json.dumps(game).encode()


def game_id(tower: str, number: int) -> str:
    return f"{tower}-{number:06d}-20261122T19{number:02d}00Z"


def league_with(tower: str, *games: tuple[int, int | None]) -> League:
    league = League(Store(Path(":memory:")), "qwixx")
    league.take(f"qwixx/{tower}/availability", b"online")
    for number, previous in games:
        league.take(f"qwixx/{tower}/result", result(number, previous, tower))
    return league


def test_a_result_after_a_gap_has_the_gap_asked_for_at_the_next_round():
    league = league_with("t1", (1, None), (2, 1), (3, 2), (7, 6))  # 4, 5 and 6 dropped
    assert league.asked_again() == {"t1": 4}  # not 8: the games in the gap come again
    assert league.asked_again() == {"t1": 8}  # asked once; the resend shows what is still open
    for number in (4, 5, 6, 7):  # the tower's answer: from 4 on, 7 a copy
        league.take("qwixx/t1/result", result(number, number - 1))
    assert league.store.games() == 7 and league.asked_again() == {"t1": 8}


def test_an_abandoned_game_between_two_results_is_no_gap():
    """Game 2 was abandoned (no result): game 3 names game 1 as the one before it."""
    league = league_with("t1", (1, None), (3, 1))
    assert league.asked_again() == {"t1": 4}


def test_a_gap_of_a_tower_whose_name_holds_dashes_is_asked_from_its_number():
    league = league_with("the-back-room", (1, None), (2, 1), (5, 4))
    assert league.asked_again() == {"the-back-room": 3}


def test_a_result_with_a_mangled_previous_still_counts_and_asks_nothing_more():
    """An older tower names no previous game; a mangled name, or another tower's game, is no
    reason to lose the game: it is kept, and nothing is asked because of it."""
    league = league_with("t1", (1, None))
    for previous in ("t2-000001", "not an id", 7, ["t1-000001"]):
        mangled = json.loads(result(2, None))
        mangled["previous"] = previous
        league.take("qwixx/t1/result", json.dumps(mangled).encode())
    assert league.store.games() == 2 and league.store.counts().get("malformed", 0) == 0
    assert league.asked_again() == {"t1": 3}
