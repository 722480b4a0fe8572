"""Qwixx X-Change on the rules engine: our own fixture table, step by step, and the rule text.

The text (docs/rules.md says which and how the tower reads what it leaves open): NSV's rule
sheet "Qwixx X-Change" (2024), as the reviews retell it: "Anstatt die gewürfelten Ergebnisse zu
nutzen, können die Spieler diese auch modifizieren, indem sie eines der Modifizierungsfelder
auf ihrem Wertungsblatt abstreichen und den modifizierten Wert stattdessen abkreuzen. Jedes
Modifizierungsfeld kann aber nur einmal in einer Partie genutzt werden." (brettspielabend.net,
2025: instead of the rolled result, cross a field and cross the changed number; each field once
a game); "Sie können den Wert ihrer beiden weißen Würfel anpassen" (reich-der-spiele.de: the
value of the two white dice). The nine fields as printed: 8/5 9/7 11/3 7/4 10/3 8/6 10/5 11/9 6/4.

A fixture is a list of the steps of tests/support/sheet_steps.py, played on a fresh game of Ann
and Ben (Ann rolls first): a refusal leaves the game exactly as it was; a `Check` reads the swap
fields' states as replay reports them (`swaps`: u used, p passed, . open), `crosses`/`marks` per
row, `total`, `penalties`, the marks offered.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.rules import PROPERTY_SETTINGS, report
from support.sheet_steps import Check, Do, R, Refuse, play

from firmware_py.journal.lines import LogError, event_to_line, parse_line, replay
from firmware_py.rules import Game, Mark, Pass, Refused, Roll, Start, Undo
from firmware_py.rules.rollout import play_out

VARIANT = "x-change"


def roll(w1: int, w2: int, **faces: int) -> Roll:
    """A roll; colour dice not named show 1 (the fixtures lock nothing before they say)."""
    return Roll((w1, w2), {c: faces.get(c, 1) for c in ("red", "yellow", "green", "blue")})


def swap(player: str, row: str, number: int, field: int) -> Mark:
    return Mark(player, row, number, swap=field)


def cross(player: str, row: str, number: int) -> Mark:
    return Mark(player, row, number)


FIXTURES = {
    # "instead of the rolled result ... cross the modified value": 5 + 6 = 11, field 3 (11/3).
    "a field trades the white sum for its other number": [
        Do(R(5, 6)),
        Check("Ann", offered=(swap("Ann", "red", 3, 3), swap("Ann", "blue", 9, 8))),
        Do(swap("Ann", "red", 3, 3)),
        Check("Ann", swaps="ppu......", marks={"red": [3]}, total=1),
        Check("Ben", swaps=".........", offered=(swap("Ben", "red", 3, 3),)),
    ],
    "either number of a field may be the white sum": [
        Do(R(2, 3)),  # 5: field 1 (8/5) makes it 8, field 7 (10/5) makes it 10
        Do(swap("Ann", "yellow", 8, 1)),
        Do(swap("Ben", "green", 10, 7)),
        Check("Ann", swaps="u........", marks={"yellow": [8]}),
        Check("Ben", swaps="ppppppu..", marks={"green": [10]}),
    ],
    "a field holds two numbers: any other sum or number is refused": [
        Do(R(5, 6)),
        Refuse(swap("Ann", "red", 9, 2), ("the white sum is 11", "only 9 or 7")),
        Refuse(swap("Ann", "red", 4, 3), ("turns the white sum 11 into 3",)),
        Refuse(swap("Ann", "red", 3, 10), ("no X-Change field 10", "1 to 9")),
    ],
    # "Jedes Modifizierungsfeld kann aber nur einmal in einer Partie genutzt werden."
    "each field once a game": [
        Do(R(5, 6)),
        Do(swap("Ann", "red", 3, 3)),
        Do(Pass("Ben")),
        Do(Pass("Ann")),
        Do(R(6, 5)),
        Refuse(swap("Ann", "yellow", 3, 3), ("already used X-Change field 3 (11 and 3)",)),
        Check("Ann", not_offered=(swap("Ann", "yellow", 3, 3),)),
    ],
    "fields are used left to right: one left of a used field is gone": [
        Do(R(5, 6)),
        Do(swap("Ann", "red", 3, 3)),
        Do(Pass("Ben")),
        Do(Pass("Ann")),
        Do(R(4, 4)),  # 8: field 1 (8/5) is left of field 3, field 6 (8/6) is open
        Refuse(swap("Ann", "red", 5, 1), ("field 3 is already used", "left to right")),
        Do(swap("Ann", "red", 6, 6)),
        Check("Ann", swaps="ppuppu...", marks={"red": [3, 6]}),
    ],
    "the white sum only: not in action 2": [
        Do(R(5, 6, red=2)),
        Do(Pass("Ann")),
        Do(Pass("Ben")),
        Refuse(swap("Ann", "red", 3, 3), ("only in action 1",)),
        Refuse(swap("Ann", "red", 8, 1), ("only in action 1",)),
        Do(cross("Ann", "red", 7)),  # 5 + red 2, as always
        Check("Ann", swaps=".........", penalties=0),
    ],
    "the swapped number follows the row's rules: left to right": [
        Do(R(5, 6)),
        Do(cross("Ann", "red", 11)),
        Do(Pass("Ben")),
        Do(Pass("Ann")),
        Do(R(5, 6)),
        Refuse(swap("Ann", "red", 3, 3), ("red is already crossed up to 11",)),
        Check("Ann", not_offered=(swap("Ann", "red", 3, 3),)),
    ],
    "a swapped cross is the active player's cross: no penalty": [
        Do(R(5, 6)),
        Do(swap("Ann", "blue", 3, 3)),
        Do(Pass("Ben")),
        Do(Pass("Ann")),
        Check("Ann", penalties=0, crosses={"blue": 1}),
    ],
    "undo gives the field back": [
        Do(R(5, 6)),
        Do(swap("Ann", "red", 3, 3)),
        Do(Undo("Ann")),
        Check("Ann", swaps=".........", marks={"red": []}),
        Do(cross("Ann", "red", 11)),
        Check("Ann", swaps=".........", marks={"red": [11]}),
    ],
    "the fields score nothing": [
        Do(R(3, 4)),  # 7: field 2 (9/7) makes it 9
        Do(swap("Ann", "red", 9, 2)),
        Do(swap("Ben", "red", 4, 4)),  # field 4 (7/4)
        Check("Ann", total=1, crosses={"red": 1}),
        Check("Ben", total=1, swaps="pppu....."),
    ],
}


@pytest.mark.parametrize("steps", FIXTURES.values(), ids=FIXTURES.keys())
def test_x_change_fixture(steps):
    play(VARIANT, ("Ann", "Ben"), steps)


def test_no_field_reaches_a_lock_number():
    """The printed fields hold 3 to 11: a swap never crosses a lock number (12 in red and
    yellow, 2 in green and blue), so X-Change's locks are classic's."""
    game = Game.start(Start(VARIANT, ("Ann", "Ben")))
    for white in [(w1, w2) for w1 in range(1, 7) for w2 in range(w1, 7)]:
        trial = game.copy()
        trial.apply(roll(*white))
        swapped = [mark for mark in trial.legal_marks("Ann") if mark.swap]
        assert all(mark.number not in (2, 12) for mark in swapped)
        assert swapped or sum(white) in (2, 12)  # every other sum is on some field


def test_other_sheets_have_no_fields():
    game = Game.start(Start("classic", ("Ann", "Ben")))
    game.apply(roll(5, 6))
    before = report(game)
    with pytest.raises(Refused, match="classic sheets have no X-Change fields"):
        game.apply(swap("Ann", "red", 3, 3))
    assert report(game) == before


def test_the_game_log_writes_the_field_and_replay_checks_it():
    """docs/game-log.md: `"swap": 3` on the mark; a referee reads the field from the line."""
    line = event_to_line(swap("Ann", "red", 3, 3))
    assert '"swap": 3' in line
    assert parse_line(line) == swap("Ann", "red", 3, 3)
    start = event_to_line(Start(VARIANT, ("Ann", "Ben")))
    rolled = event_to_line(roll(5, 6))
    game = replay([start, rolled, line])
    assert report(game)["players"]["Ann"]["swaps"][2] == {
        "field": 3,
        "numbers": [11, 3],
        "state": "used",
    }
    with pytest.raises(LogError, match=r"line 3: .*only 9 or 7"):
        replay([start, rolled, line.replace('"swap": 3', '"swap": 2')])
    for bad in ('"swap": 0', '"swap": "3"', '"swap": true'):
        with pytest.raises(LogError, match='"swap" must be the number of an X-Change field'):
            replay([start, rolled, line.replace('"swap": 3', bad)])


@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**32), players=st.integers(1, 5))
def test_random_games_use_each_field_once_and_left_to_right(seed, players):
    """Whole random games (the playouts' path, replayed through the referee): each field used
    at most once, every field left of a used one gone, and the fields add no points."""
    names = tuple(f"P{k}" for k in range(players))
    game = Game.start(Start(VARIANT, names))
    events: list = []
    play_out(game, random.Random(seed), events)
    lines = [event_to_line(Start(VARIANT, names)), *map(event_to_line, events)]
    replayed = replay(lines)
    assert report(replayed) == report(game)
    for name in names:
        used = [e.swap for e in events if isinstance(e, Mark) and e.player == name and e.swap]
        assert used == sorted(set(used)), "a field used twice, or right to left"
        fields = report(game)["players"][name]["swaps"]
        assert [f["field"] for f in fields if f["state"] == "used"] == used
        last = max(used, default=0)
        assert all(f["state"] != "open" for f in fields[:last])
        rows = report(game)["players"][name]["rows"].values()
        penalty = report(game)["players"][name]["penalties"] * 5
        assert report(game)["players"][name]["total"] == sum(r["points"] for r in rows) - penalty
