"""The table's chores, once a second: watchdog, displays, the end of notices, idle menus.

The watchdog is pinged from this loop only, so a hung loop stops the pings and systemd
restarts the tower. A failing chore is logged and tried again the next second; failing three
seconds in a row, the tower exits non-zero at once for systemd to restart it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

from firmware_py.table import phase as phases
from firmware_py.table.outputs import Screens, ServiceManager
from firmware_py.table.showing import page_of
from firmware_py.table.state import Phased, Publishes

log = logging.getLogger(__name__)

FAILURES_TO_EXIT = 3  # seconds in a row a chore may fail before the tower exits


class ChoresTable(Phased, Publishes, Protocol):
    """What the chores read of the table (its phase, the lock notice's end, its clock) and
    ask of it: the moment shown again, the alert ended, a page turned, an idle menu closed."""

    @property
    def notice_until(self) -> float: ...
    @property
    def clock(self) -> Callable[[], float]: ...
    def end_alert(self) -> None: ...
    def redraw_displays(self) -> None: ...
    def close_idle_menu(self) -> None: ...


async def housekeeping(
    table: ChoresTable,
    screens: Screens,
    alert_shown: Callable[[], str | None],
    service: ServiceManager,
) -> None:
    """Run the chores every second (or more often, for a short watchdog) until cancelled: the
    `screens` looked after, the alert (`alert_shown`: its words while one is on) ended, the
    service manager's watchdog pinged."""
    watchdog = service.watchdog_interval()  # None: no watchdog to ping
    tick = min(1.0, watchdog) if watchdog else 1.0
    chores, failures = Chores(table, screens, alert_shown), 0
    while True:
        await asyncio.sleep(tick)
        if watchdog:
            service.ping_watchdog()
        try:
            chores.run()
            failures = 0
        except Exception:
            failures += 1
            log.exception("housekeeping failed (%d time(s) in a row)", failures)
            if failures >= FAILURES_TO_EXIT:
                log.critical("housekeeping keeps failing: exiting for systemd to restart")
                raise SystemExit(70) from None  # EX_SOFTWARE


class Chores:
    """One round of chores: display refresh (pixel shift, retries), the end of a lock notice
    or an alert, burn-in protection when nobody has touched anything for a while."""

    def __init__(
        self, table: ChoresTable, screens: Screens, alerts: Callable[[], str | None]
    ) -> None:
        self.table = table
        self.screens = screens
        self.alerts = alerts
        self.alert_shown = False  # an alert was on the displays at the last round
        self.page = -1  # the page on the displays at the last round

    def run(self) -> None:
        table = self.table
        self.screens.refresh()
        if table.phase is phases.LOCK_NOTICE and table.clock() >= table.notice_until:
            table.publish()  # the notice is over: the game as it is
        alerting = self.alerts() is not None
        if self.alert_shown and not alerting and table.phase is not phases.ROLLING:
            table.end_alert()  # the alert is over: what is on
        self.alert_shown = alerting
        self.turn_page()
        self.screens.rest()
        table.close_idle_menu()

    def turn_page(self) -> None:
        """What does not fit one screen takes turns (the names waited for, a long message;
        after a game the winner, the scores, how phones join): the displays turn the page."""
        table, page = self.table, page_of(self.table.clock())
        if page == self.page or table.phase in (phases.ROLLING, phases.MENU):
            return
        self.page = page
        table.redraw_displays()
