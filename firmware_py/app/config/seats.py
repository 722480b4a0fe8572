"""The sections of the configuration file for the seats besides the pads: [table], the computer
players seated at power-on and how long the table waits for a player whose pad or phone has
gone, and [web], the server for phones as pads."""

from __future__ import annotations

import ipaddress
from typing import TypeGuard

from firmware_py.app.config.settings import ConfigError, TowerConfig, WebConfig
from firmware_py.app.config.values import TomlTable, TomlValues
from firmware_py.seating import LEVELS, MAX_SEATS
from firmware_py.table.settings import ABSENT_GRACE

EXAMPLE = '(e.g. computer_players = ["Robo", {name = "Ada", level = "hard"}], or [])'


TABLE_KEYS = ("computer_players", "absent_grace")


class TableChecker(TomlValues):
    """[table] computer_players: each a name, or a table {name = "Ada", level = "hard"};
    absent_grace: seconds."""

    def absent_grace(self, data: TomlTable) -> float:
        """Seconds the table waits for a player whose pad or phone has gone before it plays on
        without them (0: it waits until the roll button is pressed)."""
        table = self.table(data, "table")
        return self.number(table, "table", "absent_grace", 0, 3600, ABSENT_GRACE)

    def computer_players(self, data: TomlTable) -> tuple[str, ...]:
        """The names of the computer players seated at power-on (none by default: the seats
        are people, who join on their pads)."""
        return tuple(name for name, _ in self.seats(data))

    def computer_levels(self, data: TomlTable) -> dict[str, str]:
        """The level of each computer player given as {name = "...", level = "..."}."""
        return {name: level for name, level in self.seats(data) if level}

    def seats(self, data: TomlTable) -> list[tuple[str, str]]:
        """Each computer player's name and level ("" where not given), checked."""
        table = self.table(data, "table")
        self.known_keys(table, "table", TABLE_KEYS)
        entries = table.get("computer_players", [])
        if not isinstance(entries, list):
            raise self.fail("table", "computer_players", f"must be a list of names {EXAMPLE}")
        seats = [self.seat(entry) for entry in entries]
        names = [name for name, _ in seats]
        for name in names:
            self.short_name("table", "computer_players", name)
        if len(names) > MAX_SEATS:
            raise self.fail(
                "table", "computer_players", f"at most {MAX_SEATS} players, not {len(names)}"
            )
        twice = [name for name in names if names.count(name) > 1]
        if twice:
            raise self.fail("table", "computer_players", f"{twice[0]!r} is named twice")
        return seats

    def seat(self, entry: object) -> tuple[str, str]:
        level = ""
        if isinstance(entry, dict):
            unknown = [key for key in entry if key not in ("name", "level")]
            if unknown:
                raise self.fail(
                    "table", "computer_players", f"{unknown[0]!r}: a seat has a name and a level"
                )
            level = entry.get("level", "")
            if level not in LEVELS:
                raise self.fail(
                    "table",
                    "computer_players",
                    f"level {level!r} is not one of {', '.join(LEVELS)}",
                )
            entry = entry.get("name")
        if not (isinstance(entry, str) and entry.strip() and entry.isprintable()):
            raise self.fail("table", "computer_players", f"must be a list of names {EXAMPLE}")
        return entry.strip(), level

    def names_apart(self, config: TowerConfig) -> None:
        """A computer player may not carry the name of a known pad's player: the pad could
        never join."""
        for name in config.computer_players:
            if name in config.pad_names.values():
                raise ConfigError(
                    f"{self.source}: [table] computer_players: {name!r} is also a pad's player "
                    "in [pads] names; give the computer player another name"
                )


class WebChecker(TomlValues):
    """[web]: phones as pads on the LAN; without the section, no web server."""

    def web(self, data: TomlTable) -> WebConfig:
        if "web" not in data:
            return WebConfig(enabled=False)
        table = self.table(data, "web")
        self.known_keys(table, "web", ("enabled", "host", "port"))
        enabled = self.switch(table, "web", "enabled")
        host = table.get("host", WebConfig.host)
        if not _is_ip_address(host):
            raise self.fail(
                "web",
                "host",
                f'must be an IP address such as "0.0.0.0" (all networks), not {host!r}',
            )
        port = self.integer(table, "web", "port", 1, 65535, WebConfig.port)
        return WebConfig(enabled=enabled, host=host, port=port)


def _is_ip_address(value: object) -> TypeGuard[str]:
    try:
        ipaddress.ip_address(value if isinstance(value, str) else "-")
    except ValueError:
        return False
    return True
