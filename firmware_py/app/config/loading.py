"""Reading the configuration file, and checking it section by section into a TowerConfig."""

from __future__ import annotations

from pathlib import Path

from firmware_py.app.config.displays import DisplaysChecker
from firmware_py.app.config.hardware import DiceChecker, GpioChecker, PadsChecker, SoundChecker
from firmware_py.app.config.mqtt import MqttChecker
from firmware_py.app.config.seats import TableChecker, WebChecker
from firmware_py.app.config.settings import SIMULATED, TowerConfig
from firmware_py.app.config.values import TomlTable, TomlValues, read_toml
from sheets import sheet_names

SECTIONS = (
    "tower", "button", "lights", "displays", "dice", "pads", "sound", "table", "web", "mqtt"
)  # fmt: skip
TOWER_KEYS = ("variant", "action1_timer", "look_ahead", "idle_dim", "idle_blank", "state_dir")


def load_config(path: Path | str | None) -> TowerConfig:
    """Read and check a configuration file; None (no file) means simulated hardware."""
    if path is None:
        return SIMULATED
    path = Path(path)
    data = read_toml(path, missing="without --config the tower is simulated")
    return parse_config(data, source=path.name)


def parse_config(data: TomlTable, source: str = "config.toml") -> TowerConfig:
    """Check a parsed configuration file; `source` names it in the messages. The sections are
    checked in this order, so a file with several mistakes is told of the same one first."""
    check = TomlValues(source)
    check.no_nul(data)
    check.known_keys(data, "", SECTIONS)
    tower = check.table(data, "tower")
    gpio, dice = GpioChecker(source), DiceChecker(source)
    pads, table = PadsChecker(source), TableChecker(source)
    config = TowerConfig(
        source=source,
        variant=check.choice(tower, "tower", "variant", sheet_names(), "classic"),
        action1_timer=check.number(tower, "tower", "action1_timer", 0, 600, 0.0),
        look_ahead=check.integer(tower, "tower", "look_ahead", 0, 100_000, 0),
        idle_dim=check.number(tower, "tower", "idle_dim", 0, 86400, 300.0),
        idle_blank=check.number(tower, "tower", "idle_blank", 0, 86400, 1800.0),
        state_dir=check.path(tower, "tower", "state_dir"),
        button=gpio.button(data),
        lights=gpio.lights(data),
        displays=DisplaysChecker(source).displays(data),
        dice_source=dice.source_kind(data),
        pixels=dice.pixels(data),
        pad_ports=pads.ports(data),
        pad_baud=pads.baud(data),
        pad_names=pads.names(data),
        sound=SoundChecker(source).sound(data),
        computer_players=table.computer_players(data),
        computer_levels=table.computer_levels(data),
        absent_grace=table.absent_grace(data),
        web=WebChecker(source).web(data),
        mqtt=MqttChecker(source).mqtt(data),
    )
    check.known_keys(tower, "tower", TOWER_KEYS)
    gpio.pins_used_once(config)
    table.names_apart(config)
    return config
