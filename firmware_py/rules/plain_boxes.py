"""Big Points' bonus boxes on the playouts' fast path (plain.py): the same rules as
bonus_rows.py, as bits.

A box is one more bit of a player's open cells (`CellBits`), after the colour rows' cells, in
the order `Game.legal_marks` lists the boxes. It is open while it lies right of the last cross
in its bonus row and a colour cell beside it is crossed: crossing that cell opens it (`cross`),
crossing a box closes it and the boxes left of it (its entry's AND mask, as for any cell), and
locks never touch it. The white sum reaches it like a cell of its number (`CellBits.by_sum`);
a white die and a colour die reach it only where that colour's cell beside it is crossed
(`by_die`: plain.py masks a die's boxes with its row's crossed cells in action 2).

A box lies at the same place as the cells beside it (sheets/loader.py checks it), so the boxes
beside a colour row's crossed cells are that row's mask shifted to the bonus row's bits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .bonus_rows import BonusBoxes
from .draws import dice
from .tables import SheetTables

if TYPE_CHECKING:
    from .plain import CellEntry

Cross = Callable[[list[int], list[int], int, "CellEntry", tuple[int, ...], int], None]


class BoxBits:
    """The bonus boxes of a sheet as bits of `CellBits`' integer; built once per sheet."""

    __slots__ = ("beside", "by_die", "by_number", "every_box", "placed")

    def __init__(self, tables: SheetTables, offsets: list[int]) -> None:
        boxes = tables.derived(BonusBoxes).boxes
        # Each box: its bit in the open cells, its bonus row, position and bit in that row.
        self.placed = [(1 << offsets[b.row] + b.position, b.row, b.position, b.bit) for b in boxes]
        self.every_box = sum(bit for bit, *_ in self.placed)
        self.by_number: dict[int, int] = {}
        for (bit, *_), box in zip(self.placed, boxes, strict=True):
            self.by_number[box.number] = self.by_number.get(box.number, 0) | bit
        # Per colour row: the bonus row beside it, the mask of that row's boxes (at the colour
        # row's positions) and the shift to their bits; None for a row with no bonus row beside
        # it, and for the bonus rows themselves.
        sheet = tables.sheet
        self.beside: list[tuple[int, int, int] | None] = [None] * len(sheet.row_names)
        for k, bonus in enumerate(sheet.bonus_rows):
            row = len(sheet.rows) + k
            for colour_row in bonus.between:
                self.beside[colour_row] = (row, (1 << len(bonus.numbers)) - 1, offsets[row])
        faces = sheet.dice_faces
        # Per colour die: by (pick of the white pair) * faces + face - 1, as
        # `CellBits.by_die_and_roll`, the boxes beside its row a white die and it make; and the
        # mask and shift that take its row's crossed cells to the boxes beside them, which are
        # the boxes it may reach ("another green 10"). A row with no bonus row beside it
        # reaches none.
        self.by_die: list[tuple[list[int], int, int]] = []
        for die in range(len(sheet.rows)):
            by_roll = [
                self._numbers_beside(die, {white1 + face, white2 + face})
                for white1, white2 in dice(faces).pairs
                for face in range(1, faces + 1)
            ]
            _, cells, shift = self.beside[die] or (0, 0, 0)
            self.by_die.append((by_roll, cells, shift))

    def _numbers_beside(self, die: int, numbers: set[int]) -> int:
        beside = self.beside[die]
        if beside is None:
            return 0
        found = 0
        for bit, row, _, _ in self.placed:
            if row == beside[0]:
                found |= bit & sum(self.by_number.get(n, 0) for n in numbers)
        return found

    def beside_crossed(self, rows: list[int]) -> int:
        """The boxes with a crossed colour cell beside them, on a sheet of these row masks."""
        found = 0
        for colour_row, beside in enumerate(self.beside):  # (bonus rows: None)
            if beside is not None:
                _, cells, shift = beside
                found |= (rows[colour_row] & cells) << shift
        return found

    def cross(self) -> Cross:
        """plain.py's `_cross`, which also opens the box beside the cell crossed, if it lies
        right of its bonus row's last cross: one call a cross, where `_cross` and then a call
        to open the box took 6 % more instructions in a Big Points playout."""
        beside_rows = self.beside

        def cross_and_open(
            rows: list[int],
            opens: list[int],
            seat: int,
            entry: CellEntry,
            lock_bits: tuple[int, ...],
            threshold: int,
        ) -> None:
            row, _, bit, locks, keep, lock_after, _ = entry
            rows[row] |= bit
            beside = beside_rows[row]  # None for a box itself
            if beside is not None and rows[beside[0]] < bit:  # (`keep` leaves boxes alone)
                opens[seat] |= bit << beside[2]
            if locks:
                rows[row] |= lock_bits[row]
            elif lock_after and rows[row].bit_count() >= threshold:
                opens[seat] = opens[seat] & keep | lock_after
                return
            opens[seat] &= keep

        return cross_and_open
