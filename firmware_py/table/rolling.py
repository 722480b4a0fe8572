"""The roll button's roll: the dice animated for a few frames, then the tower's own dice rolled.

A press in a game's ROLL moment animates the dice (ROLL_FRAMES frames, the table in its ROLLING
phase) and then rolls the tower's dice; a roll that cannot be saved leaves the table at ROLL, to
press again. Electronic dice thrown by hand are read by `thrown.ThrownDice`.

Each frame has its time, counted from the press: a frame whose time has passed before it could
be shown (the displays' bus, a busy machine) is dropped, never shown late, so the dice land at
the same moment on a slow bus as in the simulation, not behind frames queued before them.
"""

from __future__ import annotations

from typing import Protocol

from drivers.dice import SoftwareDice
from firmware_py.rules import Event, Roll
from firmware_py.table import phase as phases
from firmware_py.table.decisions import Refusal
from firmware_py.table.phase import TablePhase
from firmware_py.table.state import Configured, GameOn, Publishes
from firmware_py.table.timers import Schedule

ROLL_FRAMES = 4  # rolling-animation frames before the dice show
# The longest one frame shows: a roll takes pace / 2 seconds up to 0.4 s. The pace is how long
# computer players think (--pace); slow thinkers (a demo at --pace 30) do not slow the dice.
LONGEST_FRAME = 0.1


def frame_seconds(pace: float) -> float:
    """How long each frame of a roll shows: an eighth of the pace, LONGEST_FRAME at most."""
    return min(pace / 8, LONGEST_FRAME)


class RollTable(GameOn, Configured, Publishes, Protocol):
    """What the roll reads of the table (the game, its pace) and asks of it: enter a phase,
    show an animation frame, hand the roll to the referee."""

    def enter(self, phase: TablePhase) -> None: ...
    def show_frame(self) -> None: ...
    def submit(self, event: Event, request: str | None = None) -> Refusal | None: ...


class Roller:
    """The animated roll (`frame`: the animation's step in ROLLING) with the tower's `dice`,
    each frame shown for `frame_seconds(pace)` by the phase's timers (`schedule`)."""

    def __init__(self, table: RollTable, dice: SoftwareDice, schedule: Schedule) -> None:
        self.table = table
        self.dice = dice
        self.schedule = schedule
        self.frame = 0
        self.started = 0.0  # when the roll began, on the timers' clock
        self.dropped = 0  # frames whose time passed before they could be shown, since the start

    def roll(self) -> None:
        """The roll button: animate, then roll."""
        self.table.enter(phases.ROLLING)
        self.started = self.schedule.now()
        self.animate(0)

    def animate(self, frame: int) -> None:
        """One frame of the rolling dice (unless its time is past); after the last, the roll."""
        table = self.table
        game = table.game
        assert game is not None
        if frame < ROLL_FRAMES:
            seconds = frame_seconds(table.settings.pace)
            next_due = self.started + (frame + 1) * seconds
            if frame == 0 or seconds == 0 or self.schedule.now() < next_due:
                self.frame = frame
                table.show_frame()
            else:  # the next frame is due already: this one would only hold the dice up
                self.dropped += 1
            wait = max(0.0, next_due - self.schedule.now())
            self.schedule.once(("frame", frame), wait, self.animate, frame + 1)
            return
        white, colours = self.dice.roll(game.dice_in_play())
        if table.submit(Roll(white, colours)) is not None:
            table.enter(phases.ROLL)  # not saved: press again
            table.publish()
