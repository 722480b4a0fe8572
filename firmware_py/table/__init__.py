"""The table: the state machine between the inputs and the outputs of the tower.

Inputs (the roll button, thrown dice, seats: pads, keyboard, computer players) call the
`Table`; it asks the referee (`firmware_py.rules`), writes the journal, and publishes one
`TableView` per change to its presenters (displays, lock lights, pads, terminal).
"""

from firmware_py.show.presenters import PowerState, Presenter
from firmware_py.table.core import LOCK_NOTICE_SECONDS, Table
from firmware_py.table.decisions import (
    CHOICE,
    NO_SEAT,
    NOT_NOW,
    RULE,
    STALE,
    STORAGE,
    LuckyNumber,
    Refusal,
    RefusalKind,
)
from firmware_py.table.news_feed import ALERT_SECONDS
from firmware_py.table.phase import TablePhase
from firmware_py.table.rolling import ROLL_FRAMES, THROW_WAIT

__all__ = [
    "ALERT_SECONDS",
    "CHOICE",
    "LOCK_NOTICE_SECONDS",
    "NOT_NOW",
    "NO_SEAT",
    "ROLL_FRAMES",
    "RULE",
    "STALE",
    "STORAGE",
    "THROW_WAIT",
    "LuckyNumber",
    "PowerState",
    "Presenter",
    "Refusal",
    "RefusalKind",
    "Table",
    "TablePhase",
]
