"""A round's seating on a real broker while a guest device publishes rubbish on another of the
tower's topics (docs/league.md; docs/home-assistant.md, "What the tower listens to"): Debian's
mosquitto, the real `run` process. Each topic has its own budget of messages a second, so forty
a second of rubbish on the league's players topic, short of a flood, never crowds out the
organiser's retained seating, which the broker delivers once."""

from __future__ import annotations

import json
import threading
import time
import uuid

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from support import HANG
from support.bus_tower import BASE, WAITING, tower_folder
from support.mosquitto import LISTENER, LISTENER_PASSWORD, Broker
from support.tower import Tower

RUBBISH_EVERY = 1 / 40  # seconds: forty messages a second, well short of the flood (100)
SEATING = json.dumps({
    "tournament": 3, "name": "Friday cup", "round": 2, "rounds": 5,
    "players": [{"name": "Ann", "computer": "easy"}, {"name": "Ben", "computer": "easy"},
                {"name": "Cleo", "computer": "medium"}],
    "drawn": "2026-11-27T20:00:00+00:00", "started": None,
})  # fmt: skip


def test_rubbish_on_the_players_topic_never_keeps_a_round_from_its_table(tmp_path, broker):
    sections = broker.mqtt_section(extra='commands = ["tournament", "players"]\n')
    with Tower(folder=tower_folder(tmp_path), table=WAITING, sections=sections) as tower:
        tower.wait_ready()
        guest, stop = connected(broker), threading.Event()
        pouring = threading.Thread(target=pour_rubbish, args=(guest, stop), daemon=True)
        pouring.start()
        try:
            time.sleep(1.0)  # the rubbish is already spending its topic's budget
            guest.publish(f"{BASE}/tournament", SEATING, qos=1, retain=True)
            tower.wait_for(r"Friday cup, round 2 of 5: Ann, Ben, Cleo")
        finally:
            stop.set()
            pouring.join(HANG)
            guest.loop_stop()
            guest.disconnect()
        assert "Traceback" not in tower.output
        tower.stop()


def pour_rubbish(client: mqtt.Client, stop: threading.Event) -> None:
    """Forty a second on the tower's players topic until `stop`: not a list of players."""
    while not stop.is_set():
        client.publish(f"{BASE}/players", "rubbish")
        time.sleep(RUBBISH_EVERY)


def connected(broker: Broker) -> mqtt.Client:
    """A guest on the house's broker that knows its password (no ACL narrows it here)."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"guest-{uuid.uuid4()}")
    client.username_pw_set(LISTENER, LISTENER_PASSWORD)
    client.tls_set(ca_certs=str(broker.pki.ca))
    ready = threading.Event()
    client.on_connect = lambda *args: ready.set()
    client.connect("localhost", broker.port)
    client.loop_start()
    assert ready.wait(HANG)
    return client
