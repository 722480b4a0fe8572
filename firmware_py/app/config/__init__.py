"""The tower's configuration: one TOML file, checked completely at start.

Each section describes one kind of hardware; a section that is absent means that part is
simulated, and no file at all means a fully simulated tower. Every wrong, missing or unknown
value is refused with a message naming the key and how to fix it, e.g.
``config.toml: [lights] red: must be a GPIO number from 0 to 27, not "five" (e.g. red = 5)``.

`load_config` reads the file and `parse_config` checks it (loading.py) into the settings of
settings.py. Each section has its checker, a `TomlValues` (values.py: the checks they share):
hardware.py for the parts on GPIO pins, the dice, pads and sound, displays.py for the displays,
seats.py for the computer players and the phones, mqtt.py for the house's MQTT broker.
"""

from firmware_py.app.config.loading import load_config, parse_config
from firmware_py.app.config.settings import (
    SIMULATED,
    WEB_SIMULATED,
    ButtonConfig,
    ConfigError,
    MqttConfig,
    SoundConfig,
    TowerConfig,
    WebConfig,
)

__all__ = [
    "SIMULATED",
    "WEB_SIMULATED",
    "ButtonConfig",
    "ConfigError",
    "MqttConfig",
    "SoundConfig",
    "TowerConfig",
    "WebConfig",
    "load_config",
    "parse_config",
]
