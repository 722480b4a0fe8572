"""What the tower reads from its configuration file: one frozen dataclass per part, and the
error that names a wrong value."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from drivers.display_device import DisplayConfig
from firmware_py.bus.settings import MQTT_COMMANDS, MqttConfig
from firmware_py.errors import TowerError
from firmware_py.table.settings import ABSENT_GRACE


@dataclass(frozen=True)
class WebConfig:
    """The web server for phones as pads: on or off, the address it listens on, its port."""

    enabled: bool = False
    host: str = "0.0.0.0"  # the kiosk: every network the Pi is on
    port: int = 8080


WEB_SIMULATED = WebConfig(enabled=True, host="127.0.0.1")  # `run` without a file: this PC only

__all__ = ["MQTT_COMMANDS", "MqttConfig"]  # [mqtt] is the bus's own (firmware_py.bus.settings)


class ConfigError(TowerError, ValueError):
    """The configuration file is unreadable or holds a wrong value."""


@dataclass(frozen=True)
class ButtonConfig:
    pin: int
    long_press: float = 1.5
    debounce: float = 0.03


@dataclass(frozen=True)
class SoundConfig:
    """[sound]: the piezo buzzer (None: simulated) and the spoken announcements."""

    enabled: bool = True
    buzzer: int | None = None  # BCM pin of the piezo
    speech: bool = True  # espeak-ng, where an audio device exists
    voice: str = "en"  # an espeak-ng voice
    volume: int = 100  # espeak-ng amplitude, 0 to 200
    speed: int = 160  # words a minute


@dataclass(frozen=True)
class TowerConfig:
    """Everything the tower reads from its file; None for a part means simulated."""

    source: str = "simulated"
    variant: str = "classic"
    action1_timer: float = 0.0
    look_ahead: int = 0  # playouts per option a computer player tries; 0: its level decides
    idle_dim: float = 300.0
    idle_blank: float = 1800.0
    state_dir: Path | None = None
    button: ButtonConfig | None = None
    lights: dict[str, int] | None = None
    displays: dict[str, DisplayConfig] = field(default_factory=dict)  # by role
    dice_source: str = "software"
    pixels: dict[str, int] = field(default_factory=dict)
    pad_ports: tuple[str, ...] = ()
    pad_baud: int = 115200
    pad_names: dict[str, str] = field(default_factory=dict)  # pad ident -> player name
    sound: SoundConfig | None = None  # None: a simulated buzzer, no speech
    computer_players: tuple[str, ...] = ()  # [table]: seated at power-on; people join on pads
    computer_levels: dict[str, str] = field(default_factory=dict)  # name -> level, where given
    absent_grace: float = ABSENT_GRACE  # [table]: seconds to wait for a device gone
    web: WebConfig = WEB_SIMULATED
    mqtt: MqttConfig | None = None  # None: no [mqtt] (or enabled = false), nothing on the bus

    @property
    def simulated(self) -> bool:
        return self.source == "simulated"


SIMULATED = TowerConfig()
