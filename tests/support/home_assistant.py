"""A real Home Assistant core on the test's broker, with its MQTT integration (TLS, a user).

Home Assistant 2024.3.3 is the last release this Python (3.11) runs; `./dev` installs it in a
venv of its own outside the repository (`VENV`, kept across clones: it takes minutes), with
paho-mqtt 1.6.1 and janus, what its MQTT integration needs. It predates the device-based
discovery the tower publishes (Home Assistant 2024.11), so `DeviceRelay` hands it the device
message the way the current source's discovery.py does: each component with the device, the
origin and the shared options, on the component's own discovery topic; an empty device message
empties every component's. Everything after that is Home Assistant's own: the platforms'
schemas, the templates, the entities, the event entity, the automations.

What the test reads of it comes over MQTT too: `mqtt_statestream` publishes every entity's
state and attributes under `hass/`, and the automations publish what they would say.
Its default integrations that need more packages (the frontend, backups, ...) are not set up:
a stand-in `frontend` keeps it out of recovery mode.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import uuid
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from support.mosquitto import LISTENER, LISTENER_PASSWORD, Broker, free_port

VERSION = "2024.3.3"
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
VENV = Path(
    os.environ.get("QWIXX_HOME_ASSISTANT") or CACHE / "qwixx-tower" / f"home-assistant-{VERSION}"
)
HASS = VENV / "bin" / "hass"
SHARED_OPTIONS = (
    "availability",
    "availability_mode",
    "availability_template",
    "availability_topic",
    "command_topic",
    "payload_available",
    "payload_not_available",
    "state_topic",
)


def need_home_assistant() -> None:
    """Skip without the venv `./dev` makes (under CI, fail: ./dev installs it)."""
    if (VENV / ".installed").exists() and HASS.exists():
        return
    why = f"Home Assistant {VERSION} is not installed in {VENV} (./dev test installs it)"
    if os.environ.get("CI") == "true":
        pytest.fail(why)
    pytest.skip(why)


CONFIGURATION = """
homeassistant:
  name: test
  latitude: 0
  longitude: 0
  elevation: 0
  unit_system: metric
  time_zone: UTC
http:
  server_host: 127.0.0.1
  server_port: {port}
logger:
  default: warning
mqtt_statestream:
  base_topic: hass
  publish_attributes: true
automation: !include automations.yaml
"""


class HomeAssistant:
    """`hass` with a configuration made in `folder`, its MQTT integration on `broker`, and the
    automations of `automations` (YAML)."""

    def __init__(self, folder: Path, broker: Broker, automations: str) -> None:
        need_home_assistant()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "configuration.yaml").write_text(CONFIGURATION.format(port=free_port()))
        (folder / "automations.yaml").write_text(automations)
        stand_in = folder / "custom_components" / "frontend"
        stand_in.mkdir(parents=True, exist_ok=True)
        (stand_in / "manifest.json").write_text(
            json.dumps(
                {
                    "domain": "frontend",
                    "name": "no frontend in the tests",
                    "version": "0.0.1",
                    "documentation": "https://www.home-assistant.io",
                    "codeowners": [],
                }
            )
        )
        (stand_in / "__init__.py").write_text(
            "async def async_setup(hass, config):\n    return True\n"
        )
        (folder / ".storage").mkdir(exist_ok=True)
        (folder / ".storage" / "core.config_entries").write_text(json.dumps(entries(broker)))
        self.log = folder / "home-assistant.out"
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [str(HASS), "-c", str(folder), "--skip-pip"], stdout=out, stderr=subprocess.STDOUT
            )

    def said(self) -> str:
        """Everything it logged (its default integrations' complaints about packages left
        out of the venv among it)."""
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def entries(broker: Broker) -> dict[str, Any]:
    """The MQTT integration's config entry, as its config flow writes it (the CA's content)."""
    data = {
        "broker": "localhost",
        "port": broker.port,
        "username": LISTENER,
        "password": LISTENER_PASSWORD,
        "discovery": True,
        "protocol": "3.1.1",
        "certificate": broker.pki.ca.read_text(),
    }
    entry = {
        "entry_id": "mqtt",
        "version": 1,
        "minor_version": 1,
        "domain": "mqtt",
        "title": "MQTT",
        "data": data,
        "options": {},
        "source": "user",
        "unique_id": None,
        "pref_disable_new_entities": False,
        "pref_disable_polling": False,
        "disabled_by": None,
    }
    return {
        "version": 1,
        "minor_version": 1,
        "key": "core.config_entries",
        "data": {"entries": [entry]},
    }


def components_of(device: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A device discovery message as one configuration per component (discovery.py of the
    current Home Assistant: the platform taken out; the device, the origin and the shared
    options not set on the component put in; a component of its platform alone is {})."""
    found = {}
    for component_id, config in device["components"].items():
        config = dict(config)
        platform = config.pop("platform")
        if config:
            config.update(device=device["device"], origin=device["origin"])
            config.update({k: device[k] for k in SHARED_OPTIONS if k in device and k not in config})
        found[f"{platform}/{component_id}"] = config
    return found


class DeviceRelay:
    """Hands Home Assistant 2024.3 each device message as its components' messages."""

    def __init__(self, broker: Broker, prefix: str = "homeassistant") -> None:
        self.prefix = prefix
        self.relayed: dict[str, set[str]] = {}  # device node id -> component topics
        self.lock = threading.Lock()
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"relay-{uuid.uuid4()}")
        client.username_pw_set(LISTENER, LISTENER_PASSWORD)
        client.tls_set(ca_certs=str(broker.pki.ca))
        client.on_connect = lambda c, *args: c.subscribe(f"{prefix}/device/+/config", qos=1)
        client.on_message = lambda c, userdata, message: self._relay(message)
        self.client = client  # (before its thread starts: a message may come at once)
        client.connect("localhost", broker.port)
        client.loop_start()

    def _relay(self, message: mqtt.MQTTMessage) -> None:
        node = message.topic.split("/")[-2]
        with self.lock:
            if not message.payload:
                for topic in self.relayed.pop(node, set()):
                    self.client.publish(topic, b"", qos=1, retain=True)
                return
            for key, config in components_of(json.loads(message.payload)).items():
                platform, component_id = key.split("/")
                topic = f"{self.prefix}/{platform}/{node}/{component_id}/config"
                self.relayed.setdefault(node, set()).add(topic)
                self.client.publish(
                    topic, json.dumps(config) if config else b"", qos=1, retain=True
                )

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()
