"""Rows, cells and lists as the referee's refusals name them, and the look-ups of a row or a
number by name that refuse a name the sheet does not have."""

from __future__ import annotations

from sheets import COLOURS, Sheet

from .errors import Refused
from .state import COLOUR_INDEX


def row_of(name: object, names: tuple[str, ...] = COLOURS) -> int:
    """The index of the row named `name` (its lock colour), of the colour rows or of all the
    rows `names` (with Big Points' bonus rows); refuses any other name."""
    row = COLOUR_INDEX.get(name) if isinstance(name, str) else None
    if row is None and name in names:
        row = names.index(name)
    if row is None:
        raise Refused(f"there is no row {name!r}; rows are {join(list(names))}")
    return row


def position_of(sheet: Sheet, row: int, number: object) -> int:
    """Where `number` stands in a row; refuses a number the row does not have."""
    position = sheet.positions[row].get(number) if type(number) is int else None
    if position is None:
        raise Refused(f"the {COLOURS[row]} row has no number {number!r}")
    return position


def cell_name(sheet: Sheet, mixed: bool, row: int, position: int) -> str:
    """ "red 5"; on sheets whose cells mix colours (Mixx), "5 in the red row"."""
    number = sheet.rows[row].numbers[position]
    if mixed:
        return f"{number} in the {COLOURS[row]} row"
    return f"{COLOURS[row]} {number}"


def join(words: list[str], last: str = "and") -> str:
    """ "a, b and c" ("a, b or c" with `last="or"`)."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"
