"""The table: the state machine between the inputs and the outputs of the tower.

Inputs (the roll button, thrown dice, and every kind of seat through the `SeatDoor` the table
makes for it) call the `Table`; it asks the referee (`firmware_py.rules`), writes the journal,
and publishes one `TableView` per change to its outputs: the displays (`Screens`) and the
presenters subscribed (lock lights, sound, pads, phones, terminal), which it knows only by the
protocols in `outputs`. `firmware_py.app.assembly` builds a table with the real outputs.
"""

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
from firmware_py.table.outputs import Presenter, Screens, ServiceManager
from firmware_py.table.phase import TablePhase
from firmware_py.table.rolling import ROLL_FRAMES
from firmware_py.table.seats import Decision, SeatDoor, SeatsNow
from firmware_py.table.settings import TableSettings
from firmware_py.table.thrown import THROW_WAIT

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
    "Decision",
    "LuckyNumber",
    "Presenter",
    "Refusal",
    "RefusalKind",
    "Screens",
    "SeatDoor",
    "SeatsNow",
    "ServiceManager",
    "Table",
    "TablePhase",
    "TableSettings",
]
