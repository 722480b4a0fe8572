"""The pad's end of the cable to the tower (docs/pad-protocol.md), without hardware.

Hello at start, in reply to the tower's hello and when the tower is back after silence; a session
once the tower accepts; a hello the tower refuses (any reason: version, role, another pad with this
ident, ...) said again after RETRY_SECONDS, then twice as long each time up to BACKOFF_MAX_RETRIES
times RETRY_SECONDS, for as long as the pad runs: a link never locks itself out. A HEARTBEAT every
BEAT_SECONDS reporting the newest STATE held; the tower gone after MISSED_BEATS silent beats; one
REQUEST in flight, sent again unchanged with its own number every RETRY_SECONDS until its ANSWER,
kept while the tower is away. Time is an injected
millisecond tick; frames leave through an injected `write(bytes)`. A module of its own (not part
of padapp.py) so that each compiles in a smaller peak of the Pico's heap.
"""

import sys

if sys.implementation.name == "micropython":
    import protocol  # copied beside this file on the pad
else:
    from firmware_py.pad import protocol

try:
    from time import ticks_diff
except ImportError:  # CPython: plain integer milliseconds, which never wrap

    def ticks_diff(new, old):
        """Milliseconds from `old` to `new`."""
        return new - old


FIRMWARE = "0.1.0"
BEAT_MS = int(protocol.BEAT_SECONDS * 1000)
RETRY_MS = int(protocol.RETRY_SECONDS * 1000)
BACKOFF_MAX_RETRIES = 30  # a refused hello is said again at most this many retries apart (30 s)


class Link:
    """The pad's end of the cable: hello and session, heartbeats, silence, the request in flight.

    `receive` hands back the messages the app shows (state, the answer to our request, notice);
    hello, hello_ack and heartbeat are the link's own business.
    """

    def __init__(self, write, ident, boot, now, beat_ms=BEAT_MS, retry_ms=RETRY_MS, missed=None):
        self.write = write
        self.ident = ident
        self.boot = boot
        self.beat_ms = beat_ms
        self.retry_ms = retry_ms
        self.missed = protocol.MISSED_BEATS if missed is None else missed
        self.decoder = protocol.FrameDecoder()
        self.seq = 0
        self.heard = False  # a good frame from the tower within `missed` beats
        self.ever_heard = False
        self.session = False  # the tower accepted our hello since it last said hello
        self.refusal = ""  # why the tower refused our hello, until it accepts one
        self.backoff_ms = retry_ms  # how long after a refused hello to say it again
        self.state_seq = 0  # the number of the newest STATE held
        self.request = None  # in flight: [seq, fields, last sent]
        self._heard_at = self._beat_at = self._hello_at = now

    @property
    def up(self):
        """The tower is there and a session is open."""
        return self.heard and self.session

    def start(self, now):
        """Say hello, in case the tower is already listening."""
        self._send_hello(now)
        self._beat_at = now

    def receive(self, data, now):
        """Feed bytes from the line; the messages for the app, in order."""
        found = []
        for message in self.decoder.feed(data):
            self._hear(message, now)
            name = message.name
            if name == "hello":
                self.session = False  # the tower (re)opened its port: a new session is due
                self._send_hello(now)
            elif name == "hello_ack":
                self._on_ack(message, now)
            elif name == "state":
                self.state_seq = message.seq
                found.append(message)
            elif name == "notice" or (name == "answer" and self._answers_request(message, now)):
                found.append(message)
        return found

    def tick(self, now):
        """Time passing: silence, heartbeats, a hello not yet accepted, the unanswered request."""
        if self.heard and ticks_diff(now, self._heard_at) > self.missed * self.beat_ms:
            self.heard = self.session = False
        if ticks_diff(now, self._beat_at) >= self.beat_ms:
            self._beat_at = now
            self._send("heartbeat", {"state": self.state_seq})
        if self.heard and not self.session:
            self._hello_again(now)
        request = self.request
        if request and self.session and ticks_diff(now, request[2]) >= self.retry_ms:
            self._send_request(now)

    def submit(self, fields, now):
        """Put a request in flight (sent now if a session is open); its seq, or 0 if busy."""
        if self.request is not None:
            return 0
        self.seq = protocol.next_seq(self.seq)
        self.request = [self.seq, fields, now]
        if self.session:
            self._send_request(now)
        return self.seq

    def _hear(self, message, now):
        """Any good frame is a sign of life; after silence, the tower is back: say hello."""
        self._heard_at = now
        self.ever_heard = True
        if not self.heard:
            self.heard = True
            if not self.session and message.name not in ("hello", "hello_ack"):
                self._hello_again(now)

    def _on_ack(self, message, now):
        if message["status"] == protocol.OK:
            self.session = True
            self.refusal = ""
            self.backoff_ms = self.retry_ms
            if self.request:
                self._send_request(now)  # kept while the tower was away
        else:
            self.session = False
            status = message["status"]
            self.refusal = message["text"] or protocol.REASONS.get(status, "refused")

    def _hello_again(self, now):
        """Say hello once it is due: RETRY_MS after the last one, or after a refusal the
        backoff, which doubles with each refused hello up to BACKOFF_MAX_RETRIES retries."""
        wait = self.backoff_ms if self.refusal else self.retry_ms
        if ticks_diff(now, self._hello_at) < wait:
            return
        if self.refusal:
            self.backoff_ms = min(self.backoff_ms * 2, self.retry_ms * BACKOFF_MAX_RETRIES)
        self._send_hello(now)

    def _answers_request(self, message, now):
        """True for the answer to our request in flight, which is then settled."""
        request = self.request
        if request is None or message["req"] != request[0]:
            return False
        if message["status"] == protocol.NO_SESSION:
            self.session = False  # not acted on: say hello, and send it again in the session
            self._send_hello(now)
            return False
        self.request = None
        return True

    def _send_hello(self, now):
        self._hello_at = now
        self._send(
            "hello",
            {
                "protocol": protocol.PROTOCOL_VERSION,
                "role": protocol.ROLE_PAD,
                "boot": self.boot,
                "ident": protocol.clip(self.ident, 64),
                "firmware": FIRMWARE,
            },
        )

    def _send_request(self, now):
        """The request in flight, unchanged and with its own number."""
        self.request[2] = now
        self.write(protocol.encode("request", self.request[0], self.request[1]))

    def _send(self, name, fields):
        self.seq = protocol.next_seq(self.seq)
        self.write(protocol.encode(name, self.seq, fields))
