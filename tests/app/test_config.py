"""The configuration file: the example loads; every wrong value is refused naming key and fix."""

from __future__ import annotations

import re

import pytest
from support.paths import ROOT

from firmware_py.app.config import ConfigError, load_config, parse_config
from firmware_py.app.hardware import build_hardware

EXAMPLE = ROOT / "systemd" / "config.example.toml"


def test_no_configuration_means_a_simulated_tower():
    config = load_config(None)
    assert config.simulated
    assert config.button is None and config.lights is None and config.displays == {}


def test_the_example_configuration_of_the_reference_build_loads():
    config = load_config(EXAMPLE)
    assert not config.simulated
    assert config.button.pin == 17
    assert config.lights == {"red": 5, "yellow": 6, "green": 13, "blue": 19}
    assert {role: d.i2c_address for role, d in config.displays.items()} == {
        "main": 0x3C,
        "options": 0x3D,
    }
    # issue 24: the reference build's panels are read from the chairs (wiring.md): 1.3" SH1106
    assert {d.driver for d in config.displays.values()} == {"sh1106"}
    assert config.pad_ports == ("/dev/qwixx-pad-*",)
    assert config.web.enabled and (config.web.host, config.web.port) == ("0.0.0.0", 8080)
    assert config.absent_grace == 60  # issue 39: a phone gone is waited for a minute


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"button": {"pin": "five"}},
            "[button] pin: must be a GPIO number from 0 to 27, not 'five'",
        ),
        ({"button": {}}, "[button] pin: is missing: the GPIO number (e.g. pin = 17)"),
        ({"button": {"pin": 17, "pinn": 3}}, "[button] pinn: unknown key; known keys: pin,"),
        ({"lights": {"red": 5, "yellow": 6, "green": 13}}, "[lights] blue: is missing"),
        (
            {"button": {"pin": 5}, "lights": {"red": 5, "yellow": 6, "green": 13, "blue": 19}},
            "[lights] red: GPIO5 is already used by [button] pin",
        ),
        (  # an SPI display's D/C pin (24 unless given) drove the red light with every frame
            {
                "lights": {"red": 24, "yellow": 6, "green": 13, "blue": 19},
                "displays": [{"role": "main", "chip": "sh1106", "interface": "spi"}],
            },
            "the main display's dc: GPIO24 is already used by [lights] red",
        ),
        (
            {
                "button": {"pin": 25},
                "displays": [{"role": "main", "chip": "sh1106", "interface": "spi"}],
            },
            "the main display's reset: GPIO25 is already used by [button] pin",
        ),
        ({"tower": {"variant": "qwinto"}}, "[tower] variant: 'qwinto' is not one of"),
        ({"tower": {"action1_timer": -3}}, "[tower] action1_timer: must be a number of seconds"),
        (
            {"table": {"absent_grace": "1 min"}},
            "[table] absent_grace: must be a number of seconds from 0 to 3600, not '1 min'",
        ),
        (
            {"tower": {"look_ahead": 1.5}},
            "[tower] look_ahead: must be a whole number from 0 to 100000, not 1.5",
        ),
        ({"tower": {"state_dir": "games"}}, "[tower] state_dir: must be an absolute path"),
        (
            {"displays": [{"chip": "ssd1306"}]},
            "[displays.0] role: is missing: one of main, options",
        ),
        ({"displays": [{"role": "main", "chip": "st7735"}]}, "[displays.0] chip: 'st7735' is not"),
        (
            {"displays": [{"role": "main", "address": 0x27}]},
            "[displays.0] address: 0x27 is not 0x3C",
        ),
        ({"displays": [{"role": "main"}, {"role": "main"}]}, "two displays show 'main'"),
        ({"dice": {"source": "bluetooth"}}, "[dice] source: 'bluetooth' is not one of software"),
        ({"dice": {"pixels": {"white 3": 1}}}, "[dice.pixels] white 3: unknown key"),
        ({"pads": {"ports": "/dev/ttyACM0"}}, "[pads] ports: must be a list of paths"),
        ({"screen": {}}, "screen: unknown key; known keys: tower, button"),
        ({"pads": {"ports": ["/dev/ttyACM\0"]}}, "[pads] ports: holds a NUL character"),
        ({"mqtt": {"host": "cafe\0.local"}}, "[mqtt] host: holds a NUL character"),
        ({"displays": [{"role": "main", "font": "\0"}]}, "displays: holds a NUL character"),
    ],
)
def test_a_wrong_value_is_refused_with_key_and_fix(data, message):
    with pytest.raises(ConfigError) as error:
        parse_config(data, source="config.toml")
    assert str(error.value).startswith("config.toml: ")
    assert message in str(error.value)


def test_a_missing_or_broken_file_is_refused_in_words(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "config.toml")
    broken = tmp_path / "config.toml"
    broken.write_text("[button\npin = 17\n")
    with pytest.raises(ConfigError, match=r"config\.toml: not valid TOML"):
        load_config(broken)
    broken.write_text("x = " + "[" * 3000 + "]" * 3000 + "\n")  # (RecursionError in tomllib)
    with pytest.raises(ConfigError, match=r"config\.toml: not valid TOML: nested too deeply"):
        load_config(broken)


def test_a_display_can_be_watched_through_a_luma_emulator_instead_of_a_chip():
    config = parse_config({"displays": [{"role": "main", "chip": "asciiblock"}]}, source="c.toml")
    assert config.displays["main"].driver == "asciiblock"
    hardware = build_hardware(config, faces=6)
    try:  # pytest's output is no terminal: the tower says so and carries on without it
        assert any(
            "main display" in problem and "not a terminal" in problem
            for problem in hardware.problems
        ), hardware.problems
        assert hardware.displays["main"].device is not None
    finally:
        hardware.close()


def test_the_table_section_seats_computer_players_and_none_by_default():
    assert load_config(EXAMPLE).computer_players == ()  # people join on their pads
    config = parse_config({"table": {"computer_players": ["Robo", " Ada "]}})
    assert config.computer_players == ("Robo", "Ada")


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"computer_players": "Robo"}, "[table] computer_players: must be a list of names"),
        ({"computer_players": ["Robo", ""]}, "[table] computer_players: must be a list of names"),
        ({"computer_players": [3]}, "[table] computer_players: must be a list of names"),
        ({"computer_players": ["A", "B", "C", "D", "E", "F"]}, "at most 5 players, not 6"),
        ({"computer_players": ["Robo", "Robo"]}, "'Robo' is named twice"),
        ({"seats": 3}, "[table] seats: unknown key; known keys: computer_players"),
    ],
)
def test_a_wrong_table_section_is_refused_with_key_and_fix(table, message):
    with pytest.raises(ConfigError) as refused:
        parse_config({"table": table}, source="config.toml")
    assert message in str(refused.value)


def test_a_computer_player_may_not_take_the_name_of_a_known_pad(tmp_path):
    data = {"table": {"computer_players": ["Ann"]}, "pads": {"names": {"e6614c31": "Ann"}}}
    with pytest.raises(ConfigError, match="'Ann' is also a pad's player in \\[pads\\] names"):
        parse_config(data, source="config.toml")


def test_phones_are_served_on_this_pc_only_when_simulated_and_on_the_lan_with_a_web_section():
    simulated = load_config(None).web
    assert simulated.enabled and simulated.host == "127.0.0.1" and simulated.port == 8080
    assert not parse_config({}).web.enabled, "a kiosk without [web] serves no phones"
    kiosk = parse_config({"web": {}}).web
    assert kiosk.enabled and kiosk.host == "0.0.0.0" and kiosk.port == 8080
    chosen = parse_config({"web": {"port": 8000, "host": "::", "enabled": False}}).web
    assert (chosen.enabled, chosen.host, chosen.port) == (False, "::", 8000)


@pytest.mark.parametrize(
    ("web", "message"),
    [
        ({"port": 0}, "[web] port: must be a whole number from 1 to 65535, not 0"),
        ({"port": "8080"}, "[web] port: must be a whole number from 1 to 65535, not '8080'"),
        ({"host": "my-pi"}, '[web] host: must be an IP address such as "0.0.0.0"'),
        ({"host": 5}, "[web] host: must be an IP address"),
        ({"enabled": "yes"}, "[web] enabled: must be true or false, not 'yes'"),
        ({"url": "/"}, "[web] url: unknown key; known keys: enabled, host, port"),
    ],
)
def test_a_wrong_web_value_is_refused_with_key_and_fix(web, message):
    with pytest.raises(ConfigError, match="^config.toml: " + re.escape(message)):
        parse_config({"web": web})


def test_a_configuration_saved_with_a_byte_order_mark_is_read(tmp_path):
    """Windows Notepad saves UTF-8 with a byte-order mark: it was refused as 'Invalid
    statement (at line 1, column 1)' with no word of why."""
    saved = tmp_path / EXAMPLE.name
    saved.write_bytes(b"\xef\xbb\xbf" + EXAMPLE.read_bytes())
    assert load_config(saved) == load_config(EXAMPLE)


def test_two_displays_at_one_address_on_one_bus_are_refused_naming_both():
    """Issue 24: they passed the check, and both panels drew every frame."""
    both = {"displays": [
        {"role": "main", "chip": "sh1106", "address": 0x3C},
        {"role": "options", "chip": "ssd1306", "bus": 1, "address": 0x3C},
    ]}  # fmt: skip
    with pytest.raises(ConfigError) as refused:
        parse_config(both)
    words = str(refused.value)
    assert "the main and options displays are both at 0x3c on I2C bus 1" in words
    assert "\n" not in words
    apart = {"displays": [{**both["displays"][0]}, {**both["displays"][1], "bus": 3}]}
    assert set(parse_config(apart).displays) == {"main", "options"}
