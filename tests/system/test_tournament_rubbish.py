"""A round's seating on a real broker while a guest device publishes rubbish on another of the
tower's topics (docs/league.md; docs/home-assistant.md, "What the tower listens to"): Debian's
mosquitto, the real `run` process. Each topic has its own budget of messages a second, so forty
a second of rubbish on the league's players topic, short of a flood, never crowds out the
organiser's retained seating, which the broker delivers once; and a full-speed flood on the
command topic deafens the tower to that topic only, so the seating still comes at once."""

from __future__ import annotations

import json
import threading
import time

import paho.mqtt.client as mqtt
from support import HANG
from support.bus_tower import BASE, NEW_GAME, WAITING, tower_folder
from support.mosquitto import guest_client
from support.tower import Tower

from firmware_py.bus.inbox import COOL_OFF

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
        guest, stop = guest_client(broker, queue=10_000), threading.Event()
        rubbish = (guest, f"{BASE}/players", RUBBISH_EVERY, stop)
        pouring = threading.Thread(target=pour, args=rubbish, daemon=True)
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


def test_a_flood_on_the_command_topic_never_keeps_a_round_from_its_table(tmp_path, broker):
    """A guest publishes rubbish on the command topic as fast as it can (not a press, so the
    table stays between games, where a round is seated): the tower stops listening to that
    topic for COOL_OFF (30 s), and the organiser's seating, published meanwhile, is seated at
    once. The wait for it gives up at half the cool-off, which a tower deaf to every topic (as
    it was) never met: the broker sent it the retained seating only at the end of its 30 s."""
    sections = broker.mqtt_section(extra='commands = ["new_game", "tournament"]\n')
    with Tower(folder=tower_folder(tmp_path), table=WAITING, sections=sections) as tower:
        tower.wait_ready()
        guest, organiser, stop = (
            guest_client(broker, queue=10_000),
            guest_client(broker, queue=10_000),
            threading.Event(),
        )
        flooding = threading.Thread(target=pour, args=(guest, NEW_GAME, 0, stop), daemon=True)
        flooding.start()
        try:
            tower.wait_for(r"it stops listening for 30 s")
            organiser.publish(f"{BASE}/tournament", SEATING, qos=1, retain=True)
            tower.wait_for(r"Friday cup, round 2 of 5: Ann, Ben, Cleo", timeout=COOL_OFF / 2)
        finally:
            stop.set()
            flooding.join(HANG)
            for client in (guest, organiser):
                client.loop_stop()
                client.disconnect()
        assert "Traceback" not in tower.output and "New game of" not in tower.output
        tower.stop()


def pour(client: mqtt.Client, topic: str, every: float, stop: threading.Event) -> None:
    """Rubbish on `topic` (not what it takes) every `every` seconds, or as fast as the client
    can (0), until `stop`."""
    while not stop.is_set():
        client.publish(topic, "rubbish")
        time.sleep(every)
