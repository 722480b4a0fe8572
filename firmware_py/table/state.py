"""The table's state as its parts may read it: small read-only facets, one field or action
each (as `collections.abc.Sized` is one method), that each part's port combines with the few
actions of its own it needs.

Only `core.Table` holds these fields and writes them: a Protocol's property cannot be
assigned, so mypy refuses a part that tries (and tests/table/test_architecture.py reads the
source for it). Parts' ports live beside each part (`rolling.DiceTable`, `planner.PlannerTable`,
...); the table is handed to each as that port.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from firmware_py.journal.journal import Journal
from firmware_py.rules import Game
from firmware_py.seating import Seating
from firmware_py.table.phase import TablePhase
from firmware_py.table.timers import PhaseTimers


class Clocked(Protocol):
    """The table's clock (monotonic seconds; a test's own clock in tests)."""

    @property
    def clock(self) -> Callable[[], float]: ...


class GameOn(Protocol):
    """The game begun (over or not; None before the first and while one is set up)."""

    @property
    def game(self) -> Game | None: ...


class Seated(Protocol):
    """Who sits at the table, and how each decides."""

    @property
    def seating(self) -> Seating: ...


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


class Journalled(Protocol):
    """The journal the table writes its games to."""

    @property
    def journal(self) -> Journal: ...


class Timed(Protocol):
    """The timers of the table's phase (they end with it)."""

    @property
    def timers(self) -> PhaseTimers: ...


class Publishes(Protocol):
    """A change: the phase it calls for, the view to every presenter, what is planned next."""

    def publish(self) -> None: ...


class Tells(Protocol):
    """One line of news, shown with the next change."""

    def tell(self, words: str) -> None: ...
