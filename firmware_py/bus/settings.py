"""What the bus is told by the configuration's [mqtt] section (`firmware_py.app.config.mqtt`
checks it): the broker, how to log in, the tower's topics, and the commands it may take.

Kept here, beside the client that reads it, so the client needs nothing of the commands above
it; this module imports nothing but the standard library, so checking a configuration never
loads an MQTT client.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEVICE_NOTE = "mqtt-device.json"  # in the state directory: the broker of the last connection
# what the bus may ask of the table, when [mqtt] commands names it
MQTT_COMMANDS = ("new_game", "tournament", "players")


@dataclass(frozen=True)
class MqttConfig:
    """[mqtt]: the house's MQTT broker the tower publishes its games to (docs/home-assistant.md).
    The password is read from `password_file` when the tower connects, never kept here."""

    host: str
    port: int = 1883
    tls: bool = False
    ca_file: Path | None = None  # the CA that signed the broker's certificate (else the system's)
    username: str | None = None
    password_file: Path | None = None
    prefix: str = "qwixx"  # every topic of the tower begins with prefix/tower_id
    tower_id: str = "tower"
    discovery: bool = True  # Home Assistant's MQTT discovery
    discovery_prefix: str = "homeassistant"
    commands: tuple[str, ...] = ()  # named commands the bus may give (MQTT_COMMANDS)

    @property
    def base(self) -> str:
        """Where the tower's own topics are: "qwixx/kitchen"."""
        return f"{self.prefix}/{self.tower_id}"

    @property
    def address(self) -> str:
        """The broker as people write it: "mqtt.local:8883 (TLS)"."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}" + (" (TLS)" if self.tls else "")
