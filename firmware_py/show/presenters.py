"""The table's outputs: each turns the published `TableView` into its own form.

The table publishes one view per change to every presenter attached to it and knows nothing
else about them (`firmware_py.table.outputs`). Here are the hardware ones: the displays (a
picture per display role, `Displays`, with their power) and the lock lights. The pads, the
phones, the terminal and the demo's robots subscribe the same way.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from enum import StrEnum

from drivers.display import Display
from drivers.lights import LockLights
from firmware_py.show.screens import render
from firmware_py.view import ERROR, TableView
from sheets import COLOURS

log = logging.getLogger(__name__)


class DisplayPresenter:
    """Draws each view on every display; a display that stops answering is named on the
    others (its picture would be the only way the table learns of it)."""

    def __init__(self, displays: dict[str, Display]) -> None:
        self.displays = displays
        self._errors: dict[str, int] = {}

    def __call__(self, view: TableView) -> None:
        failed = []
        for role, display in self.displays.items():
            display.display(render(view, role))
            if display.errors > self._errors.get(role, 0):
                failed.append(role)
            self._errors[role] = display.errors
        for role in failed:
            words = f"the {role} display does not answer: check its wires"
            log.warning("%s", words)
            for other, display in self.displays.items():
                if other != role:
                    display.display(render(TableView(ERROR, message=words), other))


class LightPresenter:
    """The lock lights: off when a game begins, a blink for each row a change locks, a dance
    when the game ends, and steady on for the rows locked."""

    def __init__(self, lights: LockLights) -> None:
        self.lights = lights

    def __call__(self, view: TableView) -> None:
        if view.started:
            self.lights.all_off()
        for colour in view.new_locks:
            self.lights.announce_lock(colour)
        if view.ended:
            self.lights.celebrate()
        game = view.game
        self.lights.show_locked(COLOURS[row] for row in (game.locked if game else []))


class PowerState(StrEnum):
    """How bright the displays are: burn-in protection when nobody touches anything."""

    ON = "on"
    DIM = "dim"
    BLANK = "blank"


class DisplayPower:
    """Dims the displays after `idle_dim` seconds without input and blanks them after
    `idle_blank`; any input brings them back."""

    def __init__(
        self,
        displays: dict[str, Display],
        clock: Callable[[], float],
        idle_dim: float,
        idle_blank: float,
    ) -> None:
        self.displays = displays
        self.clock = clock
        self.idle_dim = idle_dim
        self.idle_blank = idle_blank
        self.state = PowerState.ON
        self._last_input = clock()

    def touched(self) -> None:
        """Any input: full brightness again."""
        self._last_input = self.clock()
        self.rest()

    def wake(self) -> bool:
        """A press of the roll button: full brightness again; True when the displays were
        dimmed or blank (the press only woke them)."""
        resting = self.state is not PowerState.ON
        self.touched()
        return resting

    def rest(self) -> None:
        """The power the idle time calls for, on every display."""
        idle = self.clock() - self._last_input
        if idle >= self.idle_blank:
            state = PowerState.BLANK
        elif idle >= self.idle_dim:
            state = PowerState.DIM
        else:
            state = PowerState.ON
        if state is self.state:
            return
        self.state = state
        for display in self.displays.values():
            if state is PowerState.ON:
                display.wake()
            elif state is PowerState.DIM:
                display.dim()
            else:
                display.blank()


class Displays:
    """The displays as the table drives them (`table.outputs.Screens`): each view drawn on
    every display, their `power` (dim, blank, wake), and their refresh every second."""

    def __init__(self, power: DisplayPower) -> None:
        self.displays = power.displays
        self.draw = DisplayPresenter(power.displays)
        self.power = power

    def __call__(self, view: TableView) -> None:
        self.draw(view)

    def wake(self) -> bool:
        return self.power.wake()

    def touched(self) -> None:
        self.power.touched()

    def rest(self) -> None:
        self.power.rest()

    def refresh(self) -> None:
        """Burn-in shifts and retries of a display that stopped answering (`Display.refresh`)."""
        for display in self.displays.values():
            display.refresh()
