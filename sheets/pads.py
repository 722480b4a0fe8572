"""Qwixx Connected's pads: reading the `[[pads]]` tables of a sheet file.

A Connected block prints its connections in different places on different pads (A, B, ...), so
each player at the table plays a pad of their own. A pad names its cells as they are printed,
by row colour and number (``["red", 6]``); they become (row index, position) pairs here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .model import COLOURS, Pad, Row

Cell = tuple[int, int]
MAX_PADS = 8  # pads a block may print (six on the published blocks, A to F)
Fail = Callable[[str, str], Exception]


def parse_pads(value: object, rows: tuple[Row, ...], fail: Fail) -> tuple[Pad, ...]:
    """Every `[[pads]]` table of a sheet file, checked; none on other sheets."""
    if value is None:
        return ()
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_PADS:
        raise fail("pads", f"must be a list of 1 to {MAX_PADS} [[pads]] tables")
    pads = tuple(_pad(item, f"pads[{k}]", rows, fail) for k, item in enumerate(value))
    names = [pad.name for pad in pads]
    for name in names:
        if names.count(name) > 1:
            raise fail("pads", f"two pads are named {name!r}")
    return pads


def _pad(data: object, field: str, rows: tuple[Row, ...], fail: Fail) -> Pad:
    if not isinstance(data, dict):
        raise fail(field, "must be a table")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise fail(f"{field}.name", "must be a non-empty string, the letter printed on the pad")
    steps = tuple(_cells(data.get("steps", []), f"{field}.steps", rows, fail))
    if len(set(steps)) < len(steps):
        raise fail(f"{field}.steps", "names a cell twice")
    links = tuple(_links(data.get("links", []), f"{field}.links", rows, fail))
    if not steps and not links:
        raise fail(field, "needs steps (the stair's cells) or links (the chain's pairs)")
    return Pad(name, steps, links)


def _links(value: object, field: str, rows: tuple[Row, ...], fail: Fail) -> list[tuple[Cell, Cell]]:
    """The Chain: pairs of cells in two different rows, never a lock number (a cross set off
    by the chain would then lock a row), no cell in two pairs (a cross sets off one more).
    Kept in the order they are met top to bottom, left to right (each pair's upper cell
    first), whatever the file's order:
    the pairs' letters (a, b, ...) are the same on every surface, the pad's included, which
    letters them in that order from what it is sent (firmware_py/pad/padlinks.py)."""
    if not isinstance(value, list):
        raise fail(field, 'must be a list of pairs such as [["red", 6], ["yellow", 6]]')
    links, seen = [], set()
    for k, pair in enumerate(value):
        where = f"{field}[{k}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise fail(where, f"{pair!r} is not a pair of cells")
        first, second = _cells(pair, where, rows, fail)
        if first[0] == second[0]:
            raise fail(where, "joins two cells of the same row")
        for row, position in (first, second):
            if position == len(rows[row].numbers) - 1:
                raise fail(where, f"{COLOURS[row]} {rows[row].numbers[position]} locks the row")
            if (row, position) in seen:
                raise fail(where, f"{COLOURS[row]} {rows[row].numbers[position]} is in two pairs")
            seen.add((row, position))
        links.append((min(first, second), max(first, second)))
    return sorted(links)


def _cells(value: object, field: str, rows: tuple[Row, ...], fail: Fail) -> list[Cell]:
    if not isinstance(value, list):
        raise fail(field, 'must be a list of cells such as ["red", 6]')
    return [_cell(item, field, rows, fail) for item in value]


def _cell(value: Any, field: str, rows: tuple[Row, ...], fail: Fail) -> Cell:
    if not isinstance(value, list) or len(value) != 2 or value[0] not in COLOURS:
        raise fail(field, f'{value!r} is not a [colour, number] pair such as ["red", 6]')
    row = COLOURS.index(value[0])
    position = rows[row].position(value[1]) if isinstance(value[1], int) else None
    if position is None:
        raise fail(field, f"row {value[0]} has no number {value[1]!r}")
    return row, position
