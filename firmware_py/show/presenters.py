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
from firmware_py.show.screens import over_pages, render
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
    `idle_blank` (0: never, as the configuration's other times); any input brings them back."""

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
        if self.idle_blank and idle >= self.idle_blank:
            state = PowerState.BLANK
        elif self.idle_dim and idle >= self.idle_dim:
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


class EndPages:
    """The pages of a game's end (the winner, the scores, each player's bars, the story, how
    phones join: `screens.over_pages`) that the displays have drawn since it came on."""

    def __init__(self) -> None:
        self.story: object = None  # the game whose end is on (None: no end is)
        self.pages = 0  # how many pages it has (0: none drawn yet, a lock's notice before)
        self.drawn: set[int] = set()

    def note(self, view: TableView) -> None:
        if view.story is not self.story:
            self.story, self.pages, self.drawn = view.story, 0, set()
        if view.story is not None and view.screen == "over":
            self.pages = len(over_pages(view))
            self.drawn.add(view.page % self.pages)

    def all_drawn(self) -> bool:
        return self.story is None or 0 < self.pages <= len(self.drawn)


class Displays:
    """The displays as the table drives them (`table.outputs.Screens`): each view drawn on
    every display, their `power` (dim, blank, wake), and their refresh every second.
    `whole_ends`: a game's end counts as shown once each of its pages was drawn (its frames
    are kept, `run --screens`), else at once."""

    def __init__(self, power: DisplayPower, *, whole_ends: bool = False) -> None:
        self.displays = power.displays
        self.draw = DisplayPresenter(power.displays)
        self.power = power
        self.end = EndPages() if whole_ends else None

    def __call__(self, view: TableView) -> None:
        self.draw(view)
        if self.end is not None:
            self.end.note(view)

    def end_shown(self) -> bool:
        return self.end is None or self.end.all_drawn()

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
