"""Pixels dice read through bleak's real BlueZ backend: bleak and dbus-fast unchanged, talking
over a private D-Bus system bus to an `org.bluez` written for the tests (tests/support/bluez),
behind which Pixels dice behave as Systemic Games' published protocol says.

Skipped, with the reason, where no dbus-daemon can be started (./dev test installs it as root).
"""

import asyncio

import pytest
from support.bluez import PixelsDie, Radio, serving
from support.bluez.bus import private_system_bus

from drivers.pixels import BleakPixelsScanner, DiceEventKind, PixelsReader

DICE = {
    "white 1": 0x1A2B_0001,
    "white 2": 0x1A2B_0002,
    "red": 0x1A2B_0003,
    "yellow": 0x1A2B_0004,
    "green": 0x1A2B_0005,
    "blue": 0x1A2B_0006,
}
ALL_COLOURS = ["red", "yellow", "green", "blue"]
LIMIT = 30.0  # seconds that only bound a hang on a loaded machine


@pytest.fixture
def bus(tmp_path, monkeypatch):
    """A private system bus, taken by bleak (through dbus-fast) for the machine's."""
    with private_system_bus(tmp_path) as address:
        monkeypatch.setenv("DBUS_SYSTEM_BUS_ADDRESS", address)
        yield address


def table_dice(**changes):
    """The six dice of a table, lying still on face 1; `changes` per role (e.g. battery)."""
    return [PixelsDie(die_id, **changes.get(role, {})) for role, die_id in DICE.items()]


class Tower:
    """The tower's dice reader on bleak, with the radio behind BlueZ and what it reported."""

    def __init__(self, radio: Radio, **settings):
        self.radio = radio
        self.events = []
        self._news = asyncio.Event()
        self.reader = PixelsReader(
            settings.pop("dice", DICE),
            scanner=BleakPixelsScanner(**settings.pop("scanner", {})),
            on_event=self._take,
            **settings,
        )

    def _take(self, event):
        self.events.append(event)
        self._news.set()

    def messages(self, kind):
        return [event.message for event in self.events if event.kind is kind]

    async def linked(self, roles=tuple(DICE)):
        """Wait until the tower holds a link to every die in `roles`."""
        ids = {DICE[role] for role in roles}
        await self.radio.wait_for(lambda: ids <= set(self.radio.linked()))
        await self.heard(lambda: len(self.messages(DiceEventKind.FOUND)) >= len(ids))

    async def heard(self, condition):
        """Wait until `condition()` holds; checked after each event the reader reports."""
        while not condition():
            self._news.clear()
            await self._news.wait()


def run(bus, scenario, radio=None, **settings):
    """`scenario(tower)` with the stand-in serving `radio` (the six dice by default)."""

    async def main():
        async with serving(bus, radio or Radio(table_dice())) as served:
            tower = Tower(served, **settings)
            async with tower.reader:
                return await asyncio.wait_for(scenario(tower), LIMIT)

    return asyncio.run(main())


def test_a_roll_of_the_six_thrown_dice_comes_through_bleak_unchanged(bus):
    faces = {"white 1": 3, "white 2": 5, "red": 6, "yellow": 1, "green": 2, "blue": 4}

    async def scenario(tower):
        await tower.linked()
        roll = asyncio.create_task(tower.reader.wait_for_roll(ALL_COLOURS, timeout=LIMIT))
        await tower.heard(lambda: tower.reader.waiting_for)
        for role, face in faces.items():
            tower.radio.throw(DICE[role], face)
        return await roll

    radio = Radio(table_dice())
    white, colours = run(bus, scenario, radio)
    assert white == (3, 5)
    assert colours == {"red": 6, "yellow": 1, "green": 2, "blue": 4}
    # Each die was asked who it is (WhoAreYou, id 1), with a response as its characteristic allows
    assert sorted(radio.writes) == sorted((die, b"\x01", "request") for die in DICE.values())
