"""The connection to the broker, in the tower's own loop: made, kept and made again.

A session connects (aiomqtt runs the blocking part, the TCP and TLS handshake, in a worker
thread), says "online" on the availability topic (its last will says "offline"), subscribes to
the inbox's topics it listens to now, and then sends what the outbox holds (the device first,
then every retained message), publishes the journal's unpublished results, reads what comes in
and unsubscribes a topic that flooded until its cool-off has passed, all at once, until the
connection is lost or the tower stops. Then it tries again after a back-off that doubles from
FIRST_DELAY to MAX_DELAY (with some jitter: towers restarted together do not knock at once).
The table never waits for any of it: presenters only fill the outbox.

The news and the log hear once that the broker does not answer, with why, and once that it
answers again (`LinkStatus`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import aiomqtt

from firmware_py.bus.connect import TIMEOUT, client_for, trouble_words
from firmware_py.bus.discovery import device_message
from firmware_py.bus.inbox import COOL_OFF, Inbox, Verdict
from firmware_py.bus.outbox import Message, Outbox
from firmware_py.bus.results import Results
from firmware_py.bus.settings import MqttConfig
from firmware_py.bus.topics import OFFLINE, ONLINE, Topics

log = logging.getLogger(__name__)

FIRST_DELAY = 0.5  # seconds before the first try again
MAX_DELAY = 30.0  # the longest wait between two tries
STEADY = 10.0  # a connection that lasted this long starts the back-off afresh
GOODBYE = 3.0  # seconds a stopping tower waits for the broker to take its "offline" (1 s lost it
# under load: the clean disconnection that followed silenced the last will, leaving "online")
LAST_WORDS = 5.0  # seconds a stopping tower gives what waits (its last game's result)
RECANCEL = 0.05  # seconds a cancelled task of a session is given before it is cancelled again


class LinkStatus:
    """Whether the tower is on the bus, said once each way: in the news (`tell`) and the log."""

    def __init__(self, address: str, tell: Callable[[str], None]) -> None:
        self.address = address
        self.tell = tell
        self.connected = False
        self.connections = 0
        self.trouble = ""  # why the last try failed ("" while connected)
        self._told = False  # the news heard that the broker does not answer

    def up(self) -> None:
        self.connected, self.trouble = True, ""
        self.connections += 1
        if self._told:
            self._say(
                f"the MQTT broker at {self.address} answers again: the tower is back on the bus"
            )
            self._told = False
        else:
            log.info("on the MQTT bus at %s", self.address)

    def down(self, error: BaseException) -> None:
        self.connected = False
        self.trouble = trouble_words(error)
        if not self._told:
            self._say(
                f"the MQTT broker at {self.address} {self.trouble}: the tower tries again "
                "by itself, and the game goes on"
            )
            self._told = True
        else:
            log.debug("the MQTT broker at %s %s", self.address, self.trouble)

    def _say(self, words: str) -> None:
        log.warning("%s", words)
        self.tell(words)


class BusLink:
    """One broker's connection, again and again until `stop`."""

    def __init__(
        self,
        settings: MqttConfig,
        outbox: Outbox,
        inbox: Inbox,
        results: Results,
        status: LinkStatus,
        connected: Callable[[], None] = lambda: None,
    ) -> None:
        self.settings = settings
        self.topics = Topics.of(settings)
        self.outbox, self.inbox, self.results, self.status = outbox, inbox, results, status
        self.connected = connected  # called at each connection (the device noted, `farewell`)
        self._stopping = asyncio.Event()
        self._pass: asyncio.Future[None] | None = None  # the results being published now
        self._flooded = asyncio.Event()  # a topic flooded: not listened to for a while

    async def run(self) -> None:
        """Sessions, with a back-off between them, until `stop`."""
        delay = FIRST_DELAY
        while not self._stopping.is_set():
            began = time.monotonic()
            try:
                await self._session()
            except (aiomqtt.MqttError, OSError, ValueError, RuntimeError) as error:
                self.status.down(error)
            except Exception as error:  # a mistake of ours: the game goes on without the bus
                log.exception("the MQTT link failed")
                self.status.down(error)
            finally:
                self.outbox.closed()
                if self._pass is not None:
                    self._pass.cancel()
            if time.monotonic() - began > STEADY:
                delay = FIRST_DELAY
            await self._pause(delay * random.uniform(0.8, 1.2))
            delay = min(delay * 2, MAX_DELAY)

    def stop(self) -> None:
        """End the session (saying "offline" first) and try no more."""
        self._stopping.set()

    async def _pause(self, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), seconds)

    async def _session(self) -> None:
        async with client_for(self.settings) as client:
            self.status.up()
            subscribed = self.inbox.listening()  # (not a topic still cooling off a flood)
            if subscribed:
                await client.subscribe([(topic, 0) for topic in subscribed])
            await client.publish(self.topics.availability, ONLINE, qos=1, retain=True)
            self.outbox.opened(self.announcements())
            self.connected()
            self.results.want()
            await first_of(
                self._send(client),
                self._receive(client),
                self._results(client),
                self._listening(client, set(subscribed)),
                self._stopping.wait(),
            )
            if self._stopping.is_set():
                await self._goodbye(client)

    async def _goodbye(self, client: aiomqtt.Client) -> None:
        """The tower stops: what waits goes first (the last game's result, which a tower
        stopped right after it would otherwise publish at its next start), for LAST_WORDS at
        most; then "offline", a clean goodbye (the broker keeps no last will)."""
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._last_words(client), LAST_WORDS)
        finally:  # (even cut short: the disconnection that follows would silence the last will)
            await client.publish(
                self.topics.availability, OFFLINE, qos=1, retain=True, timeout=GOODBYE
            )

    async def _last_words(self, client: aiomqtt.Client) -> None:
        if self._pass is not None and not self._pass.done():
            await asyncio.wait([self._pass])  # a result on its way is acknowledged, not resent
        for message in self.outbox.take_all():
            await client.publish(
                message.topic, message.sendable(), qos=message.qos, retain=message.retain
            )
        await self.results.publish_all(self._result_publisher(client))

    def announcements(self) -> list[Message]:
        """What goes first on every connection: the device, for Home Assistant."""
        if not self.settings.discovery:  # (a device discovered before leaves Home Assistant)
            return [Message(self.topics.discovery, "", retain=True)]
        device = device_message(self.settings)
        return [Message(self.topics.discovery, json.dumps(device), retain=True)]

    async def _send(self, client: aiomqtt.Client) -> None:
        while True:
            message = await self.outbox.next()
            try:
                await client.publish(
                    message.topic,
                    message.sendable(),
                    qos=message.qos,
                    retain=message.retain,
                    timeout=TIMEOUT * 2,
                )
            finally:  # handed over (the client queues it at once): never again, even when the
                self.outbox.sent(message)  # tower's stop cuts this short (its last words)

    async def _receive(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            payload = message.payload if isinstance(message.payload, bytes) else b"?"
            verdict = self.inbox.take(str(message.topic), payload, retained=message.retain)
            if verdict is Verdict.FLOOD:
                self._flooded.set()

    async def _listening(self, client: aiomqtt.Client, subscribed: set[str]) -> None:
        """The subscriptions follow the inbox: a topic that flooded is unsubscribed (the broker
        stops sending it; with a timeout, as the answer comes behind the flood) and subscribed
        again once its COOL_OFF has passed (a retained message comes again). The other topics
        are heard all along, and subscribed again once the flood is cut off: the client holds
        64 messages waiting to be read (connect.py) and drops what comes while they are there
        (mosquitto's log showed the seating sent to the tower, and the tower never reading
        it), so the organiser's seating published in the flood's seconds was lost, the round
        never seated (tests/system/test_tournament_rubbish.py); subscribed again, it comes
        retained. What the broker sent of a deaf topic before the answer is read and ignored
        by the inbox."""
        while True:
            self._flooded.clear()
            wanted = self.inbox.listening()
            if deaf := [topic for topic in subscribed if topic not in wanted]:
                await client.unsubscribe(deaf, timeout=COOL_OFF)
                subscribed.difference_update(deaf)
                if subscribed:  # (their retained messages again, lest the flood lost them)
                    await client.subscribe([(topic, 0) for topic in subscribed])
            if back := [topic for topic in wanted if topic not in subscribed]:
                await client.subscribe([(topic, 0) for topic in back])
                subscribed.update(back)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._flooded.wait(), self.inbox.next_heard_again())

    async def _results(self, client: aiomqtt.Client) -> None:
        publish = self._result_publisher(client)
        while True:
            await self.results.wanted.wait()
            self.results.wanted.clear()
            await self._publishing(publish)

    async def _publishing(self, publish: Callable[[str], Awaitable[None]]) -> None:
        """One pass over the journal, which the tower's stop does not cut short: a result cut
        off between being sent and acknowledged would go again with the last words, and a
        league would hear it twice. (The session's end cancels it.)"""
        self._pass = asyncio.ensure_future(self.results.publish_all(publish))
        self._pass.add_done_callback(lambda done: done.cancelled() or done.exception())
        await asyncio.shield(self._pass)

    def _result_publisher(self, client: aiomqtt.Client) -> Callable[[str], Awaitable[None]]:
        """Publishes one result with QoS 1, returning once the broker acknowledged it."""

        async def publish(payload: str) -> None:
            await client.publish(self.topics.result, payload, qos=1, timeout=TIMEOUT * 2)

        return publish


async def first_of(*jobs: Coroutine[Any, Any, Any]) -> None:
    """Run `jobs` together until one ends; the others are cancelled, and the first one's
    error (a lost connection) is raised."""
    tasks = [asyncio.ensure_future(job) for job in jobs]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        await cancelled(tasks)
    for task in done:
        error = None if task.cancelled() else task.exception()
        if error is not None:
            raise error


async def cancelled(tasks: list[asyncio.Task[Any]]) -> None:
    """`tasks` cancelled and ended. A task is cancelled again while it goes on: Python 3.11's
    `asyncio.wait_for` (inside aiomqtt's publish) swallows a cancellation that comes as the
    message goes out, and the sender then waited for the next message for ever, holding up
    the tower's stop (11 s) or the session's end after a lost connection."""
    while pending := [task for task in tasks if not task.done()]:
        for task in pending:
            task.cancel()
        await asyncio.wait(pending, timeout=RECANCEL)
