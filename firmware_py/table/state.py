"""The table's state as its parts may read it: small read-only facets, one field or action
each (as `collections.abc.Sized` is one method), that each part's port combines with the few
actions of its own it needs.

Only `core.Table` holds these fields and writes them: a Protocol's property cannot be
assigned, so mypy refuses a part that tries (and tests/test_architecture.py reads the source
for it). The seats are handed out as a read-only `SeatingView`; they change only through the
table's own actions. Parts' ports live beside each part (`rolling.RollTable`,
`planner.PlanTable`, ...); the table is handed to each as that port, and what does not change
while the table runs (its clock, settings, journal, news, timers) is handed to a part when it
is made, not through its port.
"""

from __future__ import annotations

from typing import Protocol

from firmware_py.rules import Game
from firmware_py.seating import SeatingView
from firmware_py.table.phase import TablePhase
from firmware_py.table.settings import TableSettings


class GameOn(Protocol):
    """The game begun (over or not; None before the first and while one is set up). The
    table never changes a game in place: each event is applied to a copy, which replaces it."""

    @property
    def game(self) -> Game | None: ...


class Seated(Protocol):
    """Who sits at the table, and how each decides (read only)."""

    @property
    def seating(self) -> SeatingView: ...


class Phased(Protocol):
    """The table's phase."""

    @property
    def phase(self) -> TablePhase: ...


class Variant(Protocol):
    """The variant of the next game (the menu's choice)."""

    @property
    def variant(self) -> str: ...


class Paused(Protocol):
    """Why the table is paused: the journal cannot save ("" while saving works)."""

    @property
    def fault(self) -> str: ...


class Alerting(Protocol):
    """The words of the alert on the displays now; None when no alert is."""

    def alert_shown(self) -> str | None: ...


class Configured(Protocol):
    """The table's settings (`TableSettings`, a value: read them each time they are needed)."""

    @property
    def settings(self) -> TableSettings: ...


class Publishes(Protocol):
    """A change: the phase it calls for, the view to every presenter, what is planned next."""

    def publish(self) -> None: ...
