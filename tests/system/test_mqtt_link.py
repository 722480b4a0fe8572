"""The link's promise to a receiver on a real broker (Debian's mosquitto, as in
test_mqtt_bus.py): an event is published once. A tower that stops while the client is still
sending an event must not send it again with its last words, or Home Assistant's automations
fire twice (the bus test once counted a lock's cross twice under load)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from support.bus_listener import BusListener
from support.mosquitto import PASSWORD, USER, Broker

from firmware_py.bus.client import BusClient
from firmware_py.bus.outbox import Message
from firmware_py.bus.settings import MqttConfig
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
