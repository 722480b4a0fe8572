"""Qwixx Double's second crosses on the playouts' fast path (plain.py): the same rules as
doubles.py, as bits.

A player's second crosses are rows 4 to 7 of their row masks, as on `PlayerSheet`. On Double A
each colour cell has a second-cross cell among the open cells (`CellBits`), after the four
colour rows, in the order `Game.legal_marks` lists second crosses: all first crosses, then the
second ones. Colour row r's cells lie at `offsets[r]`, its second cells at `offsets[4 + r]`,
and the second rows follow the colour rows one for one, so a colour cell's second cell is its
bit shifted by the colour rows' width (`shift`), and a number's second cells are reached by the
same white sum and the same colour dice as its cells.

A second cell is open while its cell is the row's last cross and has no second cross: crossing a
cell closes the row's second cells and opens its own (`cross`), a second cross closes itself,
and either may give the row the crosses its lock number needs. On Double B no cell is opened:
crossing a cell printed double sets its second cross with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from .doubles import SECOND, printed_bits
from .tables import SheetTables

if TYPE_CHECKING:
    from .plain import CellBits, CellEntry

Cross = Callable[[list[int], list[int], int, "CellEntry", tuple[int, ...], int], None]


class SecondBits:
    """The second crosses of a Double sheet on `CellBits`; built once per sheet."""

    __slots__ = (
        "latest",
        "lock_bits",
        "lock_cells",
        "offsets",
        "printed",
        "row_bits",
        "second_rows",
        "shift",
    )

    def __init__(self, tables: SheetTables, cells: CellBits) -> None:
        self.latest = tables.sheet.double_latest
        self.printed = printed_bits(tables)
        self.offsets, self.row_bits = cells.offsets, cells.row_bits
        self.lock_bits, self.lock_cells = cells.lock_bits, cells.lock_cells
        self.shift = cells.offsets[SECOND]  # from a colour cell to its second cell
        self.second_rows = [cells.row_bits[SECOND + row] for row in range(SECOND)]
        if self.latest:
            self._add_second_cells(cells)

    def _add_second_cells(self, cells: CellBits) -> None:
        """Double A: each cell's second cell, reached as the cell is, with its entry (crossing
        it closes it, and may open the row's lock cell)."""
        colour_cells, shift = (1 << self.shift) - 1, self.shift
        cells.by_sum = [bits | (bits & colour_cells) << shift for bits in cells.by_sum]
        cells.by_die_and_roll = [
            [bits | (bits & colour_cells) << shift for bits in by_roll]
            for by_roll in cells.by_die_and_roll
        ]
        for row in range(SECOND):
            for position in range(self.row_bits[row].bit_count()):
                bit = 1 << self.offsets[SECOND + row] + position
                entry = (SECOND + row, position, 1 << position, False, ~bit, 0, False)
                cells.cell[bit] = entry

    def closing(self, row: int) -> int:
        """The open cells a colour row's closing takes away: its cells and second cells."""
        return self.row_bits[row] | self.second_rows[row]

    def open_cells(self, rows: Iterable[int], closed: int, threshold: int) -> int:
        """`CellBits.open_cells` on a Double sheet: the crosses a lock needs count second
        crosses, and (Double A) each open row's last cross has its second cell open until
        crossed."""
        masks = list(rows)
        found = 0
        for row in range(SECOND):
            mask, seconds = masks[row], masks[SECOND + row]
            if closed >> row & 1 or mask & self.lock_bits[row]:
                continue  # closed at the table, or locked by the player
            found |= self.row_bits[row] & ~((1 << self.offsets[row] + mask.bit_length()) - 1)
            if mask.bit_count() + seconds.bit_count() < threshold:
                found &= ~self.lock_cells[row]
            last = mask.bit_length() - 1
            if self.latest and last >= 0 and not seconds >> last & 1:
                found |= 1 << self.offsets[SECOND + row] + last
        return found

    def cross(self) -> Cross:
        """plain.py's `_cross` on a Double sheet."""
        printed, lock_cells, second_rows = self.printed, self.lock_cells, self.second_rows
        latest, offsets = self.latest, self.offsets

        def cross_twice(
            rows: list[int],
            opens: list[int],
            seat: int,
            entry: CellEntry,
            lock_bits: tuple[int, ...],
            threshold: int,
        ) -> None:
            row, position, bit, locks, keep, lock_after, _ = entry
            if row >= SECOND:  # Double A: the second cross of the row's last cross
                colour = row - SECOND
                rows[row] |= bit
                cells = opens[seat] & keep
                if rows[colour].bit_count() + rows[row].bit_count() >= threshold:
                    cells |= lock_cells[colour]
                opens[seat] = cells
                return
            rows[row] |= bit
            if bit & printed[row]:  # Double B: a cell printed double takes two crosses
                rows[SECOND + row] |= bit
            cells = opens[seat] & keep & ~second_rows[row]
            if locks:
                rows[row] |= lock_bits[row]
            else:
                if latest:
                    cells |= 1 << offsets[SECOND + row] + position
                if (
                    lock_after
                    and rows[row].bit_count() + rows[SECOND + row].bit_count() >= threshold
                ):
                    cells |= lock_after
            opens[seat] = cells

        return cross_twice
