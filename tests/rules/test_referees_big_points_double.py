"""Big Points and Double as the referees written by others read them: the situations their
fixtures check, restated in the tower's own steps (dice, actions, refusals), each cited to the
public text the tower follows (docs/rules.md says which).

Sjoerd-Bo3/rollnwrite (`spec/fixtures/qwixx-big-points/`, `qwixx-double/`) keeps a score pad
without dice: its steps cross cells by their position. Here each cross is made by a roll that
gives its number, Sam playing alone unless the situation needs a second player; its "crosses"
of a Big Points colour row are the tower's `counted` (the row's own crosses and the boxes
beside it). 0x0079/Qwixx's engine (`src/core/engine.ts`, `board.ts`) adds the dice: which die
crosses a box in action 2, the latest number's second cross, the printed double cells.
"""

from __future__ import annotations

import pytest
from support.sheet_steps import Check, Do, R, Refuse, play, solo, turn, white

from firmware_py.rules import Mark, Pass

BIG, DOUBLE_A, DOUBLE_B = "big-points", "double-a", "double-b"


def x(row: str, number: int, player: str = "Sam") -> Mark:
    return Mark(player, row, number)


def sums(*cells: tuple[str, int]) -> list:
    """Sam's turns, each crossing one cell (or box) with the white sum of its number."""
    return [step for row, number in cells for step in solo(white(number), x(row, number))]


GAME_OVER = ("the game is over",)

BIG_POINTS = {
    # rollnwrite bonus-rows.json. "It is not possible to cross out a bonus box if you have not
    # previously crossed out at least one adjacent color box"; "crosses in bonus boxes count
    # for both adjacent colour-rows"; "the usual rules apply to the two bonus-rows: they must
    # be marked from left to right" (BGG, "English rules").
    "a box opens with a neighbour, counts twice, and goes left to right": [
        Do(white(5)),
        Refuse(x("red-yellow", 5), ("red 5 or yellow 5",)),
        Do(x("red", 5)),
        Do(Pass("Sam")),
        *sums(("red-yellow", 5)),
        Check("Sam", counted={"red": 2, "yellow": 1, "green": 0, "blue": 0}, total=3 + 1),
        *sums(("yellow", 8), ("red-yellow", 8), ("red", 7)),
        Do(white(7)),
        Refuse(x("red-yellow", 7), ("left to right",)),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        Do(white(9)),
        Refuse(x("green-blue", 9), ("green 9 or blue 9",)),  # red and yellow open no green box
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        *sums(("green", 10), ("green-blue", 10)),
        Check("Sam", counted={"red": 4, "yellow": 3, "green": 2, "blue": 1}, penalties=2),
        Check("Sam", points={"red": 10, "yellow": 6, "green": 3, "blue": 1}, total=20 - 10),
    ],
    # rollnwrite locking.json. "A colour-row can be locked as usual when you tick the rightmost
    # box, if you have at least 6 crosses in this colour" (as usual: five before it); the
    # second lock ends the game, and nothing is accepted after it (game-log.md).
    "a lock after five, the lock cross counts, two locks end it": [
        *sums(("red", 2), ("red", 3), ("red", 4), ("red", 5)),
        Do(white(12)),
        Refuse(x("red", 12), ("needs 5 crosses in red first, has 4",)),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        *sums(("red", 6), ("red", 12)),
        Check("Sam", locked=("red",), crosses={"red": 7}, points={"red": 28}, over=False),
        Do(white(8)),
        Refuse(x("red", 8), ("the red row is locked",)),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        *sums(*[("yellow", n) for n in (2, 3, 4, 5, 6)]),
        Do(white(12)),
        Do(x("yellow", 12)),
        Check("Sam", locked=("red", "yellow"), total=28 + 28 - 2 * 5, over=True, penalties=2),
        Refuse(x("green", 12), GAME_OVER),
        Refuse(x("red-yellow", 12), GAME_OVER),
        Refuse(Pass("Sam"), GAME_OVER),
        Refuse(R(3, 4), GAME_OVER),
    ],
    # 0x0079/Qwixx: a box left of the bonus row's crosses is refused even when its cell is
    # crossed, and a box stays open after its colour row locks ("If a colour-row has been
    # locked (e.g. green), you can continue to cross out neighbouring bonus boxes").
    "a locked neighbour still opens its boxes to the white sum": [
        *sums(*[("green", n) for n in (12, 11, 10, 9, 8)]),
        *sums(("green", 2)),
        Check("Sam", locked=("green",)),
        *sums(("green-blue", 10)),
        Do(white(11)),
        Refuse(x("green-blue", 11), ("left to right",)),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        *sums(("green-blue", 8), ("green-blue", 2)),
        Check("Sam", counted={"green": 10, "blue": 3}, points={"green": 55, "blue": 6}),
    ],
}

# Double A: "Hat man so eine Zahl regelkonform angekreuzt, kann man ... durch das Eintragen der
# selben Zahl auch noch das Extrakreuz darunter setzen. Das geht allerdings nur, wenn diese
# Zahl die zuletzt eingetragene Zahl (also die aktuell vorderste) der Reihe ist!"
# (spielkultisten.de, Qwixx Double). A mark on the latest number is its second cross.
DOUBLE = {
    # rollnwrite double-cross.json: the latest number only, once; a cross further right ends
    # the chance for good.
    "the latest number, once, and only while it is the latest": [
        *sums(("red", 2), ("red", 2)),
        Check("Sam", crosses={"red": 2}, points={"red": 3}, doubled={"red": [2]}),
        Do(white(2)),
        Refuse(x("red", 2), ("twice",)),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        *sums(("red", 5)),
        Do(white(2)),
        Refuse(x("red", 2), ("red 2",)),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        *sums(("red", 5), ("green", 12), ("green", 11)),
        Do(white(12)),
        Refuse(x("green", 12), ("green 12",)),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        *sums(("green", 11)),
        Check("Sam", crosses={"red": 4, "green": 3}, points={"red": 10, "green": 6}),
        Check("Sam", total=16 - 3 * 5, penalties=3),
    ],
    # rollnwrite locking.json: "mindestens 7 Kreuze" before the last number (spielkultisten.de),
    # second crosses counted; the lock cross counts; a locked row takes no second cross.
    "seven crosses before the lock, second crosses counted": [
        *sums(("red", 2), ("red", 2), ("red", 3), ("red", 3), ("red", 4), ("red", 4)),
        Check("Sam", crosses={"red": 6}, points={"red": 21}),
        Do(white(12)),
        Refuse(x("red", 12), ("7 crosses in red", "has 6")),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        *sums(("red", 5), ("red", 12)),
        Check("Sam", locked=("red",), crosses={"red": 9}, points={"red": 45}),
        Do(white(5)),
        Refuse(x("red", 5), ("the red row is locked",)),
    ],
}

# Double B: "Variante B zeigt in jeder Farbreihe vier Doppelfelder. Kreuzt man eine Zahl mit
# Doppelfeld an, dann erhält man direkt zwei Kreuze" (spielkultisten.de), at the cells where
# 0x0079/Qwixx prints them (`multiplierCells: [1, 3, 7, 9]`, red 3 5 9 11, green 11 9 5 3).
DOUBLE_CELLS = [
    *sums(("red", 3), ("red", 5), ("red", 9)),
    Check("Sam", crosses={"red": 6}, doubled={"red": [3, 5, 9]}),
    Do(white(12)),
    Refuse(x("red", 12), ("7 crosses in red", "has 6")),
    Do(Pass("Sam")),
    Do(Pass("Sam")),
    *sums(("red", 11), ("red", 12), ("green", 11), ("green", 10)),
    Check("Sam", crosses={"red": 10, "green": 3}, points={"red": 55, "green": 6}, penalties=1),
]

# rollnwrite locking.json (a conceded row "makes any pending double moot"): once Ann locks red,
# Ben's latest red number takes no second cross; a locked row is closed to every cross.
ANN_LOCKS_RED = [
    *turn("Ann", ("Ben",), white(2), (x("red", 2, "Ann"),)),
    *turn("Ben", ("Ann",), white(3), (x("red", 3, "Ann"), x("blue", 3, "Ben"))),
    *turn("Ann", ("Ben",), white(4), (x("red", 4, "Ann"),)),
    *turn("Ben", ("Ann",), white(5), (x("red", 5, "Ann"), x("red", 5, "Ben"))),
    *turn("Ann", ("Ben",), white(6), (x("red", 6, "Ann"),)),
    *turn("Ben", ("Ann",), white(7), (x("red", 7, "Ann"), x("green", 7, "Ben"))),
    *turn("Ann", ("Ben",), white(8), (x("red", 8, "Ann"),)),
    *turn("Ben", ("Ann",), white(12), (x("red", 12, "Ann"),)),
    Check("Ann", locked=("red",), crosses={"red": 9}),
    Do(white(5)),
    Refuse(x("red", 5, "Ben"), ("the red row is locked",)),
    Check("Ben", crosses={"red": 1}, doubled={"red": []}, penalties=1),
]


@pytest.mark.parametrize("name", list(BIG_POINTS))
def test_big_points_as_others_read_it(name):
    play(BIG, ("Sam",), BIG_POINTS[name])


@pytest.mark.parametrize("name", list(DOUBLE))
def test_double_a_as_others_read_it(name):
    play(DOUBLE_A, ("Sam",), DOUBLE[name])


def test_double_a_a_lock_at_the_table_ends_the_second_cross_waiting():
    play(DOUBLE_A, ("Ann", "Ben"), ANN_LOCKS_RED)


def test_double_b_as_others_read_it():
    play(DOUBLE_B, ("Sam",), DOUBLE_CELLS)
