"""Qwixx Big Points on the rules engine: our own fixtures, step by step, and the rule sheet's
examples.

The text: "How to play Qwixx Big Points", the publisher's rule sheet in the English translation
posted on BoardGameGeek (Qwixx: Big Points forum, "English rules"); docs/rules.md says how the
tower reads it where it leaves room. Each fixture is a list of the steps of
tests/support/sheet_steps.py, played on a fresh game: a refusal leaves the game exactly as it
was; a `Check` reads crosses per row (the row's own), the crosses its points are read for
(`counted`), points, totals, the bonus rows' boxes (`bonus`), penalties, the marks offered.
"""

from __future__ import annotations

import pytest
from support.rules import report
from support.sheet_steps import Check, Do, R, Refuse, play, solo, turn

from firmware_py.rules import Game, Mark, Pass, Roll, Start

VARIANT = "big-points"
POINTS = (0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78, 91, 105, 120)  # "maximum 120"


def M(player: str, row: str, number: int, **extra: object) -> Mark:
    return Mark(player, row, number, **extra)  # type: ignore[arg-type]


# ---- the fixtures -----------------------------------------------------------------------------

FIXTURES = {
    # "It is not possible to cross out a bonus box if you have not previously crossed out at least
    # one adjacent color box": the white sum needs a crossed neighbour, red or yellow.
    "a box needs a crossed cell beside it": [
        *turn("Ann", ("Ben",), R(2, 3), (M("Ann", "red", 5), M("Ben", "yellow", 5))),
        Do(R(4, 1)),
        Check("Ann", offered=(M("Ann", "red-yellow", 5),)),
        Check("Ben", offered=(M("Ben", "red-yellow", 5),)),
        Do(M("Ann", "red-yellow", 5)),
        Do(M("Ben", "red-yellow", 5)),
        Check("Ann", crosses={"red": 1, "yellow": 0}, counted={"red": 2, "yellow": 1}),
        Check("Ann", bonus={"red-yellow": [5], "green-blue": []}, total=3 + 1),
    ],
    "no crossed neighbour, no box": [
        Do(R(2, 3)),
        Check("Ann", not_offered=(M("Ann", "red-yellow", 5), M("Ann", "green-blue", 5))),
        Refuse(M("Ann", "red-yellow", 5), ("needs a cell beside it crossed", "red 5 or yellow 5")),
        Do(M("Ann", "green", 5)),
        Refuse(M("Ben", "green-blue", 5), ("Ben", "green 5 or blue 5")),
    ],
    # "with this action": a box is the action's one cross, and "if the active player only crosses
    # out a bonus box on their turn, this is not counted as a penalty".
    "a box is the action's cross and saves the penalty": [
        *solo(R(2, 3), M("Sam", "blue", 5)),
        Do(R(3, 2)),
        Do(M("Sam", "green-blue", 5)),
        Refuse(M("Sam", "blue", 7), ("in action 2",)),  # whites 3, 2 + blue 1 make 4 or 3
        Do(Pass("Sam")),
        Check("Sam", penalties=0, bonus={"green-blue": [5]}, counted={"green": 1, "blue": 2}),
    ],
    "bonus rows go left to right": [
        *solo(R(3, 4), M("Sam", "red", 7)),
        *solo(R(1, 1), M("Sam", "yellow", 2)),
        *solo(R(6, 1), M("Sam", "red-yellow", 7)),
        Do(R(1, 1)),
        Refuse(M("Sam", "red-yellow", 2), ("crossed up to 7", "left to right")),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        Do(R(3, 4)),
        Refuse(M("Sam", "red-yellow", 7), ("already crossed",)),
        Check("Sam", penalties=1),
    ],
    # "Sarah has crossed out the yellow 3 and the red 5. If she rolls another yellow 3 or red 5,
    # she can cross out the adjacent bonus box with this action."
    "action 2: the die of the crossed cell": [
        *solo(R(1, 2), M("Sam", "yellow", 3)),
        *solo(R(1, 4), M("Sam", "red", 5)),
        Do(R(6, 6, red=4, yellow=1)),  # whites 6, 6: nothing; red 4 makes 10, yellow 1 makes 7
        Do(Pass("Sam")),
        Check("Sam", not_offered=(M("Sam", "red-yellow", 5), M("Sam", "red-yellow", 3))),
        Do(Pass("Sam")),
        Do(R(2, 6, red=3, yellow=1)),  # red 3 + white 2 = red 5; yellow 1 + white 2 = yellow 3
        Do(Pass("Sam")),
        Check("Sam", offered=(M("Sam", "red-yellow", 3), M("Sam", "red-yellow", 5))),
        Do(M("Sam", "red-yellow", 3)),
        Check("Sam", bonus={"red-yellow": [3]}, counted={"red": 2, "yellow": 2}, penalties=1),
    ],
    # "It is not possible to cross out a bonus box if you have not previously crossed out at least
    # one adjacent color box": a cell crossed in action 1 lets its box be crossed in action 2 of
    # the same turn (docs/rules.md, "The same roll").
    "action 2 may cross the box of the cell action 1 crossed": [
        Do(R(1, 4, red=4)),
        Check("Sam", not_offered=(M("Sam", "red-yellow", 5),)),
        Do(M("Sam", "red", 5)),
        Check("Sam", offered=(M("Sam", "red-yellow", 5),)),
        Do(M("Sam", "red-yellow", 5)),
        Check("Sam", crosses={"red": 1}, counted={"red": 2, "yellow": 1}, penalties=0),
    ],
    # "(i.e. another green 10)": in action 2 the colour die whose cell is crossed; the tower does
    # not let the red die cross the red-yellow 5 when only the yellow 5 is crossed.
    "action 2: the other neighbour's die does not do": [
        *solo(R(1, 4), M("Sam", "yellow", 5)),
        Do(R(1, 6, red=4, yellow=6)),  # red 4 + white 1 = 5; yellow 6 makes 7 or 12
        Do(Pass("Sam")),
        Check("Sam", not_offered=(M("Sam", "red-yellow", 5),)),
        Refuse(M("Sam", "red-yellow", 5), ("in action 2", "red or yellow die", "already crossed")),
        Do(M("Sam", "red", 5)),
        Check("Sam", crosses={"red": 1, "yellow": 1}, penalties=0),
    ],
    # "A color-row can be locked as usual when you tick the rightmost box, if you have at least 6
    # crosses in this color. Crossed out bonus boxes are not included in the 6 crosses needed":
    # as usual, the rightmost box is the sixth cross, after five of the row's own.
    "a lock needs six crosses of the row's own": [
        *[step for n in (2, 3, 4, 5) for step in solo(R(n - 1, 1), M("Sam", "red", n))],
        *solo(R(5, 1), M("Sam", "yellow", 6)),
        *solo(R(5, 1), M("Sam", "red-yellow", 6)),
        Check("Sam", crosses={"red": 4}, counted={"red": 5}),
        Do(R(6, 6)),
        Check("Sam", not_offered=(M("Sam", "red", 12),)),
        Refuse(M("Sam", "red", 12), ("needs 5 crosses in red first, has 4",)),
        Do(Pass("Sam")),
        Do(M("Sam", "yellow", 7)),  # a white 6 and the yellow 1
        *solo(R(6, 1), M("Sam", "red", 7)),
        Do(R(6, 6)),
        Check("Sam", offered=(M("Sam", "red", 12),)),
        Do(M("Sam", "red", 12)),
        Check("Sam", crosses={"red": 7}, counted={"red": 8}, points={"red": 36}),
    ],
    # "If a color-row has been locked (e.g. green), you can continue to cross out neighboring
    # bonus boxes as described."
    "a bonus row stays open when a row beside it locks": [
        *[step for n in (12, 11, 10, 9, 8, 7) for step in solo(R(n - 6, 6), M("Sam", "green", n))],
        Do(R(1, 1)),
        Do(M("Sam", "green", 2)),  # the lock: green closes, its die leaves
        Do(Pass("Sam")),
        Check("Sam", crosses={"green": 8}),
        *solo(R(6, 5), M("Sam", "green-blue", 11)),
        Refuse(Roll((3, 4), {"red": 1, "yellow": 1, "green": 2, "blue": 1}), ("green die",)),
        *solo(R(3, 4), M("Sam", "green-blue", 7)),
        Check("Sam", bonus={"green-blue": [11, 7]}, counted={"green": 10, "blue": 2}),
        Check("Sam", points={"green": 55, "blue": 3}),
    ],
    "a box is no lucky cross and earns no choice": [
        *turn("Ann", ("Ben",), R(2, 3), (M("Ann", "red", 5),)),
        Do(R(2, 3)),
        Refuse(M("Ben", "red-yellow", 5, lucky=True), ("no lucky numbers",)),
        Refuse(M("Ann", "red-yellow", 5, choice="red"), ("no reward",)),
        Refuse(M("Ann", "red-blue", 5), ("no row 'red-blue'", "red-yellow and green-blue")),
        Refuse(M("Ann", "red-yellow", 13), ("the number to cross is 5",)),
        Do(Pass("Ann")),
        Do(Pass("Ben")),
        Refuse(M("Ben", "red-yellow", 13), ("has no number 13",)),
    ],
}


@pytest.mark.parametrize("name", list(FIXTURES))
def test_big_points_fixture(name):
    players = ("Sam",) if any(_of(step) == "Sam" for step in FIXTURES[name]) else ("Ann", "Ben")
    play(VARIANT, players, FIXTURES[name])


def _of(step) -> str | None:
    event = getattr(step, "event", None)
    return getattr(event, "player", None) or getattr(step, "player", None)


# ---- points ---------------------------------------------------------------------------------


def test_big_points_a_row_scores_its_crosses_and_the_boxes_beside_it_up_to_120():
    """ "Crosses in bonus boxes count for both adjacent colour-rows. In this way you can make
    many crosses per colour-row and score many points per colour (maximum 120)." Sam's red row
    has 10 crosses and the lock, the red-yellow row 9 boxes: red counts 20, scores 120."""
    game = Game.start(Start(VARIANT, ("Sam",)))
    sam = game.player("Sam")
    red, yellow, red_yellow = 0, 1, 4
    sam.rows[red] = 0b11111111111 | sam.lock_bits[red]  # 2..12 and the lock
    sam.rows[red_yellow] = 0b111111111  # 2..10
    sam.rows[yellow] = 0b11  # 2, 3
    sheet = report(game)["players"]["Sam"]
    assert sheet["rows"]["red"]["crosses"] == 12 and sheet["rows"]["red"]["counted"] == 15
    assert sheet["rows"]["red"]["points"] == POINTS[15] == 120
    assert sheet["rows"]["yellow"]["counted"] == 11 and sheet["rows"]["yellow"]["points"] == 66
    assert sheet["total"] == 120 + 66


def test_big_points_sarah_may_cross_the_box_with_a_white_3_or_5_rolled_by_anyone():
    """ "Sarah has crossed out the yellow 3 and the red 5 ... She can do likewise if she (or
    another player) rolls a white 3 or a white 5." Ben rolls; Sarah takes the box with the
    white sum; Ben, with neither cell, may not."""
    game = play(
        VARIANT,
        ("Ben", "Sarah"),
        [
            *turn("Ben", ("Sarah",), R(1, 2), (M("Sarah", "yellow", 3),)),
            *turn("Sarah", ("Ben",), R(1, 4), (M("Sarah", "red", 5),)),
        ],
    )
    for white, number in (((1, 2), 3), ((4, 1), 5)):
        trial = game.copy()
        trial.apply(R(*white).on(trial))
        assert M("Sarah", "red-yellow", number) in trial.legal_marks("Sarah")
        assert M("Ben", "red-yellow", number) not in trial.legal_marks("Ben")
        trial.apply(M("Sarah", "red-yellow", number))
        assert report(trial)["players"]["Sarah"]["bonus_rows"]["red-yellow"]["marks"] == [number]
