"""Lookup tables the engine builds once per sheet, so legal moves are found by indexing.

A cell is the tuple (die, row, position, bit, locks): the colour die that reaches it in action 2,
its row and position, the row-mask bit that crossing it sets, and whether crossing it locks the row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from sheets import COLOURS, BonusRow, Row, Sheet

from .events import Mark

Cell = tuple[int, int, int, int, bool]
T = TypeVar("T")
MARK_CACHE_NAMES = 256  # player names whose Mark objects are kept; cleared past this


class SheetTables:
    """Everything about a sheet the engine looks up at speed; built once per sheet."""

    __slots__ = (
        "_derived",
        "_marks",
        "bonus_cells",
        "by_die_and_sum",
        "by_sum",
        "cells",
        "lock_bits",
        "mixed",
        "plain",
        "reward_cells",
        "row_index",
        "sheet",
    )

    def __init__(self, sheet: Sheet) -> None:
        self.sheet = sheet
        # Index up to the larger of the highest number and the highest sum of two dice.
        size = max(max(max(row.numbers) for row in sheet.rows), 2 * sheet.dice_faces) + 1
        # Every cell of the sheet, as the sheet reads: top row first, left to right.
        self.cells = cells = tuple(
            _cell(sheet, r, p) for r, row in enumerate(sheet.rows) for p in range(len(row.numbers))
        )
        self.by_sum: list[tuple[Cell, ...]] = [
            tuple(c for c in cells if sheet.rows[c[1]].numbers[c[2]] == n) for n in range(size)
        ]
        self.by_die_and_sum: list[list[tuple[Cell, ...]]] = [
            [tuple(c for c in self.by_sum[n] if c[0] == die) for n in range(size)]
            for die in range(len(COLOURS))
        ]
        # Per row, bonus rows (Big Points) after the colour rows: they never lock.
        every_row: list[Row | BonusRow] = [*sheet.rows, *sheet.bonus_rows]
        self.lock_bits = tuple(1 << len(row.numbers) for row in every_row)
        if sheet.has_doubles:  # Qwixx Double: each colour row's second crosses (doubles.py)
            self.lock_bits += tuple(1 << len(row.numbers) for row in sheet.rows)
        self.bonus_cells = (
            *(frozenset(map(row.numbers.index, row.bonus)) for row in sheet.rows),
            *(frozenset() for _ in sheet.bonus_rows),
        )
        self.reward_cells = {
            cell: k for k, reward in enumerate(sheet.rewards) for cell in reward.cells
        }
        # Every row a mark may name, to its index: the colour rows, then any bonus rows.
        self.row_index = {name: row for row, name in enumerate(sheet.row_names)}
        self.mixed = any(set(row.colours) != {row.lock} for row in sheet.rows)
        # No crosses set off by crosses (Bonus A and B) but the Chain's on the classic rows
        # (plain_links.py): playouts take the fast path (plain.py).
        chain_alone = not (sheet.bonus_rows or sheet.has_doubles or sheet.swaps)
        self.plain = not (sheet.bonus_bar or sheet.rewards or (sheet.has_links and not chain_alone))
        self._marks: dict[str, list[list[Mark]]] = {}
        self._derived: dict[Callable[[SheetTables], Any], Any] = {}  # build -> what it built

    def derived(self, build: Callable[[SheetTables], T]) -> T:
        """Tables another module builds from these (e.g. the playouts' cell bits): built on
        first use, once per sheet, and kept with these."""
        made: T | None = self._derived.get(build)
        if made is None:
            made = self._derived[build] = build(self)
        return made

    def marks_for(self, name: str) -> list[list[Mark]]:
        """Mark objects for every cell of `name`'s sheet, by row and position; legal-move lists
        hand out these shared immutable objects instead of building new ones."""
        marks = self._marks.get(name)
        if marks is None:
            if len(self._marks) >= MARK_CACHE_NAMES:
                self._marks.clear()
            sheet = self.sheet
            rows = [sheet.row_numbers(r) for r in range(len(sheet.row_names))]
            marks = [[Mark(name, sheet.row_names[r], n) for n in row] for r, row in enumerate(rows)]
            self._marks[name] = marks
        return marks


_TABLES: dict[int, SheetTables] = {}


def tables_for(sheet: Sheet) -> SheetTables:
    """The sheet's tables, built on first use and kept while the sheet object lives on."""
    tables = _TABLES.get(id(sheet))
    if tables is None or tables.sheet is not sheet:
        tables = _TABLES[id(sheet)] = SheetTables(sheet)
    return tables


def _cell(sheet: Sheet, row: int, position: int) -> Cell:
    die = COLOURS.index(sheet.rows[row].colours[position])
    locks = position in sheet.lock_positions[row]
    return (die, row, position, 1 << position, locks)
