"""Qwixx Connected's chain on the playouts' fast path (plain.py): the same rule as
connections.py, as bits.

A cross on a circled cell of a seat's pad also crosses the cell joined to it (`cross`): its bit
goes into that row's mask, the cells it passes leave the seat's open cells (its entry's AND
mask, as for any cross; those left of an earlier cross are gone already), and the row's lock
cell opens once the row has the crosses, unless the row is closed at the table or locked by
the seat. A row closed at the table is one in the loop's `locked` list, which the loop keeps.
No pair holds a lock number, so the cross set off never locks a row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .plain_boxes import Cross
from .tables import SheetTables

if TYPE_CHECKING:
    from .plain import CellBits, CellEntry

Partner = tuple[int, int, int, int]  # its row, its bit in the row, the AND mask, the lock cells


class LinkBits:
    """Each pad's pairs as bits of `CellBits`' integer, by pad; built once per sheet."""

    __slots__ = ("partners",)

    def __init__(self, tables: SheetTables, cell_bits: CellBits) -> None:
        entries = {(entry[0], entry[1]): entry for entry in cell_bits.cell.values()}
        lock_cells = cell_bits.lock_cells
        # Per pad: (row, position) of a circled cell -> the cell joined to it.
        self.partners: list[dict[tuple[int, int], Partner]] = []
        for pad in tables.sheet.pads:
            joined: dict[tuple[int, int], Partner] = {}
            for first, second in pad.links:
                for here, there in ((first, second), (second, first)):
                    entry = entries[there]
                    joined[here] = (there[0], entry[2], entry[4], lock_cells[there[0]])
            self.partners.append(joined)

    def cross(self, plain: Cross, locked: list[int]) -> Cross:
        """`plain` (plain.py's `_cross`), then the cross the seat's pad joins to the cell."""
        partners, count = self.partners, len(self.partners)

        def cross_and_link(
            rows: list[int],
            opens: list[int],
            seat: int,
            entry: CellEntry,
            lock_bits: tuple[int, ...],
            threshold: int,
        ) -> None:
            plain(rows, opens, seat, entry, lock_bits, threshold)
            partner = partners[seat % count].get((entry[0], entry[1]))
            if partner is None:
                return
            row, bit, keep, lock_cells = partner
            if rows[row] & bit:
                return  # crossed already: nothing more
            rows[row] |= bit
            opens[seat] &= keep
            if row in locked or rows[row] & lock_bits[row]:
                return  # closed at the table, or locked by the seat: its lock stays shut
            if rows[row].bit_count() >= threshold:
                opens[seat] |= lock_cells

        return cross_and_link
