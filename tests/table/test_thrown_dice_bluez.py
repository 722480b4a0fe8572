"""The table with Pixels dice read through bleak's real BlueZ backend and the BlueZ stand-in
(tests/support/bluez): what the players see on the main display when a die drops mid-roll or
Bluetooth cannot be used, and that the roll button takes over. The displays are luma's dummy
devices, the button gpiozero's mock pin, as `run` has them without a configuration.

Skipped, with the reason, where no dbus-daemon can be started (./dev test installs it as root).
"""

import asyncio

import pytest
from PIL import Image
from support import HANG
from support.bluez import PixelsDie, Radio, serving
from support.bluez.bus import private_system_bus
from support.pixels import DICE

from drivers.display import SHIFT_OFFSETS
from drivers.pixels import BleakPixelsScanner, PixelsReader
from firmware_py.app.assembly import build_table
from firmware_py.app.config import SIMULATED
from firmware_py.app.hardware import build_hardware
from firmware_py.journal.journal import Journal
from firmware_py.seating import KEYBOARD, SeatSpec
from firmware_py.show.screens import render
from sheets import load_sheet

LIMIT = HANG  # seconds that only bound a hang on a loaded machine
PRESS = 0.06  # seconds a finger holds the button: longer than its debounce


@pytest.fixture
def bus(tmp_path, monkeypatch):
    with private_system_bus(tmp_path) as address:
        monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", address)
        yield address


class Watched:
    """A table with Kim at the keyboard and the Pixels dice, and every view it presented
    (presenters are called after the displays have drawn the view)."""

    def __init__(self, tmp_path):
        hardware = build_hardware(SIMULATED, load_sheet("classic").dice_faces)
        hardware.pixels = PixelsReader(DICE, scanner=BleakPixelsScanner())
        self.table = build_table(
            hardware,
            seats=[SeatSpec("Kim", KEYBOARD)],
            variant="classic",
            journal=Journal(tmp_path),
            pace=0.005,
            autoplay=True,
        )
        self.views = []
        self.on_main = []  # the messages of the views seen on the main display as presented
        self._changed = asyncio.Event()
        self.table.subscribe(self._seen)

    def _seen(self, view):
        self.views.append(view)
        if view.message and self.main_display_shows(view):
            self.on_main.append(view.message)
        self._changed.set()

    async def until(self, condition):
        """Wait until `condition()` holds; checked after each view the table presents."""
        while not condition():
            self._changed.clear()
            await self._changed.wait()

    def shown(self, words):
        """`words` were on the main display."""
        return words in self.on_main

    def main_display_shows(self, view):
        """The main display's panel holds `view` as drawn (under any burn-in shift)."""
        frame = render(view, "main")
        panel = self.table.hardware.displays["main"].device.image.tobytes()
        return any(_shifted(frame, offset) == panel for offset in SHIFT_OFFSETS)

    async def press_roll_button(self):
        pin = self.table.hardware.button_factory.pin(self.table.hardware.button_pin)
        pin.drive_low()
        await asyncio.sleep(PRESS)
        pin.drive_high()


def _shifted(frame, offset):
    panel = Image.new("1", frame.size)
    panel.paste(frame, offset)
    return panel.tobytes()


def play(tmp_path, bus, radio, scenario):
    """`scenario(watched)` with the table running and the stand-in serving `radio`."""

    async def main():
        async with serving(bus, radio):
            watched = Watched(tmp_path)
            running = asyncio.create_task(watched.table.run())
            try:
                await asyncio.wait_for(scenario(watched), LIMIT)
            finally:
                watched.table.stop()
                await running
                watched.table.hardware.close()

    asyncio.run(main())


def six_dice(**changes):
    return Radio([PixelsDie(die_id, **changes.get(role, {})) for role, die_id in DICE.items()])


def test_a_die_dropping_mid_roll_is_named_on_the_main_display_and_the_button_rolls(tmp_path, bus):
    radio = six_dice()

    async def scenario(watched):
        table = watched.table
        await radio.wait_for(lambda: set(DICE.values()) <= radio.listened_to())
        table.new_game()
        await watched.until(lambda: table.thrown.pixels.waiting_for)
        for role, die_id in DICE.items():
            if role != "red":
                radio.throw(die_id, 5)
        radio.leave(DICE["red"])
        lost = "lost the connection to the red die"
        await watched.until(lambda: watched.shown(lost))
        assert table.game.phase == "roll"  # no roll without the red die ...
        await watched.press_roll_button()  # ... until the players press the button
        await watched.until(lambda: table.game.phase == "action1")
        assert table.game.dice is not None

    play(tmp_path, bus, radio, scenario)


@pytest.mark.parametrize(
    ("radio", "why"),
    [
        (Radio([PixelsDie(d) for d in DICE.values()], adapter=False), " has no Bluetooth adapter"),
        (
            Radio([PixelsDie(d) for d in DICE.values()], powered=False),
            "'s Bluetooth is switched off",
        ),
    ],
    ids=["no adapter", "adapter off"],
)
def test_bluetooth_that_cannot_be_used_is_said_on_the_display_and_the_button_rolls(
    tmp_path, bus, radio, why
):
    async def scenario(watched):
        table = watched.table
        said = f"the electronic dice cannot be read: the tower{why}; the button rolls"
        await watched.until(lambda: watched.shown(said))
        assert table.thrown.pixels is None  # the tower no longer waits for thrown dice
        table.new_game()
        await watched.press_roll_button()
        await watched.until(lambda: table.game.phase == "action1")

    play(tmp_path, bus, radio, scenario)
