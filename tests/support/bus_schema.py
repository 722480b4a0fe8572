"""Every message the tower may publish, checked: its topic is one docs/home-assistant.md lists,
its payload has the fields the page shows with their types, and the discovery message passes
Home Assistant's own rules as its source defines them.

The Home Assistant core the tests run (2024.3.3, the last for this Python 3.11,
`support.home_assistant`) predates the device-based discovery form (Home Assistant 2024.11),
so `device_problems` holds the device message to the current source's rules as well,
homeassistant/components/mqtt/:
schemas.py (`DEVICE_DISCOVERY_SCHEMA`, `MQTT_ENTITY_DEVICE_INFO_SCHEMA`,
`MQTT_ORIGIN_INFO_SCHEMA`, `SHARED_OPTIONS`), discovery.py (how a device message becomes one
configuration per component: its platform taken out, the device, the origin and the shared
options put in; TOPIC_MATCHER's characters of ids) and each platform's schema (sensor.py,
binary_sensor.py, event.py, button.py, and the options every entity takes in entity.py).
Discovery keeps only the keys a platform knows (`vol.REMOVE_EXTRA`), so a key it does not know
would be dropped without a word: that is a problem here.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

from firmware_py.bus.payloads import EVENT_TYPES

ID = re.compile(r"[a-zA-Z0-9_-]+")  # discovery.py TOPIC_MATCHER: node and object ids
AVAILABILITY = {
    "availability",
    "availability_mode",
    "availability_template",
    "availability_topic",
    "payload_available",
    "payload_not_available",
}
SHARED_OPTIONS = AVAILABILITY | {"command_topic", "state_topic"}  # schemas.py's eight
DEVICE_TOP = AVAILABILITY | {
    "device",
    "components",
    "origin",
    "state_topic",
    "command_topic",
    "qos",
    "encoding",
}
DEVICE_INFO = {
    "identifiers",
    "connections",
    "manufacturer",
    "model",
    "model_id",
    "name",
    "hw_version",
    "serial_number",
    "sw_version",
    "via_device",
    "suggested_area",
    "configuration_url",
}
ORIGIN = {"name", "sw_version", "support_url"}
SUPPORTED = {
    "alarm_control_panel",
    "binary_sensor",
    "button",
    "camera",
    "climate",
    "cover",
    "device_automation",
    "device_tracker",
    "event",
    "fan",
    "humidifier",
    "image",
    "lawn_mower",
    "light",
    "lock",
    "notify",
    "number",
    "scene",
    "select",
    "sensor",
    "siren",
    "switch",
    "tag",
    "text",
    "update",
    "vacuum",
    "valve",
    "water_heater",
}
ENTITY = AVAILABILITY | {
    "device",
    "origin",
    "name",
    "unique_id",
    "icon",
    "entity_category",
    "enabled_by_default",
    "entity_picture",
    "json_attributes_topic",
    "json_attributes_template",
    "object_id",
    "default_entity_id",
    "encoding",
    "qos",
    "platform",
}
PLATFORMS: dict[str, tuple[set[str], set[str]]] = {  # platform: (its own keys, required keys)
    "sensor": (
        {
            "state_topic",
            "value_template",
            "device_class",
            "state_class",
            "unit_of_measurement",
            "expire_after",
            "force_update",
            "last_reset_value_template",
            "suggested_display_precision",
            "options",
        },
        {"state_topic"},
    ),
    "binary_sensor": (
        {
            "state_topic",
            "value_template",
            "device_class",
            "payload_on",
            "payload_off",
            "expire_after",
            "force_update",
            "off_delay",
        },
        {"state_topic"},
    ),
    "event": (
        {"state_topic", "value_template", "device_class", "event_types"},
        {"state_topic", "event_types"},
    ),
    "button": (
        {"command_topic", "command_template", "payload_press", "device_class", "retain"},
        {"command_topic"},
    ),
}


def device_problems(message: dict[str, Any]) -> list[str]:
    """What Home Assistant would refuse or drop in a device discovery message."""
    problems = [f"top level: {key} is not allowed" for key in set(message) - DEVICE_TOP]
    device, origin = message.get("device", {}), message.get("origin", {})
    problems += [f"device: unknown {key}" for key in set(device) - DEVICE_INFO]
    if not (device.get("identifiers") or device.get("connections")):
        problems.append("device: no identifiers")
    if "name" not in origin or set(origin) - ORIGIN:
        problems.append(f"origin: needs a name, and only {sorted(ORIGIN)}: {origin}")
    components = message.get("components")
    if not isinstance(components, dict) or not components:
        return [*problems, "components: missing"]
    for key, config in components.items():
        if not ID.fullmatch(key):
            problems.append(f"component id {key!r} has characters discovery refuses")
        problems += [f"{key}: {p}" for p in component_problems(config, message)]
    return problems


def component_problems(config: dict[str, Any], device: dict[str, Any]) -> list[str]:
    """One component as discovery.py makes it from the device message, against its platform."""
    platform = config.get("platform")
    if platform not in SUPPORTED:
        return [f"platform {platform!r} is not supported"]
    merged = {k: v for k, v in config.items() if k != "platform"}
    if not merged:
        return []  # the platform alone: the component is removed
    merged.update({k: device[k] for k in SHARED_OPTIONS if k in device and k not in merged})
    own, required = PLATFORMS[platform]
    # (a shared option a platform does not take, a button's state topic, is dropped on purpose)
    problems = [f"{k}: dropped by the {platform} schema" for k in set(config) - own - ENTITY]
    problems += [f"{k} is required" for k in required - set(merged)]
    if "unique_id" not in merged:
        problems.append("a device's entity needs a unique_id")
    if platform == "event" and not set(merged.get("event_types", [])) >= set(EVENT_TYPES):
        problems.append(f"event_types: {merged.get('event_types')}")
    for name, value in merged.items():
        if name.endswith("_topic") and ("+" in value or "#" in value or not value):
            problems.append(f"{name}: {value!r} is no topic to publish or read one")
    return problems


def template_paths(template: str) -> list[str]:
    """The fields of the state a template reads ("seats[0].score")."""
    return [match.lstrip(".") for match in re.findall(r"value_json((?:\.\w+|\[\d+\])+)", template)]


def read(state: Any, path: str) -> Any:
    """The value at `path` ("seats[0].score") of a state payload; KeyError if it is not there."""
    for step in re.findall(r"\w+|\[\d+\]", path):
        state = state[int(step[1:-1])] if step.startswith("[") else state[step]
    return state


def message_problems(topic: str, payload: bytes, base: str = "qwixx/t1") -> list[str]:
    """A message the tower published, against docs/home-assistant.md."""
    text = payload.decode()
    if topic == f"{base}/availability":
        return [] if text in ("online", "offline", "") else [f"availability: {text!r}"]
    if topic.startswith("homeassistant/device/"):
        return [] if text == "" else device_problems(json.loads(text))
    if not text and topic == f"{base}/state":
        return []  # emptied: the device left the bus
    checks = {
        f"{base}/state": state_problems,
        f"{base}/event": event_problems,
        f"{base}/result": result_problems,
    }
    if topic not in checks:
        return [f"a topic the page does not list: {topic}"]
    return [f"{topic}: {p}" for p in checks[topic](json.loads(text))]


def state_problems(state: dict[str, Any]) -> list[str]:
    keys = {
        "state",
        "variant",
        "game",
        "active",
        "white_sum",
        "leader",
        "locked",
        "winners",
        "seats",
        "clock",
    }
    problems = [f"keys {sorted(set(state) ^ keys)}"] if set(state) != keys else []
    if not is_zoned_time(state.get("clock")):
        problems.append(f"clock: {state.get('clock')!r} is not a time with its offset")
    seats = state.get("seats", [])
    if len(seats) != 5 or any(set(seat) != {"name", "score", "penalties"} for seat in seats):
        problems.append(f"seats: {seats}")
    if not isinstance(state.get("locked"), list) or not isinstance(state.get("winners"), list):
        problems.append("locked and winners are lists")
    return problems


def is_zoned_time(text: object) -> bool:
    """An ISO 8601 time with its offset from UTC ("2026-11-22T19:04:05.120+00:00")."""
    try:
        return isinstance(text, str) and datetime.fromisoformat(text).tzinfo is not None
    except ValueError:
        return False


EVENT_FIELDS = {
    "roll": {"player", "sum", "white", "dice"},
    "cross": {"player", "row", "number"},
    "lock": {"row", "player", "players"},
    "penalty": {"player", "penalties"},
    "game_over": {"winner", "winners", "scores", "reason"},
}


def event_problems(event: dict[str, Any]) -> list[str]:
    kind = event.get("event_type")
    if kind not in EVENT_FIELDS:
        return [f"event_type {kind!r}"]
    wanted = EVENT_FIELDS[kind] | {"event_type", "game", "time"}
    problems = [f"{kind}: keys {sorted(set(event) ^ wanted)}"] if set(event) != wanted else []
    if not isinstance(event.get("game"), str):
        problems.append(f"{kind}: no game id")
    return problems


def result_problems(result: dict[str, Any]) -> list[str]:
    keys = {"id", "tower", "game", "previous", "variant", "started", "finished", "reason",
            "winners", "players"}  # fmt: skip
    player = {"name", "seat", "kind", "level", "score", "penalties", "place"}
    problems = [f"keys {sorted(set(result) ^ keys)}"] if set(result) != keys else []
    problems += [f"player {p}" for p in result.get("players", []) if set(p) != player]
    return problems
