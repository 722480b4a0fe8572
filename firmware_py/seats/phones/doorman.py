"""The doorman at the phones' port: it accepts connections itself, and before aiohttp sees
one, lets it in only while its device (its address) holds fewer than its share of connections
and while the tower has open files to spare. What it lets in is counted until it closes; what
it turns away is closed at once, never made a transport (no HTTP parsing, no task: a few
microseconds, so a device reconnecting thousands of times a second does not crowd the port's
queue for the others), counted, and said in a line of log a minute at most. When the system
has no file to give (EMFILE), it waits a second and says so once a minute, not a traceback
each time as asyncio's own accepting did.

The share per device is PER_ADDRESS (a browser opens up to six connections to a page's host,
and its WebSockets), fewer when the open-file budget is small: the budget is the process's
soft limit (raised to its hard limit at start, `app.limits`) less the files already open,
RESERVED for what must never fail for want of one (the journal's fsynced lines, seat-token
notes, pads' ports), and a BACKLOG's worth, so that FAIR_DEVICES devices at their share fit in
it. One device holding thousands of idle sockets thus holds a few; the other phones and the
journal keep theirs.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import resource
import socket
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

PER_ADDRESS = 8  # connections one device may hold at once (a browser's six, its sockets)
MIN_PER_ADDRESS = 4  # ... and never fewer: a page, its files and its WebSocket
FAIR_DEVICES = 50  # devices that fit in the budget at their share
RESERVED = 64  # open files kept for the journal, the seat-token notes, pads, displays
BACKLOG = 128  # connections the port queues: asyncio accepts as many at once (each a file)
REPORT_EVERY = 60.0  # seconds between two log lines about connections turned away
OUT_OF_FILES_PAUSE = 1.0  # seconds the door stays shut when the system has no file to give
OUT_OF_FILES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


def open_files_budget() -> int:
    """Connections the phones' port may hold: the soft limit of open files, less those open
    now, RESERVED, and a BACKLOG's worth (asyncio accepts that many in one go before the
    doorman closes those it turns away)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 1 << 20
    try:
        in_use = len(os.listdir("/proc/self/fd"))
    except OSError:
        in_use = 64  # no /proc: a guess at what a tower holds at start
    return max(MIN_PER_ADDRESS, soft - in_use - RESERVED - BACKLOG)


class Doorman:
    """Counts each address's open connections and lets one more in while it is under its
    share and the whole under `budget`."""

    def __init__(self, budget: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.budget = budget
        self.per_address = max(MIN_PER_ADDRESS, min(PER_ADDRESS, budget // FAIR_DEVICES))
        self.clock = clock
        self.held: dict[str, int] = {}  # address -> connections it holds now
        self.total = 0
        self._turned_away = 0
        self._out_of_files = 0
        self._reported = -REPORT_EVERY

    def admit(self, address: str) -> bool:
        """True (and counted) when a connection from `address` may come in."""
        if self.total >= self.budget or self.held.get(address, 0) >= self.per_address:
            self._turned_away += 1
            self._report(address)
            return False
        self.held[address] = self.held.get(address, 0) + 1
        self.total += 1
        return True

    def left(self, address: str) -> None:
        """A connection let in has closed."""
        self.total -= 1
        count = self.held.pop(address, 1) - 1
        if count > 0:
            self.held[address] = count

    def out_of_files(self, error: OSError) -> None:
        """The system gave no file for a connection (it waits in the port's queue)."""
        self._out_of_files += 1
        self._report("", error)

    def _report(self, address: str, error: OSError | None = None) -> None:
        """One line a minute at most about what the door did not let in."""
        now = self.clock()
        if now - self._reported < REPORT_EVERY:
            return
        if error is not None:
            why = error.strerror or error
            log.warning("phones: the tower cannot take a connection now (%s); %d times since "
                        "the last such line", why, self._out_of_files)  # fmt: skip
        else:
            log.warning("phones: %d connection(s) turned away since the last such line, a "
                        "minute or more ago (the latest from %s, which holds %d); %d open in "
                        "all", self._turned_away, address, self.held.get(address, 0),
                        self.total)  # fmt: skip
        self._turned_away, self._out_of_files, self._reported = 0, 0, now


class Entrance:
    """The phones' listening socket, accepted from by the doorman: what it lets in is handed
    to `handler` (aiohttp's protocol factory) as asyncio's own server would. Quacks like the
    `asyncio.Server` that aiohttp's site closes (`close`, `sockets`)."""

    def __init__(self, sock: socket.socket, handler: Callable[[], asyncio.BaseProtocol],
                 doorman: Doorman, loop: asyncio.AbstractEventLoop) -> None:  # fmt: skip
        self.sock, self.handler, self.doorman, self.loop = sock, handler, doorman, loop
        self.sockets = [sock]
        self._handing: set[asyncio.Task[None]] = set()  # kept referenced until done
        self._closed = False
        loop.add_reader(sock.fileno(), self._accept)

    def _accept(self) -> None:
        """Accept what the queue holds: turned away at once, or handed over."""
        for _ in range(BACKLOG):
            try:
                conn, peer = self.sock.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as error:
                if error.errno not in OUT_OF_FILES:
                    raise
                self.doorman.out_of_files(error)
                self._pause()
                return
            address = str(peer[0]) if isinstance(peer, tuple) else ""
            if not self.doorman.admit(address):
                conn.close()
                continue
            self._hand_over(conn, address)

    def _hand_over(self, conn: socket.socket, address: str) -> None:
        conn.setblocking(False)
        task = self.loop.create_task(self._connect(conn, address))
        self._handing.add(task)
        task.add_done_callback(self._handing.discard)

    async def _connect(self, conn: socket.socket, address: str) -> None:
        door = _Door(self.doorman, self.handler, address)
        try:
            await self.loop.connect_accepted_socket(lambda: door, conn)
        except OSError:
            conn.close()
            if not door.made:
                self.doorman.left(address)

    def _pause(self) -> None:
        """No file to give: shut the door for a moment (the queue keeps who knocks)."""
        self.loop.remove_reader(self.sock.fileno())
        self.loop.call_later(OUT_OF_FILES_PAUSE, self._resume)

    def _resume(self) -> None:
        if not self._closed:
            self.loop.add_reader(self.sock.fileno(), self._accept)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.loop.remove_reader(self.sock.fileno())
            self.sock.close()

    async def wait_closed(self) -> None:
        return None


class _Door(asyncio.Protocol):
    """One connection let in: aiohttp's handler does the work, and the doorman hears when it
    ends. Everything the transport says goes to the handler."""

    def __init__(self, doorman: Doorman, handler: Callable[[], asyncio.BaseProtocol],
                 address: str) -> None:  # fmt: skip
        self.doorman, self.address, self.made = doorman, address, False
        inner = handler()
        assert isinstance(inner, asyncio.Protocol)
        self.inner = inner

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.made = True
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.doorman.left(self.address)
        self.inner.connection_lost(exc)
