"""The doorman at the phones' port: one device holds its share of connections and no more, the
whole stays within the open-file budget, a connection that closes gives its place back, what is
turned away is never handed to aiohttp, and a system out of files shuts the door for a moment
with one line of log a minute."""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
from typing import ClassVar

from support import HANG

from firmware_py.seats.phones.doorman import (
    MIN_PER_ADDRESS,
    PER_ADDRESS,
    Doorman,
    Entrance,
)


class Handler(asyncio.Protocol):
    made: ClassVar[list[Handler]] = []

    def connection_made(self, transport) -> None:
        Handler.made.append(self)
        self.transport = transport


def test_one_device_holds_its_share_and_a_closed_connection_gives_its_place_back():
    doorman = Doorman(budget=10_000)
    assert doorman.per_address == PER_ADDRESS
    assert all(doorman.admit("192.168.1.66") for _ in range(PER_ADDRESS))
    assert not doorman.admit("192.168.1.66")
    assert doorman.admit("192.168.1.20")  # another device: let in
    doorman.left("192.168.1.66")
    assert doorman.admit("192.168.1.66")
    assert doorman.total == PER_ADDRESS + 1


def test_a_small_budget_shares_itself_among_fifty_devices_and_is_never_exceeded():
    doorman = Doorman(budget=300)
    assert doorman.per_address == 300 // 50
    for device in range(60):
        for _ in range(10):
            doorman.admit(f"10.0.{device}.1")
    assert doorman.total == 300 and max(doorman.held.values()) == 300 // 50
    assert Doorman(budget=20).per_address == MIN_PER_ADDRESS


def test_the_door_hands_its_share_to_aiohttp_closes_the_rest_and_counts_what_closes():
    """Real sockets on 127.0.0.1: a device connects six times with a share of four."""

    async def knock() -> tuple[int, int, int]:
        Handler.made.clear()
        listener = socket.create_server(("127.0.0.1", 0))
        listener.setblocking(False)
        doorman = Doorman(budget=4 * 50)
        entrance = Entrance(listener, Handler, doorman, asyncio.get_running_loop())
        port = listener.getsockname()[1]
        clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(6)]
        for client in clients[4:]:
            client.settimeout(HANG)
        closed = [await asyncio.to_thread(client.recv, 1) for client in clients[4:]]
        assert closed == [b"", b""]  # turned away: closed by the tower
        while len(Handler.made) < 4:
            await asyncio.sleep(0.01)
        handed, held = len(Handler.made), doorman.total
        Handler.made[0].transport.close()
        while doorman.total > 3:
            await asyncio.sleep(0.01)
        entrance.close()
        for client in clients:
            client.close()
        return handed, held, doorman.total

    assert asyncio.run(knock()) == (4, 4, 3)


class OutOfFiles:
    """A listening socket whose system has no file to give."""

    def __init__(self) -> None:
        self.accepts = 0

    def fileno(self) -> int:
        return 0

    def accept(self):
        self.accepts += 1
        raise OSError(errno.EMFILE, "Too many open files")


class Loop:
    def __init__(self) -> None:
        self.reading, self.later = False, []

    def add_reader(self, fd, callback) -> None:
        self.reading = True

    def remove_reader(self, fd) -> None:
        self.reading = False

    def call_later(self, delay, callback):
        self.later.append((delay, callback))


def test_out_of_files_the_door_shuts_for_a_second_and_says_so_once_a_minute(caplog):
    now = [100.0]
    loop, sock = Loop(), OutOfFiles()
    entrance = Entrance(sock, Handler, Doorman(budget=1000, clock=lambda: now[0]), loop)
    with caplog.at_level(logging.WARNING):
        for _ in range(1000):
            entrance._accept()
            assert not loop.reading and loop.later[-1][0] == 1.0  # shut, opened in a second
            loop.later.pop()[1]()
            assert loop.reading
        now[0] += 61
        entrance._accept()
    assert sock.accepts == 1001  # one try each time the door opened, not a busy loop
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2 and "1000 times since the last such line" in lines[1], lines
    assert all(record.exc_info is None for record in caplog.records)
