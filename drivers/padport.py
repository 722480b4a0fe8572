"""One pad's serial port, as the pad link uses it: frames in and out, opened again with backoff.

The link's thread opens the port, reads it and closes it; any thread may write a frame. A write
that fails only marks the port failed, and the link's thread then closes it and opens it again.
The port knows frames, not what they say: the hello, heartbeats and the pad's requests are the
link's (padlink.py).
"""

from __future__ import annotations

import contextlib
import errno
import io
import logging
import os
import select
import termios
import threading
from collections.abc import Callable
from time import monotonic

import serial

from firmware_py.pad import protocol

log = logging.getLogger("drivers.padlink")  # the pad link's log, port and session alike

READ_TIMEOUT = 0.05  # seconds a read waits; bounds how late a tick or close() is noticed
A_PORT_IS = "a pad's is a device such as /dev/ttyACM0"
NOT_A_PORT = f"it is not a serial port ({A_PORT_IS})"
# Seconds a write may wait for room in the port's buffer. Writes come from the asyncio loop: a
# pad that stops reading (its USB buffer full) must not freeze every display, light and pad.
# A frame is a few hundred bytes, far less than a second's worth of a reading pad's USB link.
# Only a pad that leaves no room for that long is given up: a frame that went out in full is
# never a timeout, however late the writing thread was (see `write_frame`).
WRITE_TIMEOUT = 0.25


class Backoff:
    """Delays between attempts to reopen a port: doubling from `first` up to `limit`."""

    def __init__(self, first: float, limit: float) -> None:
        self.first = first
        self.limit = limit
        self.delay = first

    def next(self) -> float:
        """The delay to wait now; the one after is twice as long, up to the limit."""
        delay, self.delay = self.delay, min(self.delay * 2, self.limit)
        return delay

    def reset(self) -> None:
        self.delay = self.first


class PadPort:
    """The serial port `url` (a device path or any pyserial URL): open or not, failed or not,
    the frames read from it decoded, the frames written to it numbered in the order they go."""

    def __init__(self, url: str, *, baudrate: int, retry: tuple[float, float]) -> None:
        self.url = url
        self.baudrate = baudrate
        self.backoff = Backoff(*retry)
        self.decoder = protocol.FrameDecoder()
        self.failed = False  # a write failed: the link's thread closes and reopens the port
        self._serial: serial.Serial | None = None
        self._write_lock = threading.Lock()
        self._seq = 0

    @property
    def is_open(self) -> bool:
        return self._serial is not None

    def open(self) -> bool:
        """Open the port and start decoding afresh; False if it cannot be opened (said once in
        a series of tries: the backoff is at its first delay only for the first)."""
        try:
            port = serial.serial_for_url(
                self.url,
                baudrate=self.baudrate,
                timeout=READ_TIMEOUT,
                write_timeout=WRITE_TIMEOUT,
                exclusive=True,
            )
        except (serial.SerialException, OSError, ValueError) as error:
            if self.backoff.delay == self.backoff.first:
                log.warning("pad port %s cannot be opened: %s", self.url, self._why(error))
            return False
        log.info("pad port %s open", self.url)
        self.decoder.reset()
        self.failed = False
        self._serial = port
        self.backoff.reset()
        return True

    def _why(self, error: Exception) -> object:
        """Why the port cannot be opened, in words where pyserial's mislead."""
        if not is_a_terminal(self.url):
            return NOT_A_PORT
        if getattr(error, "errno", None) in (errno.EAGAIN, errno.EBUSY):  # our lock refused
            return f"another program has it open (`sudo fuser -v {self.url}` names it)"
        return error

    def write(
        self, name: str, fields: protocol.Fields | None, sent: Callable[[int], object]
    ) -> int | None:
        """Write one message from any thread: its sequence number, or None if the port is not
        open or the write failed. `sent(seq)` runs before the next frame can go out."""
        with self._write_lock:
            if self._serial is None or self.failed:
                return None
            self._seq = protocol.next_seq(self._seq)
            frame = protocol.encode(name, self._seq, fields)
            try:
                write_frame(self._serial, frame)
            except (serial.SerialException, OSError) as error:
                self._fail(error)
                return None
            sent(self._seq)
            return self._seq

    def read(self) -> list[protocol.Message]:
        """The messages in what has arrived, waiting up to READ_TIMEOUT for something (none if
        the port is closed). Raises serial.SerialException or OSError if the port failed."""
        port = self._serial
        if port is None:
            return []
        return self.decoder.feed(port.read(max(1, port.in_waiting)))

    def _fail(self, error: object) -> None:
        """A write failed on the caller's thread; the reader thread closes and reopens the port.

        A write that timed out is a pad that stopped reading: it is dropped like an unplugged
        one, and comes back the same way, by its HELLO once it reads again.
        """
        if isinstance(error, serial.SerialTimeoutException):
            log.warning("pad on %s stopped reading (a write timed out); dropping it", self.url)
        else:
            log.debug("pad port %s write failed: %s", self.url, error)
        self.failed = True

    def close(self) -> None:
        """Close the port if open; frames a stuck pad never read are dropped, or close waits."""
        with self._write_lock:
            port, self._serial = self._serial, None
        if port is None:
            return
        if self.failed:
            try:
                port.reset_output_buffer()
            except (serial.SerialException, OSError, termios.error) as error:
                log.debug("flushing %s: %s", self.url, error)  # unplugged: nothing to drop
        try:
            port.close()
        except (serial.SerialException, OSError, termios.error) as error:
            log.debug("closing %s: %s", self.url, error)


def write_frame(port: serial.SerialBase, frame: bytes) -> None:
    """Write `frame` to `port`; serial.SerialTimeoutException when the pad at the other end
    leaves no room for it for WRITE_TIMEOUT seconds. pyserial 3.5's own write timeout on
    POSIX is also raised after a write that went out in full, when the time is up by then
    (pyserial issue 281): a writing thread held up on a busy machine (load 25) between the
    write and that check dropped a pad that had read every frame. So a port with a
    non-blocking file descriptor (a serial device, a pseudo-terminal) is written here, and
    only waiting for room counts; any other (loop://, socket://) by pyserial."""
    descriptor = _non_blocking_descriptor(port)
    if descriptor is None:
        port.write(frame)
        return
    rest = memoryview(frame)
    deadline = monotonic() + WRITE_TIMEOUT
    while rest:
        with contextlib.suppress(BlockingIOError):  # (no room at all just now)
            rest = rest[os.write(descriptor, rest) :]
        # (past the deadline, a look without waiting: a late thread still finds the room)
        if rest and not select.select([], [descriptor], [], max(deadline - monotonic(), 0))[1]:
            raise serial.SerialTimeoutException("Write timeout")


def _non_blocking_descriptor(port: serial.SerialBase) -> int | None:
    """The port's file descriptor when writing to it never blocks (pyserial's POSIX ports
    open it so); None for a port without one, or one that blocks."""
    try:
        descriptor = port.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        return None
    return None if os.get_blocking(descriptor) else descriptor


def is_a_terminal(device: str) -> bool:
    """Whether `device` is a terminal, as every serial port is: /dev/null and /dev/zero are
    character devices too, and pyserial's and mpremote's words for them mislead ("in use",
    "Inappropriate ioctl"). True when it cannot be opened to look (a port the running tower
    holds, a device not there yet): whoever opens it next says why."""
    try:
        fd = os.open(device, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except (OSError, ValueError):
        return True
    try:
        return os.isatty(fd)
    finally:
        os.close(fd)
