"""Score sheets as immutable data: rows, cell colours, locks, score table and variant extras.

A sheet is everything printed on a player's card. The rules engine reads it and never changes it;
everything it needs at speed (where a number sits in a row, which cells a die sum can reach) is
computed once here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

COLOURS = ("red", "yellow", "green", "blue")
"""The four colours, in the order the rulebooks list them and the order locks are reported."""

ROW_NAMES = (*COLOURS, "red-yellow", "yellow-green", "green-blue")
"""Every name a row can have: the colour rows, and a bonus row between two neighbours (Big
Points: red-yellow, green-blue), named by the rows it lies between, top one first."""

REWARD_EFFECTS = (
    "two-crosses-in-fewest-row",
    "one-cross-in-every-row",
    "double-fewest-row",
    "extra-points",
    "penalties-free",
)
"""The bonus-box rewards the engine knows how to grant."""


@dataclass(frozen=True, slots=True)
class Row:
    """One row of the sheet, named by the colour of its lock, cells left to right."""

    lock: str
    numbers: tuple[int, ...]
    colours: tuple[str, ...]
    bonus: frozenset[int] = frozenset()
    double: frozenset[int] = frozenset()  # Double B: numbers whose cell is printed double

    def position(self, number: int) -> int | None:
        """Where `number` stands in this row (0 = leftmost), or None if the row lacks it."""
        try:
            return self.numbers.index(number)
        except ValueError:
            return None


@dataclass(frozen=True, slots=True)
class BonusRow:
    """Big Points: a row of round bonus boxes printed between two colour rows. A box may be
    crossed, left to right, on its number once the colour cell beside it is crossed; its cross
    counts for both colour rows at the end (and for neither row's lock)."""

    name: str  # "red-yellow": the two rows it lies between, as a mark names it
    between: tuple[int, int]  # the indexes of those colour rows
    numbers: tuple[int, ...]

    def position(self, number: int) -> int | None:
        """Where `number` stands in this bonus row (0 = leftmost), or None if it lacks it."""
        try:
            return self.numbers.index(number)
        except ValueError:
            return None


@dataclass(frozen=True, slots=True)
class Reward:
    """A bonus-b symbol: crossing both of its cells earns `effect` at once."""

    symbol: str
    cells: tuple[tuple[int, int], ...]  # (row index, position) pairs
    effect: str
    points: int = 0
    text: str = ""


@dataclass(frozen=True, slots=True)
class Pad:
    """Qwixx Connected: one of the printed pads of a block (A, B, ...), which differ in where
    the connections are printed. Seat k plays pad k, round again past the last. Cells are
    (row index, position) pairs."""

    name: str
    # The Steps: the framed cells of the stair; crossed ones score again, as a fifth row.
    steps: tuple[tuple[int, int], ...] = ()
    # The Chain: pairs of circled cells joined by a line; a cross on one crosses the other.
    links: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = ()

    def partner(self, row: int, position: int) -> tuple[int, int] | None:
        """The cell joined to (row, position) on this pad, or None."""
        for first, second in self.links:
            if first == (row, position):
                return second
            if second == (row, position):
                return first
        return None


@dataclass(frozen=True)
class Sheet:
    """A variant's score sheet and the numbers of its rules."""

    name: str
    title: str
    dice_faces: int
    lock_threshold: int
    lock_numbers: int
    penalty_points: int
    penalties_to_end: int
    locks_to_end: int
    score: tuple[int, ...]
    rows: tuple[Row, ...]
    bonus_bar: tuple[str, ...] = ()
    rewards: tuple[Reward, ...] = ()
    lucky_numbers: int = 0
    lucky_range: tuple[int, int] = (0, 0)
    bonus_rows: tuple[BonusRow, ...] = ()
    double_latest: bool = False  # Double A: a row's last crossed number may be crossed again
    # X-Change: the swap fields left to right, each a pair of numbers a white sum may trade.
    swaps: tuple[tuple[int, int], ...] = ()
    # Qwixx Connected: the pads of the block, seat k playing pad k (round again past the last).
    pads: tuple[Pad, ...] = ()
    # Lookups derived from the rows, for the engine's hot paths.
    lock_positions: tuple[frozenset[int], ...] = field(init=False, repr=False)
    positions: tuple[dict[int, int], ...] = field(init=False, repr=False)
    # Qwixx Double: a cell may hold two crosses (A: the last crossed once more; B: the cells
    # printed double).
    has_doubles: bool = field(init=False, repr=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        # Bonus rows follow the colour rows in these per-row tables (indexes 4, 5): they have
        # no lock.
        locks = [_lock_positions(r, self.lock_numbers) for r in self.rows]
        set_(self, "lock_positions", (*locks, *(frozenset() for _ in self.bonus_rows)))
        rows: list[Row | BonusRow] = [*self.rows, *self.bonus_rows]
        set_(self, "positions", tuple({n: p for p, n in enumerate(r.numbers)} for r in rows))
        set_(self, "has_doubles", self.double_latest or any(row.double for row in self.rows))

    @property
    def has_lucky_numbers(self) -> bool:
        return self.lucky_numbers > 0

    def row_index(self, colour: str) -> int:
        """The index of the row whose lock has `colour`, or of a bonus row by its name."""
        return self.row_names.index(colour)

    @property
    def row_names(self) -> tuple[str, ...]:
        """Every row a mark may name, by index: the colour rows, then any bonus rows."""
        return (*COLOURS, *(bonus.name for bonus in self.bonus_rows))

    def row_numbers(self, row: int) -> tuple[int, ...]:
        """The numbers of a colour row or (index 4 on) a bonus row, as printed."""
        if row < len(self.rows):
            return self.rows[row].numbers
        return self.bonus_rows[row - len(self.rows)].numbers

    def cell_colour(self, row: int, position: int) -> str:
        return self.rows[row].colours[position]

    def pad_of(self, seat: int) -> Pad | None:
        """Qwixx Connected: the pad the player in `seat` plays (seat 0 = the first)."""
        return self.pads[seat % len(self.pads)] if self.pads else None

    @property
    def has_links(self) -> bool:
        """Qwixx Connected, the Chain: a cross may set off a cross in another row."""
        return any(pad.links for pad in self.pads)

    def max_crosses(self) -> int:
        return len(self.score) - 1


def _lock_positions(row: Row, lock_numbers: int) -> frozenset[int]:
    size = len(row.numbers)
    return frozenset(range(size - lock_numbers, size))
