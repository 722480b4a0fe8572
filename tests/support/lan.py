"""Devices on the LAN for the tests of the phones' door under attack: each device speaks from an
address of its own (127.x.y.z: Linux answers every 127/8 address on the loopback), so the tower
tells them apart as it tells phones apart. Attackers hold or reopen sockets; counts are bounded
by the caller."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import socket
import threading
from collections.abc import AsyncIterator

import aiohttp

from support.phone import Phone


def address(group: int, number: int) -> str:
    """The `number`th device of `group` (attackers in one group, victims in another)."""
    return f"127.{group}.{number // 250}.{number % 250 + 1}"


@contextlib.asynccontextmanager
async def device(source: str) -> AsyncIterator[aiohttp.ClientSession]:
    """An HTTP client whose every connection comes from `source`."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0), limit=0, force_close=True)
    async with aiohttp.ClientSession(connector=connector) as session:
        yield session


async def first_word(phone: Phone) -> dict:
    """The first message that answers a join or a hello: joined, view, token or refused (a
    socket the tower closed instead counts as a refusal)."""
    try:
        return await phone.expect_any("joined", "view", "token", "refused")
    except AssertionError as ended:
        return {"type": "refused", "reason": str(ended)}


async def join_from(source: str, ws_url: str, code: str, name: str, typing: float = 0) -> dict:
    """A new phone at `source` joins with `code` (its page open for `typing` seconds first,
    while its player types a name): the tower's first answer."""
    async with device(source) as session:
        phone = await Phone.open(session, ws_url)
        await asyncio.sleep(typing)
        try:
            await phone.send(type="join", code=code, name=name)
        except ConnectionError as closed:  # the tower closed it before the join went out
            return {"type": "refused", "reason": str(closed)}
        return await first_word(phone)


class Holder:
    """Sockets held open on the tower from one device, each reopened the moment the tower
    closes it (as a page reconnects, only at once): `opened` counts every open."""

    def __init__(self, source: str, ws_url: str, sockets: int) -> None:
        self.source, self.ws_url, self.sockets = source, ws_url, sockets
        self.opened = 0

    async def hold(self, stop: asyncio.Event) -> None:
        async with device(self.source) as session:
            await asyncio.gather(*(self._one(session, stop) for _ in range(self.sockets)))

    async def _one(self, session: aiohttp.ClientSession, stop: asyncio.Event) -> None:
        while not stop.is_set():
            with contextlib.suppress(aiohttp.ClientError, OSError, asyncio.TimeoutError):
                async with session.ws_connect(self.ws_url) as socket_:
                    self.opened += 1
                    closed = asyncio.ensure_future(self._until_closed(socket_))
                    stopped = asyncio.ensure_future(stop.wait())
                    await asyncio.wait([closed, stopped], return_when=asyncio.FIRST_COMPLETED)
                    closed.cancel()
                    stopped.cancel()
            await asyncio.sleep(0.01)  # refused before the upgrade: again, at once

    @staticmethod
    async def _until_closed(socket_: aiohttp.ClientWebSocketResponse) -> None:
        async for _ in socket_:
            pass


class IdleSockets:
    """Plain TCP connections from one device that never send a byte, `count` of them kept
    open by a thread (those the tower closes are opened again) until `stop`."""

    def __init__(self, source: str, port: int, count: int) -> None:
        self.source, self.port, self.count = source, port, count
        self.opened = 0
        self.filled = threading.Event()  # every one of `count` was opened once
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._hold, daemon=True)

    def __enter__(self) -> IdleSockets:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stopping.set()
        self._thread.join(30)

    def _hold(self) -> None:
        held: list[socket.socket] = []
        while not self._stopping.is_set():
            alive = [sock for sock in held if not _closed_by_tower(sock)]
            for sock in set(held) - set(alive):
                sock.close()
            held = alive
            while len(held) < self.count and not self._stopping.is_set():
                held.append(self._open())
            self.filled.set()
            self._stopping.wait(0.5)
        for sock in held:
            sock.close()

    def _open(self) -> socket.socket:
        """A connection started without waiting (the tower's queue may be full)."""
        sock = socket.socket()
        sock.setblocking(False)
        sock.bind((self.source, 0))
        sock.connect_ex(("127.0.0.1", self.port))
        self.opened += 1
        return sock


def _closed_by_tower(sock: socket.socket) -> bool:
    try:
        return sock.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError as error:
        return error.errno != errno.ENOTCONN  # still connecting: not closed
