"""The system clock's state, as `timedatectl` says it: set from a time server or not.

The probe is checked against this machine's own answer: `timedatectl` where it answers (under
systemd), else a second reading of the kernel's `struct timex`, by byte offsets rather than the
probe's ctypes layout. Where it cannot tell (not Linux, no C library, the call refused), it
says None and raises nothing.
"""

from __future__ import annotations

import ctypes
import errno
import shutil
import subprocess
import sys

from support import HANG

from drivers import clock

STA_UNSYNC = 0x0040  # <sys/timex.h>: the kernel's "clock not synchronised" status bit
PHASE_LIMIT_US = 16_000_000  # the kernel's NTP_PHASE_LIMIT, timedated's threshold


def timedatectl_says() -> bool | None:
    """`timedatectl`'s "System clock synchronized", or None where it cannot answer (no
    systemd as PID 1, no timedated on the bus)."""
    if shutil.which("timedatectl") is None:
        return None
    shown = subprocess.run(
        ["timedatectl", "show", "-p", "NTPSynchronized", "--value"],
        capture_output=True, text=True, timeout=HANG, check=False,
    )  # fmt: skip
    return {"yes": True, "no": False}.get(shown.stdout.strip())


def kernel_fields() -> tuple[int, int]:
    """(maxerror, status) of `struct timex`, read by offsets: `modes` (an int, padded to a
    long), `offset`, `freq` come first, then `maxerror`, `esterror`, `status`."""
    raw = bytearray(clock.TIMEX_ROOM)
    returned = ctypes.CDLL(None).adjtimex((ctypes.c_char * len(raw)).from_buffer(raw))
    assert returned != -1, "adjtimex(2) refused a reading on this machine"
    long = ctypes.sizeof(ctypes.c_long)
    maxerror = int.from_bytes(raw[3 * long : 4 * long], sys.byteorder, signed=True)
    status = int.from_bytes(raw[5 * long : 5 * long + 4], sys.byteorder, signed=True)
    return maxerror, status


def test_the_probe_says_what_timedatectl_says_on_this_machine():
    said = clock.clock_synchronised()
    assert isinstance(said, bool)
    systemd = timedatectl_says()
    if systemd is not None:
        assert said == systemd
        return
    maxerror, status = kernel_fields()
    assert said == (maxerror < PHASE_LIMIT_US)
    if not said:  # the kernel flags a clock whose error reached its limit: the fields are right
        assert status & STA_UNSYNC


def test_without_the_c_library_the_probe_cannot_tell(monkeypatch):
    monkeypatch.setattr(clock, "LIBC", "libc-that-is-not-there.so.6")
    assert clock.clock_synchronised() is None


class RefusingLibrary:
    """A C library whose adjtimex(2) fails as under systemd's ProtectClock= (a seccomp filter
    answering EPERM), or as a call that has no struct to write to."""

    def adjtimex(self, buffer: object) -> int:
        ctypes.set_errno(errno.EPERM)
        return -1


def test_a_refused_reading_is_no_answer_and_no_error(monkeypatch):
    monkeypatch.setattr(clock, "c_library", RefusingLibrary)
    assert clock.clock_synchronised() is None


def test_a_library_without_adjtimex_is_no_answer(monkeypatch):
    monkeypatch.setattr(clock, "c_library", object)
    assert clock.clock_synchronised() is None


def test_off_linux_the_probe_cannot_tell(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    assert clock.clock_synchronised() is None
