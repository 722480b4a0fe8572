"""The dice: the roll button's animated roll, and electronic dice thrown by hand.

A press in a game's ROLL moment animates the dice (ROLL_FRAMES frames, the table in its ROLLING
phase) and then rolls the tower's own dice. With Pixels electronic dice connected, the table
reads them instead: the roll is whatever they show once every die in play has landed, and the
button stays the fallback. The dice's own news (found, low battery, lost) goes to the players.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from drivers.pixels import DiceEvent, DiceEventKind, bluetooth_trouble
from firmware_py.app.hardware import Hardware
from firmware_py.rules import ROLL, Event, Roll
from firmware_py.table import phase as phases
from firmware_py.table.decisions import Refusal
from firmware_py.table.phase import TablePhase
from firmware_py.table.state import GameOn, Publishes, Timed
from firmware_py.view import TableView

ROLL_FRAMES = 4  # rolling-animation frames before the dice show
# The longest one frame shows: a roll takes pace / 2 seconds up to 0.4 s. The pace is how long
# computer players think (--pace); slow thinkers (a demo at --pace 30) do not slow the dice.
LONGEST_FRAME = 0.1
THROW_WAIT = 30.0  # seconds to wait for thrown electronic dice before saying which are missing
# Dice news the players act on: shown as alerts (the rest is said, as news).
ALERTS = (
    DiceEventKind.OUT_OF_RANGE,
    DiceEventKind.LOW_BATTERY,
    DiceEventKind.CONNECTION_LOST,
    DiceEventKind.NO_BLUETOOTH,
)


def frame_seconds(pace: float) -> float:
    """How long each frame of a roll shows: an eighth of the pace, LONGEST_FRAME at most."""
    return min(pace / 8, LONGEST_FRAME)


class DiceTable(GameOn, Timed, Publishes, Protocol):
    """What the dice read of the table (the game, its pace, the phase's timers) and ask of it:
    enter a phase, show a frame, hand a roll to the referee, tell the players."""

    @property
    def pace(self) -> float: ...
    def enter(self, phase: TablePhase) -> None: ...
    def view(self) -> TableView: ...
    def present(self, view: TableView) -> None: ...
    def submit(self, event: Event, request: str | None = None) -> Refusal | None: ...
    def say(self, words: str) -> None: ...
    def alert(self, words: str) -> None: ...
    def problem(self, words: str) -> None: ...


class Dice:
    """Rolls for the table: the animation's frame (ROLLING), and the task reading thrown dice,
    with the tower's `hardware` dice (its own, and the electronic ones if any)."""

    def __init__(self, table: DiceTable, hardware: Hardware) -> None:
        self.table = table
        self.hardware = hardware
        self.frame = 0  # ROLLING: the animation's frame
        self._reading: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        """Start the electronic dice, if any; when they cannot be read the button rolls."""
        pixels = self.hardware.pixels
        if pixels is None:
            return
        pixels.on_event = self.dice_event
        try:
            await pixels.start()
        except Exception as error:  # no Bluetooth adapter, BlueZ not running, ...
            self.hardware.pixels = None  # the tower's hardware: these dice are not there
            words = bluetooth_trouble(error)
            self.table.problem(f"the electronic dice cannot be read: {words}; the button rolls")

    def dice_event(self, event: DiceEvent) -> None:
        """Electronic dice news: problems (out of range, low battery, lost) are alerts."""
        if event.kind in ALERTS:
            self.table.alert(event.message)
        else:
            self.table.say(event.message)

    def roll(self) -> None:
        """The roll button: stop waiting for thrown dice, animate, then roll."""
        self.stop_reading()  # the button is the fallback to thrown dice
        self.table.enter(phases.ROLLING)
        self.animate(0)

    def animate(self, frame: int) -> None:
        """One frame of the rolling dice; after the last, the roll itself."""
        table = self.table
        game = table.game
        assert game is not None
        if frame < ROLL_FRAMES:
            self.frame = frame
            table.present(table.view())
            table.timers.once(("frame", frame), frame_seconds(table.pace), self.animate, frame + 1)
            return
        white, colours = self.hardware.dice.roll(game.dice_in_play())
        if table.submit(Roll(white, colours)) is not None:
            table.enter(phases.ROLL)  # not saved: press again
            table.publish()

    def read_thrown(self) -> None:
        """Wait for thrown electronic dice (once: asking again while waiting changes nothing)."""
        if self._reading is None or self._reading.done():
            self._reading = asyncio.get_running_loop().create_task(self._thrown())

    async def _thrown(self) -> None:
        """The roll is whatever the dice show once every die in play has landed."""
        table = self.table
        pixels = self.hardware.pixels
        while pixels is not None and table.game is not None and table.game.phase is ROLL:
            in_play = table.game.dice_in_play()
            try:
                white, colours = await pixels.wait_for_roll(in_play, timeout=THROW_WAIT)
            except TimeoutError as waiting:  # the dice say which of them are still missing
                table.say(str(waiting))
                continue
            table.submit(Roll(white, colours))
            return

    def electronic(self) -> bool:
        """True when electronic dice are there to be thrown (the button is the fallback)."""
        return self.hardware.pixels is not None

    def stop_reading(self) -> None:
        if self._reading is not None:
            self._reading.cancel()
            self._reading = None

    async def close(self) -> None:
        """The table stops: no more reading, and the electronic dice let go."""
        self.stop_reading()
        if self.hardware.pixels is not None:
            await self.hardware.pixels.close()
