"""What keeps the web server the tower's own: requests must name the tower (its own host names
and addresses, against DNS rebinding: a web page on the attacker's name that resolves to the
tower must not reach it), and a flood of bad requests costs a few log lines, not a disk.
"""

from __future__ import annotations

import errno
import ipaddress
import logging
import socket
import time
from collections.abc import Callable
from urllib.parse import urlsplit

LOG_LINES = 5  # lines a minute each of aiohttp's loggers may write; the rest are counted
AIOHTTP_LOGGERS = ("aiohttp.server", "aiohttp.web", "aiohttp.websocket", "aiohttp.access",
                   "aiohttp.internal")  # fmt: skip
ADDRESSES_KEPT = 64  # addresses whose answer (ours or not) is remembered


class OwnHosts:
    """Which `Host` headers name this tower: `localhost`, its host name (also with `.local`,
    as phones find it by mDNS), and any IP address of one of its own interfaces."""

    def __init__(self) -> None:
        name = socket.gethostname().casefold()
        self.names = {"localhost", name, f"{name}.local", socket.getfqdn().casefold()}
        self._addresses: dict[str, bool] = {}

    def allows(self, host: str) -> bool:
        """True when `host` (a Host header, perhaps with a port) names this tower."""
        try:
            name = urlsplit(f"//{host}").hostname
        except ValueError:
            return False
        if not name:
            return False
        try:
            address = ipaddress.ip_address(name)
        except ValueError:
            return name.rstrip(".") in self.names
        return self._is_ours(address)

    def _is_ours(self, address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
        """An address is ours when a socket can be bound to it (asked once per address)."""
        key = str(address)
        if key not in self._addresses:
            if len(self._addresses) >= ADDRESSES_KEPT:
                self._addresses.clear()
            self._addresses[key] = _bindable(key, address.version)
        return self._addresses[key]


def _bindable(address: str, version: int) -> bool:
    family = socket.AF_INET6 if version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((address, 0))
    except OSError as error:
        return error.errno not in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT, errno.EINVAL)
    return True


class FewLines(logging.Filter):
    """At most LOG_LINES records a minute pass; the first one after a quiet minute says how
    many were left out."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        self.since = -60.0
        self.passed = 0
        self.left_out = 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = self.clock()
        if now - self.since >= 60:
            if self.left_out:
                record.msg = f"{record.getMessage()} ({self.left_out} like it left out)"
                record.args = ()
            self.since, self.passed, self.left_out = now, 0, 0
        if self.passed >= LOG_LINES:
            self.left_out += 1
            return False
        self.passed += 1
        _one_line(record)
        return True


def _one_line(record: logging.LogRecord) -> None:
    """A record with a traceback, as one line: what the network sent wrong, not where aiohttp
    noticed it (a bad request from a phone is no bug of the tower's)."""
    if record.exc_info is None or record.exc_info[1] is None:
        return
    error = record.exc_info[1]
    words = " ".join(str(error).split())[:160]
    record.msg = f"{record.getMessage()}: {type(error).__name__} {words}".rstrip()
    record.args = ()
    record.exc_info = None
    record.exc_text = None


def few_log_lines() -> None:
    """aiohttp's loggers write a few lines a minute at most (once, however often called)."""
    for name in AIOHTTP_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(each, FewLines) for each in logger.filters):
            logger.addFilter(FewLines())
