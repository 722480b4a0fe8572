"""One player's score sheet as it is filled in during a game.

Each row is a bit mask: bit p is set when the cell at position p (0 = leftmost) is crossed, and
the bit just past the last cell is the lock cross. Left-to-right order, cross counts and the last
cross are all plain integer operations on the mask, and a snapshot for undo is a small tuple.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sheets import Pad

COLOUR_ROWS = 4  # rows of a sheet past these are bonus rows (Big Points)

Snapshot = tuple[tuple[int, ...], int, int, int, int, int]


class PlayerSheet:
    """The crosses, penalties and variant boxes on one player's sheet."""

    __slots__ = (
        "bar_next",
        "bar_used",
        "lock_bits",
        "lucky",
        "name",
        "pad",
        "penalties",
        "rewards",
        "rows",
        "swaps",
    )

    def __init__(
        self,
        name: str,
        lock_bits: tuple[int, ...],
        lucky: tuple[int, ...] = (),
        pad: Pad | None = None,
    ) -> None:
        self.name = name
        self.pad = pad  # Qwixx Connected: the printed pad this player plays (fixed for the game)
        self.lucky = lucky
        self.rows = [0] * len(lock_bits)  # the colour rows, then any bonus rows (Big Points)
        self.lock_bits = lock_bits  # per row, the bit of its lock cross
        self.penalties = 0
        self.bar_next = 0  # bonus-a: index of the next bonus-bar box to consider
        self.bar_used = 0  # bonus-a: mask of bonus-bar boxes crossed (not forfeited)
        self.rewards = 0  # bonus-b: mask of reward symbols earned
        self.swaps = 0  # x-change: mask of the swap fields used (bit 0: the leftmost)

    def copy(self) -> PlayerSheet:
        twin = PlayerSheet(self.name, self.lock_bits, self.lucky, self.pad)
        twin.restore(self.snapshot())
        return twin

    def snapshot(self) -> Snapshot:
        return (
            tuple(self.rows),
            self.penalties,
            self.bar_next,
            self.bar_used,
            self.rewards,
            self.swaps,
        )

    def restore(self, snapshot: Snapshot) -> None:
        rows, self.penalties, self.bar_next, self.bar_used, self.rewards, self.swaps = snapshot
        self.rows = list(rows)

    def crosses(self, row: int) -> int:
        """Crosses in a row: crossed numbers plus the lock cross."""
        return self.rows[row].bit_count()

    def has_locked(self, row: int) -> bool:
        """True where this player crossed the row's lock."""
        return bool(self.rows[row] & self.lock_bits[row])

    def last_position(self, row: int) -> int:
        """Position of the rightmost crossed number in a row, or -1 for an empty row."""
        return (self.rows[row] & ~self.lock_bits[row]).bit_length() - 1

    def crossed_positions(self, row: int) -> list[int]:
        mask = self.rows[row] & ~self.lock_bits[row]
        return [p for p in range(mask.bit_length()) if mask >> p & 1]

    def next_swap(self) -> int:
        """X-Change: the index of the leftmost swap field still usable (fields are used left
        to right, so every field left of the last one used is gone)."""
        return self.swaps.bit_length()

    def fewest_crosses_rows(self) -> list[int]:
        """The rows with the fewest crosses, counted over all four colour rows, locks
        included."""
        counts = [mask.bit_count() for mask in self.rows[:COLOUR_ROWS]]
        fewest = min(counts)
        return [row for row, count in enumerate(counts) if count == fewest]
