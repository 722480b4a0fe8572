"""Simulated Pixels dice: a die as the radio meets it, and a radio that hands dice to
`drivers.pixels.PixelsReader` with no Bluetooth at all.

`PixelsDie` is one die from Systemic Games' published protocol: what it advertises, the messages
it sends a connected central, and its answers to the messages it gets. Like the firmware (nRF SDK
advertising), a die advertises only while no central holds it, and rewrites its advertisement on
every roll-state change. `SimulatedScanner` is a `PixelsScanner` for the reader: the program
holding it throws the dice, and their advertisements, messages and links reach the reader as
bleak would deliver them (the tests' BlueZ stand-in serves `PixelsDie`s over D-Bus instead).

Written from GameWithPixels/.github doc/CommunicationsProtocol.md (advertisement layout, message
ids, IAmADie), pixels-js PixelRollState.ts (roll states), PixelBatteryState.ts (battery states),
PixelsBluetoothIds.ts (UUIDs, company id) and DiceFirmware bluetooth_messages.h (message ids up to
BatteryLevel): not from the driver's own parser (drivers/pixels.py), so the two check each other.

    radio = SimulatedScanner({"white 1": 0x1A2B0001, "white 2": 0x1A2B0002})
    reader = PixelsReader(radio.dice, scanner=radio)
    ...                                  # once the reader has started and waits for a roll:
    radio.roll("white 1", 6)             # picked up, rolling, landed on 6
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from drivers.pixels import PixelsListener

SERVICE = "a6b90001-7a5a-43f2-a962-350c8edc9b5b"
NOTIFY = "a6b90002-7a5a-43f2-a962-350c8edc9b5b"
WRITE = "a6b90003-7a5a-43f2-a962-350c8edc9b5b"
# Dice of the first firmware used the Nordic UART service's UUIDs (CommunicationsProtocol.md).
LEGACY_SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
LEGACY_NOTIFY = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
LEGACY_WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
SYSTEMIC_GAMES = 0x0D39  # Bluetooth SIG company id of Systemic Games
BUILD_TIMESTAMP = 1_700_000_000
D6_ONYX_BLACK = 0x21  # design and colour: d6 (2) << 4 | onyx black (1)
LEDS = 6

# Roll states (PixelRollStateValues) and battery states (PixelBatteryStateValues)
ROLLED, HANDLING, ROLLING, CROOKED, ON_FACE = 1, 2, 3, 4, 5
BATTERY_OK, BATTERY_LOW, BATTERY_CHARGING, BATTERY_DONE = 0, 1, 2, 3
# Message ids (bluetooth_messages.h MessageType)
WHO_ARE_YOU, I_AM_A_DIE, ROLL_STATE = 1, 2, 3
REQUEST_ROLL_STATE, REQUEST_BATTERY_LEVEL, BATTERY_LEVEL = 23, 33, 34
LOW_BATTERY = 20  # percent at or below which a die reports its battery low


@dataclass
class PixelsDie:
    """One die: its Pixel id, where it lies, its battery, and whether the radio can reach it."""

    die_id: int
    address: str = ""
    face: int = 1
    roll_state: int = ON_FACE
    battery: int = 90
    charging: bool = False
    in_range: bool = True
    held_elsewhere: bool = False  # connected to a phone's Pixels app: silent to everyone else
    eludes: bool = False  # leaves as a central connects: heard, gone before the link is made
    name: str = ""
    legacy: bool = False  # first firmware: the legacy service and characteristic UUIDs
    heard: list[bytes] = field(default_factory=list)  # messages a central wrote to it

    def __post_init__(self) -> None:
        if not self.address:
            self.address = address_of(self.die_id)
        if not self.name:
            self.name = f"Pixel {self.die_id:08X}"

    @property
    def uuids(self) -> tuple[str, str, str]:
        """Its service, notify and write characteristics' UUIDs."""
        if self.legacy:
            return LEGACY_SERVICE, LEGACY_NOTIFY, LEGACY_WRITE
        return SERVICE, NOTIFY, WRITE

    @property
    def advertising(self) -> bool:
        """Heard by a scanning adapter: in range and held by no one (a connection stops it)."""
        return self.in_range and not self.held_elsewhere

    def manufacturer_data(self) -> bytes:
        """LED count, design and colour, roll state, face index, battery (MSB: charging)."""
        battery = self.battery | (0x80 if self.charging else 0)
        return bytes([LEDS, D6_ONYX_BLACK, self.roll_state, self.face - 1, battery])

    def service_data(self) -> bytes:
        """The Pixel id and the firmware's build timestamp, little-endian u32 each."""
        return struct.pack("<II", self.die_id, BUILD_TIMESTAMP)

    def roll_state_message(self) -> bytes:
        return bytes([ROLL_STATE, self.roll_state, self.face - 1])

    def battery_message(self) -> bytes:
        return bytes([BATTERY_LEVEL, self.battery, self.battery_state()])

    def battery_state(self) -> int:
        if self.charging:
            return BATTERY_CHARGING
        return BATTERY_LOW if self.battery <= LOW_BATTERY else BATTERY_OK

    def i_am_a_die(self) -> bytes:
        """IAmADie: id, LEDs, design, a spare byte, data set hash, Pixel id, available flash,
        build timestamp, roll state, face index, battery level, battery state."""
        return struct.pack(
            "<BBBBIIHIBBBB",
            I_AM_A_DIE,
            LEDS,
            D6_ONYX_BLACK,
            0,
            0xDEADBEEF,
            self.die_id,
            0x1000,
            BUILD_TIMESTAMP,
            self.roll_state,
            self.face - 1,
            self.battery,
            self.battery_state(),
        )

    def answer(self, message: bytes) -> list[bytes]:
        """The die's replies to a message a central wrote to it (none for those it ignores)."""
        self.heard.append(bytes(message))
        kind = message[0] if message else None
        if kind == WHO_ARE_YOU:
            return [self.i_am_a_die()]
        if kind == REQUEST_ROLL_STATE:
            return [self.roll_state_message()]
        if kind == REQUEST_BATTERY_LEVEL:
            return [self.battery_message()]
        return []


def throw_states(start: int, face: int, tumbles: int = 2) -> list[tuple[int, int]]:
    """The (roll state, face) a throw from `start` goes through: picked up, tumbling over other
    faces, landed on `face`."""
    tumbling = [(ROLLING, (face + n) % 6 + 1) for n in range(tumbles)]
    return [(HANDLING, start), *tumbling, (ROLLED, face)]


def address_of(die_id: int) -> str:
    """The Bluetooth address a simulated die has: its Pixel id behind a made-up prefix."""
    return "D0:5E:" + ":".join(f"{b:02X}" for b in die_id.to_bytes(4, "big"))


class SimulatedScanner:
    """A radio for `PixelsReader` (its `scanner`) with no Bluetooth: the program holding it
    throws the dice of `dice` (role -> Pixel id, as the reader binds them) and reports their
    links and messages; each reaches the reader as the real scanner would hand it on.
    `listener` is the reader once started; `stops` counts the calls of `stop`."""

    def __init__(self, dice: Mapping[str, int] | None = None) -> None:
        self.dice = dict(dice or {})
        self.listener: PixelsListener | None = None
        self.stops = 0

    async def start(self, listener: PixelsListener) -> None:
        self.listener = listener

    async def stop(self) -> None:
        self.stops += 1

    def advertise(
        self, die_id: int, state: int, face: int, battery: int = 90, charging: bool = False
    ) -> bool:
        """One advertisement of the die `die_id`, in roll `state` on `face`, laid out as
        CommunicationsProtocol.md says; True if the reader took it for one of its dice."""
        die = PixelsDie(die_id, face=face, roll_state=state, battery=battery, charging=charging)
        return self._listening().on_advertisement(
            die.address, {SYSTEMIC_GAMES: die.manufacturer_data()}, {SERVICE: die.service_data()}
        )

    def roll(self, role: str, face: int) -> None:
        """A proper throw of the die in `role`: picked up, rolling, landed on `face`."""
        for state in (HANDLING, ROLLING):
            self.advertise(self.dice[role], state, face)
        self.advertise(self.dice[role], ROLLED, face)

    def notify(self, role: str, data: bytes) -> None:
        """A message from the die in `role` over its link (e.g. its RollState)."""
        self._listening().on_notification(address_of(self.dice[role]), data)

    def link(self, role: str, connected: bool) -> None:
        """The link to the die in `role` came up (True) or went down (False)."""
        self._listening().on_link(address_of(self.dice[role]), connected)

    def _listening(self) -> PixelsListener:
        if self.listener is None:
            raise RuntimeError("the simulated scanner has not been started: nobody listens")
        return self.listener
