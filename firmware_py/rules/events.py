"""Table events: what the game log records and the engine applies.

Events are small immutable tuples, cheap to build in the thousands per second that computer
players need, and equal when their fields are equal.
"""

from __future__ import annotations

from typing import NamedTuple


class Start(NamedTuple):
    """Starts a game: the variant's sheet name, players in seat order, longo lucky numbers,
    Connected pads (each player's pad by name; None: seat k plays the sheet's pad k)."""

    variant: str
    players: tuple[str, ...]
    lucky: dict[str, tuple[int, ...]] | None = None
    pads: dict[str, str] | None = None


class Roll(NamedTuple):
    """The dice of one roll: both white dice, and the colour dice still in play by colour."""

    white: tuple[int, int]
    colours: dict[str, int]


class Mark(NamedTuple):
    """A player crosses the number `number` in the row named by its lock colour `row`."""

    player: str
    row: str
    number: int
    lucky: bool = False
    choice: str | None = None  # a row, where the reward the mark earns needs one
    swap: int | None = None  # X-Change: the swap field used (1 = leftmost), in action 1


class Pass(NamedTuple):
    """A player declines the current action."""

    player: str


class Undo(NamedTuple):
    """A player takes back their own last decision while its action is open."""

    player: str


Event = Roll | Mark | Pass | Undo
