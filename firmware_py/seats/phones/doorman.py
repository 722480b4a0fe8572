"""The doorman at the phones' port: before aiohttp sees a connection, it is let in only while
its device (its address) holds fewer than its share of connections, and while the tower has
open files to spare. What it lets in is counted until it closes; what it turns away is closed
at once (no HTTP parsing, no task, a few microseconds), counted, and said in a line of log a
minute at most.

The share per device is PER_ADDRESS (a browser opens up to six connections to a page's host,
and its WebSockets), fewer when the open-file budget is small: the budget is the process's
soft limit (raised to its hard limit at start, `app.limits`) less the files already open and
RESERVED for what must never fail for want of one (the journal's fsynced lines, seat-token
notes, pads' ports), so that FAIR_DEVICES devices at their share fit in it. One device holding
thousands of idle sockets thus holds a few; the other phones and the journal keep theirs.
"""

from __future__ import annotations

import asyncio
import logging
import os
import resource
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

PER_ADDRESS = 16  # connections one device may hold at once (a browser's six, its sockets)
MIN_PER_ADDRESS = 4  # ... and never fewer: a page, its files and its WebSocket
FAIR_DEVICES = 50  # devices that fit in the budget at their share
RESERVED = 64  # open files kept for the journal, the seat-token notes, pads, displays
BACKLOG = 128  # connections the port queues: asyncio accepts as many at once (each a file)
REPORT_EVERY = 60.0  # seconds between two log lines about connections turned away
ProtocolFactory = Callable[[], asyncio.BaseProtocol]


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
    share and the whole under `budget`; a protocol factory in front of aiohttp's."""

    def __init__(self, handler: ProtocolFactory, budget: int,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.handler = handler
        self.budget = budget
        self.per_address = max(MIN_PER_ADDRESS, min(PER_ADDRESS, budget // FAIR_DEVICES))
        self.clock = clock
        self.held: dict[str, int] = {}  # address -> connections it holds now
        self.total = 0
        self._turned_away = 0
        self._reported = -REPORT_EVERY

    def __call__(self) -> asyncio.BaseProtocol:
        return _Door(self)

    def admit(self, address: str) -> bool:
        """True (and counted) when a connection from `address` may come in."""
        if self.total >= self.budget or self.held.get(address, 0) >= self.per_address:
            self._turn_away(address)
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

    def _turn_away(self, address: str) -> None:
        self._turned_away += 1
        now = self.clock()
        if now - self._reported >= REPORT_EVERY:
            log.warning(
                "phones: %d connection(s) turned away since the last such line, a minute or "
                "more ago (the latest from %s, which holds %d); %d open in all",
                self._turned_away,
                address,
                self.held.get(address, 0),
                self.total,
            )
            self._turned_away, self._reported = 0, now


class _Door(asyncio.Protocol):
    """One connection at the door: handed to aiohttp's handler when the doorman lets it in,
    else closed at once. Everything the transport says then goes to the handler."""

    def __init__(self, doorman: Doorman) -> None:
        self.doorman = doorman
        self.address: str | None = None
        self.inner: asyncio.Protocol | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if not self.doorman.admit(address):
            if isinstance(transport, asyncio.WriteTransport):
                transport.abort()  # closed now: no handshake to wait for, nothing to flush
            else:
                transport.close()
            return
        self.address = address
        inner = self.doorman.handler()
        assert isinstance(inner, asyncio.Protocol)
        self.inner = inner
        inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is None or self.address is None:
            return
        self.doorman.left(self.address)
        self.address = None
        self.inner.connection_lost(exc)
