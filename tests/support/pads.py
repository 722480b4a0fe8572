"""A pad played by the test on the master side of a pseudo-terminal, and a pad link rig around
it: shared by the pad link, pad hub, end-to-end and whole-process tests."""

from __future__ import annotations

import os
import queue
import select
import threading
import time
import tty
from pathlib import Path

from drivers.padlink import PadLink
from firmware_py.pad import protocol
from support import HANG
from support.fakes import FakeClock

WAIT = HANG  # seconds before a test gives up waiting for something that should happen


def pad_hello(boot=7, version=protocol.PROTOCOL_VERSION):
    return {
        "protocol": version,
        "role": protocol.ROLE_PAD,
        "boot": boot,
        "ident": "pad-e6614c31",
        "firmware": "0.1.0",
    }


class PtyPad:
    """A pad on the master side of a pseudo-terminal whose slave the tower opens through `path`."""

    def __init__(self, path: Path, *, heartbeats: bool = False):
        """`heartbeats`: a thread sends the pad's heartbeat every half beat, as a pad does
        whatever its player does; without them the tower drops a pad after a few beats of
        silence, which a test on a busy machine can take between two messages."""
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
        if heartbeats:
            threading.Thread(target=self._beat, daemon=True).start()

    def send(self, name, fields=None, *, seq=None):
        """Send a message (a new number, or `seq` to send a request again); its number."""
        with self._writing:
            if seq is None:
                self.seq = seq = protocol.next_seq(self.seq)
            os.write(self.master, protocol.encode(name, seq, fields))
        return seq

    def _beat(self) -> None:
        while not self._quiet.wait(protocol.BEAT_SECONDS / 2):
            with self._writing:
                if self._quiet.is_set():
                    return  # unplugged: the descriptor may belong to another file by now
                self.seq = protocol.next_seq(self.seq)
                frame = protocol.encode("heartbeat", self.seq, {"state": self.state_seq})
                os.write(self.master, frame)

    def write(self, data: bytes):
        os.write(self.master, data)

    def expect(self, name, **fields):
        """The first message called `name` whose fields include `fields`; waits for it."""
        deadline = time.monotonic() + WAIT
        while True:
            for index, message in enumerate(self.inbox):
                if message.name == name and all(message[k] == v for k, v in fields.items()):
                    return self.inbox.pop(index)
            left = deadline - time.monotonic()
            assert left > 0, f"the pad got no {name} {fields}; it got {self.inbox}"
            self._receive(left)

    def talk_for(self, seconds: float, every: float = 0.5) -> None:
        """Stay on the line for `seconds` as a pad does, a heartbeat `every` seconds: a pad
        that says nothing is dropped by the tower after a few beats."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.send("heartbeat", {"state": 0})
            self._receive(min(every, max(0.0, deadline - time.monotonic())))

    def drain(self):
        """Read and forget everything the tower has sent so far."""
        self._receive(0)
        self.inbox.clear()

    def names(self):
        self._receive(0)
        return [message.name for message in self.inbox]

    def _receive(self, timeout):
        while select.select([self.master], [], [], timeout)[0]:
            self._heard(self.decoder.feed(os.read(self.master, 4096)))
            timeout = 0

    def _heard(self, messages: list[protocol.Message]) -> None:
        self.inbox += messages
        for message in messages:
            if message.name == "state":
                self.state_seq = message.seq

    def unplug(self):
        if self.plugged:
            self.plugged = False
            with self._writing:
                self._quiet.set()
            os.close(self.master)
            os.close(self.slave)
            self.path.unlink()


class Events:
    """What the link reported, in order: ('back',), ('gone',) or ('message', Message)."""

    def __init__(self):
        self.queue = queue.Queue()

    def message(self, link, message):
        self.queue.put(("message", message))

    def gone(self, link):
        self.queue.put(("gone",))

    def back(self, link):
        self.queue.put(("back",))

    def next(self):
        try:
            return self.queue.get(timeout=WAIT)
        except queue.Empty:
            raise AssertionError("the link reported nothing") from None

    def next_message(self, name):
        event = self.next()
        assert event[0] == "message" and event[1].name == name, event
        return event[1]

    def none_pending(self):
        return self.queue.empty()


class Rig:
    """A link, the pad at the other end, the link's clock and what the link reported."""

    def __init__(self, tmp_path: Path, *, plugged=True, **options):
        self.path = tmp_path / "pad0"
        self.pad = PtyPad(self.path) if plugged else None
        self.clock = FakeClock()
        self.events = Events()
        self.link = PadLink(
            str(self.path),
            when_message=self.events.message,
            when_gone=self.events.gone,
            when_back=self.events.back,
            clock=self.clock,
            retry=(0.01, 0.05),
            **options,
        )

    def greet(self, boot=7, *, first=True):
        """The pad answers the tower's hello with its own; the session opens."""
        self.pad.expect("hello", role=protocol.ROLE_TOWER)
        self.pad.send("hello", pad_hello(boot))
        ack = self.pad.expect("hello_ack")
        assert ack["status"] == protocol.OK, ack
        if first:
            assert self.events.next() == ("back",)
        assert self.events.next_message("hello")["ident"] == "pad-e6614c31"

    def replug(self):
        self.pad.unplug()
        self.pad = PtyPad(self.path)

    def close(self):
        self.link.close()
        if self.pad is not None:
            self.pad.unplug()


def join(pad: PtyPad) -> dict:
    """What a pad does when a player presses a button on it without a seat: the answer."""
    seq = pad.send("request", {"action": protocol.JOIN})
    return pad.expect("answer", req=seq).fields
