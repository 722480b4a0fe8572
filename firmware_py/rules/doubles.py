"""Qwixx Double: cells that hold two crosses.

Double A: the number crossed last in a row may be crossed a second time, when it comes up
again (the white sum in action 1, a white die and the row's colour die in action 2), as the
one cross of an action; never once a cell right of it is crossed, and never twice. Double B:
four cells of each row are printed double, and one cross there counts as two. Either way the
second cross counts like any cross: for the row's points (the score table stops at 16) and for
the seven crosses a row needs before its lock number. docs/rules.md names the text.

A player's second crosses are rows of their own on the sheet (`PlayerSheet.rows`), one per
colour row after the four colour rows, bit p for the cell at position p: so a snapshot, undo
and copies need nothing new. A mark names the cell as any mark does; on Double A a mark of the
cell crossed last is its second cross (docs/game-log.md).

`SecondCrossing` and `LegalMovesWithSeconds` are built once per sheet (`SheetTables.derived`),
in place of `Crossing` and `LegalMoves` on sheets with double cells (`crossing_for`,
`moves_for`): the other sheets pay nothing for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .connections import ChainCrossing
from .crossing import Crossing
from .errors import Refused
from .events import Mark, Roll
from .moves import LegalMoves, legal_moves
from .player import COLOUR_ROWS, PlayerSheet
from .state import COLOUR_INDEX
from .tables import Cell, SheetTables

if TYPE_CHECKING:
    from .game import Game

SECOND = COLOUR_ROWS
"""Index of red's row of second crosses; yellow's, green's and blue's follow."""


def crossing_for(tables: SheetTables) -> Crossing:
    """The rules of a single cross on this sheet: with second crosses on Qwixx Double, and
    the crosses a chain sets off on Qwixx Connected's Chain (connections.py)."""
    if tables.sheet.has_links:
        return ChainCrossing(tables)
    return SecondCrossing(tables) if tables.sheet.has_doubles else Crossing(tables)


def moves_for(tables: SheetTables) -> LegalMoves:
    """The legal moves of this sheet: with second crosses on Qwixx Double."""
    return LegalMovesWithSeconds(tables) if tables.sheet.has_doubles else legal_moves(tables)


def crosses_in(player: PlayerSheet, row: int) -> int:
    """A colour row's crosses on a Double sheet: its crossed numbers, their second crosses and
    the lock cross."""
    return player.rows[row].bit_count() + player.rows[SECOND + row].bit_count()


def second_positions(player: PlayerSheet, row: int) -> list[int]:
    """Where a colour row of a Double sheet holds a second cross (0 = leftmost)."""
    mask = player.rows[SECOND + row]
    return [p for p in range(mask.bit_length()) if mask >> p & 1]


def printed_bits(tables: SheetTables) -> tuple[int, ...]:
    """Double B: per colour row, the bits of its cells printed double."""
    rows = tables.sheet.rows
    return tuple(sum(1 << row.numbers.index(n) for n in row.double) for row in rows)


class SecondCrossing(Crossing):
    """A single cross on a Double sheet: a printed double cell takes two crosses at once, and
    (Double A) the cell crossed last may take its second; the lock needs the row's crosses,
    second crosses included."""

    __slots__ = ("latest", "printed")

    def __init__(self, tables: SheetTables) -> None:
        super().__init__(tables)
        self.latest = tables.sheet.double_latest
        self.printed = printed_bits(tables)

    def may_cross_again(self, player: PlayerSheet, row: int, position: int) -> bool:
        """Double A: the cell at `position` is the row's last cross and has no second cross
        yet (the caller has checked that the row is open to the player)."""
        rows = player.rows
        return (
            self.latest
            and not rows[row] & player.lock_bits[row]
            and rows[row].bit_length() - 1 == position
            and not rows[SECOND + row] >> position & 1
        )

    def crosses(self, player: PlayerSheet, row: int) -> int:
        return crosses_in(player, row)

    def can_cross(self, player: PlayerSheet, row: int, position: int, closed: int) -> bool:
        mask = player.rows[row]
        if closed >> row & 1:
            return False
        if mask >= 1 << position:  # crossed at or right of it, or locked by the player
            return self.may_cross_again(player, row, position)
        if position in self.lock_positions[row]:
            return crosses_in(player, row) >= self.sheet.lock_threshold
        return True

    def cross_with_effects(
        self, player: PlayerSheet, row: int, position: int, closed: int, choice: str | None
    ) -> int:
        if choice is not None:
            raise Refused(
                f"{player.name}'s mark earns no reward that needs a choice of row, "
                f"so the choice {choice!r} does not belong on it"
            )
        rows, bit = player.rows, 1 << position
        if rows[row] & bit:  # Double A: the second cross of the cell crossed last
            rows[SECOND + row] |= bit
            return 0
        rows[row] |= bit
        if bit & self.printed[row]:  # Double B: a printed double cell takes two crosses
            rows[SECOND + row] |= bit
        if position in self.lock_positions[row]:
            rows[row] |= player.lock_bits[row]
            return 1 << row
        return 0


class LegalMovesWithSeconds(LegalMoves):
    """The legal moves on a Double sheet: a lock number once the row has its crosses, second
    crosses included, and (Double A) after the first crosses in sheet order, the second cross
    of each row's last cross."""

    __slots__ = ("latest",)

    def __init__(self, tables: SheetTables) -> None:
        super().__init__(tables)
        self.latest = tables.sheet.double_latest

    def action1(
        self, player: PlayerSheet, marks: list[list[Mark]], white_sum: int, closed: int
    ) -> list[Mark]:
        return self._legal(player, marks, self.by_sum[white_sum], closed)

    def action2(
        self,
        player: PlayerSheet,
        marks: list[list[Mark]],
        reached: list[Cell],
        closed: int,
        dice: Roll,
    ) -> list[Mark]:
        open_dice = [cell for cell in reached if not closed >> cell[0] & 1]
        return self._legal(player, marks, open_dice, closed)

    def _legal(
        self, player: PlayerSheet, marks: list[list[Mark]], cells: Sequence[Cell], closed: int
    ) -> list[Mark]:
        rows, threshold, latest = player.rows, self.threshold, self.latest
        legal, seconds = [], []
        for _, row, position, bit, locks in cells:
            mask = rows[row]
            if closed >> row & 1:
                continue
            if mask < bit:
                if not locks or crosses_in(player, row) >= threshold:
                    legal.append(marks[row][position])
            elif latest and mask.bit_length() - 1 == position and not rows[SECOND + row] & bit:
                seconds.append(marks[row][position])  # the second cross of the last cross
        legal.extend(seconds)  # after the first crosses, as the playouts' bits list them
        return legal


def second_cross_words(player: PlayerSheet, row: int, position: int, cell: str) -> str:
    """Why a cell already crossed cannot be crossed again, on a Double sheet."""
    if player.rows[SECOND + row] >> position & 1:
        return f"{player.name} has already crossed {cell} twice"
    return f"{player.name} has already crossed {cell}"


def twice_words(game: Game, mark: Mark) -> str:
    """What a mark on a Double sheet does beyond one cross, in words, for the table's news and
    the choices offered: " again" (Double A: the second cross of a cell crossed), " x2" (Double
    B: a cell printed double); "" for any other mark, or on other sheets."""
    sheet = game.sheet
    row = COLOUR_INDEX.get(mark.row)
    if not sheet.has_doubles or row is None:
        return ""
    position = sheet.positions[row].get(mark.number)
    if position is None:
        return ""
    if game.player(mark.player).rows[row] >> position & 1:
        return " again"
    return " x2" if mark.number in sheet.rows[row].double else ""


def doubles_in_reach(game: Game, name: str) -> list[str]:
    """Qwixx Double: the crosses worth two that `name` could make with the colour sums on the
    table now ("R 5": red 5 crossed again, or a red 5 printed double), as the options display
    lists them for the active player; none on other sheets or before a roll."""
    dice = game.dice
    if not game.sheet.has_doubles or dice is None or game.over:
        return []
    moves = game.tables.derived(moves_for)
    player = game.player(name)
    marks = game.tables.marks_for(name)
    reached = moves.action2(player, marks, moves.colour_sums(dice), game.closed, dice)
    return [f"{mark.row[0].upper()} {mark.number}" for mark in reached if twice_words(game, mark)]
