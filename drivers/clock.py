"""Whether the system clock is set from a time server, as the kernel knows it.

A Raspberry Pi has no clock that runs without power: it starts at the time it last saved and
is put right by an NTP daemon (systemd-timesyncd on Raspberry Pi OS; chrony or ntpd elsewhere)
once a time server answers. Whichever daemon runs, it tells the kernel how far the clock can
be off, and adjtimex(2) with `modes` = 0 reads that back without changing anything and without
a privilege. The answer is `timedatectl`'s "System clock synchronized": the kernel's maximum
error under 16 s, the rule of systemd's timedated. (The return value TIME_ERROR, the flag
STA_UNSYNC, says the same for timesyncd and ntpd, but chrony without `rtcsync` keeps that flag
set on purpose, while the maximum error is kept by every daemon.)
"""

from __future__ import annotations

import ctypes
import sys

# `struct timex` is about 208 bytes on a 64-bit Pi and less on 32-bit ARM; the kernel writes
# the whole struct, so the buffer is made generously larger and zeroed (`modes` = 0: read only).
TIMEX_ROOM = 512
UNSYNCHRONISED_FROM_US = 16_000_000  # a maximum error from 16 s up: no time server keeps it
LIBC: str | None = None  # the C library to call (None: the one this Python runs on)


class _TimexHead(ctypes.Structure):
    """The first fields of `struct timex` as the C library's `adjtimex` lays them out: `int`
    and `long` fields, so on 32-bit ARM `long` is 4 bytes and on 64-bit 8, as ctypes knows."""

    _fields_ = (
        ("modes", ctypes.c_uint),
        ("offset", ctypes.c_long),
        ("freq", ctypes.c_long),
        ("maxerror", ctypes.c_long),
        ("esterror", ctypes.c_long),
        ("status", ctypes.c_int),
    )


def clock_synchronised() -> bool | None:
    """True when a time server keeps the system clock, False when none does (the clock is the
    time it saved or guessed), None when this system cannot tell (not Linux, no C library, the
    call refused, as systemd's ProtectClock= refuses it). Never raises."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        adjtimex = c_library().adjtimex
        room = ctypes.create_string_buffer(TIMEX_ROOM)
        if adjtimex(room) == -1:
            return None
        maxerror: int = _TimexHead.from_buffer(room).maxerror
        return maxerror < UNSYNCHRONISED_FROM_US
    except Exception:  # no such library or function: nothing to tell, nothing to break
        return None


def c_library() -> ctypes.CDLL:
    """The C library whose `adjtimex` is called (raises OSError when it cannot be loaded)."""
    return ctypes.CDLL(LIBC, use_errno=True)
