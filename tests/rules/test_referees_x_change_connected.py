"""X-Change and Connected as the referees written by others read them: the situations their
fixtures check, restated in the tower's own steps (dice, actions, refusals), each cited to the
public text the tower follows (docs/rules.md says which).

Sjoerd-Bo3/rollnwrite (`spec/fixtures/qwixx-xchange/`, `qwixx-connected/`) keeps a score pad
without dice: its steps cross cells and X-Change fields by position. Here each cross is made
by a roll that gives its number, and a field is used as the game log writes it (`"swap": N`,
1 = the leftmost field). 0x0079/Qwixx's engine (`src/core/variants.ts`, `engine.ts`) adds the
dice: a field trades the white sum, in action 1 only; the stair scores on the same table.
Fields: 8/5 9/7 11/3 7/4 10/3 8/6 10/5 11/9 6/4. Chain pad A: red 6-yellow 6, red 11-yellow
11, yellow 3-green 11, yellow 8-green 6, green 9-blue 9, green 4-blue 4. Stair pad A: red 2 3
4, yellow 5 6 7, green 6 5 4, blue 3 2.
"""

from __future__ import annotations

import pytest
from support.sheet_steps import Check, Do, R, Refuse, play, solo, turn, white

from firmware_py.rules import Mark, Pass, Undo

X_CHANGE, CHAIN, STEPS = "x-change", "connected-chain", "connected-steps"
GAME_OVER = ("the game is over",)


def x(row: str, number: int, player: str = "Sam", swap: int | None = None) -> Mark:
    return Mark(player, row, number, swap=swap)


def sums(*cells: tuple[str, int]) -> list:
    """Sam's turns, each crossing one cell with the white sum of its number."""
    return [step for row, number in cells for step in solo(white(number), x(row, number))]


def passes(count: int) -> list:
    """Sam's turns crossing nothing: a penalty each."""
    return [step for _ in range(count) for step in solo(R(1, 1))]


X_CHANGE_FIXTURES = {
    # rollnwrite xchange-row.json. "Jedes Modifizierungsfeld kann aber nur einmal in einer
    # Partie genutzt werden" (brettspielabend.net); fields go left to right, as both open
    # engines read the printed row: a field left of a used one is gone; the fields score
    # nothing; after the end no field is used.
    "fields once, left to right, for nothing, and not after the end": [
        *solo(white(7), x("red", 4, swap=4)),
        Check("Sam", swaps="pppu.....", marks={"red": [4]}),
        Do(white(7)),
        Refuse(x("red", 4, swap=4), ("already used",)),
        Refuse(x("red", 9, swap=2), ("left to right",)),
        Do(x("red", 7)),
        Do(Pass("Sam")),
        *solo(white(10), x("yellow", 3, swap=5)),
        *solo(white(8), x("yellow", 6, swap=6)),
        Check("Sam", swaps="pppuuu...", total=3 + 3),
        *passes(4),
        Check("Sam", over=True, penalties=4, total=6 - 20),
        Refuse(x("green", 5, swap=7), GAME_OVER),
    ],
    # rollnwrite locking.json: classic's lock, untouched by the fields; a field still trades
    # the white sum after a row locks, for a cell of an open row only.
    "a lock is classic's, and a field serves the rows still open": [
        Do(white(2)),
        Refuse(x("blue", 2), ("needs 5 crosses in blue first, has 0",)),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        *sums(("blue", 12), ("blue", 11), ("blue", 10), ("blue", 9), ("blue", 8), ("blue", 2)),
        Check("Sam", locked=("blue",), crosses={"blue": 7}, points={"blue": 28}),
        Do(white(8)),
        Refuse(x("blue", 5, swap=1), ("the blue row is locked",)),
        Do(x("red", 5, swap=1)),
        Check("Sam", swaps="u........", marks={"red": [5]}),
    ],
}

# rollnwrite undo-redo.json: undo, while action 1 is open, gives the field back with the cross.
X_CHANGE_UNDO = [
    Do(white(10)),
    Do(x("green", 5, "Ann", swap=7)),
    Check("Ann", swaps="ppppppu..", marks={"green": [5]}),
    Do(Undo("Ann")),
    Check("Ann", swaps=".........", marks={"green": []}),
    Do(x("green", 10, "Ann")),
    Do(Pass("Ben")),
    Check("Ann", swaps=".........", marks={"green": [10]}),
]

# "Wird eine Ziffer davon angekreuzt, muss auch die andere angekreuzt werden. Dabei spielt es
# keine Rolle, ob die Reihe bereits geschlossen wurde oder der Spieler zuvor weiter rechts
# liegende Zahlen angekreuzt hatte" (brettspiele-magazin.de, Qwixx Connected, the Chain).
CHAIN_FIXTURES = {
    # rollnwrite left-to-right.json: a circled cell passed is gone like any; the cross set off
    # lands left of its row's crosses, and is then crossed (refused a second time).
    "a passed circled cell is gone; the chain lands left of a row's crosses": [
        *sums(("red", 5)),
        Do(white(3)),
        Refuse(x("red", 3), ("red 3",)),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        *sums(("red", 7)),
        Do(white(6)),
        Refuse(x("red", 6), ("red 6",)),
        Do(x("green", 6)),
        Do(Pass("Sam")),
        Check("Sam", marks={"yellow": [8], "green": [6]}),
        *sums(("yellow", 10)),
        Do(white(8)),
        Refuse(x("yellow", 8), ("yellow 8",)),
        Check("Sam", crosses={"red": 2, "yellow": 2, "green": 1}, penalties=1),
    ],
    # rollnwrite locking.json: the cross set off is the fifth that opens red's lock; no pair
    # holds a lock number; a locked row takes no cross of a player's own, circled or not.
    "the cross set off counts towards the lock; a locked row refuses its circled cells": [
        *sums(("red", 2), ("red", 3), ("red", 4), ("red", 5)),
        Do(white(12)),
        Refuse(x("red", 12), ("needs 5 crosses in red first, has 4",)),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        *sums(("yellow", 2), ("red", 6)),  # red 6 sets off yellow 6
        Check("Sam", crosses={"red": 5, "yellow": 2}),
        *sums(("red", 12)),
        Check("Sam", locked=("red",), crosses={"red": 7, "yellow": 2}, points={"red": 28}),
        Do(white(11)),
        Refuse(x("red", 11), ("the red row is locked",)),
    ],
}

# rollnwrite chains.json: the cross set off reaches a row another player has locked, counts
# there, and goes back with the cross that set it off while action 1 is open.
CHAIN_INTO_A_ROW_BEN_LOCKED = [
    *turn("Ann", ("Ben",), white(6), (x("red", 6, "Ann"),)),
    Check("Ann", marks={"red": [6], "yellow": [6]}),
    *turn("Ben", ("Ann",), white(12), (x("blue", 12, "Ben"),)),
    *turn("Ann", ("Ben",), white(11), (x("blue", 11, "Ann"), x("blue", 11, "Ben"))),
    *turn("Ben", ("Ann",), white(10), (x("blue", 10, "Ben"),)),
    *turn("Ann", ("Ben",), white(9), (x("yellow", 9, "Ann"), x("blue", 9, "Ben"))),
    *turn("Ben", ("Ann",), white(7), (x("blue", 7, "Ben"),)),
    *turn("Ann", ("Ben",), R(1, 1, red=6), (x("blue", 2, "Ben"),), x("red", 7, "Ann")),
    Check("Ben", locked=("blue",), crosses={"blue": 7}),
    Do(white(4)),
    Do(x("green", 4, "Ann")),
    Check("Ann", marks={"green": [4], "blue": [11, 4]}, crosses={"blue": 2}),
    Do(Undo("Ann")),
    Check("Ann", marks={"green": [], "blue": [11]}),
    Do(x("green", 4, "Ann")),
    Do(Pass("Ben")),
    Check("Ann", marks={"green": [4], "blue": [11, 4]}, points={"blue": 3, "green": 1}),
    Check("Ann", locked=("blue",), over=False, penalties=0),
]

# 0x0079/Qwixx (`stepCells`: "the step cells are the fifth scoring group", 11 cells for 66):
# "eine fünfte Wertungsreihe, die beim Spielende nach der selben Punktetabelle auch gewertet
# wird" (spieletest.at). The lock number blue 2 is the stair's last cell on pad A.
WHOLE_STAIR = [
    *sums(("red", 2), ("red", 3), ("red", 4), ("yellow", 5), ("yellow", 6), ("yellow", 7)),
    *sums(("green", 6), ("green", 5), ("green", 4)),
    *sums(("blue", 12), ("blue", 11), ("blue", 10), ("blue", 9), ("blue", 3), ("blue", 2)),
    Check("Sam", steps=11, crosses={"red": 3, "yellow": 3, "green": 3, "blue": 7}),
    Check("Sam", total=6 + 6 + 6 + 28 + 66, locked=("blue",)),
]


@pytest.mark.parametrize("name", list(X_CHANGE_FIXTURES))
def test_x_change_as_others_read_it(name):
    play(X_CHANGE, ("Sam",), X_CHANGE_FIXTURES[name])


def test_x_change_undo_gives_the_field_back():
    play(X_CHANGE, ("Ann", "Ben"), X_CHANGE_UNDO)


@pytest.mark.parametrize("name", list(CHAIN_FIXTURES))
def test_the_chain_as_others_read_it(name):
    play(CHAIN, ("Sam",), CHAIN_FIXTURES[name])


def test_the_chain_reaches_a_row_another_player_locked():
    play(CHAIN, ("Ann", "Ben"), CHAIN_INTO_A_ROW_BEN_LOCKED)


def test_the_whole_stair_scores_66_as_a_fifth_row():
    play(STEPS, ("Sam",), WHOLE_STAIR)
