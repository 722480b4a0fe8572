"""Qwixx Connected: the connections printed on a pad.

The Chain: twelve circled cells are joined in pairs by printed lines. Whoever crosses one cell of
a pair crosses the other at once, "whether its row is already locked or the player has crossed
numbers further right in it"; a pair already crossed both ends sets off nothing more. The cross
set off is a cross like any other: it counts for its row's points and towards its lock, and
cells left of it are passed for good. It never locks a row (no pair holds a lock number:
sheets/pads.py), and no cell is in two pairs, so one cross sets off at most one more.

The Steps: eleven framed cells form a stair through the four rows; they are crossed as any cell
(nothing changes in what may be crossed), and at the end the stair's crossed cells score again
on the sheet's table, as a fifth row.

Each player plays a pad of their own (`Sheet.pad_of`, `PlayerSheet.pad`). A mark names only the
cell crossed; the cross it sets off follows from the player's pad, so the game log needs nothing
new to be checked (docs/game-log.md). docs/rules.md names the texts.

`ChainCrossing` is built once per sheet (`SheetTables.derived`), in place of `Crossing` on
sheets with a chain (`doubles.crossing_for`): other sheets pay nothing for it.
"""

from __future__ import annotations

from sheets import COLOURS, Sheet

from .crossing import Crossing
from .player import PlayerSheet


class ChainCrossing(Crossing):
    """A single cross on a Chain pad: a cross on a circled cell crosses the cell joined to it."""

    __slots__ = ()

    def cross_with_effects(
        self, player: PlayerSheet, row: int, position: int, closed: int, choice: str | None
    ) -> int:
        locks = super().cross_with_effects(player, row, position, closed, choice)
        partner = linked_cell(player, row, position)
        if partner is not None:
            other_row, other_position = partner
            player.rows[other_row] |= 1 << other_position  # locked row, passed cell or not
        return locks


def linked_cell(player: PlayerSheet, row: int, position: int) -> tuple[int, int] | None:
    """The cell joined to (row, position) on the player's pad, or None."""
    pad = player.pad
    return pad.partner(row, position) if pad is not None and pad.links else None


def chain_words(sheet: Sheet, player: PlayerSheet, colour: str, number: int) -> str:
    """ " and the chain crosses yellow 6": what crossing `colour` `number` sets off on the
    player's pad, in words, or "" when it sets off nothing (no chain there, or its other end
    already crossed)."""
    other = joined_uncrossed(sheet, player, colour, number)
    return "" if other is None else f" and the chain crosses {other[0]} {other[1]}"


def connection_note(sheet: Sheet, player: PlayerSheet, colour: str, number: int) -> str:
    """A choice's note on a Connected pad: " (chain: yellow 6)" where the cross sets off
    another, " (stair)" on a stair cell; "" elsewhere and on other sheets."""
    other = joined_uncrossed(sheet, player, colour, number)
    if other is not None:
        return f" (chain: {other[0]} {other[1]})"
    return " (stair)" if on_stair(sheet, player, colour, number) else ""


def on_stair(sheet: Sheet, player: PlayerSheet, colour: str, number: int) -> bool:
    """Whether `colour` `number` is one of the stair's cells on the player's pad."""
    pad = player.pad
    if pad is None or not pad.steps or colour not in COLOURS:
        return False
    row = COLOURS.index(colour)
    return (row, sheet.rows[row].position(number)) in pad.steps


def joined_uncrossed(
    sheet: Sheet, player: PlayerSheet, colour: str, number: int
) -> tuple[str, int] | None:
    """("yellow", 6): the uncrossed cell joined to `colour` `number` on the player's pad."""
    if player.pad is None or not player.pad.links or colour not in COLOURS:
        return None
    row = COLOURS.index(colour)
    position = sheet.rows[row].position(number)
    partner = None if position is None else linked_cell(player, row, position)
    if partner is None or player.rows[partner[0]] >> partner[1] & 1:
        return None
    other_row, other_position = partner
    return COLOURS[other_row], sheet.rows[other_row].numbers[other_position]


def step_crosses(player: PlayerSheet) -> int:
    """The Steps: how many of the stair's cells on the player's pad are crossed."""
    pad = player.pad
    if pad is None:
        return 0
    return sum(player.rows[row] >> position & 1 for row, position in pad.steps)


def step_points(sheet: Sheet, player: PlayerSheet) -> int:
    """The Steps: the stair scored as a fifth row, on the sheet's table."""
    if not sheet.pads:
        return 0
    return sheet.score[min(step_crosses(player), len(sheet.score) - 1)]
