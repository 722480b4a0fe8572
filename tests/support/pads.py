"""A pad link rig for the pad link's tests: a link, the simulated pad at its other end (the
package's `drivers.simulated.pad.PtyPad`), the link's fake clock and what the link reported."""

from __future__ import annotations

import queue
from pathlib import Path

from drivers.padlink import PadLink
from drivers.simulated.pad import PtyPad, pad_hello
from firmware_py.pad import protocol
from support import HANG
from support.fakes import FakeClock

WAIT = HANG  # seconds before a test gives up waiting for something that should happen


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
