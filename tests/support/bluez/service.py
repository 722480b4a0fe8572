"""An `org.bluez` for tests: the parts of BlueZ's D-Bus API that bleak's BlueZ backend uses,
served with dbus-fast's service API on a private bus, with Pixels dice (drivers.simulated.pixels)
behind it in place of radio waves.

What bleak calls (bleak/backends/bluezdbus: manager.py, scanner.py, client.py) and what this
answers: the object manager at "/" (GetManagedObjects, InterfacesAdded, InterfacesRemoved);
org.bluez.Adapter1 (Powered, Roles, SetDiscoveryFilter, StartDiscovery, StopDiscovery);
org.bluez.Device1 (Connect, Disconnect, Connected, ServicesResolved, ManufacturerData,
ServiceData, UUIDs, RSSI, Alias, Address, Adapter); org.bluez.GattService1 and
org.bluez.GattCharacteristic1 (StartNotify, StopNotify, ReadValue, WriteValue, Value, Flags,
MTU); PropertiesChanged for every change, which is how bleak hears advertisements,
connections, resolved services and notifications. Object paths follow BlueZ's
(/org/bluez/hci0/dev_XX_XX_XX_XX_XX_XX/service000a/char000b): bleak reads handles and the
device's path out of them.

Not modelled: pairing, descriptors, AcquireNotify and AcquireWrite (bleak uses StartNotify and
WriteValue unless told otherwise), passive scanning, more than one adapter.
"""

import asyncio
import contextlib
import random
from collections.abc import Callable, Iterable
from typing import Annotated

from dbus_fast import DBusError, Variant
from dbus_fast.aio import MessageBus
from dbus_fast.annotations import DBusBool as Bool
from dbus_fast.annotations import DBusBytes as Bytes
from dbus_fast.annotations import DBusInt16 as Int16
from dbus_fast.annotations import DBusObjectPath as ObjectPath
from dbus_fast.annotations import DBusSignature
from dbus_fast.annotations import DBusStr as Str
from dbus_fast.annotations import DBusUInt16 as UInt16
from dbus_fast.constants import BusType, PropertyAccess
from dbus_fast.service import ServiceInterface, dbus_property, method

from drivers.simulated.pixels import SYSTEMIC_GAMES, PixelsDie, throw_states

Strings = Annotated[list[str], DBusSignature("as")]
Options = Annotated[dict[str, Variant], DBusSignature("a{sv}")]
ByCompany = Annotated[dict[int, Variant], DBusSignature("a{qv}")]  # ManufacturerData

BLUEZ = "org.bluez"
ADAPTER_PATH = "/org/bluez/hci0"
ADAPTER_ADDRESS = "B8:27:EB:00:00:01"  # a Raspberry Pi's
READ = PropertyAccess.READ
FAILED = "org.bluez.Error.Failed"
NOT_READY = "org.bluez.Error.NotReady"
NOT_SUPPORTED = "org.bluez.Error.NotSupported"
NOT_CONNECTED = "org.bluez.Error.NotConnected"
CONNECT_TIMEOUT = 2.0  # seconds BlueZ tries to reach a die that does not answer
# Seconds BlueZ keeps trying to reach a die that left between its advertisement and the connect:
# the link layer's own timeout is longer than bleak's (20 s), so the caller gives up first.
UNANSWERED = 60.0
ADVERTISING_INTERVAL = 1.0  # seconds between a still die's advertisements


class Adapter(ServiceInterface):
    """org.bluez.Adapter1: scanning, as bleak's BleakScanner drives it."""

    def __init__(self, radio: "Radio") -> None:
        super().__init__("org.bluez.Adapter1")
        self.radio = radio

    @dbus_property(access=READ)
    def Address(self) -> Str:
        return ADAPTER_ADDRESS

    @dbus_property(access=READ)
    def Name(self) -> Str:
        return "qwixx-tower"

    @dbus_property(access=READ)
    def Alias(self) -> Str:
        return "qwixx-tower"

    @dbus_property(access=READ)
    def Powered(self) -> Bool:
        return self.radio.powered

    @dbus_property(access=READ)
    def Discovering(self) -> Bool:
        return self.radio.discovering > 0

    @dbus_property(access=READ)
    def Roles(self) -> Strings:
        return ["central", "peripheral"]

    @dbus_property(access=READ)
    def UUIDs(self) -> Strings:
        return []

    @method()
    def SetDiscoveryFilter(self, filters: Options) -> None:
        self.radio.discovery_filter = {key: value.value for key, value in filters.items()}

    @method()
    def GetDiscoveryFilters(self) -> Strings:
        return ["UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData", "Discoverable"]

    @method()
    def StartDiscovery(self) -> None:
        self.radio.start_discovery()

    @method()
    def StopDiscovery(self) -> None:
        self.radio.stop_discovery()


class Device(ServiceInterface):
    """org.bluez.Device1 for one die: what it advertises, and the link to it."""

    def __init__(self, radio: "Radio", die: PixelsDie) -> None:
        super().__init__("org.bluez.Device1")
        self.radio = radio
        self.die = die
        self.path = f"{ADAPTER_PATH}/dev_{die.address.replace(':', '_')}"
        self.connected = False
        self.resolved = False
        self.asked = False  # the central has written to the die on this link
        self.rssi = -60
        self.advertised: tuple[bytes, bytes] | None = None  # the data last reported
        self.gatt: list[tuple[str, ServiceInterface]] = []
        self.reaching: asyncio.Event | None = None  # set to give up a Connect still trying

    @dbus_property(access=READ)
    def Address(self) -> Str:
        return self.die.address

    @dbus_property(access=READ)
    def AddressType(self) -> Str:
        return "random"

    @dbus_property(access=READ)
    def Name(self) -> Str:
        return self.die.name

    @dbus_property(access=READ)
    def Alias(self) -> Str:
        return self.die.name

    @dbus_property(access=READ)
    def Adapter(self) -> ObjectPath:
        return ADAPTER_PATH

    @dbus_property(access=READ)
    def Paired(self) -> Bool:
        return False

    @dbus_property(access=READ)
    def Bonded(self) -> Bool:
        return False

    @dbus_property(access=READ)
    def Trusted(self) -> Bool:
        return False

    @dbus_property(access=READ)
    def Blocked(self) -> Bool:
        return False

    @dbus_property(access=READ)
    def LegacyPairing(self) -> Bool:
        return False

    @dbus_property(access=READ)
    def Connected(self) -> Bool:
        return self.connected

    @dbus_property(access=READ)
    def ServicesResolved(self) -> Bool:
        return self.resolved

    @dbus_property(access=READ)
    def RSSI(self) -> Int16:
        return self.rssi

    @dbus_property(access=READ)
    def UUIDs(self) -> Strings:
        return [self.die.uuids[0]]

    @dbus_property(access=READ)
    def ManufacturerData(self) -> ByCompany:
        return {SYSTEMIC_GAMES: Variant("ay", self.die.manufacturer_data())}

    @dbus_property(access=READ)
    def ServiceData(self) -> Options:
        return {self.die.uuids[0]: Variant("ay", self.die.service_data())}

    @method()
    async def Connect(self) -> None:
        await self.radio.connect(self)

    @method()
    def Disconnect(self) -> None:
        if self.reaching is not None:  # a Connect still trying: BlueZ gives it up
            self.reaching.set()
            return
        if not self.connected:
            raise DBusError(NOT_CONNECTED, "Not Connected")
        self.radio.drop_link(self)

    @method()
    def Pair(self) -> None:
        raise DBusError(NOT_SUPPORTED, "Operation is not supported")


class GattService(ServiceInterface):
    """org.bluez.GattService1: the die's Pixels service."""

    def __init__(self, device: Device) -> None:
        super().__init__("org.bluez.GattService1")
        self.device = device

    @dbus_property(access=READ)
    def UUID(self) -> Str:
        return self.device.die.uuids[0]

    @dbus_property(access=READ)
    def Device(self) -> ObjectPath:
        return self.device.path

    @dbus_property(access=READ)
    def Primary(self) -> Bool:
        return True


class Characteristic(ServiceInterface):
    """org.bluez.GattCharacteristic1: the die's notify or write characteristic."""

    def __init__(self, device: Device, service_path: str, uuid: str, flags: list[str]) -> None:
        super().__init__("org.bluez.GattCharacteristic1")
        self.device = device
        self.service_path = service_path
        self.uuid = uuid
        self.flags = flags
        self.value = b""
        self.notifying = False

    @dbus_property(access=READ)
    def UUID(self) -> Str:
        return self.uuid

    @dbus_property(access=READ)
    def Service(self) -> ObjectPath:
        return self.service_path

    @dbus_property(access=READ)
    def Value(self) -> Bytes:
        return self.value

    @dbus_property(access=READ)
    def Notifying(self) -> Bool:
        return self.notifying

    @dbus_property(access=READ)
    def Flags(self) -> Strings:
        return self.flags

    @dbus_property(access=READ)
    def MTU(self) -> UInt16:
        return 517

    @method()
    def ReadValue(self, options: Options) -> Bytes:
        if "read" not in self.flags:
            raise DBusError("org.bluez.Error.NotPermitted", "Read not permitted")
        return self.value

    @method()
    def WriteValue(self, value: Bytes, options: Options) -> None:
        kind = options["type"].value if "type" in options else "request"
        wanted = {"request": "write", "command": "write-without-response"}.get(kind, kind)
        if wanted not in self.flags:
            raise DBusError(NOT_SUPPORTED, "Operation is not supported")
        self.device.radio.written(self.device, bytes(value), kind)

    @method()
    def StartNotify(self) -> None:
        if "notify" not in self.flags:
            raise DBusError(NOT_SUPPORTED, "Operation is not supported")
        if not self.notifying:
            self.notifying = True
            self.emit_properties_changed({"Notifying": True})
            self.device.radio.changes()

    @method()
    def StopNotify(self) -> None:
        self.notifying = False
        self.emit_properties_changed({"Notifying": False})

    def notify(self, data: bytes) -> None:
        """A notification from the die: BlueZ passes it on as a change of Value."""
        self.value = data
        if self.notifying:
            self.emit_properties_changed({"Value": data})


class Radio:
    """BlueZ and the air around it: the adapter, the dice in reach, the links to them.

    `write_flags` are the die's write characteristic's flags (a Pixels die takes writes with
    and without response). Every change a test makes (a throw, a die leaving) goes out on the
    bus as BlueZ would send it.
    """

    def __init__(
        self,
        dice: Iterable[PixelsDie] = (),
        *,
        adapter: bool = True,
        powered: bool = True,
        write_flags: tuple[str, ...] = ("write", "write-without-response"),
        connect_timeout: float = CONNECT_TIMEOUT,
        advertising_interval: float = ADVERTISING_INTERVAL,
    ) -> None:
        self.dice = {die.die_id: die for die in dice}
        self.has_adapter = adapter
        self.powered = powered
        self.write_flags = list(write_flags)
        self.connect_timeout = connect_timeout
        self.advertising_interval = advertising_interval
        self.discovering = 0
        self.discovery_filter: dict[str, object] = {}
        self.devices: dict[int, Device] = {}
        self.writes: list[tuple[int, bytes, str]] = []  # (die id, data, "request"/"command")
        self.connects = 0
        self.failing: dict[int, int] = {}  # die id -> connection attempts still to fail
        self.attempts: list[tuple[int, float]] = []  # (die id, seconds) of each Connect ended
        self.bus: MessageBus | None = None
        self.adapter = Adapter(self)
        self._changed = asyncio.Event()
        self._advertiser: asyncio.Task[None] | None = None
        self.on_change: Callable[[], object] | None = None

    # --- on the bus ---------------------------------------------------------------------------

    async def serve(self, address: str) -> None:
        """Connect to the bus at `address` and own org.bluez there."""
        self.bus = MessageBus(bus_address=address, bus_type=BusType.SYSTEM)
        await self.bus.connect()
        if self.has_adapter:
            self.bus.export(ADAPTER_PATH, self.adapter)
        await self.bus.request_name(BLUEZ)
        self._advertiser = asyncio.create_task(self._advertise_now_and_then())

    async def close(self) -> None:
        if self._advertiser is not None:
            self._advertiser.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._advertiser
        if self.bus is not None:
            self.bus.disconnect()
            with contextlib.suppress(Exception):
                await self.bus.wait_for_disconnect()

    # --- what a test does to the dice ---------------------------------------------------------

    def throw(self, die_id: int, face: int) -> None:
        """A player throws the die: it is picked up, tumbles and lands on `face`."""
        die = self.dice[die_id]
        for state, shown in throw_states(die.face, face):
            self.set_roll_state(die, state, shown)

    def set_roll_state(self, die: PixelsDie, state: int, face: int) -> None:
        """The die's accelerometer saw a new state: it tells a connected central, and
        rewrites its advertisement."""
        die.roll_state, die.face = state, face
        self._tell(die, die.roll_state_message())

    def set_battery(self, die_id: int, level: int, charging: bool = False) -> None:
        die = self.dice[die_id]
        die.battery, die.charging = level, charging
        self._tell(die, die.battery_message())

    def leave(self, die_id: int) -> None:
        """The die goes out of reach: a link to it drops, and it is heard no more."""
        die = self.dice[die_id]
        die.in_range = False
        device = self.devices.get(die_id)
        if device is not None:
            self.drop_link(device)

    def come_back(self, die_id: int) -> None:
        """The die is in reach again: it advertises at once."""
        self.dice[die_id].in_range = True
        self.advertise(self.dice[die_id])

    def hold_elsewhere(self, die_id: int, held: bool = True) -> None:
        """A phone's Pixels app connects to the die (or lets it go)."""
        die = self.dice[die_id]
        die.held_elsewhere = held
        self.advertise(die)

    def set_powered(self, powered: bool) -> None:
        """The adapter is switched off (rfkill, bluetoothctl power off) or on again."""
        if not powered:
            for device in list(self.devices.values()):
                self.drop_link(device)
            self.discovering = 0
        self.powered = powered
        self.adapter.emit_properties_changed({"Powered": powered, "Discovering": False})

    def linked(self) -> list[int]:
        """The ids of the dice a central holds a link to now, services resolved."""
        return [die_id for die_id, device in self.devices.items() if device.resolved]

    def listened_to(self) -> set[int]:
        """The ids of the linked dice whose messages a central takes, and which it has asked
        something since: from then on a throw reaches it."""
        return {
            die_id
            for die_id, device in self.devices.items()
            if device.resolved and device.asked and self._notifying(device)
        }

    @staticmethod
    def _notifying(device: Device) -> bool:
        return any(
            isinstance(interface, Characteristic) and interface.notifying
            for _path, interface in device.gatt
        )

    async def wait_for(self, condition: Callable[[], bool]) -> None:
        """Wait until `condition()` holds; it is checked after every change on the radio."""
        while not condition():
            self._changed.clear()
            await self._changed.wait()

    # --- BlueZ's side -------------------------------------------------------------------------

    def start_discovery(self) -> None:
        if not self.powered:
            raise DBusError(NOT_READY, "Resource Not Ready")
        self.discovering += 1
        if self.discovering == 1:
            self.adapter.emit_properties_changed({"Discovering": True})
        for die in self.dice.values():
            self.advertise(die)

    def stop_discovery(self) -> None:
        if not self.powered:
            raise DBusError(NOT_READY, "Resource Not Ready")
        if self.discovering == 0:
            raise DBusError(FAILED, "No discovery started")
        self.discovering -= 1
        if self.discovering == 0:
            self.adapter.emit_properties_changed({"Discovering": False})

    def advertise(self, die: PixelsDie) -> None:
        """One advertisement from `die`, reported if a scan is on and its filter lets it in."""
        device = self.devices.get(die.die_id)
        linked = device is not None and device.connected
        if not (self.discovering and die.advertising and not linked and self._wanted(die)):
            return
        data = (die.manufacturer_data(), die.service_data())
        if device is None:
            device = self.devices[die.die_id] = Device(self, die)
            device.advertised = data
            self.bus.export(device.path, device)  # InterfacesAdded, with the advertisement
            self.changes()
            return
        device.rssi = random.randint(-75, -45)
        changed: dict[str, object] = {"RSSI": device.rssi}
        if data != device.advertised:
            device.advertised = data
            changed["ManufacturerData"] = device.ManufacturerData
            changed["ServiceData"] = device.ServiceData
        elif not self.discovery_filter.get("DuplicateData", False):
            return  # BlueZ drops repeats unless the scan asked for them
        device.emit_properties_changed(changed)
        self.changes()

    def _wanted(self, die: PixelsDie) -> bool:
        """Whether the scan's filter lets the die's advertisements through."""
        service = die.uuids[0]
        uuids = self.discovery_filter.get("UUIDs") or [service]
        le = self.discovery_filter.get("Transport", "auto") in ("le", "auto")
        return service in uuids and le

    async def connect(self, device: Device) -> None:
        """Device1.Connect: link up, services found, then resolved (what bleak waits for).
        How long each took, until it linked, failed or its caller gave up, is noted."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        try:
            await self._connect(device)
        finally:
            self.attempts.append((device.die.die_id, loop.time() - began))
            self.changes()

    async def _connect(self, device: Device) -> None:
        self.connects += 1
        if not self.powered:
            raise DBusError(NOT_READY, "Resource Not Ready")
        if device.connected:
            raise DBusError("org.bluez.Error.AlreadyConnected", "Already Connected")
        if device.die.eludes:  # gone between its advertisement and this connect
            device.die.in_range = False
            await self._keep_trying(device)
            raise DBusError(FAILED, "le-connection-abort-by-local")
        if not device.die.advertising:  # out of reach, or another central holds it
            await asyncio.sleep(self.connect_timeout)
            raise DBusError(FAILED, "le-connection-abort-by-local")
        if self.failing.get(device.die.die_id, 0) > 0:  # interference: the attempt fails
            self.failing[device.die.die_id] -= 1
            raise DBusError(FAILED, "Software caused connection abort")
        device.connected = True
        device.asked = False
        device.emit_properties_changed({"Connected": True})
        self._export_gatt(device)
        device.resolved = True
        device.emit_properties_changed({"ServicesResolved": True})
        self.changes()

    async def _keep_trying(self, device: Device) -> None:
        """BlueZ trying to reach a die that is gone: until UNANSWERED runs out, or until the
        caller gives up (bleak's Disconnect on a timeout or a cancel)."""
        device.reaching = gave_up = asyncio.Event()
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(gave_up.wait(), UNANSWERED)
        finally:
            device.reaching = None

    def _export_gatt(self, device: Device) -> None:
        service_path = f"{device.path}/service000a"
        service = GattService(device)
        _service, notify_uuid, write_uuid = device.die.uuids
        notify = Characteristic(device, service_path, notify_uuid, ["notify"])
        write = Characteristic(device, service_path, write_uuid, self.write_flags)
        device.gatt = [
            (service_path, service),
            (f"{service_path}/char000b", notify),
            (f"{service_path}/char000d", write),
        ]
        for path, interface in device.gatt:
            self.bus.export(path, interface)

    def drop_link(self, device: Device) -> None:
        """The link ends (Disconnect, or the die out of reach): services go, then the link."""
        if not device.connected:
            return
        device.resolved = False
        device.connected = False
        device.emit_properties_changed({"ServicesResolved": False})
        device.emit_properties_changed({"Connected": False})
        for path, interface in reversed(device.gatt):
            self.bus.unexport(path, interface)
        device.gatt = []
        self.changes()
        asyncio.get_running_loop().call_soon(self.advertise, device.die)

    def written(self, device: Device, data: bytes, kind: str) -> None:
        """A central wrote to the die: it answers by notification, after the write is done."""
        self.writes.append((device.die.die_id, data, kind))
        device.asked = True
        for reply in device.die.answer(data):
            asyncio.get_running_loop().call_soon(self._notify, device, reply)
        self.changes()

    def _tell(self, die: PixelsDie, message: bytes) -> None:
        device = self.devices.get(die.die_id)
        if device is not None and device.connected:
            self._notify(device, message)
        else:
            self.advertise(die)
        self.changes()

    def _notify(self, device: Device, message: bytes) -> None:
        for _path, interface in device.gatt:
            if isinstance(interface, Characteristic) and "notify" in interface.flags:
                interface.notify(message)

    def changes(self) -> None:
        self._changed.set()
        if self.on_change is not None:
            self.on_change()

    async def _advertise_now_and_then(self) -> None:
        while True:
            await asyncio.sleep(self.advertising_interval)
            for die in self.dice.values():
                self.advertise(die)
