"""What players send the table besides the rules' own events, and what it answers."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class RefusalKind(StrEnum):
    """Why the referee said no, as the pads' protocol distinguishes it."""

    RULE = "rule"  # the rules do not allow it
    CHOICE = "choice"  # the mark earns a reward that needs a choice of row
    STORAGE = "storage"  # the journal cannot be written: try again
    NOT_NOW = "not now"  # no game, or not this kind of decision at this moment
    STALE = "stale"  # a device's old request, replayed: answered long ago
    NO_SEAT = "no seat"  # the device holds no seat: it may join between games


RULE, CHOICE, STORAGE, NOT_NOW, STALE, NO_SEAT = (
    RefusalKind.RULE,
    RefusalKind.CHOICE,
    RefusalKind.STORAGE,
    RefusalKind.NOT_NOW,
    RefusalKind.STALE,
    RefusalKind.NO_SEAT,
)


@dataclass(frozen=True)
class Refusal:
    """Why the referee said no: `reason` in a player's words, and its kind."""

    reason: str
    kind: RefusalKind = RULE


@dataclass(frozen=True)
class LuckyNumber:
    """A longo player's choice of one lucky number before the game; 0: let the tower draw."""

    player: str
    number: int = 0
