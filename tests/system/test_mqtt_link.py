"""The link's promise to a receiver on a real broker (Debian's mosquitto, as in
test_mqtt_bus.py): an event is published once. A tower that stops while the client is still
sending an event must not send it again with its last words, or Home Assistant's automations
fire twice (the bus test once counted a lock's cross twice under load). And a link connecting
while a topic cools off a flood subscribes to it only once its cool-off has passed."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from support import HANG
from support.bus_listener import BusListener
from support.mosquitto import PASSWORD, USER, Broker

from firmware_py.bus.client import BusClient
from firmware_py.bus.inbox import COOL_OFF, FLOOD, Actions, Inbox
from firmware_py.bus.link import BusLink, LinkStatus
from firmware_py.bus.outbox import Message, Outbox
from firmware_py.bus.results import Results
from firmware_py.bus.settings import MqttConfig
from firmware_py.bus.topics import Topics
from firmware_py.journal.journal import Journal

EVENT = "qwixx/t1/event"


def settings_for(broker: Broker, folder: Path) -> MqttConfig:
    password_file = folder / "password"
    password_file.write_text(PASSWORD + "\n")
    return MqttConfig(
        host="localhost", port=broker.port, tls=True, ca_file=broker.pki.ca,
        username=USER, password_file=password_file, tower_id="t1",
    )  # fmt: skip


async def stop_while_sending(settings: MqttConfig, journal: Journal) -> None:
    """Connect; then one event waits and the tower stops at the same moment, so the link
    hands the event to the client and is cut short before the client says it went."""
    bus = BusClient(settings, journal, print)
    bus.start()
    while not bus.outbox.open:
        await asyncio.sleep(0.01)
    bus.outbox.add(Message(EVENT, '{"event_type": "lock"}'))
    await bus.stop()


def test_an_event_cut_short_by_the_tower_s_stop_is_published_once(tmp_path, broker):
    journal = Journal(tmp_path / "journal")
    with BusListener(broker) as listener:
        for _ in range(5):
            asyncio.run(stop_while_sending(settings_for(broker, tmp_path), journal))
        listener.wait_until(lambda: len(listener.on(EVENT)) >= 5)
        listener.publish("qwixx/t1/x", "after")  # (one more round trip: none pending)
        listener.wait_until(lambda: any(m.topic == "qwixx/t1/x" for m in listener.heard))
        assert len(listener.on(EVENT)) == 5


LEFT = 10.0  # seconds of the flood's cool-off left when the link connects


class ShiftedClock:
    """The monotonic clock, moved by `shift`: a flood dated back leaves its topic deaf for
    LEFT seconds only, so the test sees the topic come back without waiting COOL_OFF."""

    def __init__(self) -> None:
        self.shift = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.shift


def test_a_link_connecting_in_a_flood_s_cool_off_hears_the_topic_only_after_it(tmp_path, broker):
    """As after a reconnection in the middle of a cool-off: the link subscribes to the other
    topics (the seating comes) and not to the flooded one (a press published before the
    seating never reaches the tower: the inbox would count it), then to it once its cool-off
    has passed (a press starts a game)."""
    settings, journal = settings_for(broker, tmp_path), Journal(tmp_path / "journal")
    topics, clock, done = Topics.of(settings), ShiftedClock(), []
    actions = Actions(lambda: None, lambda _: None, lambda: done.append("new game") or True,
                      seating=lambda words: done.append("seated") or True)  # fmt: skip
    inbox = Inbox(topics, ("new_game", "tournament"), actions, clock)
    clock.shift = LEFT - COOL_OFF
    for _ in range(FLOOD):
        inbox.take(topics.command("new_game"), b"PRESS")
    clock.shift, ignored = 0.0, inbox.counts.too_many
    done.clear()
    with BusListener(broker) as listener:
        asyncio.run(connect_in_cool_off(settings, inbox, journal, listener, done))
    assert done[0] == "seated" and inbox.counts.too_many == ignored
    assert "new game" in done


async def connect_in_cool_off(
    settings: MqttConfig, inbox: Inbox, journal: Journal, listener: BusListener, done: list[str]
) -> None:
    """The link connects; a press, then the seating, published at once; presses again until
    one is taken (the flooded topic subscribed again)."""
    topics = Topics.of(settings)
    results = Results(journal, settings.tower_id, "the test's broker", lambda _: None)
    link = BusLink(settings, Outbox(), inbox, results, LinkStatus(settings.address, print))
    running = asyncio.ensure_future(link.run())
    online = (topics.availability, lambda m: m.text == "online")
    await asyncio.to_thread(listener.wait_for, *online)
    await asyncio.to_thread(listener.publish, topics.command("new_game"), "PRESS")
    await asyncio.to_thread(listener.publish, topics.tournament, "{}", qos=1, retain=True)
    try:
        await asyncio.wait_for(heard("seated", done), HANG)
        await asyncio.wait_for(heard("new game", done, listener, topics), HANG)
    finally:
        link.stop()
        await running


async def heard(
    what: str, done: list[str], listener: BusListener | None = None, topics: Topics | None = None
) -> None:
    """Until `what` was done; meanwhile a press every half second, if `listener` is given."""
    while what not in done:
        if listener is not None and topics is not None:
            await asyncio.to_thread(listener.publish, topics.command("new_game"), "PRESS")
        await asyncio.sleep(0.5)
