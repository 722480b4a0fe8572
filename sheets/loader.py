"""Reading sheet files (TOML) and refusing malformed ones with a message a maker can act on.

Every error names the file, the field and what is wrong, e.g.
``mixx-b.toml: rows[2].numbers: 7 appears twice``.
"""

from __future__ import annotations

import functools
import logging
import threading
from pathlib import Path
from typing import Any, TypeGuard

from firmware_py.errors import TowerError
from firmware_py.toml_text import NotToml, toml_file

from .model import COLOURS, REWARD_EFFECTS, BonusRow, Reward, Row, Sheet
from .pads import parse_pads

log = logging.getLogger(__name__)

SHEET_DIR = Path(__file__).resolve().parent
MAX_SWAPS = 12  # X-Change fields a sheet may print (nine on the published one)


class SheetError(TowerError, ValueError):
    """A sheet file is missing or malformed."""


def sheet_names() -> list[str]:
    """The names of the sheets shipped with qwixx-tower, sorted."""
    return sorted(path.stem for path in SHEET_DIR.glob("*.toml"))


_reading_all = threading.Lock()  # the menu and the computer players' thread may ask at once


def sheets_that_load() -> tuple[str, ...]:
    """The shipped sheets that load, sorted: what the button's menu offers and the computer
    players prepare for. A sheet file a maker broke by hand is left out and said in the log
    once, so opening the menu never stops the tower (`run` with it as its variant stops at the
    start, in the same words). Read once a process, as `load_sheet` reads each sheet."""
    with _reading_all:
        return _sheets_that_load()


@functools.cache
def _sheets_that_load() -> tuple[str, ...]:
    names = []
    for name in sheet_names():
        try:
            load_sheet(name)
        except SheetError as error:
            log.warning("the menu leaves out a sheet: %s", error)
        else:
            names.append(name)
    return tuple(names)


@functools.cache
def load_sheet(name: str) -> Sheet:
    """Load a shipped sheet by name (``classic``, ``longo``, ...); sheets are immutable, so
    each is read once per process."""
    path = SHEET_DIR / f"{name}.toml"
    if name not in sheet_names():
        known = ", ".join(sheet_names())
        raise SheetError(f"unknown variant {name!r}; known variants: {known}")
    return load_sheet_file(path)


def load_sheet_file(path: Path | str) -> Sheet:
    """Load and validate one sheet file."""
    path = Path(path)
    try:
        data = toml_file(path)
    except NotToml as error:
        raise SheetError(str(error)) from error
    except OSError as error:
        raise SheetError(f"{path.name}: cannot read the file: {error.strerror}") from error
    return parse_sheet(data, source=path.name)


def parse_sheet(data: dict[str, Any], source: str = "<sheet>") -> Sheet:
    """Build a Sheet from parsed TOML, checking every field."""
    check = _SheetChecker(source)
    rows = check.rows(data.get("rows"))
    score = check.int_list(data, "score", minimum=0)
    sheet = Sheet(
        name=check.text(data, "name"),
        title=check.text(data, "title"),
        dice_faces=check.integer(data, "dice_faces", 2, 20),
        lock_threshold=check.integer(data, "lock_threshold", 0, 20),
        lock_numbers=check.integer(data, "lock_numbers", 1, 3),
        penalty_points=check.integer(data, "penalty_points", 0, 100),
        penalties_to_end=check.integer(data, "penalties_to_end", 1, 20),
        locks_to_end=check.integer(data, "locks_to_end", 1, 4),
        score=tuple(score),
        rows=rows,
        bonus_bar=check.bonus_bar(data.get("bonus_bar")),
        rewards=check.rewards(data.get("rewards"), rows),
        lucky_numbers=check.integer(data, "lucky_numbers", 0, 4, default=0),
        lucky_range=check.lucky_range(data),
        bonus_rows=check.bonus_rows(data.get("bonus_rows"), rows),
        double_latest=check.flag(data, "double_latest"),
        swaps=check.swaps(data.get("swaps"), rows),
        pads=parse_pads(data.get("pads"), rows, check.fail),
    )
    check.score_covers_rows(sheet)
    check.rollable(sheet)
    check.doubles_alone(sheet)
    return sheet


class _SheetChecker:
    """Field-by-field validation that raises SheetError naming the source file and field."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, field: str, problem: str) -> SheetError:
        return SheetError(f"{self.source}: {field}: {problem}")

    def text(self, data: dict[str, Any], key: str) -> str:
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(key, "must be a non-empty string")
        return value

    def integer(
        self, data: dict[str, Any], key: str, low: int, high: int, default: int | None = None
    ) -> int:
        value: object = data.get(key, default)
        if value is None:
            raise self.fail(key, "is missing")
        if not _is_int(value) or not low <= value <= high:
            raise self.fail(key, f"must be a whole number from {low} to {high}, not {value!r}")
        return value

    def int_list(
        self, data: dict[str, Any], key: str, minimum: int, field: str | None = None
    ) -> list[int]:
        field = field or key
        value = data.get(key)
        if not isinstance(value, list) or not value:
            raise self.fail(field, "must be a non-empty list of whole numbers")
        for item in value:
            if not _is_int(item) or item < minimum:
                raise self.fail(field, f"{item!r} is not a whole number of at least {minimum}")
        return value

    def colour(self, value: object, field: str) -> str:
        if value not in COLOURS:
            raise self.fail(field, f"{value!r} is not one of {', '.join(COLOURS)}")
        return value

    def rows(self, value: object) -> tuple[Row, ...]:
        if not isinstance(value, list) or len(value) != len(COLOURS):
            raise self.fail("rows", "needs exactly four [[rows]] tables, red, yellow, green, blue")
        return tuple(self.row(item, f"rows[{i}]", COLOURS[i]) for i, item in enumerate(value))

    def row(self, data: object, field: str, expected_lock: str) -> Row:
        if not isinstance(data, dict):
            raise self.fail(field, "must be a table")
        lock = self.colour(data.get("lock"), f"{field}.lock")
        if lock != expected_lock:
            raise self.fail(
                f"{field}.lock", f"must be {expected_lock!r} (rows go red, yellow, green, blue)"
            )
        numbers = self.int_list(data, "numbers", 1, f"{field}.numbers")
        self.distinct(numbers, f"{field}.numbers")
        colours = data.get("colours", [lock] * len(numbers))
        if not isinstance(colours, list) or len(colours) != len(numbers):
            raise self.fail(f"{field}.colours", "needs one colour per number")
        for colour in colours:
            self.colour(colour, f"{field}.colours")
        bonus = data.get("bonus", [])
        for number in bonus if isinstance(bonus, list) else [bonus]:
            if number not in numbers:
                raise self.fail(f"{field}.bonus", f"{number!r} is not a number of this row")
        double = self.doubles(data.get("double", []), numbers, f"{field}.double")
        return Row(lock, tuple(numbers), tuple(colours), frozenset(bonus), double)

    def doubles(self, value: object, numbers: list[int], field: str) -> frozenset[int]:
        """Double B: numbers of the row printed as double cells; never its lock number (a cross
        there locks the row, and its lock cross is the second)."""
        if not isinstance(value, list):
            raise self.fail(field, "must be a list of numbers of this row")
        for number in value:
            if number not in numbers:
                raise self.fail(field, f"{number!r} is not a number of this row")
            if number == numbers[-1]:
                raise self.fail(field, f"{number} locks the row and cannot be printed double")
        return frozenset(value)

    def flag(self, data: dict[str, Any], key: str) -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, not {value!r}")
        return value

    def doubles_alone(self, sheet: Sheet) -> None:
        """Second crosses are kept as rows after the colour rows, where bonus rows and bonus
        symbols would be: a sheet has one or the other."""
        if sheet.has_doubles and (sheet.bonus_rows or sheet.bonus_bar or sheet.rewards):
            raise self.fail("double", "double cells cannot be combined with bonus rows or boxes")
        if sheet.has_doubles and (sheet.lock_numbers != 1 or sheet.has_lucky_numbers):
            raise self.fail("double", "double cells need one lock number and no lucky numbers")

    def distinct(self, numbers: list[int], field: str) -> None:
        for number in numbers:
            if numbers.count(number) > 1:
                raise self.fail(field, f"{number} appears {numbers.count(number)} times")

    def bonus_bar(self, value: object) -> tuple[str, ...]:
        if value is None:
            return ()
        boxes = value.get("boxes") if isinstance(value, dict) else None
        if not isinstance(boxes, list) or not boxes:
            raise self.fail("bonus_bar.boxes", "must be a non-empty list of colours")
        return tuple(self.colour(box, "bonus_bar.boxes") for box in boxes)

    def rewards(self, value: object, rows: tuple[Row, ...]) -> tuple[Reward, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.fail("rewards", "must be a list of [[rewards]] tables")
        return tuple(self.reward(item, f"rewards[{i}]", rows) for i, item in enumerate(value))

    def reward(self, data: object, field: str, rows: tuple[Row, ...]) -> Reward:
        if not isinstance(data, dict):
            raise self.fail(field, "must be a table")
        effect = data.get("effect")
        if effect not in REWARD_EFFECTS:
            raise self.fail(
                f"{field}.effect", f"{effect!r} is not one of {', '.join(REWARD_EFFECTS)}"
            )
        cells = data.get("cells")
        if not isinstance(cells, list) or len(cells) != 2:
            raise self.fail(f"{field}.cells", 'needs two cells such as [["red", 6], ["blue", 4]]')
        points = data.get("points", 0)
        if not _is_int(points):
            raise self.fail(f"{field}.points", f"must be a whole number, not {points!r}")
        return Reward(
            symbol=self.text(data, "symbol"),
            cells=tuple(self.cell(cell, f"{field}.cells", rows) for cell in cells),
            effect=effect,
            points=points,
            text=data.get("text", ""),
        )

    def cell(self, value: object, field: str, rows: tuple[Row, ...]) -> tuple[int, int]:
        if not isinstance(value, list) or len(value) != 2:
            raise self.fail(field, f"{value!r} is not a [colour, number] pair")
        row = COLOURS.index(self.colour(value[0], field))
        position = rows[row].position(value[1])
        if position is None:
            raise self.fail(field, f"row {value[0]} has no number {value[1]!r}")
        return row, position

    def bonus_rows(self, value: object, rows: tuple[Row, ...]) -> tuple[BonusRow, ...]:
        if value is None:
            return ()
        if not isinstance(value, list) or len(value) > 2:
            raise self.fail("bonus_rows", "must be a list of at most two [[bonus_rows]] tables")
        bonus = tuple(self.bonus_row(v, f"bonus_rows[{i}]", rows) for i, v in enumerate(value))
        shared = {row for b in bonus for row in b.between}
        if len(shared) < 2 * len(bonus):
            raise self.fail("bonus_rows", "two bonus rows may not lie beside the same colour row")
        return bonus

    def bonus_row(self, data: object, field: str, rows: tuple[Row, ...]) -> BonusRow:
        """A row of bonus boxes between two neighbouring colour rows; each box lies between
        the cells of its number in both, at the same place in all three rows (the cells whose
        cross lets the box be crossed)."""
        if not isinstance(data, dict):
            raise self.fail(field, "must be a table")
        between = data.get("between")
        if not isinstance(between, list) or len(between) != 2:
            raise self.fail(f"{field}.between", 'needs two colours, such as ["red", "yellow"]')
        first, second = (COLOURS.index(self.colour(c, f"{field}.between")) for c in between)
        if second != first + 1:
            raise self.fail(f"{field}.between", "must name two neighbouring rows, top one first")
        numbers = self.int_list(data, "numbers", 1, f"{field}.numbers")
        self.distinct(numbers, f"{field}.numbers")
        for position, number in enumerate(numbers):
            for row in (first, second):
                if rows[row].position(number) != position:
                    raise self.fail(
                        f"{field}.numbers", f"{number} has no cell beside it in {COLOURS[row]}"
                    )
        name = f"{COLOURS[first]}-{COLOURS[second]}"
        return BonusRow(name, (first, second), tuple(numbers))

    def swaps(self, value: object, rows: tuple[Row, ...]) -> tuple[tuple[int, int], ...]:
        """X-Change: the swap fields, each two different numbers that every row has."""
        if value is None:
            return ()
        fields = value.get("fields") if isinstance(value, dict) else None
        if not isinstance(fields, list) or not 1 <= len(fields) <= MAX_SWAPS:
            raise self.fail("swaps.fields", f"must be a list of 1 to {MAX_SWAPS} pairs of numbers")
        pairs = []
        for k, pair in enumerate(fields, start=1):
            field = f"swaps.fields[{k - 1}]"
            if not (isinstance(pair, list) and len(pair) == 2 and all(map(_is_int, pair))):
                raise self.fail(field, f"{pair!r} is not a pair of numbers such as [8, 5]")
            if pair[0] == pair[1]:
                raise self.fail(field, f"swaps {pair[0]} for itself")
            for number in pair:
                if any(row.position(number) is None for row in rows):
                    raise self.fail(field, f"{number} is not a number of every row")
            pairs.append((pair[0], pair[1]))
        return tuple(pairs)

    def lucky_range(self, data: dict[str, Any]) -> tuple[int, int]:
        if not data.get("lucky_numbers"):
            return (0, 0)
        value = data.get("lucky_range")
        if not (isinstance(value, list) and len(value) == 2 and all(map(_is_int, value))):
            raise self.fail("lucky_range", "must be [lowest, highest]")
        if value[0] > value[1]:
            raise self.fail("lucky_range", "lowest must not exceed highest")
        return value[0], value[1]

    def rollable(self, sheet: Sheet) -> None:
        """Every number of a row, and the lucky numbers' range, is a sum two dice can roll: no
        roll could cross any other, and the referee's tables are as long as the highest number
        (one of 10**30 made the tower hang at the start of a game on the sheet)."""
        highest = 2 * sheet.dice_faces
        sums = f"the sums of two {sheet.dice_faces}-sided dice are 2 to {highest}"
        for index, row in enumerate(sheet.rows):
            for number in row.numbers:
                if not 2 <= number <= highest:
                    raise self.fail(f"rows[{index}].numbers", f"{number} is no roll: {sums}")
        low, high = sheet.lucky_range
        if sheet.lucky_numbers and not 2 <= low <= high <= highest:
            raise self.fail("lucky_range", f"[{low}, {high}] is not within the rolls: {sums}")

    def score_covers_rows(self, sheet: Sheet) -> None:
        # A row ends at its first lock number: at most len - lock_numbers + 1 numbers, and the lock.
        most = max(len(row.numbers) for row in sheet.rows) - sheet.lock_numbers + 2
        if len(sheet.score) < most + 1:
            raise self.fail("score", f"must give points for 0 to {most} crosses")
        if sheet.score[0] != 0:
            raise self.fail("score", "must start with 0 points for no crosses")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
