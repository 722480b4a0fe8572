"""The tower's end of one pad's serial link: frames in and out, the hello, heartbeats, replugs.

A `PadLink` owns one port (a device path such as /dev/serial/by-id/..., or any pyserial URL:
`loop://`, `socket://host:port`, a pseudo-terminal's path). A background thread reads it, decodes
frames with the shared protocol module, answers what the link layer answers itself (HELLO,
HEARTBEAT, repeated REQUESTs) and hands the rest to `when_message`. It notices a silent pad (gone
after protocol.MISSED_BEATS missed beats) and a vanished port, reopens the port with backoff, and
never lets an error end the thread. It moves frames only: it knows no Qwixx rules. The port
itself, frames in and out and its reopening, is padport.py's `PadPort`.

Callbacks run on the link's thread; the table service hands them to its event loop with
`loop.call_soon_threadsafe`.
"""

from __future__ import annotations

import functools
import logging
import random
import threading
import time
from collections.abc import Callable
from importlib import metadata
from typing import TYPE_CHECKING, TypedDict

import serial

from drivers.errors import DriverClosedError, DriverConfigError
from drivers.padport import PadPort
from firmware_py.pad import protocol

log = logging.getLogger(__name__)

if TYPE_CHECKING:  # protocol.Fields is a name for the type checker only (MicroPython has no typing)
    MessageCallback = Callable[["PadLink", protocol.Message], object]
    LinkCallback = Callable[["PadLink"], object]
    Admit = Callable[["PadLink", protocol.Fields], str | None]

ANSWER_TEXT = protocol.MAX_PAYLOAD - 4  # ANSWER: req u16, status u8, text length u8


def _check_timing(beat: float, missed: int, retry: tuple[float, float]) -> None:
    """Refuse timings that would beat never, call every pad gone, or retry in a busy loop."""
    if not beat > 0 or not isinstance(missed, int) or missed < 1:
        raise DriverConfigError(f"pad link: beat must be > 0 and missed >= 1: {beat}, {missed}")
    if not 0 < retry[0] <= retry[1]:
        raise DriverConfigError(f"pad link: retry must be 0 < first <= limit seconds: {retry}")


@functools.cache
def installed_version() -> str:
    """The version of qwixx-tower installed (the distribution the drivers ship in), which the
    tower's HELLO carries unless told another; "unknown" in a source tree never installed."""
    try:
        return metadata.version("qwixx-tower")
    except metadata.PackageNotFoundError:
        return "unknown"


class LinkOptions(TypedDict, total=False):
    """The settings of a PadLink that whoever opens links (the pad hub) passes through."""

    baudrate: int
    ident: str
    clock: Callable[[], float]
    beat: float
    missed: int
    retry: tuple[float, float]
    deduper: protocol.RequestDeduper
    tower_version: str


def _judge_hello(fields: protocol.Fields) -> tuple[int, str]:
    """A pad's HELLO judged by its role and protocol: (OK, "") or a reason code, and why."""
    if fields["role"] != protocol.ROLE_PAD:
        return protocol.ROLE, "this cable joins two towers: plug a pad into it"
    if not protocol.OLDEST_PAD_PROTOCOL <= fields["protocol"] <= protocol.PROTOCOL_VERSION:
        return protocol.VERSION, (
            f"this pad needs the tower's software (pad protocol {fields['protocol']}, tower "
            f"protocol {protocol.PROTOCOL_VERSION}): qwixx-tower pad install"
        )
    return protocol.OK, ""


class PadSession:
    """Which pad a link speaks with, and what it was answered: safe from any thread.

    `pad` is the accepted HELLO's fields while a session is open (None between sessions),
    `known` the last accepted HELLO's, kept across sessions. The answers given are kept so that
    a request sent again gets the same answer.
    """

    def __init__(self, deduper: protocol.RequestDeduper) -> None:
        self.pad: protocol.Fields | None = None
        self.known: protocol.Fields = {}
        self._deduper = deduper
        self._lock = threading.Lock()

    def open(self, fields: protocol.Fields) -> None:
        """Start a session; a pad back from a restart (new boot number) starts its requests anew.

        A pad merely replugged keeps its boot number, so its unanswered request, sent again,
        still gets the one answer it was given.
        """
        known = self.known
        if (known.get("ident"), known.get("boot")) != (fields["ident"], fields["boot"]):
            with self._lock:
                self._deduper.forget(fields["ident"])
                self._deduper.forget(known.get("ident"))  # one pad per port: memory stays bounded
        self.known = dict(fields)
        self.pad = dict(fields)

    def end(self) -> None:
        """The port closed, or the pad was refused: a new session starts with the next HELLO."""
        self.pad = None

    def record(self, request: protocol.Message, answer: protocol.Fields) -> None:
        """Keep the answer to `request`, even if it cannot be sent now: the pad will ask again."""
        with self._lock:
            self._deduper.record(self.known.get("ident"), request, answer)

    def admit(self, ident: str, request: protocol.Message) -> tuple[bool, protocol.Fields | None]:
        """Whether `request` is new; if not, the answer it got (None: still being decided)."""
        with self._lock:
            fresh = self._deduper.admit(ident, request)
            return fresh, None if fresh else self._deduper.answer_for(ident, request)


class PadLink:
    """One pad's serial link, read by a background thread from construction until `close()`.

    `when_message(link, message)` receives an accepted HELLO (the pad introduced itself: send it
    its STATE) and each new REQUEST (answer it with `answer`). `when_gone(link)` and
    `when_back(link)` report the pad falling silent or its port vanishing, and its return.
    `clock` (seconds, monotonic) times heartbeats and silence, so tests can drive it.
    `admit(link, hello_fields)`, on the link's thread, may refuse a pad that speaks our
    version: it returns the reason (sent in a HELLO_ACK `taken`), or None to accept it.
    `tower_version` is the tower's software version its HELLO says (the installed one's if None).
    """

    def __init__(
        self,
        port: str,
        *,
        when_message: MessageCallback | None = None,
        when_gone: LinkCallback | None = None,
        when_back: LinkCallback | None = None,
        baudrate: int = 115200,
        ident: str = "qwixx-tower",
        clock: Callable[[], float] = time.monotonic,
        beat: float = protocol.BEAT_SECONDS,
        missed: int = protocol.MISSED_BEATS,
        retry: tuple[float, float] = (0.25, 5.0),
        deduper: protocol.RequestDeduper | None = None,
        admit: Admit | None = None,
        tower_version: str | None = None,
    ) -> None:
        _check_timing(beat, missed, retry)
        self.port = port
        self.when_message = when_message
        self.when_gone = when_gone
        self.when_back = when_back
        self.admit = admit  # on this thread, at a pad's hello: why it may not speak here, or None
        self.baudrate = baudrate
        self.ident = ident
        self.tower_version = tower_version or installed_version()
        self.clock = clock
        self.beat = beat
        self.missed = missed
        self.present, self.pad_holds = False, 0  # (the STATE its heartbeat says it holds)
        self._counts = {
            "port_errors": 0,
            "opened": 0,
            "unexpected": 0,
            "callback_errors": 0,
            "internal_errors": 0,
        }
        self._session = PadSession(deduper or protocol.RequestDeduper())
        self._port = PadPort(port, baudrate=baudrate, retry=retry)
        self._boot = random.getrandbits(16)
        self._heard_at = self._beat_at = self._state_at = 0.0
        self._state: tuple[int, protocol.Fields] | None = None  # the last STATE sent: seq, fields
        # A STATE chosen and written as one step: the reader thread's re-send of the last one
        # must not go out after a newer one the table sends meanwhile (the pad would hold it)
        self._state_lock = threading.RLock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"padlink {port}", daemon=True)
        self._thread.start()

    # --- what the table service calls ---

    @property
    def pad(self) -> protocol.Fields | None:
        """The accepted HELLO's fields while a session is open; None between sessions."""
        return self._session.pad

    @property
    def pad_ident(self) -> str | None:
        """The pad's identity from its last accepted HELLO, kept while it is unplugged."""
        return self._session.known.get("ident")

    @property
    def pad_boot(self) -> int | None:
        """The boot number of the pad's last accepted HELLO, kept while it is unplugged."""
        return self._session.known.get("boot")

    @property
    def stats(self) -> dict[str, int]:
        """Counts: good frames, drops by kind (protocol.DROPS), port errors, opens and more."""
        return {**self._port.decoder.stats, **self._counts}

    def send(self, name: str, fields: protocol.Fields | None = None) -> int | None:
        """Send one message; its sequence number, or None if the port is not open (dropped).

        A STATE is remembered: heartbeats report its number, and a pad that says it holds an
        older one gets it again.
        """
        if self._stop.is_set():
            raise DriverClosedError(f"pad link {self.port} is closed")
        return self._send(name, fields)

    def _send(self, name: str, fields: protocol.Fields | None = None) -> int | None:
        """Write one frame from any thread; a failed write leaves the reopening to the reader.
        A STATE is remembered before another frame can go out, so the last one sent is known."""

        def sent(seq: int) -> None:
            if name == "state":
                self._state, self._state_at = (seq, dict(fields or {})), self.clock()

        if name != "state":
            return self._port.write(name, fields, sent)
        with self._state_lock:
            return self._port.write(name, fields, sent)

    def answer(self, request: protocol.Message, status: int, text: str = "") -> int | None:
        """Answer `request` (OK, or a reason code and why); a repeat of it gets this answer."""
        fields = {"req": request.seq, "status": status, "text": protocol.clip(text, ANSWER_TEXT)}
        self._session.record(request, fields)
        return self.send("answer", fields)

    def close(self) -> None:
        """Stop the thread and release the port. Safe to call more than once."""
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join()

    def __enter__(self) -> PadLink:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        ident = self.pad["ident"] if self.pad else "no pad"
        state = "present" if self.present else "gone"
        return f"<PadLink {self.port} {ident} {state}>"

    # --- the reader thread ---

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                self._step()
        finally:
            self._close_port()

    def _step(self) -> None:
        """Open, recover or read. A bug here is logged and the port reopened; the thread lives."""
        try:
            if not self._port.is_open:
                self._open()
            elif self._port.failed:
                self._lose("write failed")
            else:
                self._read_once()
        except Exception:
            log.exception("pad link %s: unexpected error; reopening the port", self.port)
            self._counts["internal_errors"] += 1
            self._lose("internal error")
            self._stop.wait(self._port.backoff.next())

    def _open(self) -> None:
        """Open the port, or wait (backing off) before the next try; say hello when open."""
        if not self._port.open():
            self._stop.wait(self._port.backoff.next())
            return
        self._counts["opened"] += 1
        self._say_hello()

    def _say_hello(self) -> None:
        """Introduce the tower; a pad answers with its own HELLO, which opens the session."""
        self._send("hello", self._hello_fields())
        self._beat()

    def _hello_fields(self) -> protocol.Fields:
        return {
            "protocol": protocol.PROTOCOL_VERSION,
            "role": protocol.ROLE_TOWER,
            "boot": self._boot,
            "ident": protocol.clip(self.ident, 64),
            "firmware": self.tower_version,
        }

    def _read_once(self) -> None:
        """Read what has arrived (waiting up to a moment), handle it, then tick."""
        try:
            messages = self._port.read()
        except (serial.SerialException, OSError) as error:
            self._lose(error)
            return
        for message in messages:
            self._heard()
            self._handle(message)
        self._tick()

    def _lose(self, error: object) -> None:
        """The port failed (unplugged, I/O error): close it, report the pad gone, retry later."""
        log.warning("pad port %s lost: %s", self.port, error)
        self._counts["port_errors"] += 1
        self._close_port()
        self._set_present(False)

    def _close_port(self) -> None:
        """Close the port if open, and end the session: a reopened port starts with a HELLO."""
        self._port.close()
        self._session.end()

    # --- liveness ---

    def _heard(self) -> None:
        self._heard_at = self.clock()
        self._set_present(True)

    def _tick(self) -> None:
        """Call the pad gone after `missed` beats of silence; beat once per beat period.

        Silence is judged before the beat goes out, so a pad that receives a beat knows the
        tower had judged it by then.
        """
        now = self.clock()
        if self.present and now - self._heard_at > self.missed * self.beat:
            log.info("pad on %s silent for %s beats", self.port, self.missed)
            self._set_present(False)
        if now - self._beat_at >= self.beat:
            self._beat()

    def _beat(self) -> None:
        """Send a HEARTBEAT carrying the number of the last STATE sent (0 for none)."""
        self._beat_at = self.clock()
        self._send("heartbeat", {"state": self._state[0] if self._state else 0})

    def _set_present(self, present: bool) -> None:
        """Record presence; report only a change, so gone and back alternate."""
        if present == self.present:
            return
        self.present = present
        self._call(self.when_back if present else self.when_gone, self)

    # --- messages ---

    def _handle(self, message: protocol.Message) -> None:
        handler = {
            "hello": self._on_hello,
            "heartbeat": self._on_heartbeat,
            "request": self._on_request,
        }.get(message.name)
        if handler is None:
            self._counts["unexpected"] += 1  # not something a pad sends
            log.debug("pad on %s sent %s, which pads do not send", self.port, message.name)
        else:
            handler(message)

    def _on_hello(self, message: protocol.Message) -> None:
        """Accept a pad speaking our version (and forget its requests if it restarted)."""
        status, text = _judge_hello(message.fields)
        if status == protocol.OK and self.admit is not None:
            text = self._admitted(message.fields) or ""
            status = protocol.TAKEN if text else protocol.OK
        self._send(
            "hello_ack", {"protocol": protocol.PROTOCOL_VERSION, "status": status, "text": text}
        )
        if status != protocol.OK:
            log.warning("pad on %s refused: %s", self.port, text)
            self._session.end()
            return
        self._session.open(message.fields)
        self._call(self.when_message, self, message)

    def _admitted(self, fields: protocol.Fields) -> str | None:
        """Ask `admit` about a pad's hello; a failing callback refuses nobody."""
        try:
            return self.admit(self, fields) if self.admit is not None else None
        except Exception:
            self._counts["callback_errors"] += 1
            log.exception("pad link %s: admit callback failed", self.port)
            return None

    def _on_heartbeat(self, message: protocol.Message) -> None:
        """Re-send the last STATE to a pad that reports an older one, once per beat at most
        (chosen and written under the state lock: never after a newer one)."""
        with self._state_lock:
            self.pad_holds = message["state"]
            if self._state is None or message["state"] == self._state[0]:
                return
            if self.clock() - self._state_at >= self.beat:
                self._send("state", self._state[1])

    def _on_request(self, message: protocol.Message) -> None:
        """Deliver a new request; repeat the answer to a repeated one; no session, no entry."""
        if self.pad is None:
            self._send("answer", {"req": message.seq, "status": protocol.NO_SESSION})
            return
        fresh, earlier = self._session.admit(self.pad["ident"], message)
        if fresh:
            self._call(self.when_message, self, message)
        elif earlier is not None:
            self._send("answer", earlier)
        # else: still being decided; its one answer will come

    def _call(self, callback: Callable[..., object] | None, *args: object) -> None:
        """Run a callback; an exception in it is logged, never the end of the link."""
        if callback is None:
            return
        try:
            callback(*args)
        except Exception:
            self._counts["callback_errors"] += 1
            log.exception("pad link %s: callback %r failed", self.port, callback)
