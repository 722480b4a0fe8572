"""[mqtt] in the configuration: off without it, and every wrong value refused in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.app.config import ConfigError, parse_config


def test_without_the_section_or_switched_off_there_is_no_bus():
    assert parse_config({}).mqtt is None
    assert parse_config({"mqtt": {"enabled": False, "host": "h"}}).mqtt is None


def test_a_full_section_and_its_defaults():
    mqtt = parse_config({"mqtt": {
        "host": "homeassistant.local", "ca_file": "/etc/qwixx-tower/ca.pem", "username": "qwixx",
        "password_file": "/etc/qwixx-tower/mqtt-password", "prefix": "cafe/tables",
        "tower_id": "table-7", "commands": ["new_game"],
    }}).mqtt  # fmt: skip
    assert mqtt is not None and mqtt.tls and mqtt.port == 8883  # a CA file means TLS
    assert mqtt.password_file == Path("/etc/qwixx-tower/mqtt-password")
    assert mqtt.base == "cafe/tables/table-7" and mqtt.commands == ("new_game",)
    assert mqtt.address == "homeassistant.local:8883 (TLS)"
    plain = parse_config({"mqtt": {"host": "10.0.0.2"}}).mqtt
    assert plain is not None and (plain.port, plain.tls, plain.discovery) == (1883, False, True)


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({}, "[mqtt] host: is missing: the broker's name or address"),
        ({"host": "my broker"}, "[mqtt] host: 'my broker' has a space"),
        # Names the resolver cannot encode (IDNA) stopped the league with UnicodeError.
        ({"host": "cafe..local"}, "[mqtt] host: 'cafe..local' is not a host name"),
        ({"host": "a" * 64 + ".local"}, "each part between dots is 1 to 63"),
        ({"host": "h", "port": 0}, "[mqtt] port: must be a whole number from 1 to 65535"),
        ({"host": "h", "tls": "yes"}, "[mqtt] tls: must be true or false, not 'yes'"),
        ({"host": "h", "ca_file": "ca.pem"}, "[mqtt] ca_file: must be an absolute path"),
        ({"host": "h", "password": "x"}, "[mqtt] password: unknown key; known keys: enabled,"),
        ({"host": "h", "tower_id": "a/b"}, '[mqtt] tower_id: must be letters, digits, "-"'),
        ({"host": "h", "prefix": "qwixx/#"}, '[mqtt] prefix: must be letters, digits, "-"'),
        ({"host": "h", "prefix": "a//b"}, "[mqtt] prefix: must be letters"),
        ({"host": "h", "commands": ["reboot"]}, "[mqtt] commands: must be a list of new_game"),
        ({"host": "h", "username": ""}, "[mqtt] username: must be the broker's user name"),
        ({"host": "h", "tls": False, "ca_file": "/ca.pem"}, "[mqtt] ca_file: is the CA of a TLS"),
        ({"host": "h", "password_file": "/p"}, "[mqtt] password_file: needs the username"),
    ],
)
def test_a_wrong_value_is_refused_with_the_key_and_the_fix(section, message):
    with pytest.raises(ConfigError) as refused:
        parse_config({"mqtt": section})
    assert message in str(refused.value)


@pytest.mark.parametrize("host", ["192.168.1.10", "fd00::1", "café.local", "broker.lan.", "h"])
def test_addresses_and_names_a_resolver_takes_are_hosts(host):
    mqtt = parse_config({"mqtt": {"host": host}}).mqtt
    assert mqtt is not None and mqtt.host == host
