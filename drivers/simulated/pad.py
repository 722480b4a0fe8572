"""A simulated pad: the pad's end of its USB serial line, played by a program on a pseudo-terminal.

Whatever opens pads (`drivers.padlink.PadLink`, the tower's pad hub, `qwixx-tower run` with
`[pads] ports`) opens `PtyPad.path` as it opens a pad's port; the program holding the `PtyPad`
sends frames of the pad wire protocol (`firmware_py.pad.protocol`) and waits for the tower's, as
the pad firmware would. There is no screen and no buttons here: `qwixx-tower demo` runs the
firmware itself. Needs pseudo-terminals (Linux, macOS).

    pad = PtyPad(folder / "pad")                  # the tower is told to open folder/pad
    pad.expect("hello")                           # the tower's hello
    pad.send("hello", pad_hello(ident="pad-1"))
    assert pad.expect("hello_ack")["status"] == protocol.OK
    pad.unplug()
"""

from __future__ import annotations

import contextlib
import os
import queue
import select
import threading
import time
import tty
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from firmware_py.pad import protocol

if TYPE_CHECKING:
    from firmware_py.pad.protocol import Fields

IDENT = "pad-e6614c31"  # the ident a pad says hello with, unless told another
FIRMWARE = "0.1.0"


def pad_hello(
    boot: int = 7, version: int = protocol.PROTOCOL_VERSION, *, ident: str = IDENT
) -> Fields:
    """The fields of a pad's HELLO: `boot` numbers the pad's runs since power-on (a new number
    tells the tower the pad restarted), `version` is the protocol it speaks."""
    return {"protocol": version, "role": protocol.ROLE_PAD, "boot": boot, "ident": ident,
            "firmware": FIRMWARE}  # fmt: skip


class PtyPad:
    """A pad on the master side of a pseudo-terminal whose slave the tower opens through `path`
    (a symbolic link made here). What the tower sends waits in `inbox` until `expect`ed."""

    wait: ClassVar[float] = 30.0
    """Seconds `expect` waits for a message before it gives up; a test suite on a busy machine
    sets it to its own bound for a hang."""

    def __init__(self, path: Path, *, heartbeats: bool = False) -> None:
        """`heartbeats`: a thread sends the pad's heartbeat every half beat, as a pad does
        whatever its player does; without them the tower drops a pad after a few beats of
        silence, which a program on a busy machine can take between two messages."""
        self.path = path
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo, no line editing, before the tower's open
        path.symlink_to(os.ttyname(self.slave))
        self.decoder = protocol.FrameDecoder()
        self.inbox: list[protocol.Message] = []
        self.seq = 0
        self.state_seq = 0  # the number of the newest STATE read (what a heartbeat reports)
        self.plugged = True
        self._writing = threading.Lock()  # one frame at a time, each with its own number
        self._quiet = threading.Event()
        self._answerer: _HelloAnswerer | None = None
        if heartbeats:
            threading.Thread(target=self._beat, daemon=True).start()

    def send(self, name: str, fields: Fields | None = None, *, seq: int | None = None) -> int:
        """Send a message (a new number, or `seq` to send a request again); its number."""
        with self._writing:
            if seq is None:
                self.seq = seq = protocol.next_seq(self.seq)
            os.write(self.master, protocol.encode(name, seq, fields))
        return seq

    def write(self, data: bytes) -> None:
        """Raw bytes on the line (garbage, half a frame)."""
        with self._writing:
            os.write(self.master, data)

    def expect(self, name: str, **fields: object) -> protocol.Message:
        """The first message called `name` whose fields include `fields`; waits for it."""
        deadline = time.monotonic() + self.wait
        while True:
            for index, message in enumerate(self.inbox):
                if message.name == name and all(message[k] == v for k, v in fields.items()):
                    return self.inbox.pop(index)
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the pad got no {name} {fields}; it got {self.inbox}")
            self._receive(left)

    def talk_for(self, seconds: float, every: float = 0.5) -> None:
        """Stay on the line for `seconds` as a pad does, a heartbeat `every` seconds: a pad
        that says nothing is dropped by the tower after a few beats."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.send("heartbeat", {"state": 0})
            self._receive(min(every, max(0.0, deadline - time.monotonic())))

    def ask_to_join(self) -> Fields:
        """What a pad does when a player presses one of its buttons without a seat: the
        fields of the tower's answer."""
        seq = self.send("request", {"action": protocol.JOIN})
        return self.expect("answer", req=seq).fields

    def answer_hellos(self, ident: str, boot: int = 300) -> None:
        """From now on a thread answers each of the tower's hellos the moment it comes, as a
        pad waiting for its tower does; every message still waits for `expect`."""
        self._answerer = _HelloAnswerer(self, pad_hello(boot, ident=ident))

    def drain(self) -> None:
        """Read and forget everything the tower has sent so far."""
        self._receive(0)
        self.inbox.clear()

    def names(self) -> list[str]:
        """The names of the messages waiting, after reading what has come."""
        self._receive(0)
        return [message.name for message in self.inbox]

    def unplug(self) -> None:
        """Pull the cable: the tower's end sees the line go; calling it again does nothing."""
        if not self.plugged:
            return
        self.plugged = False
        if self._answerer is not None:
            self._answerer.stop()
        with self._writing:
            self._quiet.set()
        os.close(self.master)
        os.close(self.slave)
        self.path.unlink()

    def __enter__(self) -> PtyPad:
        return self

    def __exit__(self, *_: object) -> None:
        self.unplug()

    def _beat(self) -> None:
        while not self._quiet.wait(protocol.BEAT_SECONDS / 2):
            with self._writing:
                if self._quiet.is_set():
                    return  # unplugged: the descriptor may belong to another file by now
                self.seq = protocol.next_seq(self.seq)
                frame = protocol.encode("heartbeat", self.seq, {"state": self.state_seq})
                os.write(self.master, frame)

    def _receive(self, timeout: float) -> None:
        if self._answerer is not None:
            self._heard(self._answerer.take(timeout))
            return
        while select.select([self.master], [], [], timeout)[0]:
            try:
                self._heard(self.decoder.feed(os.read(self.master, 4096)))
            except OSError:  # the tower's end is gone (a killed tower): nothing more to read
                return
            timeout = 0

    def _heard(self, messages: list[protocol.Message]) -> None:
        self.inbox += messages
        for message in messages:
            if message.name == "state":
                self.state_seq = message.seq


class _HelloAnswerer:
    """The thread of a pad that answers hellos by itself: it reads the line, answers each
    hello with `hello`, and keeps every message for the pad's `expect`."""

    def __init__(self, pad: PtyPad, hello: Fields) -> None:
        self._pad = pad
        self._hello = protocol.encode("hello", 1, hello)
        self._messages: queue.Queue[protocol.Message] = queue.Queue()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._answer, daemon=True)
        self._thread.start()

    def take(self, timeout: float) -> list[protocol.Message]:
        """What has come: waits up to `timeout` for the first message."""
        taken: list[protocol.Message] = []
        with contextlib.suppress(queue.Empty):
            taken.append(self._messages.get(timeout=timeout))
            while True:
                taken.append(self._messages.get_nowait())
        return taken

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join()

    def _answer(self) -> None:
        decoder = protocol.FrameDecoder()
        while not self._stopped.is_set():
            if not select.select([self._pad.master], [], [], 0.05)[0]:
                continue
            try:
                messages = decoder.feed(os.read(self._pad.master, 4096))
            except OSError:  # the tower's end is gone
                return
            for message in messages:
                if message.name == "hello":
                    self._pad.write(self._hello)
                self._messages.put(message)
