"""The tower in a real Home Assistant core (issue 41): Home Assistant 2024.3.3 (the last release
this Python runs) with its MQTT integration on the test's mosquitto (TLS, a user), the real
`run` process, and the example automations of docs/home-assistant.md. Home Assistant finds the
tower's entities, their states follow the game, its "New game" button starts one, and the event
entity fires the automations: lights flash on a lock (here: a message with the row), a speaker
says the winner (here: a message with the sentence). See `support.home_assistant` for how a
2024.3 core is handed the device-based discovery message."""

from __future__ import annotations

import time

import pytest
from support import HANG
from support.bus_listener import BusListener
from support.home_assistant import DeviceRelay, HomeAssistant, need_home_assistant
from support.mosquitto import Broker, Pki, need_mosquitto
from support.tower import Tower

ENTITY = "qwixx_tower_t1"
STATES = "hass"  # mqtt_statestream's base topic
# The docs' two example automations, their actions published instead of flashing and speaking,
# and a press of the tower's button when the test asks (as a dashboard's button would).
AUTOMATIONS = f"""
- alias: flash the lights on a lock
  mode: queued
  trigger:
    - platform: state
      entity_id: event.{ENTITY}_game_events
  condition:
    - condition: template
      value_template: "{{{{ trigger.to_state.attributes.event_type == 'lock' }}}}"
  action:
    - service: mqtt.publish
      data:
        topic: test/flash
        payload: "{{{{ trigger.to_state.attributes.row }}}}"
- alias: the speaker says who won
  trigger:
    - platform: state
      entity_id: event.{ENTITY}_game_events
  condition:
    - condition: template
      value_template: "{{{{ trigger.to_state.attributes.event_type == 'game_over' }}}}"
  action:
    - service: mqtt.publish
      data:
        topic: test/said
        payload: "Game over. {{{{ trigger.to_state.attributes.winner }}}} wins!"
- alias: press the new game button
  trigger:
    - platform: mqtt
      topic: test/press
  action:
    - service: button.press
      target:
        entity_id: button.{ENTITY}_new_game
"""


@pytest.fixture
def home_assistant(tmp_path):
    need_mosquitto()
    need_home_assistant()
    pki = Pki.make(tmp_path / "pki")
    with Broker(tmp_path / "broker", pki) as broker, BusListener(broker) as listener:
        relay = DeviceRelay(broker)
        core = HomeAssistant(tmp_path / "home-assistant", broker, AUTOMATIONS)
        try:
            listener.wait_for("homeassistant/status", lambda m: m.text == "online")
            yield broker, listener, core
        finally:
            core.stop()
            relay.close()


def state_of(listener: BusListener, entity: str) -> str:
    """The entity's last state as Home Assistant published it ("" before any)."""
    heard = listener.on(f"{STATES}/{entity.replace('.', '/')}/state")
    return heard[-1].text if heard else ""


def test_home_assistant_finds_the_tower_follows_the_game_and_fires_the_automations(
    tmp_path, home_assistant
):
    broker, listener, core = home_assistant
    section = broker.mqtt_section(extra='commands = ["new_game"]\n')
    table = 'computer_players = ["Robo", "Ada"]'
    (tmp_path / "tower").mkdir()
    with Tower(folder=tmp_path / "tower", pace=0.05, table=table, sections=section) as tower:
        tower.wait_ready()
        listener.wait_for(f"{STATES}/button/{ENTITY}_new_game/state")  # the device is found
        listener.wait_until(lambda: state_of(listener, f"sensor.{ENTITY}_table") == "attract")
        deadline = time.monotonic() + HANG
        while not tower.said("New game of Qwixx: Robo, Ada"):  # (its automations start late)
            assert time.monotonic() < deadline, (
                f"the button never started a game: {core.said()[-3000:]}"
            )
            listener.publish("test/press", "go")
            time.sleep(1.0)
        said = listener.wait_for("test/said").text
        result = listener.wait_for("qwixx/t1/result").json()
        winners = result["winners"]
        assert said == f"Game over. {' and '.join(winners)} wins!"
        locks = [m.json()["row"] for m in listener.on("qwixx/t1/event") if b'"lock"' in m.payload]
        listener.wait_until(lambda: [m.text for m in listener.on("test/flash")] == locks)
        listener.wait_until(lambda: state_of(listener, f"sensor.{ENTITY}_table") == "game over")
        scores = {p["seat"]: str(p["score"]) for p in result["players"]}
        assert state_of(listener, f"sensor.{ENTITY}_seat_1_score") == scores[1]
        assert state_of(listener, f"sensor.{ENTITY}_seat_2_score") == scores[2]
        assert state_of(listener, f"sensor.{ENTITY}_seat_3_score") == "unknown"  # empty seat
        player = listener.on(f"{STATES}/sensor/{ENTITY}_seat_1_score/player")[-1].text
        assert player == '"Robo"'
        for colour in ("red", "yellow", "green", "blue"):
            wanted = "on" if colour in locks else "off"
            assert state_of(listener, f"binary_sensor.{ENTITY}_{colour}_locked") == wanted
        tower.stop()
    listener.wait_until(lambda: state_of(listener, f"sensor.{ENTITY}_table") == "unavailable")
    complaints = [
        line
        for line in core.said().splitlines()
        if "qwixx" in line and ("WARNING" in line or "ERROR" in line)
    ]
    assert complaints == [], complaints  # no template, schema or discovery trouble
