"""Big Points' bonus rows: the round boxes printed between two colour rows.

A bonus box carries a number, like the colour cells beside it. A player may cross it, as the
one cross of an action, when that number comes up again after a colour cell beside it was
crossed: in action 1 by the white sum (either neighbour crossed will do), in action 2 by a
white die and the die of a neighbour whose cell is crossed ("another green 10"). Bonus rows are
crossed left to right like any row, have no lock, and stay open when a row beside them locks.
Their crosses count for both rows beside them at the end (scoring.py), and for neither row's
lock. docs/rules.md names the text and how the tower reads it.

`BonusBoxes` is built once per sheet (`SheetTables.derived`) and holds no game state. In the
sheet's per-row tables a bonus row follows the four colour rows (index 4, 5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from sheets import COLOURS

from .errors import Refused
from .events import Mark, Roll
from .naming import join
from .player import PlayerSheet
from .state import ACTION1
from .tables import SheetTables

if TYPE_CHECKING:
    from .game import Game


class Box(NamedTuple):
    """A bonus box: its row (index 4 on), position, bit, number, and the colour cells beside
    it as (row, bit) pairs."""

    row: int
    position: int
    bit: int
    number: int
    beside: tuple[tuple[int, int], ...]


class BonusBoxes:
    """Which bonus boxes a roll lets a player cross, and the words when it does not."""

    __slots__ = ("boxes", "by_number", "names", "sheet")

    def __init__(self, tables: SheetTables) -> None:
        self.sheet = sheet = tables.sheet
        self.names = sheet.row_names
        self.boxes: list[Box] = []  # every box, as the sheet reads: top bonus row first
        for k, bonus in enumerate(sheet.bonus_rows):
            row = len(sheet.rows) + k
            for position, number in enumerate(bonus.numbers):
                beside = tuple((r, 1 << sheet.positions[r][number]) for r in bonus.between)
                self.boxes.append(Box(row, position, 1 << position, number, beside))
        self.by_number: dict[int, tuple[Box, ...]] = {}
        for box in self.boxes:
            self.by_number[box.number] = (*self.by_number.get(box.number, ()), box)

    # ---- legal moves ---------------------------------------------------------------------

    def action1(self, player: PlayerSheet, marks: list[list[Mark]], white_sum: int) -> list[Mark]:
        """The boxes of the white sum the player may cross: a cell beside it crossed."""
        rows = player.rows
        return [
            marks[box.row][box.position]
            for box in self.by_number.get(white_sum, ())
            if rows[box.row] < box.bit and any(rows[r] & bit for r, bit in box.beside)
        ]

    def action2(
        self, player: PlayerSheet, marks: list[list[Mark]], dice: Roll, closed: int
    ) -> list[Mark]:
        """The boxes a white die and a colour die still in the game make, where that
        colour's cell beside the box is crossed; each box once."""
        rows, legal = player.rows, []
        for box in self.boxes:
            if rows[box.row] < box.bit and self._die_for(rows, box, dice, closed) is not None:
                legal.append(marks[box.row][box.position])
        return legal

    def _die_for(self, rows: list[int], box: Box, dice: Roll, closed: int) -> str | None:
        """A colour beside the box whose die, with a white die, makes its number, whose die is
        still in the game, and whose cell beside the box is crossed; None if none is."""
        for row, bit in box.beside:
            colour = COLOURS[row]
            face = dice.colours.get(colour)
            if (
                face is not None
                and not closed >> row & 1
                and box.number - face in dice.white
                and rows[row] & bit
            ):
                return colour
        return None

    # ---- the referee's checks ------------------------------------------------------------

    def check(self, game: Game, player: PlayerSheet, row: int, number: object) -> None:
        """A mark on bonus row `row` now (in action 1 the referee has checked that `number`
        is the white sum); raises Refused with the rule it breaks."""
        box = self._box(row, number)
        name = player.name
        cell = f"{self.names[row]} {box.number}"
        neighbours = [f"{COLOURS[r]} {box.number}" for r, _ in box.beside]
        last = player.last_position(row)
        if box.position == last:
            raise Refused(f"{name} has already crossed {cell}")
        if box.position < last:
            crossed_to = self.sheet.row_numbers(row)[last]
            raise Refused(
                f"{name} cannot cross {cell}: the {self.names[row]} bonus row is already "
                f"crossed up to {crossed_to}, and numbers are crossed from left to right"
            )
        if not any(player.rows[r] & bit for r, bit in box.beside):
            raise Refused(
                f"{name} cannot cross the bonus box {cell}: a bonus box needs a cell beside it "
                f"crossed first ({join(neighbours, 'or')})"
            )
        if game.phase is not ACTION1:
            self._check_colour_sum(game, player, cell, box)

    def _box(self, row: int, number: object) -> Box:
        for box in self.boxes:
            if box.row == row and box.number == number:
                return box
        raise Refused(f"the {self.names[row]} bonus row has no number {number!r}")

    def _check_colour_sum(self, game: Game, player: PlayerSheet, cell: str, box: Box) -> None:
        dice = game.dice
        assert dice is not None  # rolled: this is a mark in action 2
        if self._die_for(player.rows, box, dice, game.closed) is not None:
            return
        beside = join([COLOURS[r] for r, _ in box.beside], "or")
        raise Refused(
            f"{player.name} cannot cross {cell} in action 2: it needs a white die and the "
            f"{beside} die to make {box.number}, with that colour's {box.number} already "
            f"crossed (whites {dice.white[0]} and {dice.white[1]}, "
            + ", ".join(f"{c} {f}" for c, f in dice.colours.items() if c in game.dice_in_play())
            + ")"
        )


def boxes_in_reach(game: Game, name: str) -> list[str]:
    """Big Points: the bonus boxes `name` could cross with the colour sums on the table now
    ("RY 5": the red-yellow box 5), as the options display lists them for the active player;
    none on other sheets or before a roll."""
    if not game.sheet.bonus_rows or game.dice is None:
        return []
    boxes = game.tables.derived(BonusBoxes)
    player = game.player(name)
    marks = game.tables.marks_for(name)
    reached = boxes.action2(player, marks, game.dice, game.closed)
    return [f"{_initials(mark.row)} {mark.number}" for mark in reached]


def _initials(row: str) -> str:
    return "".join(part[0].upper() for part in row.split("-"))
