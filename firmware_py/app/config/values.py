"""The checks every section of the configuration file shares: a value of the right kind and
range, or a ConfigError naming the file, the section, the key and the fix."""

from __future__ import annotations

import ipaddress
from collections.abc import Collection, Mapping
from pathlib import Path

from firmware_py.app.config.settings import ConfigError
from firmware_py.json_text import texts_in
from firmware_py.seating import NAME_LENGTH
from firmware_py.toml_text import NotToml, toml_file

GPIO_PINS = range(0, 28)

TomlTable = Mapping[str, object]
"""A TOML table as tomllib reads it: every value is checked before it is used."""


def read_toml(path: Path, missing: str) -> TomlTable:
    """The file at `path` read as TOML, or ConfigError in one sentence; `missing` says what to
    do when there is no file."""
    try:
        return toml_file(path)
    except NotToml as error:
        raise ConfigError(str(error)) from error
    except FileNotFoundError as error:
        raise ConfigError(f"{path}: no such file ({missing})") from error
    except OSError as error:
        raise ConfigError(f"{path}: cannot read it: {error.strerror}") from error


HOST_RULE = "each part between dots is 1 to 63 letters, digits or '-'"  # what IDNA encodes


def resolvable(host: str) -> bool:
    """An address, or a name the resolver takes: the system encodes a name with IDNA before it
    looks it up, and a name it cannot encode ("a..b", a part of 64 letters) raises
    UnicodeError there, outside the errors a connection or a listening socket expects."""
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    try:
        host.encode("idna")
    except UnicodeError:
        return False
    return True


class TomlValues:
    """Value-by-value checks of the file `source` that raise ConfigError naming the section,
    key and fix; each section's checker is one of these."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, section: str, key: str, problem: str) -> ConfigError:
        where = f"[{section}] {key}" if section else key
        return ConfigError(f"{self.source}: {where}: {problem}")

    def no_nul(self, data: TomlTable) -> None:
        """No text in the file holds a NUL character (TOML writes it \\u0000): no path, name
        or address can hold one, and the system refuses it with a ValueError nobody reads."""
        for section, table in data.items():
            inside = table.items() if isinstance(table, dict) else [(section, table)]
            for key, value in inside:
                if any("\0" in text for text in texts_in(value)):
                    raise self.fail(section if section != key else "", key,
                                    "holds a NUL character (\\u0000): take it out")  # fmt: skip

    def table(self, data: TomlTable, section: str) -> TomlTable:
        value = data.get(section, {})
        if not isinstance(value, dict):
            raise self.fail("", f"[{section}]", "must be a table, written [" + section + "]")
        return value

    def known_keys(self, table: TomlTable, section: str, known: tuple[str, ...]) -> None:
        for key in table:
            if key not in known:
                raise self.fail(section, key, f"unknown key; known keys: {', '.join(known)}")

    def integer(
        self,
        table: TomlTable,
        section: str,
        key: str,
        low: int,
        high: int,
        default: int | None = None,
    ) -> int:
        value = table.get(key, default)
        if value is None:
            raise self.fail(section, key, f"is missing (e.g. {key} = {low})")
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self.fail(
                section, key, f"must be a whole number from {low} to {high}, not {value!r}"
            )
        return value

    def pin(self, table: TomlTable, section: str, key: str, example: int) -> int:
        value = table.get(key)
        if value is None:
            raise self.fail(section, key, f"is missing: the GPIO number (e.g. {key} = {example})")
        if not isinstance(value, int) or isinstance(value, bool) or value not in GPIO_PINS:
            raise self.fail(
                section,
                key,
                f"must be a GPIO number from 0 to 27, not {value!r} (e.g. {key} = {example})",
            )
        return value

    def number(
        self, table: TomlTable, section: str, key: str, low: float, high: float, default: float
    ) -> float:
        value = table.get(key, default)
        if (
            not isinstance(value, (int, float))
            or isinstance(value, bool)
            or not low <= value <= high
        ):
            raise self.fail(
                section, key, f"must be a number of seconds from {low} to {high}, not {value!r}"
            )
        return float(value)

    def switch(self, table: TomlTable, section: str, key: str) -> bool:
        """true or false, true when the key is absent."""
        value = table.get(key, True)
        if not isinstance(value, bool):
            raise self.fail(section, key, f"must be true or false, not {value!r}")
        return value

    def choice(
        self,
        table: TomlTable,
        section: str,
        key: str,
        choices: Collection[str],
        default: str | None,
    ) -> str:
        value = table.get(key, default)
        if value is None:
            raise self.fail(section, key, f"is missing: one of {', '.join(choices)}")
        if not isinstance(value, str) or value not in choices:
            raise self.fail(section, key, f"{value!r} is not one of {', '.join(choices)}")
        return value

    def path(self, table: TomlTable, section: str, key: str) -> Path | None:
        value = table.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value.startswith("/"):
            raise self.fail(
                section,
                key,
                f'must be an absolute path such as "/var/lib/qwixx-tower", not {value!r}',
            )
        return Path(value)

    def short_name(self, section: str, key: str, name: str) -> None:
        """A player's name is at most NAME_LENGTH characters, as on the command line and the
        phone page."""
        if len(name.strip()) > NAME_LENGTH:
            raise self.fail(
                section, key, f"{name.strip()!r} is longer than {NAME_LENGTH} characters"
            )
