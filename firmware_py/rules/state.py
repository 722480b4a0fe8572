"""What a game is at one moment, as values: its phase, why it ended, and `GameState`.

`Game` (game.py) holds these as its changing attributes; the playouts (rollout.py, plain.py)
read a game as a `GameState` and hand the state they reach back as one (`Game.restore`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from sheets import COLOURS

from .events import Roll
from .player import Snapshot


class Phase(StrEnum):
    """Where a game is: the active player rolls, everyone decides on the white sum (action 1),
    the active player decides on a colour sum (action 2), or the game is over."""

    ROLL = "roll"
    ACTION1 = "action1"
    ACTION2 = "action2"
    OVER = "over"


ROLL, ACTION1, ACTION2, OVER = Phase.ROLL, Phase.ACTION1, Phase.ACTION2, Phase.OVER


class EndReason(StrEnum):
    """Why a game ended, as the game log and the report spell it."""

    LOCKS = "locks"
    PENALTIES = "penalties"


class GameState(NamedTuple):
    """Everything about a game that changes as it is played, as immutable values: what
    `Game.state` returns and `Game.restore` puts back. Each field is the `Game` attribute of
    its name (with a leading underscore for the internal ones); the rest of a `Game` is fixed
    when it starts (the sheet and tables built from it) and shared between copies."""

    players: tuple[Snapshot, ...]  # each player's sheet, in seat order
    phase: Phase
    active: int
    dice: Roll | None
    white_sum: int
    locked: tuple[int, ...]
    closed: int
    reason: EndReason | None
    decisions: tuple[tuple[int, Snapshot | None], ...]  # action 1 so far, in decision order
    locking: int
    in_play: tuple[str, ...]


COLOUR_INDEX = {colour: index for index, colour in enumerate(COLOURS)}


def close_rows(locked: list[int], closed: int, rows: int) -> int:
    """The end of an action: the rows its locks locked (mask `rows`) close for everyone. They
    join `locked` in red..blue order (rows locked in one action lock together); returns the
    new mask of closed rows. The referee and the playouts' fast path both close rows here."""
    for row in range(len(COLOURS)):
        if rows >> row & 1:
            locked.append(row)
    return closed | rows


def dice_in_play(closed: int) -> tuple[str, ...]:
    """The colour dice still in the game: those whose row is not closed."""
    return tuple(colour for row, colour in enumerate(COLOURS) if not closed >> row & 1)
