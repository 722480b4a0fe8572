"""The league's configuration file (`qwixx-tower league --config`, docs/league.md): the café's
broker in [mqtt], as a tower's, and the league's own [league]: its file and its page."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from firmware_py.app.config.mqtt import MqttChecker
from firmware_py.app.config.settings import ConfigError, MqttConfig
from firmware_py.app.config.values import HOST_RULE, TomlTable, TomlValues, read_toml, resolvable

SECTIONS = ("mqtt", "league")
# [mqtt] as a tower's, less what only a tower does (Home Assistant's device, its commands);
# tower_id names the league's session on the broker (client id qwixx-league-ID)
MQTT_KEYS = ("host", "port", "tls", "ca_file", "username", "password_file", "prefix", "tower_id")
LEAGUE_KEYS = ("database", "host", "port", "day_starts", "catch_up", "organiser_password_file")


@dataclass(frozen=True)
class LeagueConfig:
    """Where the broker is, where the league keeps its file, where its page listens."""

    mqtt: MqttConfig
    database: Path | None = None  # default: league.sqlite in the league's state directory
    host: str = "0.0.0.0"  # the café's network
    port: int = 8090
    day_starts: int = 6  # o'clock: an evening that runs past midnight is one
    catch_up: float = 60.0  # seconds between two rounds of asking the towers what may be missing
    organiser_password_file: Path | None = None  # the tournament organiser's (None: no tournaments)


def load_league_config(path: Path) -> LeagueConfig:
    """Read and check the league's file; ConfigError names the key and the fix."""
    data = read_toml(path, missing="docs/league.md shows one")
    return parse_league_config(data, path.name)


def parse_league_config(data: TomlTable, source: str) -> LeagueConfig:
    check = TomlValues(source)
    check.no_nul(data)
    check.known_keys(data, "", SECTIONS)
    if "mqtt" not in data:
        raise check.fail("", "[mqtt]", "is missing: the café's broker the towers publish to")
    check.known_keys(check.table(data, "mqtt"), "mqtt", MQTT_KEYS)
    mqtt = MqttChecker(source).mqtt(data)
    assert mqtt is not None  # the section is there, and "enabled" is not one of its keys
    league = check.table(data, "league")
    check.known_keys(league, "league", LEAGUE_KEYS)
    return LeagueConfig(
        mqtt=mqtt,
        database=check.path(league, "league", "database"),
        host=_page_host(check, league),
        port=check.integer(league, "league", "port", 0, 65535, 8090),
        day_starts=check.integer(league, "league", "day_starts", 0, 23, 6),
        catch_up=check.number(league, "league", "catch_up", 1, 3600, 60.0),
        organiser_password_file=check.path(league, "league", "organiser_password_file"),
    )


def _page_host(check: TomlValues, league: TomlTable) -> str:
    """Where the league's page listens: an address, or a name the resolver can encode (the
    page's socket asks the resolver, which raised UnicodeError for "a..b": a traceback)."""
    host = league.get("host", "0.0.0.0")
    if not isinstance(host, str) or not host or any(char.isspace() for char in host):
        raise check.fail("league", "host", f'must be an address such as "0.0.0.0", not {host!r}')
    if not resolvable(host):
        raise check.fail("league", "host", f'{host!r} is not an address such as "0.0.0.0" nor a '
                         f"host name: {HOST_RULE}")  # fmt: skip
    return host


__all__ = ["ConfigError", "LeagueConfig", "load_league_config", "parse_league_config"]
