"""Qwixx Double A and B on the rules engine: our own fixtures, step by step.

The text: the publisher's (NSV) rule sheet for the Qwixx Double pads, as the open engines read
it (0x0079/Qwixx's research: "Double A and B: repeat the latest number, or four printed
double-count cells per row"; Sjoerd-Bo3/rollnwrite's qwixx-double fixtures: the second cross
counts, a lock needs seven crosses with the second ones, the table stops at 16 crosses, 136),
and as two reviews retell it (spielkultisten.de, "Qwixx Double": "Das geht allerdings nur,
wenn diese Zahl die zuletzt eingetragene Zahl (also die aktuell vorderste) der Reihe ist!",
"mindestens 7 Kreuze"; boardgamemonkeys.com, 2023: "pro Zeile vier Felder, in denen eine Zahl
(z.B. die 3 bei rot und gelb) doppelt im Kästchen steht"). docs/rules.md says how the tower
reads what they leave open. The steps are those of tests/support/sheet_steps.py: a refusal
leaves the game exactly as it was.
"""

from __future__ import annotations

import pytest
from support.sheet_steps import Check, Do, R, Refuse, play, solo, turn

from firmware_py.rules import Game, Mark, Pass, Start, game_report

POINTS = (0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78, 91, 105, 120, 136)


def S(row: str, number: int) -> Mark:
    return Mark("Sam", row, number)


DOUBLE_A = {
    # "repeat the latest number": the number crossed last in a row may be crossed once more
    # when it comes up again, and the second cross counts.
    "the latest number, crossed again, once": [
        *solo(R(1, 2), S("red", 3)),
        Do(R(2, 1)),
        Check("Sam", offered=(S("red", 3),)),
        Do(S("red", 3)),
        Check("Sam", crosses={"red": 2}, points={"red": 3}, doubled={"red": [3]}, total=3),
        Do(Pass("Sam")),
        Check("Sam", penalties=0),
        Do(R(1, 2)),
        Check("Sam", not_offered=(S("red", 3),)),
        Refuse(S("red", 3), ("already crossed red 3 twice",)),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        Check("Sam", penalties=1, crosses={"red": 2}),
    ],
    # "the latest": once a number right of it is crossed, the earlier one is passed for good
    # ("nur, wenn diese Zahl die zuletzt eingetragene Zahl ... der Reihe ist", spielkultisten.de).
    "a cross further right ends the chance": [
        *solo(R(1, 2), S("red", 3)),
        *solo(R(2, 3), S("red", 5)),
        Do(R(1, 2)),
        Check("Sam", not_offered=(S("red", 3),)),
        Refuse(S("red", 3), ("crossed up to 5", "left to right")),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        *solo(R(3, 2), S("red", 5)),
        Check("Sam", crosses={"red": 3}, doubled={"red": [5]}, penalties=1),
    ],
    # Action 2 crosses with a white die and the die of the row's colour, as any cross.
    "action 2: a white die and the row's own die": [
        *solo(R(1, 2), S("red", 3)),
        Do(R(1, 6, red=5, yellow=2)),  # red 5 makes 6 or 11; yellow 2 makes 3 or 8
        Do(Pass("Sam")),
        Check("Sam", not_offered=(S("red", 3),), offered=(S("yellow", 3),)),
        Refuse(S("red", 3), ("a white die plus the red die makes 11 or 6",)),
        Do(Pass("Sam")),
        Do(R(1, 6, red=2)),
        Do(Pass("Sam")),
        Check("Sam", offered=(S("red", 3),)),
        Do(S("red", 3)),
        Check("Sam", crosses={"red": 2}, doubled={"red": [3]}, penalties=1),
    ],
    # The number crossed in action 1 is the latest when action 2 comes: its second cross may
    # follow in the same turn (docs/rules.md); the second cross spares the active player the
    # penalty like any cross.
    "the same turn: action 1 crosses, action 2 crosses again": [
        Do(R(1, 2, red=2)),
        Do(S("red", 3)),
        Check("Sam", offered=(S("red", 3),)),
        Do(S("red", 3)),
        Check("Sam", crosses={"red": 2}, doubled={"red": [3]}, penalties=0),
        Do(R(1, 2, red=1)),
        Do(Pass("Sam")),
        Refuse(S("red", 3), ("twice",)),
        Do(Pass("Sam")),
        Check("Sam", penalties=1),
    ],
    # Every player decides action 1 on their own sheet: a second cross for one, a first for
    # another, on the same white sum.
    "action 1 for everyone": [
        *turn("Ann", ("Ben",), R(2, 3), (Mark("Ann", "green", 5),)),
        Do(R(4, 1)),
        Check("Ann", offered=(Mark("Ann", "green", 5),)),
        Check("Ben", offered=(Mark("Ben", "green", 5),)),
        Do(Mark("Ann", "green", 5)),
        Do(Mark("Ben", "green", 5)),
        Check("Ann", crosses={"green": 2}, doubled={"green": [5]}),
        Check("Ben", crosses={"green": 1}, doubled={"green": []}),
    ],
    # A lock needs its crosses, second crosses included: seven before the lock number.
    "a lock needs seven crosses, second crosses counted": [
        *solo(R(1, 1), S("red", 2)),
        *solo(R(1, 1), S("red", 2)),
        *solo(R(1, 2), S("red", 3)),
        *solo(R(2, 1), S("red", 3)),
        *solo(R(2, 2), S("red", 4)),
        *solo(R(1, 3), S("red", 4)),
        Check("Sam", crosses={"red": 6}, points={"red": 21}),
        Do(R(6, 6)),
        Refuse(S("red", 12), ("cannot lock red", "needs 7 crosses", "has 6")),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        *solo(R(2, 3), S("red", 5)),
        Check("Sam", crosses={"red": 7}),
        *solo(R(6, 6), S("red", 12)),
        Check("Sam", crosses={"red": 9}, points={"red": 45}, locked=("red",), over=False),
        Do(R(6, 6)),
        Refuse(S("red", 12), ("red row is locked",)),
    ],
}

DOUBLE_B = {
    # "four printed double-count cells per row": one cross there is two.
    "a printed double cell takes two crosses": [
        *solo(R(1, 2), S("red", 3)),
        Check("Sam", crosses={"red": 2}, points={"red": 3}, doubled={"red": [3]}),
        *solo(R(2, 2), S("red", 4)),
        Check("Sam", crosses={"red": 3}, points={"red": 6}, doubled={"red": [3]}, total=6),
    ],
    # "die 3 bei rot und gelb" is printed double (boardgamemonkeys.com): yellow 3 as red 3.
    "yellow 3 is printed double as red 3": [
        *solo(R(2, 1), S("yellow", 3)),
        Check("Sam", crosses={"yellow": 2}, points={"yellow": 3}, doubled={"yellow": [3]}),
    ],
    # Only the printed cells are double: no second cross by choice on this sheet.
    "no cross by choice on a cell crossed": [
        *solo(R(2, 2), S("red", 4)),
        Do(R(3, 1)),
        Check("Sam", not_offered=(S("red", 4),)),
        Refuse(S("red", 4), ("already crossed red 4",)),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        *solo(R(2, 3), S("red", 5)),
        Do(R(2, 3)),
        Refuse(S("red", 5), ("already crossed red 5 twice",)),
        Check("Sam", crosses={"red": 3}, penalties=1),
    ],
    # Green and blue run 12 to 2: their double cells are 11, 9, 5 and 3 as printed.
    "action 2 on a double cell of green": [
        Do(R(1, 6, green=4)),  # white 7; green 4 and a white 1 make green 5
        Do(Pass("Sam")),
        Check("Sam", offered=(S("green", 5),)),
        Do(S("green", 5)),
        Check("Sam", crosses={"green": 2}, doubled={"green": [5]}, points={"green": 3}),
    ],
    # A lock needs seven crosses, a double cell's two counted: four numbers can do.
    "a lock needs seven crosses, double cells counted": [
        *solo(R(1, 2), S("red", 3)),
        *solo(R(2, 3), S("red", 5)),
        *solo(R(4, 5), S("red", 9)),
        Do(R(6, 6)),
        Refuse(S("red", 12), ("needs 7 crosses", "has 6")),
        Do(Pass("Sam")),
        Do(Pass("Sam")),
        *solo(R(5, 6), S("red", 11)),
        Check("Sam", crosses={"red": 8}),
        *solo(R(6, 6), S("red", 12)),
        Check("Sam", crosses={"red": 10}, points={"red": 55}, locked=("red",)),
    ],
}


@pytest.mark.parametrize("name", DOUBLE_A)
def test_double_a(name: str) -> None:
    players = ("Ann", "Ben") if "everyone" in name else ("Sam",)
    play("double-a", players, DOUBLE_A[name])


@pytest.mark.parametrize("name", DOUBLE_B)
def test_double_b(name: str) -> None:
    play("double-b", ("Sam",), DOUBLE_B[name])


@pytest.mark.parametrize("variant", ["double-a", "double-b"])
def test_points_stop_at_sixteen_crosses(variant: str) -> None:
    """The score table ends at 16 crosses (136); a row with more scores 136."""
    game = Game.start(Start(variant, ("Sam",)))
    sam = game.player("Sam")
    for crosses in (15, 16, 22):
        sam.rows[0] = (1 << min(crosses, 12)) - 1  # the row's eleven numbers and its lock
        sam.rows[4] = (1 << max(crosses - 12, 0)) - 1  # second crosses
        expected = POINTS[min(crosses, 16)]
        assert game_report(game)["players"]["Sam"]["rows"]["red"]["points"] == expected


def test_the_game_over_breakdown_counts_second_crosses():
    """The story's breakdown (phones, displays and terminal at game over) counts a row's crosses
    as its points are read: red 5 crossed twice is two crosses, three points."""
    from firmware_py.story import breakdown_of

    game = play("double-a", ("Sam",), [*solo(R(1, 4), S("red", 5)), *solo(R(4, 1), S("red", 5))])
    (sam,) = breakdown_of(game).players
    assert (sam.rows[0].crosses, sam.rows[0].points) == (2, 3)
