"""A referee written apart from the tower, as one outside the project would write it: from
docs/game-log.md, the published texts docs/rules.md quotes, and the sheet files (read with
tomllib), for classic, Longo, Mixx A and B, and the sheets of issue 44 (Big Points, Double A and B,
X-Change, the Steps and the Chain). It imports nothing of `firmware_py`: a test plays the
tower and this referee side by side over the same log lines, and holds every decision's legal
marks and every score of one to the other's.

Cells are (row name, number); a row's crosses are the positions crossed, left to right.
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

SHEETS = Path(__file__).resolve().parents[2] / "sheets"
COLOURS = ("red", "yellow", "green", "blue")


@dataclass
class Seat:
    name: str
    cells: dict[str, list[int]]  # row -> positions crossed (colour rows and bonus rows)
    seconds: dict[str, set[int]]  # Double A: positions holding a second cross
    pad: dict = field(default_factory=dict)
    swaps: list[int] = field(default_factory=list)  # X-Change: fields used (1 = leftmost)
    lucky: tuple[int, ...] = ()  # Longo: the lucky numbers printed on the sheet
    penalties: int = 0


class OutsideReferee:
    """The game of one log: `line(data)` applies a log line (a dict), `legal(name)` lists the
    marks a player may make now as (row, number, swap, lucky), `scores()` the points."""

    def __init__(self, start: dict) -> None:
        self.sheet = tomllib.loads((SHEETS / f"{start['variant']}.toml").read_text("utf-8"))
        rows = {r["lock"]: r["numbers"] for r in self.sheet["rows"]}
        bonus = {"-".join(b["between"]): b["numbers"] for b in self.sheet.get("bonus_rows", [])}
        self.rows, self.bonus = rows, bonus
        self.doubles = {r["lock"]: set(r.get("double", [])) for r in self.sheet["rows"]}
        self.colours = {
            r["lock"]: r.get("colours", [r["lock"]] * len(r["numbers"])) for r in self.sheet["rows"]
        }
        self.fields = [tuple(f) for f in self.sheet.get("swaps", {}).get("fields", [])]
        pads = {pad["name"]: pad for pad in self.sheet.get("pads", [])}
        self.seats = [
            Seat(name, {r: [] for r in (*rows, *bonus)}, {r: set() for r in rows})
            for name in start["players"]
        ]
        letters = list(pads)  # Connected: the pads the start line names, else seat k on pad k
        for seat in self.seats:
            seat.lucky = tuple(start.get("lucky", {}).get(seat.name, ()))
        for k, seat in enumerate(self.seats if pads else ()):
            seat.pad = pads[(start.get("pads") or {}).get(seat.name, letters[k % len(letters)])]
        self.active, self.phase, self.closed, self.order = 0, "roll", set(), []
        self.dice: dict = {}
        self.decided: dict[str, Seat | None] = {}  # action 1: name -> sheet before it
        self.locking: set[str] = set()
        self.active_crossed = False

    # ---- what may be crossed --------------------------------------------------------------

    def crosses(self, seat: Seat, row: str) -> int:
        """A colour row's crosses: its cells, their second crosses, printed doubles, the lock."""
        numbers, cells = self.rows[row], seat.cells[row]
        extra = sum(1 for p in cells if numbers[p] in self.doubles[row])
        lock = 1 if any(self.is_lock(row, p) for p in cells) else 0
        return len(cells) + len(seat.seconds[row]) + extra + lock

    def may_cross(self, seat: Seat, row: str, number: int) -> bool:
        numbers, cells = self.rows[row], seat.cells[row]
        if row in self.closed or number not in numbers:
            return False
        p = numbers.index(number)
        if cells and p <= max(cells):
            return self.may_cross_again(seat, row, p)
        return not self.is_lock(row, p) or self.crosses(seat, row) >= self.sheet["lock_threshold"]

    def is_lock(self, row: str, p: int) -> bool:
        """One of the numbers at the row's right end that lock it (Longo: the last two)."""
        return p >= len(self.rows[row]) - self.sheet["lock_numbers"]

    def may_cross_again(self, seat: Seat, row: str, p: int) -> bool:
        """Double A: "nur, wenn diese Zahl die zuletzt eingetragene Zahl ... ist", once, never
        the last number."""
        return (
            bool(self.sheet.get("double_latest"))
            and p == max(seat.cells[row])
            and not self.is_lock(row, p)
            and (p not in seat.seconds[row])
        )

    def may_box(self, seat: Seat, box: str, number: int, colours: tuple[str, ...]) -> bool:
        """Big Points: left to right in the bonus row, beside a crossed cell of `colours`."""
        cells = seat.cells[box]
        p = self.bonus[box].index(number)
        beside = any(self.rows[c].index(number) in seat.cells[c] for c in colours)
        return beside and (not cells or p > max(cells))

    def legal(self, name: str) -> set[tuple[str, int, int | None]]:
        seat = next(s for s in self.seats if s.name == name)
        if self.phase == "action1" and name not in self.decided:
            return self._white_marks(seat)
        if self.phase == "action2" and seat is self.seats[self.active]:
            return self._colour_marks(seat)
        return set()

    def _white_marks(self, seat: Seat) -> set:
        total = sum(self.dice["white"])
        marks = {(r, total, None, False) for r in self.rows if self.may_cross(seat, r, total)}
        marks |= {
            (b, total, None, False)
            for b in self.bonus
            if self.may_box(seat, b, total, tuple(b.split("-")))
        }
        used = max(seat.swaps, default=0)
        for k, pair in enumerate(self.fields, 1):
            if k > used and total in pair:
                other = pair[1] if total == pair[0] else pair[0]
                marks |= {(r, other, k, False) for r in self.rows if self.may_cross(seat, r, other)}
        return marks | (self._lucky_marks(seat) if total in seat.lucky else set())

    def _lucky_marks(self, seat: Seat) -> set:
        """Longo: the next free cell of a row with the fewest crosses (of all four), if it may
        be crossed (docs/game-log.md, "Words the rules use")."""
        counts = {row: self.crosses(seat, row) for row in self.rows}
        marks = set()
        for row, numbers in self.rows.items():
            cells = seat.cells[row]
            following = max(cells) + 1 if cells else 0
            fewest = counts[row] == min(counts.values())
            if (
                fewest
                and following < len(numbers)
                and self.may_cross(seat, row, numbers[following])
            ):
                marks.add((row, numbers[following], None, True))
        return marks

    def _colour_marks(self, seat: Seat) -> set:
        """Action 2: a white die and a colour die still in play, on a cell of that die's
        colour (a whole row's in most sheets; Mixx A colours the cells), or a box beside it."""
        sums = {
            colour: {white + self.dice[colour] for white in self.dice["white"]}
            for colour in COLOURS
            if colour in self.dice and colour not in self.closed
        }
        marks = set()
        for row, numbers in self.rows.items():
            for p, number in enumerate(numbers):
                if number in sums.get(self.colours[row][p], ()) and self.may_cross(
                    seat, row, number
                ):
                    marks.add((row, number, None, False))
        for box in self.bonus:
            for colour in box.split("-"):
                for number in sums.get(colour, ()):
                    if self.may_box(seat, box, number, (colour,)):
                        marks.add((box, number, None, False))
        return marks

    # ---- the log's lines ------------------------------------------------------------------

    def line(self, data: dict) -> None:
        kind = data["event"]
        if kind == "roll":
            faces = [*data["dice"]["white"], *(v for c, v in data["dice"].items() if c != "white")]
            assert all(1 <= face <= self.sheet["dice_faces"] for face in faces), data["dice"]
            assert self.phase == "roll" and set(data["dice"]) == {
                "white",
                *set(COLOURS) - self.closed,
            }
            self.dice, self.phase, self.decided, self.active_crossed = (
                data["dice"],
                "action1",
                {},
                False,
            )
            return
        name = data["player"]
        seat = next(s for s in self.seats if s.name == name)
        if kind == "undo":
            self._undo(seat)
            return
        before = None
        if kind == "mark":
            mark = (data["row"], data["number"], data.get("swap"), data.get("lucky", False))
            assert mark in self.legal(name), f"{name} may not make {mark}"
            before = copy.deepcopy(seat)
            self._cross(seat, *mark)
        self._decided(name, seat, before, kind == "mark")

    def _undo(self, seat: Seat) -> None:
        """Action 1 open: the player's sheet as it was before their decision."""
        assert self.phase == "action1" and seat.name in self.decided, f"{seat.name} cannot undo"
        before = self.decided.pop(seat.name)
        if before is not None:
            self.seats[self.seats.index(seat)] = before
        self.locking = {
            row
            for row in set(self.rows) - self.closed
            if any(self.is_lock(row, p) for s in self.seats for p in s.cells[row])
        }
        self.active_crossed = self.decided.get(self.seats[self.active].name) is not None

    def _cross(self, seat: Seat, row: str, number: int, swap: int | None, _lucky: bool) -> None:
        if swap:
            seat.swaps.append(swap)
        numbers = self.rows.get(row) or self.bonus[row]
        p = numbers.index(number)
        if row in self.rows and p in seat.cells[row]:
            seat.seconds[row].add(p)
            return
        seat.cells[row].append(p)
        if row in self.rows and self.is_lock(row, p):
            self.locking.add(row)
        partner = self._partner(seat, row, number)  # the Chain: at once, wherever it lies
        if partner and self.rows[partner[0]].index(partner[1]) not in seat.cells[partner[0]]:
            seat.cells[partner[0]].append(self.rows[partner[0]].index(partner[1]))

    def _partner(self, seat: Seat, row: str, number: int) -> tuple[str, int] | None:
        for first, second in (seat.pad or {}).get("links", []):
            if tuple(first) == (row, number):
                return tuple(second)
            if tuple(second) == (row, number):
                return tuple(first)
        return None

    def _decided(self, name: str, seat: Seat, before: Seat | None, crossed: bool) -> None:
        is_active = seat is self.seats[self.active]
        if self.phase == "action1":
            assert name not in self.decided, f"{name} decides twice in action 1"
            self.decided[name] = before
            self.active_crossed |= crossed and is_active
            if len(self.decided) == len(self.seats):
                self._close_rows()
                self.phase = "over" if self._over() else "action2"
            return
        assert self.phase == "action2" and is_active, f"{name} may not decide in action 2"
        if not (crossed or self.active_crossed):
            seat.penalties += 1
        self._close_rows()
        self.phase = "over" if self._over() else "roll"
        self.active = (self.active + 1) % len(self.seats)

    def _close_rows(self) -> None:
        self.order += [c for c in COLOURS if c in self.locking]
        self.closed |= self.locking
        self.locking = set()

    def _over(self) -> bool:
        fourth = any(s.penalties >= self.sheet["penalties_to_end"] for s in self.seats)
        return fourth or len(self.closed) >= self.sheet["locks_to_end"]

    # ---- points -----------------------------------------------------------------------------

    def scores(self) -> dict[str, dict]:
        """Each player's points per colour row, the stair's, and the total."""
        table = self.sheet["score"]
        top = len(table) - 1
        result = {}
        for seat in self.seats:
            rows = {}
            for row in self.rows:
                counted = self.crosses(seat, row)
                counted += sum(len(seat.cells[b]) for b in self.bonus if row in b.split("-"))
                rows[row] = table[min(counted, top)]
            stair = [tuple(cell) for cell in (seat.pad or {}).get("steps", [])]
            on_stair = sum(1 for r, n in stair if self.rows[r].index(n) in seat.cells[r])
            steps = table[min(on_stair, top)] if stair else 0
            penalty = seat.penalties * self.sheet["penalty_points"]
            result[seat.name] = {
                "rows": rows,
                "steps": steps,
                "total": sum(rows.values()) + steps - penalty,
            }
        return result
