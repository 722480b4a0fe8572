"""What waits to be sent to the broker: bounded, so a slow or dead broker costs the table
nothing but the messages it could not take.

Retained messages (the state, the device) are kept as the newest of each topic: a newer one
replaces one still waiting, and all of them are sent again on every connection. Events wait
only while connected, at most MAX_WAITING of them; the oldest go first when a broker reads too
slowly, and are counted (`dropped`). Only the table's loop touches an outbox.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from dataclasses import dataclass

from firmware_py.bus.payloads import now

MAX_WAITING = 256  # messages waiting for a slow broker (a game's busiest second is a dozen)


@dataclass(frozen=True)
class Message:
    topic: str
    payload: str
    retain: bool = False
    qos: int = 0
    clocked: bool = False  # a JSON object that says the tower's time in its "clock" key

    def sendable(self) -> str:
        """The payload as it leaves now: a clocked one with the tower's time of sending (not
        of its making: a state sent again after an outage would say the outage's start), by
        which a league sees how far the tower's clock is from its own."""
        if not self.clocked:
            return self.payload
        return json.dumps({**json.loads(self.payload), "clock": now()})


class Outbox:
    """The newest retained message of each topic, and what waits to be sent while `open`."""

    def __init__(self) -> None:
        self.latest: dict[str, Message] = {}
        self.open = False  # connected: messages wait to be sent
        self.dropped = 0  # events not sent: no connection, or a broker too slow to take them
        self._waiting: deque[Message] = deque()
        self._ready = asyncio.Event()

    def keep(self, message: Message) -> None:
        """A retained message: the topic's newest (sent now if connected, and on every
        connection); the same message again is not sent twice."""
        if self.latest.get(message.topic) == message:
            return
        self.latest[message.topic] = message
        if self.open:
            self._waiting = deque(m for m in self._waiting if m.topic != message.topic)
            self._wait(message)

    def add(self, message: Message) -> None:
        """A message of the moment (an event): sent if connected, else dropped."""
        if not self.open:
            self.dropped += 1
            return
        self._wait(message)

    def _wait(self, message: Message) -> None:
        if len(self._waiting) >= MAX_WAITING:
            self._waiting.popleft()
            self.dropped += 1
        self._waiting.append(message)
        self._ready.set()

    def opened(self, first: list[Message]) -> None:
        """Connected: `first` (the device, its availability), then every retained message."""
        self.open = True
        self._waiting = deque([*first, *self.latest.values()])
        self._ready.set()

    def announce_again(self, first: list[Message]) -> None:
        """Home Assistant came back: the device and every retained message once more."""
        if self.open:
            for message in [*first, *self.latest.values()]:
                self._wait(message)

    def closed(self) -> None:
        """The connection is gone: nothing waits (retained messages go again next time)."""
        self.open = False
        self._waiting.clear()

    async def next(self) -> Message:
        """The first message waiting, once one does; it stays first until `sent` (a newer
        retained message of its topic may replace it meanwhile)."""
        while not self._waiting:
            self._ready.clear()
            await self._ready.wait()
        return self._waiting[0]

    def sent(self, message: Message) -> None:
        """`message` reached the broker (unless a newer one of its topic replaced it)."""
        if self._waiting and self._waiting[0] is message:
            self._waiting.popleft()

    def take_all(self) -> list[Message]:
        """What waits now, in order (the last of it, when the tower stops)."""
        batch, self._waiting = list(self._waiting), deque()
        return batch
