"""The test's hands on the dice of a stand-in running in another process: a D-Bus interface of
the stand-in's own (not BlueZ's) on the same private bus, and the calls a test makes to it."""

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Annotated

from dbus_fast import Message, MessageType
from dbus_fast.aio import MessageBus
from dbus_fast.annotations import DBusBool as Bool
from dbus_fast.annotations import DBusByte as Byte
from dbus_fast.annotations import DBusSignature
from dbus_fast.annotations import DBusUInt32 as UInt32
from dbus_fast.constants import BusType
from dbus_fast.service import ServiceInterface, method

from support import HANG
from support.bluez.service import BLUEZ, Radio

Ids = Annotated[list[int], DBusSignature("au")]
TESTS = Path(__file__).resolve().parents[2]
START_WAIT = HANG  # seconds a loaded machine may take to start Python and serve


class Control(ServiceInterface):
    """org.qwixx.StandIn: throw a die, take it out of reach and back (or as the tower connects
    to it), wait for the links."""

    PATH = "/org/qwixx/standin"
    NAME = "org.qwixx.StandIn"

    def __init__(self, radio: Radio) -> None:
        super().__init__(self.NAME)
        self.radio = radio

    @method()
    def Throw(self, die: UInt32, face: Byte) -> None:
        self.radio.throw(die, face)

    @method()
    def Leave(self, die: UInt32) -> None:
        self.radio.leave(die)

    @method()
    def ComeBack(self, die: UInt32) -> None:
        self.radio.come_back(die)

    @method()
    def HoldElsewhere(self, die: UInt32, held: Bool) -> None:
        self.radio.hold_elsewhere(die, held)

    @method()
    def Elude(self, die: UInt32) -> None:
        self.radio.dice[die].eludes = True

    @method()
    async def WaitListenedTo(self, dice: Ids) -> None:
        await self.radio.wait_for(lambda: set(dice) <= self.radio.listened_to())


class StandInProcess:
    """`python -m support.bluez` serving `dice` on the bus at `address`; the test's calls."""

    def __init__(self, address: str, dice: list[int]) -> None:
        self.address = address
        path = os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])
        env = {**os.environ, "PYTHONPATH": path}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "support.bluez", address, *map(hex, dice)],
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        if self.process.stdout.readline().strip() != "ready":
            raise AssertionError("the BlueZ stand-in did not start")

    def throw(self, die: int, face: int) -> None:
        self._call("Throw", "uy", [die, face])

    def leave(self, die: int) -> None:
        self._call("Leave", "u", [die])

    def come_back(self, die: int) -> None:
        self._call("ComeBack", "u", [die])

    def hold_elsewhere(self, die: int, held: bool = True) -> None:
        """A phone's Pixels app takes the die (or lets it go)."""
        self._call("HoldElsewhere", "ub", [die, held])

    def elude(self, die: int) -> None:
        """The die leaves the moment the tower connects to it (after its advertisement)."""
        self._call("Elude", "u", [die])

    def wait_listened_to(self, dice: list[int], limit: float = START_WAIT) -> None:
        """Return once the tower listens to each of `dice` over a link; fail after `limit` s."""
        self._call("WaitListenedTo", "au", [dice], limit)

    def _call(self, member: str, signature: str, body: list, limit: float = START_WAIT) -> None:
        asyncio.run(asyncio.wait_for(self._send(member, signature, body), limit))

    async def _send(self, member: str, signature: str, body: list) -> None:
        bus = await MessageBus(bus_address=self.address, bus_type=BusType.SYSTEM).connect()
        try:
            call = Message(
                destination=BLUEZ,
                path=Control.PATH,
                interface=Control.NAME,
                member=member,
                signature=signature,
                body=body,
            )
            reply = await bus.call(call)
            assert reply is not None and reply.message_type is MessageType.METHOD_RETURN, reply
        finally:
            bus.disconnect()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=START_WAIT)
