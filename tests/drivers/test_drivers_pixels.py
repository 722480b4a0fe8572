"""Pixels dice: the published byte layouts, and rolls read the way players at the table see them.

No Bluetooth: the package's simulated scanner plays the radio and delivers advertisements of
simulated dice (drivers/simulated/pixels.py), built byte by byte from
GameWithPixels/.github doc/CommunicationsProtocol.md ("Advertisement": manufacturer data is LED
count, design & colour, roll state, face index, battery percent with the MSB set when charging;
service data is the Pixel id and the firmware build timestamp, u32 little-endian each). Roll state
numbers are those of pixels-js packages/pixels-core-connect/src/PixelRollState.ts. A fake clock
decides when dice fall silent and when a roll's time is up; no test depends on how fast it runs.
"""

import asyncio
import subprocess
import sys

import pytest
from support.fakes import FakeClock
from support.pixels import DICE

from drivers.errors import (
    DiceNotLandedError,
    DriverClosedError,
    DriverConfigError,
    PixelsConfigError,
    RollInProgressError,
)
from drivers.pixels import (
    BatteryMessage,
    DiceEventKind,
    DieStatus,
    PixelsReader,
    RollState,
    RollStateMessage,
    describe_waiting,
    parse_advertisement,
    parse_notification,
)
from drivers.simulated.pixels import (
    CROOKED,
    HANDLING,
    ON_FACE,
    ROLLED,
    ROLLING,
    SERVICE,
    SYSTEMIC_GAMES,
    SimulatedScanner,
)

ALL_COLOURS = ["red", "yellow", "green", "blue"]
SAFETY = 5.0  # real seconds before a test gives up on a roll that should already be read


class Table:
    """A started reader with its fake radio, fake clock and the events it reported."""

    def __init__(self, **settings):
        self.clock = FakeClock()
        self.radio = settings.pop("scanner", None) or SimulatedScanner(DICE)
        self.events = []
        self.reader = PixelsReader(
            settings.pop("dice", DICE),
            scanner=self.radio,
            clock=self.clock,
            on_event=self.events.append,
            poll_interval=3600,  # the watchdog stays out of the way; tests call poll() themselves
            **settings,
        )

    def messages(self, kind):
        return [event.message for event in self.events if event.kind is kind]

    async def start_roll(self, colours=ALL_COLOURS, timeout=30):
        """Start waiting for a roll, and let the wait begin before the dice do anything."""
        task = asyncio.create_task(self.reader.wait_for_roll(colours, timeout=timeout))
        await settle()
        return task

    async def time_out(self, task, after=31):
        """Move the clock past the roll's time and return what the wait raised."""
        self.clock.advance(after)
        self.reader.poll()
        with pytest.raises(DiceNotLandedError) as raised:
            await asyncio.wait_for(task, SAFETY)
        return raised.value


async def settle():
    """Let every task that can run, run."""
    for _ in range(5):
        await asyncio.sleep(0)


def play(scenario):
    """Run `scenario(table)` on a fresh, started table and close it afterwards."""

    async def main():
        table = Table()
        async with table.reader:
            return await scenario(table)

    return asyncio.run(main())


# --- Parsing the published layouts ----------------------------------------------------------


def test_an_advertisement_gives_the_die_its_face_state_and_battery():
    # Manufacturer data per CommunicationsProtocol.md: 06 LEDs, 21 design (d6, onyx black),
    # 01 roll state "rolled", 03 face index (face 4), b9 battery = 0x80 charging | 57 percent.
    manufacturer = {SYSTEMIC_GAMES: bytes.fromhex("06 21 01 03 b9")}
    # Service data: Pixel id 0x1a2b3c4d, then build timestamp 0x6553f100, both little-endian.
    service = {SERVICE: bytes.fromhex("4d 3c 2b 1a 00 f1 53 65")}
    assert parse_advertisement(manufacturer, service) == DieStatus(
        die_id=0x1A2B3C4D, roll_state=RollState.ROLLED, face=4, battery=57, charging=True
    )


def test_advertisements_keyed_as_older_firmware_did_are_read_too():
    # Older firmware used company id 0xffff and the Device Information UUID (0x180a) as keys;
    # the payloads have the same layout: handling, face index 0 (face 1), 100 percent, unplugged.
    manufacturer = {0xFFFF: bytes.fromhex("06 21 02 00 64")}
    service = {"0000180a-0000-1000-8000-00805f9b34fb": bytes.fromhex("01 00 00 00 00 00 00 00")}
    status = parse_advertisement(manufacturer, service)
    assert (status.die_id, status.roll_state, status.face, status.battery) == (
        1,
        RollState.HANDLING,
        1,
        100,
    )
    assert status.charging is False


@pytest.mark.parametrize(
    ("manufacturer", "service"),
    [
        ({}, {SERVICE: bytes(8)}),  # no manufacturer data
        ({SYSTEMIC_GAMES: bytes.fromhex("06 21 01 03")}, {SERVICE: bytes.fromhex("01" * 8)}),
        ({SYSTEMIC_GAMES: bytes.fromhex("06 21 01 03 50")}, {}),  # no service data: no Pixel id
        ({SYSTEMIC_GAMES: bytes.fromhex("06 21 01 03 50")}, {SERVICE: bytes(8)}),  # id 0
    ],
)
def test_advertisements_without_a_pixel_id_and_state_are_not_dice(manufacturer, service):
    assert parse_advertisement(manufacturer, service) is None


def test_roll_state_notifications_give_the_state_and_the_face():
    # RollState message: id 3, roll state, face index.
    assert parse_notification(bytes([3, ROLLING, 0])) == RollStateMessage(RollState.ROLLING, 1)
    assert parse_notification(bytes([3, ROLLED, 5])) == RollStateMessage(RollState.ROLLED, 6)
    assert parse_notification(bytes([3, CROOKED, 2])).roll_state is RollState.CROOKED


def test_battery_notifications_give_the_level_and_whether_it_charges():
    # BatteryLevel message: id 34, level percent, battery state (PixelBatteryState: 0 ok,
    # 1 low, 2 charging, 3 done).
    assert parse_notification(bytes([34, 15, 1])) == BatteryMessage(battery=15, charging=False)
    assert parse_notification(bytes([34, 80, 2])) == BatteryMessage(battery=80, charging=True)


def test_an_i_am_a_die_answer_identifies_the_die_and_its_state():
    # IAmADie, field by field as in CommunicationsProtocol.md: id 2, 6 LEDs, design 0x21,
    # one spare byte, data set hash, Pixel id 0x1a2b3c4d, available flash 0x1000,
    # build timestamp, roll state "rolled", face index 4, battery 42 percent, state 0 (ok).
    data = bytes.fromhex("02 06 21 02 ef be ad de 4d 3c 2b 1a 00 10 00 f1 53 65 01 04 2a 00")
    assert parse_notification(data) == DieStatus(
        die_id=0x1A2B3C4D, roll_state=RollState.ROLLED, face=5, battery=42, charging=False
    )


def test_other_messages_and_unknown_states_are_not_taken_for_landings():
    assert parse_notification(bytes([29, 1, 2, 3])) is None  # Blink: not one the reader needs
    assert parse_notification(b"") is None
    assert parse_notification(bytes([3, 9, 0])).roll_state is RollState.UNKNOWN


def test_waiting_messages_name_the_dice_in_plain_words():
    assert describe_waiting(["red", "white 2"]) == "waiting for the red die and white 2"
    assert describe_waiting(["white 1"]) == "waiting for white 1"
    assert describe_waiting(["white 1", "green", "blue"]) == (
        "waiting for white 1, the green die and the blue die"
    )


# --- Reading rolls ---------------------------------------------------------------------------


def test_a_roll_is_read_once_every_die_in_play_has_landed():
    async def scenario(table):
        task = await table.start_roll(["red", "blue"])
        for role, face in [("white 1", 3), ("white 2", 5), ("red", 6), ("blue", 1)]:
            table.radio.roll(role, face)
        return await asyncio.wait_for(task, SAFETY)

    assert play(scenario) == ((3, 5), {"red": 6, "blue": 1})


def test_a_die_still_rolling_is_named_in_what_the_reader_waits_for():
    async def scenario(table):
        task = await table.start_roll(["red", "yellow", "green", "blue"])
        for role in ["white 1", "white 2", "yellow", "green", "blue"]:
            table.radio.roll(role, 2)
        table.radio.advertise(DICE["red"], ROLLING, 4)
        await settle()
        assert not task.done()
        assert table.reader.waiting_for == ("red",)
        assert table.messages(DiceEventKind.WAITING)[-1] == "waiting for the red die"
        error = await table.time_out(task)
        assert str(error) == "waiting for the red die"
        assert error.waiting_for == ("red",)

    play(scenario)


def test_a_die_picked_up_again_after_landing_must_land_again():
    async def scenario(table):
        task = await table.start_roll(["green"])
        table.radio.roll("white 1", 4)
        table.radio.roll("white 2", 4)
        table.radio.advertise(DICE["white 1"], HANDLING, 4)  # a player grabs it back
        table.radio.roll("green", 2)
        await settle()
        assert not task.done()
        assert table.reader.waiting_for == ("white 1",)
        table.radio.advertise(DICE["white 1"], ROLLING, 4)
        table.radio.advertise(DICE["white 1"], ROLLED, 1)
        return await asyncio.wait_for(task, SAFETY)

    assert play(scenario) == ((1, 4), {"green": 2})


def test_dice_lying_still_since_the_last_roll_are_not_read_again():
    async def scenario(table):
        first = await table.start_roll(["red"])
        for role, face in [("white 1", 6), ("white 2", 6), ("red", 6)]:
            table.radio.roll(role, face)
        assert await asyncio.wait_for(first, SAFETY) == ((6, 6), {"red": 6})

        second = await table.start_roll(["red"])
        for role in ["white 1", "white 2", "red"]:
            table.radio.advertise(DICE[role], ROLLED, 6)  # the same dice, still lying there
        await settle()
        assert not second.done()
        error = await table.time_out(second)
        assert str(error) == "waiting for white 1, white 2 and the red die"

        third = await table.start_roll(["red"])
        for role, face in [("white 1", 2), ("white 2", 3), ("red", 4)]:
            table.radio.roll(role, face)
        return await asyncio.wait_for(third, SAFETY)

    assert play(scenario) == ((2, 3), {"red": 4})


def test_a_die_found_on_a_new_face_has_moved_even_if_its_roll_was_not_heard():
    async def scenario(table):
        for role in ["white 1", "white 2"]:
            table.radio.advertise(DICE[role], ROLLED, 2)
        task = await table.start_roll([])
        table.radio.advertise(DICE["white 1"], ROLLED, 5)  # its handling and rolling went unheard
        table.radio.roll("white 2", 2)
        return await asyncio.wait_for(task, SAFETY)

    assert play(scenario) == ((5, 2), {})


def test_a_die_set_down_by_hand_or_left_crooked_has_not_landed():
    async def scenario(table):
        task = await table.start_roll([])
        table.radio.advertise(DICE["white 1"], HANDLING, 3)
        table.radio.advertise(DICE["white 1"], ON_FACE, 3)  # placed, not rolled
        table.radio.advertise(DICE["white 2"], ROLLING, 3)
        table.radio.advertise(DICE["white 2"], CROOKED, 3)  # leaning against the tower
        error = await table.time_out(task)
        assert error.waiting_for == ("white 1", "white 2")

    play(scenario)


def test_a_locked_colours_die_is_left_out_of_the_roll():
    async def scenario(table):
        task = await table.start_roll(["red", "yellow", "blue"])  # green is locked
        table.radio.advertise(DICE["green"], ROLLING, 3)  # someone plays with the green die
        for role, face in [("white 1", 1), ("white 2", 2), ("red", 3), ("yellow", 4)]:
            table.radio.roll(role, face)
        table.radio.roll("blue", 5)
        return await asyncio.wait_for(task, SAFETY)

    assert play(scenario) == ((1, 2), {"red": 3, "yellow": 4, "blue": 5})


def test_dice_that_are_not_configured_are_ignored():
    async def scenario(table):
        task = await table.start_roll([])
        stranger = 0x0BAD_F00D
        assert table.radio.advertise(stranger, HANDLING, 1) is False
        assert table.radio.advertise(stranger, ROLLED, 6) is False
        assert table.messages(DiceEventKind.FOUND) == []
        table.radio.roll("white 1", 2)
        table.radio.roll("white 2", 3)
        return await asyncio.wait_for(task, SAFETY)

    assert play(scenario) == ((2, 3), {})


def test_a_connected_die_is_read_from_its_roll_state_messages():
    async def scenario(table):
        table.radio.advertise(DICE["white 2"], ROLLED, 1)  # found by its advertisement
        table.radio.link("white 2", True)
        task = await table.start_roll([])
        table.radio.roll("white 1", 6)
        table.radio.notify("white 2", bytes([3, ROLLING, 0]))
        table.radio.notify("white 2", bytes([3, ROLLED, 3]))  # face index 3: face 4
        return await asyncio.wait_for(task, SAFETY)

    assert play(scenario) == ((6, 4), {})


# --- What the table is told --------------------------------------------------------------------


def test_a_silent_die_is_reported_out_of_range_once_and_back_when_heard():
    async def scenario(table):
        for role in DICE:
            table.radio.advertise(DICE[role], ROLLED, 1)
        table.clock.advance(6)
        for role in ["white 1", "white 2", "yellow", "green", "blue"]:
            table.radio.advertise(DICE[role], ROLLED, 1)
        table.clock.advance(6)
        table.reader.poll()
        table.reader.poll()
        assert table.messages(DiceEventKind.OUT_OF_RANGE) == ["the red die is out of range"]
        table.radio.advertise(DICE["red"], ROLLED, 1)
        assert table.messages(DiceEventKind.BACK_IN_RANGE) == ["the red die is back in range"]

    play(scenario)


def test_a_die_never_heard_is_reported_out_of_range():
    async def scenario(table):
        table.clock.advance(9)
        table.reader.poll()
        assert table.messages(DiceEventKind.OUT_OF_RANGE) == []
        for role in ["white 1", "white 2", "red", "yellow", "green"]:
            table.radio.advertise(DICE[role], ROLLED, 1)
        table.clock.advance(1)
        table.reader.poll()
        assert table.messages(DiceEventKind.OUT_OF_RANGE) == ["the blue die is out of range"]
        table.radio.advertise(DICE["blue"], ROLLED, 1)
        assert "found the blue die" in table.messages(DiceEventKind.FOUND)

    play(scenario)


def test_a_low_battery_is_reported_once_until_the_die_has_been_charged():
    async def scenario(table):
        table.radio.advertise(DICE["yellow"], ROLLED, 1, battery=35)
        table.radio.advertise(DICE["yellow"], ROLLED, 1, battery=18)
        table.radio.advertise(DICE["yellow"], ROLLED, 1, battery=17)
        table.radio.advertise(DICE["white 1"], ROLLED, 1, battery=9, charging=True)
        assert table.messages(DiceEventKind.LOW_BATTERY) == ["the yellow die: battery low (18%)"]
        table.radio.advertise(DICE["yellow"], ROLLED, 1, battery=17, charging=True)
        table.radio.advertise(DICE["yellow"], ROLLED, 1, battery=15)
        assert table.messages(DiceEventKind.LOW_BATTERY)[-1] == "the yellow die: battery low (15%)"
        assert len(table.messages(DiceEventKind.LOW_BATTERY)) == 2
        table.radio.notify("yellow", bytes([34, 12, 0]))  # connected dice say so by message
        assert len(table.messages(DiceEventKind.LOW_BATTERY)) == 2

    play(scenario)


def test_a_dropped_connection_and_the_reconnect_are_reported():
    async def scenario(table):
        table.radio.advertise(DICE["white 1"], ROLLED, 1)
        table.radio.link("white 1", True)
        table.clock.advance(60)  # connected dice stop advertising: silence is not absence
        table.reader.poll()
        assert "white 1 is out of range" not in table.messages(DiceEventKind.OUT_OF_RANGE)
        table.radio.link("white 1", False)
        table.radio.link("white 1", True)
        assert table.messages(DiceEventKind.CONNECTION_LOST) == ["lost the connection to white 1"]
        assert table.messages(DiceEventKind.RECONNECTED) == ["reconnected to white 1"]

    play(scenario)


def test_a_failing_event_handler_does_not_stop_the_dice_being_read():
    async def scenario(table):
        def broken(event):
            raise RuntimeError("display unplugged")

        table.reader.on_event = broken
        task = await table.start_roll([])
        table.radio.roll("white 1", 5)
        table.radio.roll("white 2", 6)
        return await asyncio.wait_for(task, SAFETY)

    assert play(scenario) == ((5, 6), {})


# --- Configuration and lifetime -------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "named"),
    [
        ({**DICE, "purple": 7}, "purple"),
        ({"white 1": 1, "red": 3}, "white 2"),
        ({**DICE, "red": DICE["blue"]}, "both"),
        ({**DICE, "red": "0x1a2b0003"}, "red"),
        ({**DICE, "red": 0}, "red"),
        ({**DICE, "red": 2**32}, "red"),
        ({**DICE, "red": True}, "red"),
    ],
)
def test_a_bad_dice_map_is_refused_with_the_setting_named(dice, named):
    with pytest.raises(PixelsConfigError, match=named) as raised:
        PixelsReader(dice, scanner=SimulatedScanner())
    assert "[dice.pixels]" in str(raised.value)  # the configuration's table, as written
    assert "pixels.dice" not in str(raised.value)
    assert isinstance(raised.value, DriverConfigError)


def test_a_colour_in_play_without_a_die_is_refused():
    async def scenario():
        reader = PixelsReader({"white 1": 1, "white 2": 2, "red": 3}, scanner=SimulatedScanner())
        with pytest.raises(PixelsConfigError, match="'blue' is in play"):
            await reader.wait_for_roll(["red", "blue"], timeout=30)

    asyncio.run(scenario())


def test_only_one_roll_is_read_at_a_time():
    async def scenario(table):
        task = await table.start_roll([])
        with pytest.raises(RollInProgressError):
            await table.reader.wait_for_roll([], timeout=30)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        # Cancelling a wait (the table rolled in software instead) frees the reader.
        again = await table.start_roll([])
        table.radio.roll("white 1", 1)
        table.radio.roll("white 2", 1)
        return await asyncio.wait_for(again, SAFETY)

    assert play(scenario) == ((1, 1), {})


def test_close_is_idempotent_and_ends_a_wait():
    async def scenario():
        table = Table()
        await table.reader.start()
        task = await table.start_roll([])
        await table.reader.close()
        await table.reader.close()
        with pytest.raises(DriverClosedError):
            await asyncio.wait_for(task, SAFETY)
        with pytest.raises(DriverClosedError):
            await table.reader.wait_for_roll([], timeout=30)
        assert table.radio.stops == 1
        assert table.reader.closed

    asyncio.run(scenario())


def test_the_module_imports_without_bleak():
    # sys.modules[name] = None makes `import bleak` fail, as on a machine without it.
    code = (
        "import sys; sys.modules['bleak'] = None; "
        "import drivers.pixels as p; p.BleakPixelsScanner()"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
