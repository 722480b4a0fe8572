"""The tower as Home Assistant's MQTT discovery sees it: one retained device message.

The device-based form (Home Assistant 2024.11 on; homeassistant/components/mqtt/schemas.py,
`DEVICE_DISCOVERY_SCHEMA`): a `device` and an `origin` block, the options its components share
(the state topic and the availability topic, whose last will says "offline"), and the
`components`: sensors read from the state, a binary sensor per lock, one event entity, and a
"new game" button only where [mqtt] commands allows it (else that component is sent as its
platform alone, which removes a button discovered before). An empty retained message on the
same topic removes the whole device (`farewell`). Keys are written out in full, not in
Home Assistant's abbreviations: a person reads this message in a broker's explorer.
"""

from __future__ import annotations

from typing import Any

from firmware_py import __version__
from firmware_py.bus.payloads import EVENT_TYPES
from firmware_py.bus.settings import MqttConfig
from firmware_py.bus.topics import PRESS, Topics
from firmware_py.seating import MAX_SEATS
from sheets import COLOURS

Component = dict[str, Any]
# (component id, name, what it reads of the state, icon). A text sensor shows an empty state
# for null (Home Assistant would show "None"); a number sensor is a measurement, for which
# Home Assistant reads "None" as unknown (its sensor.py, PAYLOAD_NONE).
SENSORS = (
    ("state", "Table", "value_json.state", "mdi:dice-multiple"),
    ("active", "Whose roll", "value_json.active or ''", "mdi:account-arrow-right"),
    ("leader", "Leader", "value_json.leader or ''", "mdi:trophy"),
    ("variant", "Variant", "value_json.variant or ''", "mdi:card-text"),
    ("game", "Game", "value_json.game or ''", "mdi:identifier"),
)


def device_message(settings: MqttConfig) -> dict[str, Any]:
    """The retained message that declares the tower, its entities and where they read."""
    topics = Topics.of(settings)
    components: dict[str, Component] = {}
    for key, name, value, icon in SENSORS:
        components[key] = sensor(topics, key, name, value, icon)
    components["white_sum"] = {
        **sensor(topics, "white_sum", "White sum", "value_json.white_sum", "mdi:sigma"),
        "state_class": "measurement",
    }
    for seat in range(1, MAX_SEATS + 1):
        components[f"seat_{seat}"] = seat_sensor(topics, seat)
    for colour in COLOURS:
        components[f"lock_{colour}"] = lock_sensor(topics, colour)
    components["events"] = event_entity(topics)
    components["new_game"] = new_game_button(topics, "new_game" in settings.commands)
    return {
        "device": {
            "identifiers": [topics.node_id],
            "name": f"Qwixx tower {settings.tower_id}",
            "manufacturer": "qwixx-tower",
            "model": "Qwixx tower",
            "sw_version": __version__,
        },
        "origin": {"name": "qwixx-tower", "sw_version": __version__},
        "state_topic": topics.state,
        "availability_topic": topics.availability,
        "components": components,
    }


def sensor(topics: Topics, key: str, name: str, value: str, icon: str) -> Component:
    return {
        "platform": "sensor",
        "unique_id": f"{topics.node_id}_{key}",
        "name": name,
        "value_template": "{{ " + value + " }}",
        "icon": icon,
    }


def seat_sensor(topics: Topics, seat: int) -> Component:
    """Seat N's score; its player and penalties as attributes (null when the seat is empty)."""
    here = f"value_json.seats[{seat - 1}]"
    return {
        "state_class": "measurement",
        **sensor(
            topics, f"seat_{seat}", f"Seat {seat} score", f"{here}.score", f"mdi:numeric-{seat}-box"
        ),
        "json_attributes_topic": topics.state,
        # (Home Assistant keeps no attribute called "name": the player's is "player")
        "json_attributes_template": "{{ {'player': "
        + here
        + ".name, 'penalties': "
        + here
        + ".penalties} | tojson }}",
    }


def lock_sensor(topics: Topics, colour: str) -> Component:
    """On once the row of `colour` is locked for everyone (no device class: Home Assistant's
    "lock" class reads on as unlocked)."""
    return {
        "platform": "binary_sensor",
        "unique_id": f"{topics.node_id}_lock_{colour}",
        "name": f"{colour.capitalize()} locked",
        "icon": "mdi:lock",
        "value_template": "{{ 'ON' if '" + colour + "' in value_json.locked else 'OFF' }}",
    }


def event_entity(topics: Topics) -> Component:
    """One entity for the game's events; each payload's other fields are its attributes."""
    return {
        "platform": "event",
        "unique_id": f"{topics.node_id}_events",
        "name": "Game events",
        "state_topic": topics.event,
        "event_types": list(EVENT_TYPES),
        "icon": "mdi:dice-5",
    }


def new_game_button(topics: Topics, allowed: bool) -> Component:
    """The "new game" button where [mqtt] commands names it; else its platform alone, which
    tells Home Assistant to remove one it knew."""
    if not allowed:
        return {"platform": "button"}
    return {
        "platform": "button",
        "unique_id": f"{topics.node_id}_new_game",
        "name": "New game",
        "command_topic": topics.command("new_game"),
        "payload_press": PRESS,
        "icon": "mdi:restart",
    }
