"""Qwixx Connected on the options display: the crosses the active player's colour sums reach
that set off a chain's cross, or that lie on the stair (connections.py has the rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .connections import joined_uncrossed, on_stair
from .doubles import moves_for
from .events import Mark

if TYPE_CHECKING:
    from .game import Game


def connections_in_reach(game: Game, name: str) -> tuple[str, tuple[str, ...]]:
    """What the options display lists under the action-2 sums on a Connected pad: ("chain",
    ("R6+Y6", ...)), the crosses those sums reach that set off another, or ("stair", ("R2",
    ...)), the stair cells they reach; ("", ()) on other sheets or before a roll."""
    player = game.player(name)
    pad = player.pad
    if pad is None or game.dice is None or game.over:
        return "", ()
    reached = _action2_reach(game, name)
    if pad.links:
        notes = []
        for mark in reached:
            other = joined_uncrossed(game.sheet, player, mark.row, mark.number)
            if other is not None:
                colour, number = other
                notes.append(f"{mark.row[0].upper()}{mark.number}+{colour[0].upper()}{number}")
        return "chain", tuple(notes)
    stair = [
        f"{mark.row[0].upper()}{mark.number}"
        for mark in reached
        if on_stair(game.sheet, player, mark.row, mark.number)
    ]
    return "stair", tuple(stair)


def _action2_reach(game: Game, name: str) -> list[Mark]:
    """The crosses the colour sums on the table reach for `name` (as Double's line reads them)."""
    dice = game.dice
    assert dice is not None
    moves = game.tables.derived(moves_for)
    marks = game.tables.marks_for(name)
    return moves.action2(game.player(name), marks, moves.colour_sums(dice), game.closed, dice)
