"""Legal moves: every mark a player may make in action 1 or action 2, in sheet order.

`LegalMoves` is built once per sheet (`SheetTables.derived`) and holds no game state: each call
is given the player's sheet, the rows the table has closed and the dice. Marks are listed as the
sheet reads, top row first and left to right, and action 1's lucky crosses (Longo) after the
white sum's cells; the playouts (plain.py) offer their choices in this same order.
"""

from __future__ import annotations

from sheets import COLOURS

from .bonus_rows import BonusBoxes
from .crossing import Crossing
from .errors import ChoiceNeeded
from .events import Mark, Roll
from .player import PlayerSheet
from .state import COLOUR_INDEX
from .swaps import SwapFields
from .tables import Cell, SheetTables


class LegalMoves:
    """The marks the rules allow on one sheet, found by indexing its tables."""

    __slots__ = ("by_die_and_sum", "by_sum", "crossing", "numbers", "sheet", "threshold")

    def __init__(self, tables: SheetTables) -> None:
        self.sheet = tables.sheet
        self.crossing = tables.derived(Crossing)
        self.by_sum = tables.by_sum
        self.by_die_and_sum = tables.by_die_and_sum
        self.numbers = tuple(row.numbers for row in tables.sheet.rows)
        self.threshold = tables.sheet.lock_threshold

    def action1(
        self, player: PlayerSheet, marks: list[list[Mark]], white_sum: int, closed: int
    ) -> list[Mark]:
        """The white sum in any row the player may still cross it in, then the lucky crosses
        when the sum is one of the player's lucky numbers. `marks` is the player's Mark of each
        cell (`SheetTables.marks_for`)."""
        rows, threshold = player.rows, self.threshold
        legal = []  # loops here, not comprehensions: in Python 3.11 a comprehension is a call
        for _, row, position, bit, locks in self.by_sum[white_sum]:
            if (
                rows[row] < bit  # nothing crossed at or right of it (the lock cross too)
                and not closed >> row & 1
                and (not locks or rows[row].bit_count() >= threshold)
            ):
                legal.append(marks[row][position])
        if white_sum in player.lucky:
            legal.extend(self._lucky(player, closed))
        return legal

    def _lucky(self, player: PlayerSheet, closed: int) -> list[Mark]:
        """Longo: the next available cell of each row with the fewest crosses."""
        lucky = []
        for row in player.fewest_crosses_rows():
            position = self.crossing.next_available(player, row, closed)
            if position is not None:
                number = self.numbers[row][position]
                lucky.append(Mark(player.name, COLOURS[row], number, True))
        return lucky

    def colour_sums(self, dice: Roll) -> list[Cell]:
        """Every cell one white die plus one colour die of this roll reaches, in sheet order."""
        white1, white2 = dice.white
        reached: list[Cell] = []
        for colour, face in dice.colours.items():
            by_sum = self.by_die_and_sum[COLOUR_INDEX[colour]]
            reached.extend(by_sum[white1 + face])
            if white2 != white1:
                reached.extend(by_sum[white2 + face])
        # Listed as the sheet reads, top row first and left to right, as action 1's are.
        reached.sort(key=_row_and_position)
        return reached

    def action2(
        self,
        player: PlayerSheet,
        marks: list[list[Mark]],
        reached: list[Cell],
        closed: int,
        dice: Roll,
    ) -> list[Mark]:
        """The cells of `reached` (`colour_sums` of the roll `dice`) the player may cross: their
        die still in the game, their row open, left to right, a lock only with enough crosses."""
        rows, threshold = player.rows, self.threshold
        legal = []
        for die, row, position, bit, locks in reached:
            if (
                rows[row] < bit
                and not closed >> die & 1  # the die is still in the game
                and not closed >> row & 1
                and (not locks or rows[row].bit_count() >= threshold)
            ):
                legal.append(marks[row][position])
        return legal

    def with_choices(self, player: PlayerSheet, marks: list[Mark], closed: int) -> list[Mark]:
        """Bonus B: replace each mark that earns a tied fewest-row reward by one mark per tied
        row (tried on the player's sheet, which is put back)."""
        reward_cells, positions = self.crossing.reward_cells, self.sheet.positions
        expanded = []
        for mark in marks:
            row = COLOUR_INDEX[mark.row]
            position = positions[row][mark.number]
            if (row, position) not in reward_cells:
                expanded.append(mark)  # sets nothing off: no reward, so no choice
                continue
            snapshot = player.snapshot()
            try:
                self.crossing.cross_with_effects(player, row, position, closed, None)
                expanded.append(mark)
            except ChoiceNeeded as needed:
                expanded.extend(mark._replace(choice=COLOURS[r]) for r in needed.rows)
            finally:
                player.restore(snapshot)
        return expanded


class LegalMovesWithBoxes(LegalMoves):
    """Big Points: the legal moves, and after the colour rows' cells the bonus boxes the roll
    lets the player cross (bonus_rows.py). A sheet of its own kind, so that the other sheets'
    moves pay nothing for the boxes."""

    __slots__ = ("boxes",)

    def __init__(self, tables: SheetTables) -> None:
        super().__init__(tables)
        self.boxes = tables.derived(BonusBoxes)

    def action1(
        self, player: PlayerSheet, marks: list[list[Mark]], white_sum: int, closed: int
    ) -> list[Mark]:
        legal = super().action1(player, marks, white_sum, closed)
        legal.extend(self.boxes.action1(player, marks, white_sum))
        return legal

    def action2(
        self,
        player: PlayerSheet,
        marks: list[list[Mark]],
        reached: list[Cell],
        closed: int,
        dice: Roll,
    ) -> list[Mark]:
        legal = super().action2(player, marks, reached, closed, dice)
        legal.extend(self.boxes.action2(player, marks, dice, closed))
        return legal


class LegalMovesWithSwaps(LegalMoves):
    """X-Change: the legal moves, and after the white sum's cells the crosses a swap field
    trades it for (swaps.py). A sheet of its own kind, as Big Points' is."""

    __slots__ = ("swaps",)

    def __init__(self, tables: SheetTables) -> None:
        super().__init__(tables)
        self.swaps = tables.derived(SwapFields)

    def action1(
        self, player: PlayerSheet, marks: list[list[Mark]], white_sum: int, closed: int
    ) -> list[Mark]:
        legal = super().action1(player, marks, white_sum, closed)
        legal.extend(self.swaps.action1(player, marks, white_sum, closed))
        return legal


def legal_moves(tables: SheetTables) -> LegalMoves:
    """The legal moves of a sheet: with its bonus boxes where it has bonus rows, its swapped
    crosses where it has swap fields."""
    if tables.sheet.swaps:
        return LegalMovesWithSwaps(tables)
    return LegalMovesWithBoxes(tables) if tables.sheet.bonus_rows else LegalMoves(tables)


def _row_and_position(cell: Cell) -> tuple[int, int]:
    return cell[1], cell[2]
