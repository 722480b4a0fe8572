"""[mqtt]: the house's MQTT broker, off without the section (docs/home-assistant.md).

Topic names are checked here as well as their shape can be from the file alone: each level of
the prefix and the tower's id is letters, digits, "-" and "_" (Home Assistant's discovery
accepts nothing else in a device's id, and no "+" or "#" can make a subscription match more
than the tower's own topics). Files (the CA, the password) are only named here: they are read
when the tower connects, so a file the tower cannot read is said like a broker that does not
answer, and the game goes on.
"""

from __future__ import annotations

import re
import socket

from firmware_py.app.config.settings import MQTT_COMMANDS, MqttConfig
from firmware_py.app.config.values import HOST_RULE, TomlTable, TomlValues, resolvable

MQTT_KEYS = (
    "enabled",
    "host",
    "port",
    "tls",
    "ca_file",
    "username",
    "password_file",
    "prefix",
    "tower_id",
    "discovery",
    "discovery_prefix",
    "commands",
)
LEVEL = re.compile(r"[A-Za-z0-9_-]{1,32}")
MAX_PREFIX = 64
MAX_HOST = 253  # a DNS name's length
MAX_USER = 64


class MqttChecker(TomlValues):
    """[mqtt]: where the broker is, how the tower logs in, and the names of its topics."""

    def mqtt(self, data: TomlTable) -> MqttConfig | None:
        """The broker's settings, or None without the section (or with enabled = false)."""
        if "mqtt" not in data:
            return None
        table = self.table(data, "mqtt")
        self.known_keys(table, "mqtt", MQTT_KEYS)
        if not self.switch(table, "mqtt", "enabled"):
            return None
        tls = self.flag(table, "tls", default="ca_file" in table)
        self.paired(table, tls)
        return MqttConfig(
            host=self.host(table),
            port=self.integer(table, "mqtt", "port", 1, 65535, 8883 if tls else 1883),
            tls=tls,
            ca_file=self.path(table, "mqtt", "ca_file"),
            username=self.username(table),
            password_file=self.path(table, "mqtt", "password_file"),
            prefix=self.topic_name(table, "prefix", "qwixx", levels=True),
            tower_id=self.topic_name(table, "tower_id", host_name()),
            discovery=self.flag(table, "discovery", default=True),
            discovery_prefix=self.topic_name(
                table, "discovery_prefix", "homeassistant", levels=True
            ),
            commands=self.commands(table),
        )

    def paired(self, table: TomlTable, tls: bool) -> None:
        """A key that means nothing without another is a mistake, not a silent default."""
        if "ca_file" in table and not tls:
            raise self.fail(
                "mqtt", "ca_file", "is the CA of a TLS connection: leave out tls = false"
            )
        if "password_file" in table and "username" not in table:
            raise self.fail("mqtt", "password_file", "needs the username it is the password of")

    def flag(self, table: TomlTable, key: str, *, default: bool) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise self.fail("mqtt", key, f"must be true or false, not {value!r}")
        return value

    def host(self, table: TomlTable) -> str:
        host = table.get("host")
        if host is None:
            raise self.fail(
                "mqtt",
                "host",
                'is missing: the broker\'s name or address (e.g. host = "homeassistant.local")',
            )
        if not isinstance(host, str) or not host.strip() or len(host) > MAX_HOST:
            raise self.fail("mqtt", "host", f"must be a host name or an address, not {host!r}")
        if any(char.isspace() or not char.isprintable() for char in host.strip()):
            raise self.fail("mqtt", "host", f"{host!r} has a space or an invisible character")
        if not resolvable(host.strip()):
            raise self.fail("mqtt", "host", f"{host!r} is not a host name: {HOST_RULE}")
        return host.strip()

    def username(self, table: TomlTable) -> str | None:
        name = table.get("username")
        if name is None:
            return None
        if not isinstance(name, str) or not name or len(name) > MAX_USER:
            raise self.fail("mqtt", "username", f"must be the broker's user name, not {name!r}")
        return name

    def topic_name(self, table: TomlTable, key: str, default: str, *, levels: bool = False) -> str:
        """A tower id (one topic level) or a prefix (`levels`: several, split by "/")."""
        value = table.get(key, default)
        parts = value.split("/") if isinstance(value, str) and levels else [value]
        if (
            not isinstance(value, str)
            or len(value) > MAX_PREFIX
            or not all(isinstance(part, str) and LEVEL.fullmatch(part) for part in parts)
        ):
            allowed = 'letters, digits, "-" and "_"' + (', levels split by "/"' if levels else "")
            raise self.fail("mqtt", key, f"must be {allowed} (at most 32 a level), not {value!r}")
        return value

    def commands(self, table: TomlTable) -> tuple[str, ...]:
        """The commands the bus may give the table (none by default: it only listens)."""
        names = table.get("commands", [])
        if not isinstance(names, list) or not all(name in MQTT_COMMANDS for name in names):
            raise self.fail(
                "mqtt", "commands", f"must be a list of {', '.join(MQTT_COMMANDS)}, not {names!r}"
            )
        return tuple(dict.fromkeys(names))


def host_name() -> str:
    """This computer's name as a tower id ("qwixx-kitchen"), "tower" if it has none usable."""
    name = re.sub(r"[^A-Za-z0-9_-]", "-", socket.gethostname().split(".")[0])[:32]
    return name if LEVEL.fullmatch(name) else "tower"
