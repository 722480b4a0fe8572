"""Pixels electronic dice (Systemic Games) over Bluetooth LE: which face each die in play landed on.

Each die in play is bound by its Pixel id to a role ("white 1", "white 2", "red", "yellow",
"green", "blue"). `PixelsReader.wait_for_roll` returns a roll in the shape of
`drivers.dice.SoftwareDice.roll` once every die in play has landed since the wait began, or says
which dice it is still waiting for. Dice that fall silent, come back, lose or regain their
connection, or run low on battery are reported as `DiceEvent`s for the table to show. The reader
does not own the roll button, and the software dice stay available as the fallback: the table
decides, e.g. on `DiceNotLandedError`, to roll in software instead.

The protocol is implemented from Systemic Games' published documents and open-source code, read
at these commits (repository, path, commit):

- GameWithPixels/.github, doc/CommunicationsProtocol.md, 4c7f4c92d087656a12089ea986d12fc2ce0a57c3:
  the advertisement layout (manufacturer data: LED count, design and colour, roll state, face
  index, battery percent with the charging flag in the MSB; service data: Pixel id u32 and
  firmware build timestamp u32, little-endian), the legacy service and characteristic UUIDs, and
  the messages WhoAreYou (1), IAmADie (2), RollState (3) and BatteryLevel (34).
- GameWithPixels/pixels-js, packages/pixels-core-connect/src/PixelRollState.ts,
  c075efd5f5ef016f8424e426fb21e5c01b7a8fe2: the roll-state values, which that document does not
  list (0 unknown, 1 rolled, 2 handling, 3 rolling, 4 crooked, 5 on face).
- GameWithPixels/pixels-js, packages/pixels-core-connect/src/PixelsBluetoothIds.ts,
  a6a17a47cc4078ca3594809552905f7069c05bd8: the current die service and characteristic UUIDs.
- GameWithPixels/pixels-js, packages/react-native-pixels-connect/src/getScannedPixel.ts,
  0d01e1c8607c29f7af3d92f7fc605d580ce25ebe, and packages/pixels-core-connect/src/DiceUtils.ts,
  1bcd237f23254cdd01ec415a2e8b234874b3db38: which manufacturer and service data entries to read,
  and that a d6's face is its face index + 1.
- GameWithPixels/pixels-js, packages/pixels-core-connect/src/PixelBatteryState.ts,
  2cbeda6b098dfe525dc2825fd37dc2395f98b55e: the battery states (2 charging, 3 done) in messages.
- GameWithPixels/DiceFirmware, src/bluetooth/bluetooth_custom_advertising_data.cpp,
  0ecec5f0825c0762c20c133b87892da67afa29c1: the die rewrites its advertisement on every
  roll-state change; src/bluetooth/bluetooth_messages.h, c636f7b82dc4b17486bdf40569fae5d3fef0fec8:
  the message ids and the IAmADie layout.

pixels-js warns that advertisements are not a reliable way to follow rolls, and BlueZ may drop
repeated identical advertisements, so the real scanner connects to each configured die and
listens to its RollState notifications; advertisements find the dice and fill the gaps.

Threads: bleak calls back on the asyncio loop, and so does everything here; `on_event` runs on
the loop too and should only hand the event on.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import math
import struct
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from drivers.errors import (
    DiceNotLandedError,
    DriverClosedError,
    PixelsConfigError,
    RollInProgressError,
)

if TYPE_CHECKING:  # bleak is imported when scanning starts, so this module imports without it
    from bleak import BleakClient, BleakScanner
    from bleak.backends.characteristic import BleakGATTCharacteristic
    from bleak.backends.device import BLEDevice
    from bleak.backends.scanner import AdvertisementData

log = logging.getLogger(__name__)

WHITE_ROLES = ("white 1", "white 2")
COLOUR_ROLES = ("red", "yellow", "green", "blue")
ROLES = WHITE_ROLES + COLOUR_ROLES

# (service, notify characteristic, write characteristic): current dice first, then legacy ones.
DIE_UUIDS = (
    (
        "a6b90001-7a5a-43f2-a962-350c8edc9b5b",
        "a6b90002-7a5a-43f2-a962-350c8edc9b5b",
        "a6b90003-7a5a-43f2-a962-350c8edc9b5b",
    ),
    (
        "6e400001-b5a3-f393-e0a9-e50e24dcca9e",
        "6e400001-b5a3-f393-e0a9-e50e24dcca9e",
        "6e400002-b5a3-f393-e0a9-e50e24dcca9e",
    ),
)
SERVICE_UUIDS = tuple(service for service, _notify, _write in DIE_UUIDS)

MSG_WHO_ARE_YOU = 1
MSG_I_AM_A_DIE = 2
MSG_ROLL_STATE = 3
MSG_REQUEST_BATTERY_LEVEL = 33
MSG_BATTERY_LEVEL = 34

_MANUFACTURER_SIZE = 5  # LED count, design & colour, roll state, face index, battery
_SERVICE_SIZE = 8  # Pixel id u32, build timestamp u32
_I_AM_A_DIE = struct.Struct("<BBBBIIHIBBBB")  # 22 bytes, in the order of CommunicationsProtocol.md
_CHARGING_STATES = (2, 3)  # PixelBatteryState: charging, done (still on the charger)
_CHARGING_FLAG = 0x80
_MAX_DIE_ID = 0xFFFF_FFFF


class RollState(enum.IntEnum):
    """A die's roll state as Pixels report it (pixels-js PixelRollStateValues)."""

    UNKNOWN = 0
    ROLLED = 1  # came to rest on a face after a proper roll (named "on face" by older firmware)
    HANDLING = 2
    ROLLING = 3
    CROOKED = 4  # came to rest, but on no face
    ON_FACE = 5  # at rest without having been rolled: set down by hand, or barely moved


MOVING = frozenset({RollState.HANDLING, RollState.ROLLING, RollState.CROOKED})
AT_REST = frozenset({RollState.ROLLED, RollState.ON_FACE})


@dataclass(frozen=True)
class DieStatus:
    """Everything a die says about itself: in its advertisement, or in an IAmADie message."""

    die_id: int
    roll_state: RollState
    face: int
    battery: int
    charging: bool


@dataclass(frozen=True)
class RollStateMessage:
    """A connected die's RollState notification: its new roll state and face."""

    roll_state: RollState
    face: int


@dataclass(frozen=True)
class BatteryMessage:
    """A connected die's BatteryLevel notification."""

    battery: int
    charging: bool


def parse_advertisement(
    manufacturer_data: Mapping[int, bytes], service_data: Mapping[str, bytes]
) -> DieStatus | None:
    """The die's status from one advertisement's data, or None if it is not a Pixels die's.

    The arguments are shaped like bleak's `AdvertisementData` fields (company id -> bytes,
    service UUID -> bytes). As pixels-js does, the first entry long enough is read, whatever its
    key: firmware versions have used different company ids and service data UUIDs.
    """
    manufacturer = _first_at_least(manufacturer_data.values(), _MANUFACTURER_SIZE)
    service = _first_at_least(service_data.values(), _SERVICE_SIZE)
    if manufacturer is None or service is None:
        return None
    die_id, _build_timestamp = struct.unpack_from("<II", service)
    if die_id == 0:
        return None
    _led_count, _design, state, face_index, battery = manufacturer[:_MANUFACTURER_SIZE]
    return DieStatus(
        die_id=die_id,
        roll_state=_roll_state(state),
        face=face_index + 1,
        battery=battery & ~_CHARGING_FLAG,
        charging=bool(battery & _CHARGING_FLAG),
    )


def parse_notification(data: bytes) -> DieStatus | RollStateMessage | BatteryMessage | None:
    """The meaning of one message from a connected die; None for messages the reader ignores."""
    if len(data) >= 3 and data[0] == MSG_ROLL_STATE:
        return RollStateMessage(roll_state=_roll_state(data[1]), face=data[2] + 1)
    if len(data) >= 3 and data[0] == MSG_BATTERY_LEVEL:
        return BatteryMessage(battery=data[1], charging=data[2] in _CHARGING_STATES)
    if len(data) >= _I_AM_A_DIE.size and data[0] == MSG_I_AM_A_DIE:
        fields = _I_AM_A_DIE.unpack_from(data)
        die_id, state, face_index, battery, battery_state = fields[5], *fields[8:]
        return DieStatus(
            die_id=die_id,
            roll_state=_roll_state(state),
            face=face_index + 1,
            battery=battery,
            charging=battery_state in _CHARGING_STATES,
        )
    return None


def _first_at_least(values: Iterable[bytes], size: int) -> bytes | None:
    return next((bytes(value) for value in values if len(value) >= size), None)


def _roll_state(value: int) -> RollState:
    """Values from newer firmware than this module knows count as unknown, never as landed."""
    try:
        return RollState(value)
    except ValueError:
        return RollState.UNKNOWN


def die_name(role: str) -> str:
    """How the display names a die: "white 1", or "the red die"."""
    return role if role in WHITE_ROLES else f"the {role} die"


def describe_waiting(roles: Iterable[str]) -> str:
    """Plain words for the dice a roll still waits for: "waiting for white 2 and the red die"."""
    names = [die_name(role) for role in roles]
    if not names:
        return "waiting for no dice"
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"waiting for {listed}"


# What stops the dice being read, in the players' words, by bleak's reason or BlueZ's D-Bus error.
_UNAVAILABLE_WORDS = {
    "NO_BLUETOOTH": "the tower has no Bluetooth adapter",
    "NO_BLE_CENTRAL_ROLE": "the tower's Bluetooth adapter cannot reach dice (no Bluetooth LE)",
    "POWERED_OFF": "the tower's Bluetooth is switched off",
    "DENIED_BY_SYSTEM": "the system does not let the tower use Bluetooth",
    "DENIED_BY_USER": "the system does not let the tower use Bluetooth",
    "DENIED_BY_UNKNOWN": "the system does not let the tower use Bluetooth",
}
_NO_BLUEZ = "the Bluetooth service (bluetoothd) is not running"
_DBUS_WORDS = {
    "org.freedesktop.DBus.Error.ServiceUnknown": _NO_BLUEZ,
    "org.freedesktop.DBus.Error.NameHasNoOwner": _NO_BLUEZ,
    "org.freedesktop.DBus.Error.AccessDenied": "the system does not let the tower use Bluetooth",
    "org.bluez.Error.NotReady": "the tower's Bluetooth is switched off",
}


def bluetooth_trouble(error: BaseException) -> str:
    """Why the dice cannot be read, in a few plain words, from what bleak or D-Bus raised."""
    reason = getattr(getattr(error, "reason", None), "name", None)  # BleakBluetoothNotAvailable
    if reason in _UNAVAILABLE_WORDS:
        return _UNAVAILABLE_WORDS[reason]
    dbus_error = getattr(error, "dbus_error", None)  # BleakDBusError
    if dbus_error in _DBUS_WORDS:
        return _DBUS_WORDS[dbus_error]
    if isinstance(error, (FileNotFoundError, ConnectionRefusedError)):
        return "the system's message bus (D-Bus) is not running"
    return str(error) or type(error).__name__


class DiceEventKind(enum.StrEnum):
    """What happened to a die, in words the display can use."""

    FOUND = "found"
    OUT_OF_RANGE = "out of range"
    BACK_IN_RANGE = "back in range"
    CONNECTION_LOST = "connection lost"
    RECONNECTED = "reconnected"
    LOW_BATTERY = "low battery"
    WAITING = "waiting"
    NO_BLUETOOTH = "no bluetooth"  # scanning stopped working (the adapter switched off, ...)
    BLUETOOTH_BACK = "bluetooth back"


@dataclass(frozen=True)
class DiceEvent:
    """Something the table may show: `message` says it in plain words."""

    kind: DiceEventKind
    roles: tuple[str, ...]
    message: str
    battery: int | None = None


class PixelsListener(Protocol):
    """What a scanner reports to: the reader implements it."""

    def on_advertisement(
        self,
        address: str,
        manufacturer_data: Mapping[int, bytes],
        service_data: Mapping[str, bytes],
    ) -> bool:
        """A Pixels advertisement from `address`; True if it comes from a configured die."""

    def on_notification(self, address: str, data: bytes) -> None:
        """A message from the connected die at `address`."""

    def on_link(self, address: str, connected: bool) -> None:
        """The connection to the die at `address` came up (True) or went down (False)."""

    def on_trouble(self, words: str | None) -> None:
        """Scanning stopped working, `words` saying why; None once it works again."""


class PixelsScanner(Protocol):
    """The radio: it reports advertisements (and, if it connects, messages and links)."""

    async def start(self, listener: PixelsListener) -> None:
        """Start scanning and reporting to `listener`."""

    async def stop(self) -> None:
        """Stop scanning and drop any connections; calling it again does nothing."""


@dataclass
class _Die:
    role: str
    die_id: int
    roll_state: RollState = RollState.UNKNOWN
    face: int | None = None
    battery: int | None = None
    charging: bool = False
    heard_at: float | None = None  # None: never heard
    lost: bool = False  # reported out of range, not heard since
    connected: bool = False
    was_connected: bool = False
    low_battery_reported: bool = False
    moved: bool = False  # seen moving (or on a new face) since the current roll began
    face_at_start: int | None = None  # the face it rested on when the roll began


@dataclass
class _Roll:
    roles: tuple[str, ...]
    deadline: float
    waiting: tuple[str, ...] | None = None


class _RollReading:
    """The roll being read, if any, and which of its dice have landed since it began.

    A die counts once it has been seen moving (or resting on a new face) since the roll began
    and then reports a proper roll: dice lying still from the previous roll are not read again.
    `changed` wakes the reading whenever a die or the time may have moved it on.
    """

    def __init__(
        self,
        dice: dict[str, _Die],
        *,
        faces: int,
        clock: Callable[[], float],
        send: Callable[[DiceEvent], None],
    ) -> None:
        self.changed = asyncio.Event()
        self._dice = dice
        self._faces = faces
        self._clock = clock
        self._send = send
        self._roll: _Roll | None = None
        self._stopped = False

    def waiting_for(self) -> tuple[str, ...]:
        """The roles the roll being read still waits for; empty when none is."""
        return self._not_landed(self._roll) if self._roll else ()

    def roles_in_play(self, colours: Iterable[str], timeout: float) -> tuple[str, ...]:
        if not timeout > 0:
            raise PixelsConfigError(f"wait_for_roll timeout = {timeout}; use e.g. 30 (seconds)")
        colours = tuple(colours)
        for colour in colours:
            if colour not in COLOUR_ROLES or colour not in self._dice:
                raise PixelsConfigError(
                    f"{colour!r} is in play but [dice.pixels] binds no die to it; "
                    f"bound: {', '.join(self._dice)}"
                )
        return WHITE_ROLES + tuple(dict.fromkeys(colours))

    async def read(
        self, roles: tuple[str, ...], deadline: float
    ) -> tuple[tuple[int, int], dict[str, int]]:
        """The faces of `roles` once all have landed; DiceNotLandedError after `deadline`."""
        if self._roll is not None:
            raise RollInProgressError("a roll is already being read; wait for it or cancel it")
        roll = self._begin(roles, deadline)
        try:
            return await self._until_landed(roll)
        finally:
            self._roll = None

    def stop(self) -> None:
        """The reader closed: a roll being read fails."""
        self._stopped = True
        self.changed.set()

    def take_roll_state(self, die: _Die, roll_state: RollState, face: int) -> None:
        die.roll_state, die.face = roll_state, face
        if roll_state in MOVING:
            die.moved = True
        elif roll_state in AT_REST:
            if die.face_at_start is None:
                die.face_at_start = face  # first heard during the roll: this is its old face
            elif face != die.face_at_start:
                die.moved = True  # a die only changes face by moving, even if we missed it

    def progress(self) -> None:
        """Wake the roll being read, and tell the table when the dice it awaits change."""
        self.changed.set()
        if self._roll is None:
            return
        waiting = self._not_landed(self._roll)
        if waiting and waiting != self._roll.waiting:
            event = DiceEvent(DiceEventKind.WAITING, waiting, describe_waiting(waiting))
            self._send(event)
        self._roll.waiting = waiting

    def _begin(self, roles: tuple[str, ...], deadline: float) -> _Roll:
        """Forget earlier landings: only what the dice do from now on counts; the roll now
        being read."""
        for die in self._dice.values():
            die.moved = die.roll_state in MOVING
            die.face_at_start = die.face if die.roll_state in AT_REST else None
        self._roll = roll = _Roll(roles, deadline)
        self.progress()
        return roll

    async def _until_landed(self, roll: _Roll) -> tuple[tuple[int, int], dict[str, int]]:
        while True:
            if self._stopped:
                raise DriverClosedError("the Pixels reader was closed while waiting for a roll")
            waiting = self._not_landed(roll)
            if not waiting:
                return self._result(roll.roles)
            if self._clock() >= roll.deadline:
                raise DiceNotLandedError(describe_waiting(waiting), waiting_for=waiting)
            self.changed.clear()
            await self.changed.wait()

    def _landed(self, die: _Die) -> bool:
        face_ok = die.face is not None and 1 <= die.face <= self._faces
        return die.moved and die.roll_state is RollState.ROLLED and face_ok

    def _not_landed(self, roll: _Roll) -> tuple[str, ...]:
        return tuple(role for role in roll.roles if not self._landed(self._dice[role]))

    def _result(self, roles: tuple[str, ...]) -> tuple[tuple[int, int], dict[str, int]]:
        # every die of `roles` has landed, so each has a face
        faces = {role: face for role in roles if (face := self._dice[role].face) is not None}
        white = (faces["white 1"], faces["white 2"])
        return white, {role: face for role, face in faces.items() if role not in WHITE_ROLES}


class PixelsReader:
    """Reads rolls of the Pixels dice in `dice` (role -> Pixel id) through `scanner`.

    `clock` returns seconds (default `time.monotonic`); tests pass a fake one. A die not heard
    for `out_of_range_after` seconds (and not connected) is reported out of range; a battery at
    or below `low_battery` percent, and not charging, is reported once. `faces` is the number of
    faces a die may show. Every `poll_interval` seconds (real time) a watchdog calls `poll()`.
    """

    def __init__(
        self,
        dice: Mapping[str, int],
        *,
        scanner: PixelsScanner,
        on_event: Callable[[DiceEvent], object] | None = None,
        clock: Callable[[], float] = time.monotonic,
        out_of_range_after: float = 10.0,
        low_battery: int = 20,
        faces: int = 6,
        poll_interval: float = 1.0,
    ) -> None:
        _check_settings(out_of_range_after, low_battery, faces, poll_interval)
        self._dice = _check_dice(dice)
        self._by_id = {die.die_id: die for die in self._dice.values()}
        self._by_address: dict[str, _Die] = {}
        self._scanner = scanner
        self.on_event = on_event
        self._clock = clock
        self._out_of_range_after = out_of_range_after
        self._low_battery = low_battery
        self._poll_interval = poll_interval
        self._listening_since = clock()
        self._reading = _RollReading(self._dice, faces=faces, clock=clock, send=self._send)
        self._watchdog: asyncio.Task[None] | None = None
        self._started = False
        self._closed = False
        self._no_bluetooth = False  # the scanner cannot scan: silence says nothing of the dice

    @property
    def dice(self) -> dict[str, int]:
        """The configured dice: role -> Pixel id."""
        return {role: die.die_id for role, die in self._dice.items()}

    @property
    def closed(self) -> bool:
        """True once close() has been called."""
        return self._closed

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """The roles the current roll still waits for; empty when no roll is being read."""
        return self._reading.waiting_for()

    async def start(self) -> None:
        """Start the scanner and the watchdog that notices silent dice."""
        self._check_open()
        if self._started:
            return
        self._started = True
        self._listening_since = self._clock()
        await self._scanner.start(self)
        self._watchdog = asyncio.create_task(self._watch())

    async def close(self) -> None:
        """Stop the watchdog and the scanner; a roll being waited for fails; again does nothing."""
        if self._closed:
            return
        self._closed = True
        self._reading.stop()
        if self._watchdog is not None:
            self._watchdog.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watchdog
        if self._started:
            await self._scanner.stop()

    async def __aenter__(self) -> PixelsReader:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"{len(self._dice)} dice"
        return f"<PixelsReader {state}>"

    async def wait_for_roll(
        self, colours: Iterable[str], *, timeout: float
    ) -> tuple[tuple[int, int], dict[str, int]]:
        """Both white dice and the dice of `colours`, once all have landed since this call.

        A die counts once it has been seen moving (or resting on a new face) since the call and
        then reports a proper roll: dice lying still from the previous roll are not read again.
        After `timeout` seconds (by the reader's clock) raises `DiceNotLandedError`, whose message
        names the dice still awaited. Locked colours are simply left out of `colours`.
        """
        self._check_open()
        roles = self._reading.roles_in_play(colours, timeout)
        return await self._reading.read(roles, self._clock() + timeout)

    def poll(self) -> None:
        """Report dice silent for too long, and wake a roll whose time is up.

        The watchdog calls this every `poll_interval` seconds; calling it more often (or from a
        test, after moving the clock on) is harmless.
        """
        now = self._clock()
        for die in self._dice.values():
            self._check_silence(die, now)
        self._reading.changed.set()

    def on_advertisement(
        self,
        address: str,
        manufacturer_data: Mapping[int, bytes],
        service_data: Mapping[str, bytes],
    ) -> bool:
        """Take in an advertisement; True if it comes from a configured die (worth connecting)."""
        status = parse_advertisement(manufacturer_data, service_data)
        if status is None or self._closed:
            return False
        die = self._by_id.get(status.die_id)
        if die is None:
            return False
        self._by_address[address] = die
        self._take_status(die, status)
        return True

    def on_notification(self, address: str, data: bytes) -> None:
        """Take in a message from the connected die at `address`."""
        die = self._by_address.get(address)
        message = parse_notification(data)
        if die is None or message is None or self._closed:
            return
        if isinstance(message, RollStateMessage):
            self._heard(die)
            self._reading.take_roll_state(die, message.roll_state, message.face)
        elif isinstance(message, BatteryMessage):
            self._heard(die)
            self._take_battery(die, message.battery, message.charging)
        elif message.die_id == die.die_id:
            self._take_status(die, message)
        self._reading.progress()

    def on_link(self, address: str, connected: bool) -> None:
        """Take in a connection coming up or going down."""
        die = self._by_address.get(address)
        if die is None or self._closed:
            return
        if connected:
            die.connected = True
            self._heard(die)
            if die.was_connected:
                self._emit(DiceEventKind.RECONNECTED, die, f"reconnected to {die_name(die.role)}")
            die.was_connected = True
        elif die.connected:
            die.connected = False
            die.heard_at = self._clock()  # silence counts from the drop
            message = f"lost the connection to {die_name(die.role)}"
            self._emit(DiceEventKind.CONNECTION_LOST, die, message)

    def on_trouble(self, words: str | None) -> None:
        """Bluetooth stopped working (said once, in `words`), or works again (None)."""
        if self._closed or (words is not None) == self._no_bluetooth:
            return
        self._no_bluetooth = words is not None
        if words is not None:
            message = f"the dice cannot be heard: {words}"
            self._send(DiceEvent(DiceEventKind.NO_BLUETOOTH, (), message))
            return
        now = self._clock()
        for die in self._dice.values():
            die.heard_at = now if die.heard_at is not None else None
        message = "Bluetooth works again: the dice can be heard"
        self._send(DiceEvent(DiceEventKind.BLUETOOTH_BACK, (), message))
        self._listening_since = now

    def _take_status(self, die: _Die, status: DieStatus) -> None:
        self._heard(die)
        self._reading.take_roll_state(die, status.roll_state, status.face)
        self._take_battery(die, status.battery, status.charging)
        self._reading.progress()

    def _heard(self, die: _Die) -> None:
        """Note that `die` spoke: report it found, or back in range."""
        if die.heard_at is None:
            self._emit(DiceEventKind.FOUND, die, f"found {die_name(die.role)}")
        elif die.lost:
            self._emit(DiceEventKind.BACK_IN_RANGE, die, f"{die_name(die.role)} is back in range")
        die.lost = False
        die.heard_at = self._clock()

    def _take_battery(self, die: _Die, battery: int, charging: bool) -> None:
        die.battery, die.charging = battery, charging
        if charging or battery > self._low_battery:
            die.low_battery_reported = False
        elif not die.low_battery_reported:
            die.low_battery_reported = True
            message = f"{die_name(die.role)}: battery low ({battery}%)"
            self._emit(DiceEventKind.LOW_BATTERY, die, message, battery=battery)

    def _check_silence(self, die: _Die, now: float) -> None:
        if die.connected or die.lost or self._no_bluetooth:
            return
        last = die.heard_at if die.heard_at is not None else self._listening_since
        if now - last >= self._out_of_range_after:
            die.lost = True
            self._emit(DiceEventKind.OUT_OF_RANGE, die, f"{die_name(die.role)} is out of range")

    def _emit(self, kind: DiceEventKind, die: _Die, message: str, **extra: int) -> None:
        self._send(DiceEvent(kind, (die.role,), message, **extra))

    def _send(self, event: DiceEvent) -> None:
        """Hand `event` to `on_event` (which says it: the table, as news or a warning), or log
        it when nobody takes it; log a failing callback rather than break the radio's."""
        if self.on_event is None:
            log.info("pixels: %s", event.message)
            return
        try:
            self.on_event(event)
        except Exception:
            log.exception("pixels on_event callback %r failed", self.on_event)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self._poll_interval)
            self.poll()

    def _check_open(self) -> None:
        if self._closed:
            raise DriverClosedError("the Pixels reader is closed")


def check_dice(dice: Mapping[str, int]) -> None:
    """Raise `PixelsConfigError`, naming the fix, for a dice map the reader could not roll
    with (a die bound to two roles, the white dice missing, ...): what `PixelsReader` refuses."""
    _check_dice(dice)


def check_table_dice(dice: Mapping[str, int]) -> None:
    """`check_dice`, and a die for every colour, as the tower needs: every game starts with
    the four colour dice in play, and a roll waits for each die in play, so a colour left
    unbound could never be read (the thrown dice did nothing, and nothing said why)."""
    check_dice(dice)
    missing = [role for role in COLOUR_ROLES if role not in dice]
    if missing:
        listed = ", ".join(missing[:-1]) + " and " + missing[-1] if len(missing) > 1 else missing[0]
        raise PixelsConfigError(f"[dice.pixels] needs a die for {listed}")


def _check_dice(dice: Mapping[str, int]) -> dict[str, _Die]:
    """Refuse a dice map the reader could not roll with, naming the fix."""
    if not isinstance(dice, Mapping):
        raise PixelsConfigError(f"[dice.pixels] must map roles to Pixel ids, not {dice!r}")
    for role, die_id in dice.items():
        if role not in ROLES:
            raise PixelsConfigError(
                f"[dice.pixels] has an unknown role {role!r}; roles are {', '.join(ROLES)}"
            )
        if isinstance(die_id, bool) or not isinstance(die_id, int):
            raise PixelsConfigError(f'[dice.pixels] "{role}" = {die_id!r}; use the die\'s Pixel id')
        if not 0 < die_id <= _MAX_DIE_ID:
            raise PixelsConfigError(f'[dice.pixels] "{role}" = {die_id} is not a 32-bit Pixel id')
    missing = [role for role in WHITE_ROLES if role not in dice]
    if missing:
        raise PixelsConfigError(f"[dice.pixels] needs a die for {' and '.join(missing)}")
    _check_unique(dice)
    return {role: _Die(role, dice[role]) for role in ROLES if role in dice}


def _check_unique(dice: Mapping[str, int]) -> None:
    seen: dict[int, str] = {}
    for role, die_id in dice.items():
        if die_id in seen:
            raise PixelsConfigError(
                f"[dice.pixels] binds die {die_id:#010x} to both {seen[die_id]!r} and {role!r}"
            )
        seen[die_id] = role


def _check_settings(
    out_of_range_after: float, low_battery: int, faces: int, poll_interval: float
) -> None:
    if not (out_of_range_after > 0 and math.isfinite(out_of_range_after)):
        raise PixelsConfigError(
            f"the Pixels reader's out_of_range_after = {out_of_range_after}; use e.g. 10 (seconds)"
        )
    if not 0 <= low_battery <= 100:
        raise PixelsConfigError(
            f"the Pixels reader's low_battery = {low_battery}; use a percentage, e.g. 20"
        )
    if faces < 2:
        raise PixelsConfigError(
            f"the Pixels reader's faces = {faces}; dice need at least 2 faces (6)"
        )
    if not poll_interval > 0:
        raise PixelsConfigError(
            f"the Pixels reader's poll_interval = {poll_interval}; use e.g. 1 (second)"
        )


CONNECT_ATTEMPTS = 2  # bleak-retry-connector's tries (with its backoff) each time a die is heard
# Seconds one link attempt may take, all its tries together: as long as the reader waits for a
# silent die before it calls it out of range. bleak-retry-connector gives each try 20 s, so a die
# that left between its advertisement and the connect held its link attempt for 40 s.
LINK_WITHIN = 10.0


class BleakPixelsScanner:
    """The real radio: bleak's `BleakScanner`, and a `BleakClient` per configured die.

    Links are made as Home Assistant's Bluetooth integrations make them, with
    bleak-retry-connector's `establish_connection`: it retries BlueZ's transient failures with
    the backoff each calls for, closes a stale link left by an earlier run, and does not trust a
    services cache that BlueZ has dropped. A die whose link could not be made even so is tried
    again `retry_after` seconds later, when it is heard again (a die out of range is not heard:
    nothing is tried in vain meanwhile); one attempt, all its tries, takes at most `link_within`
    seconds (a die that left between its advertisement and the connect). After `rescan_after`
    seconds without a word from any die and no die linked, it scans anew: BlueZ ends a scan when
    the adapter is switched off, and says nothing to bleak; while it cannot scan, it says why. A
    linked die is asked its battery level every `ask_every` seconds: a link lost without a word
    (as when bluetoothd restarts) fails the question and ends. With `connect=False` it only
    listens to advertisements (fewer moving parts, but BlueZ may drop advertisements that
    repeat, so silent dice may be reported out of range). bleak is imported on start, so this
    module imports without it.
    """

    def __init__(
        self,
        *,
        connect: bool = True,
        retry_after: float = 5.0,
        rescan_after: float = 10.0,
        ask_every: float = 30.0,
        link_within: float | None = None,
    ) -> None:
        self._connect = connect
        self._link_within = LINK_WITHIN if link_within is None else link_within
        self._retry_after = retry_after
        self._rescan_after = rescan_after
        self._ask_every = ask_every
        self._listener: PixelsListener | None = None
        self._scanner: BleakScanner | None = None
        self._links: dict[str, asyncio.Task[None]] = {}
        self._failed_at: dict[str, float] = {}
        self._heard_at = 0.0  # time.monotonic() of the last advertisement or message
        self._keeper: asyncio.Task[None] | None = None
        self._trouble: str | None = None

    async def start(self, listener: PixelsListener) -> None:
        """Scan actively for the Pixels services, reporting every advertisement heard."""
        from bleak import BleakScanner

        self._listener = listener
        # DuplicateData=True asks BlueZ to pass on repeats, which show that a still die is near.
        self._scanner = scanner = BleakScanner(
            self._detected,
            service_uuids=list(SERVICE_UUIDS),
            bluez={"filters": {"DuplicateData": True}},
        )
        await scanner.start()
        self._heard_at = time.monotonic()
        self._keeper = asyncio.create_task(self._keep_scanning())

    async def stop(self) -> None:
        """Stop scanning and disconnect every die; calling it again does nothing."""
        keeper, self._keeper = self._keeper, None
        if keeper is not None:
            keeper.cancel()
            await asyncio.gather(keeper, return_exceptions=True)
        scanner, self._scanner = self._scanner, None
        links, self._links = list(self._links.values()), {}
        for link in links:
            link.cancel()
        await asyncio.gather(*links, return_exceptions=True)
        if scanner is not None:
            try:
                await scanner.stop()
            except Exception as error:  # Bluetooth went away: there is no scan left to stop
                log.warning("pixels: stopping the scan: %s", error)

    async def _keep_scanning(self) -> None:
        """Scan again after `rescan_after` seconds of silence with no die linked: an adapter
        switched off (and on again), or bluetoothd restarted, ends BlueZ's discovery without a
        word to bleak. While scanning cannot start, the listener is told why, once."""
        while True:
            await asyncio.sleep(self._rescan_after)
            silent = time.monotonic() - self._heard_at >= self._rescan_after
            if silent and not self._links:
                await self._rescan()

    async def _rescan(self) -> None:
        scanner = self._scanner
        if scanner is None:  # stopped meanwhile
            return
        with contextlib.suppress(Exception):  # the scan may have ended with the adapter
            await scanner.stop()
        try:
            await scanner.start()
        except Exception as error:  # bleak's BleakBluetoothNotAvailableError, a D-Bus error
            self._tell_trouble(bluetooth_trouble(error))
        else:
            self._tell_trouble(None)

    def _tell_trouble(self, words: str | None) -> None:
        if words != self._trouble:
            self._trouble = words
            if self._listener is not None:  # None once stopped
                self._listener.on_trouble(words)

    def _detected(self, device: BLEDevice, advertisement: AdvertisementData) -> None:
        self._heard_at = time.monotonic()
        if self._listener is None:  # never: bleak reports only between start and stop
            return
        wanted = self._listener.on_advertisement(
            device.address, advertisement.manufacturer_data, advertisement.service_data
        )
        if wanted and self._connect and self._may_connect(device.address):
            self._links[device.address] = asyncio.create_task(self._hold_link(device))

    def _may_connect(self, address: str) -> bool:
        failed_at = self._failed_at.get(address, -math.inf)
        recent = time.monotonic() - failed_at < self._retry_after
        return self._scanner is not None and address not in self._links and not recent

    async def _hold_link(self, device: BLEDevice) -> None:
        """Connect, listen to the die's messages until the link drops, then report the drop."""
        from bleak_retry_connector import BleakClientWithServiceCache, establish_connection

        dropped = asyncio.Event()
        linked = False
        try:
            async with asyncio.timeout(self._link_within):  # bleak's tries take 20 s each
                client = await establish_connection(
                    BleakClientWithServiceCache,
                    device,
                    f"Pixels die at {device.address}",
                    disconnected_callback=lambda _client: dropped.set(),
                    max_attempts=CONNECT_ATTEMPTS,
                )
            try:
                notify, write = _die_characteristics(client)
                await client.start_notify(notify, lambda _char, data: self._message(device, data))
                linked = True
                self._tell_link(device, True)
                # The die stops advertising once connected: ask where it stands now.
                await client.write_gatt_char(write, bytes([MSG_WHO_ARE_YOU]), response=_ack(write))
                await self._hold_until_dropped(client, write, dropped)
            finally:
                await client.disconnect()
        except Exception as error:  # bleak raises backend-specific errors; the link just ends
            why = str(error) or f"no answer within {self._link_within:g} s"
            log.warning("pixels: link to %s ended: %s", device.address, why)
            self._failed_at[device.address] = time.monotonic()
        finally:
            self._links.pop(device.address, None)
            if linked:
                self._tell_link(device, False)

    def _tell_link(self, device: BLEDevice, linked: bool) -> None:
        if self._listener is not None:  # None once stopped
            self._listener.on_link(device.address, linked)

    async def _hold_until_dropped(
        self, client: BleakClient, write: BleakGATTCharacteristic, dropped: asyncio.Event
    ) -> None:
        """Wait for the link to drop, asking the die its battery level every `ask_every`
        seconds: a link BlueZ has lost without a word (bluetoothd restarted) fails the question
        and ends, and the answer keeps the battery level fresh."""
        question = bytes([MSG_REQUEST_BATTERY_LEVEL])
        while not dropped.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(dropped.wait(), self._ask_every)
                return
            await client.write_gatt_char(write, question, response=_ack(write))

    def _message(self, device: BLEDevice, data: bytearray) -> None:
        self._heard_at = time.monotonic()
        if self._listener is not None:  # None once stopped
            self._listener.on_notification(device.address, bytes(data))


def _die_characteristics(
    client: BleakClient,
) -> tuple[BleakGATTCharacteristic, BleakGATTCharacteristic]:
    """The die's notify and write characteristics: current UUIDs, else legacy ones."""
    for _service, notify, write in DIE_UUIDS:
        notify_char = client.services.get_characteristic(notify)
        write_char = client.services.get_characteristic(write)
        if notify_char is not None and write_char is not None:
            return notify_char, write_char
    raise LookupError("no Pixels characteristics on this device")


def _ack(characteristic: BleakGATTCharacteristic) -> bool:
    """Write with response where the characteristic allows it (bleak wants us to choose)."""
    return "write" in characteristic.properties
