"""Talking to systemd: readiness and watchdog pings for a `Type=notify` unit.

The protocol is one datagram per message to the socket named in $NOTIFY_SOCKET (an `@` prefix
means Linux's abstract namespace). Outside systemd the variable is unset and every call is a
no-op, so the same code runs in a terminal and as a kiosk. A socket that cannot be reached is
logged (once until it works again), never raised: a lost ping must not end the task sending it.
"""

from __future__ import annotations

import logging
import os
import socket

from firmware_py.words import in_digits

log = logging.getLogger(__name__)

_unreachable = False  # the last notify failed; its failures are logged once


def notify(message: str) -> bool:
    """Send e.g. "READY=1", "WATCHDOG=1" or "STATUS=..."; False when not under systemd or when
    the socket cannot be reached."""
    global _unreachable
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
    except OSError as error:
        if not _unreachable:
            log.warning("cannot tell systemd %s: %s", message.split("=")[0], error)
        _unreachable = True
        return False
    _unreachable = False
    return True


def watchdog_interval() -> float | None:
    """Seconds between watchdog pings (half of WatchdogSec=), or None without a watchdog."""
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID", "")
    if not in_digits(usec) or int(usec) == 0 or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 1_000_000 / 2


def ready(status: str = "") -> bool:
    return notify("READY=1" + (f"\nSTATUS={status}" if status else ""))


def ping_watchdog() -> bool:
    return notify("WATCHDOG=1")


# Python's log levels as syslog priorities (sd-daemon(3)): journald reads a "<N>" line prefix.
SYSLOG_PRIORITIES = {
    logging.CRITICAL: 2,
    logging.ERROR: 3,
    logging.WARNING: 4,
    logging.INFO: 6,
    logging.DEBUG: 7,
}


def logging_to_journal(stream_fd: int = 2) -> bool:
    """True when `stream_fd` is the stream systemd connected to the journal ($JOURNAL_STREAM)."""
    expected = os.environ.get("JOURNAL_STREAM", "")
    try:
        stat = os.fstat(stream_fd)
    except OSError:
        return False
    return expected == f"{stat.st_dev}:{stat.st_ino}"


class JournalFormatter(logging.Formatter):
    """Prefixes every line of a record with its syslog priority, e.g. "<4>" for a warning, so
    `journalctl -p warning` finds warnings, and a traceback's lines keep their record's level."""

    def format(self, record: logging.LogRecord) -> str:
        priority = syslog_priority(record.levelno)
        return "\n".join(f"<{priority}>{line}" for line in super().format(record).splitlines())


def syslog_priority(levelno: int) -> int:
    """The syslog priority of a Python log level; a level in between takes the next one up."""
    for level, priority in sorted(SYSLOG_PRIORITIES.items()):
        if levelno <= level:
            return priority
    return SYSLOG_PRIORITIES[logging.CRITICAL]
