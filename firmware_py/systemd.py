"""Talking to systemd: readiness and watchdog pings for a `Type=notify` unit.

The protocol is one datagram per message to the socket named in $NOTIFY_SOCKET (an `@` prefix
means Linux's abstract namespace). Outside systemd the variable is unset and every call is a
no-op, so the same code runs in a terminal and as a kiosk.
"""

from __future__ import annotations

import os
import socket


def notify(message: str) -> bool:
    """Send e.g. "READY=1", "WATCHDOG=1" or "STATUS=..."; False when not under systemd."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(address)
        sock.sendall(message.encode("utf-8"))
    return True


def watchdog_interval() -> float | None:
    """Seconds between watchdog pings (half of WatchdogSec=), or None without a watchdog."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and int(pid) != os.getpid()):
        return None
    return int(usec) / 1_000_000 / 2


def ready(status: str = "") -> bool:
    return notify("READY=1" + (f"\nSTATUS={status}" if status else ""))


def ping_watchdog() -> bool:
    return notify("WATCHDOG=1")
