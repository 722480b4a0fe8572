"""Electronic dice thrown by hand: read when a roll is due, the roll button the fallback.

With Pixels electronic dice connected, the table reads them instead of rolling its own: the
roll is whatever they show once every die in play has landed, and a press of the roll button
stops waiting and rolls the tower's dice. The dice's own news (found, low battery, lost) goes
to the players: problems they can act on as alerts, the rest as news; a die the roll waits for
that cannot be heard (out of range, Bluetooth gone) says the button rolls instead.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from drivers.pixels import DiceEvent, DiceEventKind, PixelsReader, bluetooth_trouble
from firmware_py.rules import ROLL, Event, Roll
from firmware_py.table.decisions import Refusal
from firmware_py.table.news_feed import News
from firmware_py.table.state import GameOn

THROW_WAIT = 30.0  # seconds to wait for thrown electronic dice before saying which are missing
BUTTON_ROLLS = "press the roll button to roll"  # what to do when a thrown die cannot be read
# Dice that cannot be heard: a roll waiting for one of them waits for the button instead.
UNHEARD = (DiceEventKind.OUT_OF_RANGE, DiceEventKind.NO_BLUETOOTH)
# Dice news the players act on: shown as alerts (the rest is said, as news).
ALERTS = (
    DiceEventKind.OUT_OF_RANGE,
    DiceEventKind.LOW_BATTERY,
    DiceEventKind.CONNECTION_LOST,
    DiceEventKind.NO_BLUETOOTH,
)


class ThrowTable(GameOn, Protocol):
    """What the thrown dice read of the table (the game) and ask of it: a roll refereed."""

    def submit(self, event: Event, request: str | None = None) -> Refusal | None: ...


class ThrownDice:
    """The electronic dice (`pixels`, None when there are none or they cannot be read), and
    the task reading a throw; their news goes out through `news`."""

    def __init__(self, table: ThrowTable, pixels: PixelsReader | None, news: News) -> None:
        self.table = table
        self.pixels = pixels
        self.news = news
        self._reading: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        """Start the electronic dice, if any; when they cannot be read the button rolls."""
        pixels = self.pixels
        if pixels is None:
            return
        pixels.on_event = self.dice_event
        try:
            await pixels.start()
        except Exception as error:  # no Bluetooth adapter, BlueZ not running, ...
            self.pixels = None  # these dice are not there: the button rolls
            words = bluetooth_trouble(error)
            self.news.problem(f"the electronic dice cannot be read: {words}; the button rolls")

    def dice_event(self, event: DiceEvent) -> None:
        """Electronic dice news: problems (out of range, low battery, lost) are alerts; a die
        a roll waits for that cannot be heard says the button rolls instead."""
        if event.kind in ALERTS:
            self.news.alert(self._with_way_on(event))
        else:
            self.news.say(event.message)

    def _with_way_on(self, event: DiceEvent) -> str:
        """The event's words, and the roll button's part when the roll being read waits for a
        die that cannot be heard (it would wait until the die came back)."""
        waiting = self.pixels.waiting_for if self.pixels is not None else ()
        held_up = event.kind in UNHEARD and bool(waiting)
        if held_up and (not event.roles or set(event.roles) & set(waiting)):
            return f"{event.message}: {BUTTON_ROLLS}"
        return event.message

    def electronic(self) -> bool:
        """True when electronic dice are there to be thrown (the button is the fallback)."""
        return self.pixels is not None

    def read_thrown(self) -> None:
        """Wait for thrown electronic dice (once: asking again while waiting changes nothing)."""
        if self._reading is None or self._reading.done():
            self._reading = asyncio.get_running_loop().create_task(self._thrown())

    async def _thrown(self) -> None:
        """The roll is whatever the dice show once every die in play has landed."""
        table = self.table
        pixels = self.pixels
        while pixels is not None and table.game is not None and table.game.phase is ROLL:
            in_play = table.game.dice_in_play()
            try:
                white, colours = await pixels.wait_for_roll(in_play, timeout=THROW_WAIT)
            except TimeoutError as waiting:  # the dice say which of them are still missing
                self.news.say(str(waiting))
                continue
            table.submit(Roll(white, colours))
            return

    def stop_reading(self) -> None:
        if self._reading is not None:
            self._reading.cancel()
            self._reading = None

    async def close(self) -> None:
        """The table stops: no more reading, and the electronic dice let go."""
        self.stop_reading()
        if self.pixels is not None:
            await self.pixels.close()
