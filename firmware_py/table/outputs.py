"""What the table drives, as protocols it owns: presenters, the displays, the service manager.

The table knows its outputs only by these shapes; `firmware_py.app` builds the real ones (the
displays and lock lights of `firmware_py.show`, systemd's notifications) and hands them in, so
no arrow points from the table up to the stages that draw, sound or assemble.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from firmware_py.view import TableView

Presenter = Callable[[TableView], None]  # gets the table's view after every change


class Screens(Protocol):
    """The displays: they draw every view first, dim and wake with the players' input (a
    press on a dark display only wakes it), and are looked after every second (`refresh`:
    burn-in shifts, a display that stopped answering tried again). `end_shown`: a game's end,
    if one is on them, has shown each of its pages where that matters (its frames are kept);
    a run of counted games ends only then."""

    def __call__(self, view: TableView) -> None: ...
    def wake(self) -> bool: ...
    def touched(self) -> None: ...
    def rest(self) -> None: ...
    def refresh(self) -> None: ...
    def end_shown(self) -> bool: ...


class ServiceManager(Protocol):
    """Who started the tower (systemd): told when it is ready, and pinged while it is alive."""

    def ready(self, status: str) -> object: ...
    def watchdog_interval(self) -> float | None: ...
    def ping_watchdog(self) -> object: ...


class NoScreens:
    """No displays (a table in a test that looks at no picture): nothing is drawn."""

    def __call__(self, view: TableView) -> None:
        pass

    def wake(self) -> bool:
        return False

    def touched(self) -> None:
        pass

    def rest(self) -> None:
        pass

    def refresh(self) -> None:
        pass

    def end_shown(self) -> bool:
        return True


class NoServiceManager:
    """Started by hand: nobody to tell that the tower is ready, no watchdog to ping."""

    def ready(self, status: str) -> object:
        return False

    def watchdog_interval(self) -> float | None:
        return None

    def ping_watchdog(self) -> object:
        return False
