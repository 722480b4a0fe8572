"""The tower's configuration: one TOML file, checked completely at start.

Each section describes one kind of hardware; a section that is absent means that part is
simulated, and no file at all means a fully simulated tower. Every wrong, missing or unknown
value is refused with a message naming the key and how to fix it, e.g.
``config.toml: [lights] red: must be a GPIO number from 0 to 27, not "five" (e.g. red = 5)``.
"""

from __future__ import annotations

import ipaddress
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeGuard

from drivers.display_device import DisplayConfig, bus_name
from drivers.errors import DisplayConfigError
from drivers.speech import VOICE_PATTERN, check_voice
from firmware_py.errors import TowerError
from firmware_py.seating import LEVELS, MAX_SEATS, NAME_LENGTH
from sheets import COLOURS, sheet_names

GPIO_PINS = range(0, 28)
DISPLAY_CHIPS = ("ssd1306", "sh1106", "ssd1309")
DISPLAY_EMULATORS = ("pygame", "asciiblock")  # luma.emulator, to watch a display without one
DISPLAY_ROLES = ("main", "options")
I2C_ADDRESSES = (0x3C, 0x3D)
DICE_SOURCES = ("software", "pixels")
DIE_ROLES = ("white 1", "white 2", *COLOURS)

Table = Mapping[str, object]
"""A TOML table as tomllib reads it: every value is checked before it is used."""


@dataclass(frozen=True)
class WebConfig:
    """The web server for phones as pads: on or off, the address it listens on, its port."""

    enabled: bool = False
    host: str = "0.0.0.0"  # the kiosk: every network the Pi is on
    port: int = 8080


WEB_SIMULATED = WebConfig(enabled=True, host="127.0.0.1")  # `run` without a file: this PC only


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
    look_ahead: int = 0  # playouts per option a computer player tries; 0: rule of thumb
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
    web: WebConfig = WEB_SIMULATED

    @property
    def simulated(self) -> bool:
        return self.source == "simulated"


SIMULATED = TowerConfig()


def load_config(path: Path | str | None) -> TowerConfig:
    """Read and check a configuration file; None (no file) means simulated hardware."""
    if path is None:
        return SIMULATED
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))  # Notepad writes a BOM
    except UnicodeDecodeError as error:
        raise ConfigError(
            f"{path.name}: not UTF-8 text (byte {error.start + 1}): save it as UTF-8"
        ) from error
    except FileNotFoundError as error:
        raise ConfigError(
            f"{path}: no such file (without --config the tower is simulated)"
        ) from error
    except OSError as error:
        raise ConfigError(f"{path}: cannot read it: {error.strerror}") from error
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path.name}: not valid TOML: {error}") from error
    return parse_config(data, source=path.name)


def parse_config(data: Table, source: str = "config.toml") -> TowerConfig:
    """Check a parsed configuration file; `source` names it in the messages."""
    check = _Checker(source)
    known = ("tower", "button", "lights", "displays", "dice", "pads", "sound", "table", "web")
    check.known_keys(data, "", known)
    tower = check.table(data, "tower")
    config = TowerConfig(
        source=source,
        variant=check.choice(tower, "tower", "variant", sheet_names(), "classic"),
        action1_timer=check.number(tower, "tower", "action1_timer", 0, 600, 0.0),
        look_ahead=check.integer(tower, "tower", "look_ahead", 0, 100_000, 0),
        idle_dim=check.number(tower, "tower", "idle_dim", 0, 86400, 300.0),
        idle_blank=check.number(tower, "tower", "idle_blank", 0, 86400, 1800.0),
        state_dir=check.path(tower, "tower", "state_dir"),
        button=check.button(data),
        lights=check.lights(data),
        displays=check.displays(data),
        dice_source=check.choice(
            check.table(data, "dice"), "dice", "source", DICE_SOURCES, "software"
        ),
        pixels=check.pixels(data),
        pad_ports=check.ports(data),
        pad_baud=check.integer(check.table(data, "pads"), "pads", "baud", 1200, 4_000_000, 115200),
        pad_names=check.pad_names(data),
        sound=check.sound(data),
        computer_players=check.computer_players(data),
        computer_levels=check.computer_levels(data),
        web=check.web(data),
    )
    check.tower_keys(tower)
    check.pins_used_once(config)
    check.names_apart(config)
    return config


class _Checker:
    """Value-by-value checks that raise ConfigError naming the section, key and fix."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, section: str, key: str, problem: str) -> ConfigError:
        where = f"[{section}] {key}" if section else key
        return ConfigError(f"{self.source}: {where}: {problem}")

    def table(self, data: Table, section: str) -> Table:
        value = data.get(section, {})
        if not isinstance(value, dict):
            raise self.fail("", f"[{section}]", "must be a table, written [" + section + "]")
        return value

    def known_keys(self, table: Table, section: str, known: tuple[str, ...]) -> None:
        for key in table:
            if key not in known:
                raise self.fail(section, key, f"unknown key; known keys: {', '.join(known)}")

    def tower_keys(self, tower: Table) -> None:
        known = ("variant", "action1_timer", "look_ahead", "idle_dim", "idle_blank", "state_dir")
        self.known_keys(tower, "tower", known)

    def integer(
        self, table: Table, section: str, key: str, low: int, high: int, default: int | None = None
    ) -> int:
        value = table.get(key, default)
        if value is None:
            raise self.fail(section, key, f"is missing (e.g. {key} = {low})")
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self.fail(
                section, key, f"must be a whole number from {low} to {high}, not {value!r}"
            )
        return value

    def pin(self, table: Table, section: str, key: str, example: int) -> int:
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
        self, table: Table, section: str, key: str, low: float, high: float, default: float
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

    def choice(
        self, table: Table, section: str, key: str, choices: Collection[str], default: str | None
    ) -> str:
        value = table.get(key, default)
        if value is None:
            raise self.fail(section, key, f"is missing: one of {', '.join(choices)}")
        if not isinstance(value, str) or value not in choices:
            raise self.fail(section, key, f"{value!r} is not one of {', '.join(choices)}")
        return value

    def path(self, table: Table, section: str, key: str) -> Path | None:
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

    def button(self, data: Table) -> ButtonConfig | None:
        if "button" not in data:
            return None
        table = self.table(data, "button")
        self.known_keys(table, "button", ("pin", "long_press", "debounce"))
        button = ButtonConfig(
            pin=self.pin(table, "button", "pin", 17),
            long_press=self.number(table, "button", "long_press", 0.3, 10, 1.5),
            debounce=self.number(table, "button", "debounce", 0, 0.5, 0.03),
        )
        if button.long_press <= button.debounce:
            raise self.fail(
                "button",
                "long_press",
                f"must be longer than debounce ({button.debounce} s), not {button.long_press}",
            )
        return button

    def lights(self, data: Table) -> dict[str, int] | None:
        if "lights" not in data:
            return None
        table = self.table(data, "lights")
        self.known_keys(table, "lights", COLOURS)
        examples = dict(zip(COLOURS, (5, 6, 13, 19), strict=True))
        return {colour: self.pin(table, "lights", colour, examples[colour]) for colour in COLOURS}

    def displays(self, data: Table) -> dict[str, DisplayConfig]:
        tables = data.get("displays", [])
        if not isinstance(tables, list):
            raise self.fail("", "displays", "must be [[displays]] tables, one per display")
        displays: dict[str, DisplayConfig] = {}
        for index, table in enumerate(tables):
            role, config = self.display(table, f"displays.{index}")
            if role in displays:
                raise self.fail(
                    "displays", "role", f"two displays show {role!r}; give each its own"
                )
            displays[role] = config
        self.addresses_apart(displays)
        return displays

    def addresses_apart(self, displays: dict[str, DisplayConfig]) -> None:
        """Two displays at one I2C address on one bus would both draw every frame."""
        seen: dict[tuple[str, int], str] = {}
        for role, config in displays.items():
            if config.interface != "i2c" or not config.is_chip:
                continue
            place = (bus_name(config), config.i2c_address)
            if place in seen:
                raise self.fail(
                    "displays", "address",
                    f"the {seen[place]} and {role} displays are both at {place[1]:#x} on I2C "
                    f"bus {place[0]}: set one board to the other address (0x3C or 0x3D) or put "
                    "it on another bus",
                )  # fmt: skip
            seen[place] = role

    def display(self, table: Table, section: str) -> tuple[str, DisplayConfig]:
        """One [[displays]] table: its role, and the display driver's settings."""
        known: tuple[str, ...] = ("role", "chip", "interface", "bus", "bus_device", "address")
        known += ("device", "dc", "reset", "rotate")
        self.known_keys(table, section, known)
        role = self.choice(table, section, "role", DISPLAY_ROLES, None)
        interface = self.choice(table, section, "interface", ("i2c", "spi"), "i2c")
        address = self.integer(table, section, "address", 0, 0x7F, 0x3C)
        if interface == "i2c" and address not in I2C_ADDRESSES:
            raise self.fail(section, "address", f"{address:#x} is not 0x3C or 0x3D (e.g. 0x3C)")
        chips = DISPLAY_CHIPS + DISPLAY_EMULATORS
        try:
            return role, DisplayConfig(
                driver=self.choice(table, section, "chip", chips, "ssd1306"),
                interface=interface,
                i2c_port=self.integer(table, section, "bus", 0, 31, 1),
                i2c_device=self.bus_device(table, section),
                i2c_address=address,
                spi_device=self.integer(table, section, "device", 0, 1, 0),
                gpio_dc=self.integer(table, section, "dc", 0, 27, 24),
                gpio_rst=self.integer(table, section, "reset", 0, 27, 25),
                rotate=self.integer(table, section, "rotate", 0, 3, 0),
                where=f"[{section}]",
            )
        except DisplayConfigError as error:
            raise ConfigError(f"{self.source}: {error}") from error

    def bus_device(self, table: Table, section: str) -> str:
        """`bus_device`: the I2C bus's device file when it is not /dev/i2c-<bus>; "" if unset."""
        value = table.get("bus_device", "")
        if not isinstance(value, str) or (value and not value.startswith("/")):
            raise self.fail(
                section, "bus_device", f'must be a device file such as "/dev/i2c-1", not {value!r}'
            )
        return value

    def pixels(self, data: Table) -> dict[str, int]:
        dice = self.table(data, "dice")
        self.known_keys(dice, "dice", ("source", "pixels"))
        table = dice.get("pixels", {})
        if not isinstance(table, dict):
            raise self.fail("dice", "pixels", 'must be a table: [dice.pixels] "white 1" = DIE_ID')
        self.known_keys(table, "dice.pixels", DIE_ROLES)
        return {role: self.integer(table, "dice.pixels", role, 0, 2**32 - 1) for role in table}

    def ports(self, data: Table) -> tuple[str, ...]:
        pads = self.table(data, "pads")
        self.known_keys(pads, "pads", ("ports", "baud", "names"))
        ports = pads.get("ports", [])
        if not isinstance(ports, list) or not all(isinstance(p, str) and p for p in ports):
            raise self.fail(
                "pads", "ports", 'must be a list of paths, e.g. ports = ["/dev/qwixx-pad-*"]'
            )
        return tuple(ports)

    def pad_names(self, data: Table) -> dict[str, str]:
        names = self.table(data, "pads").get("names", {})
        if not isinstance(names, dict) or not all(
            isinstance(name, str) and name.strip() for name in names.values()
        ):
            raise self.fail(
                "pads", "names", 'must map pad idents to names: names = {"e6614c31" = "Ann"}'
            )
        for name in names.values():
            self.short_name("pads", "names", name)
        return dict(names)

    def short_name(self, section: str, key: str, name: str) -> None:
        """A player's name is at most NAME_LENGTH characters, as on the command line and the
        phone page."""
        if len(name.strip()) > NAME_LENGTH:
            raise self.fail(
                section, key, f"{name.strip()!r} is longer than {NAME_LENGTH} characters"
            )

    def computer_players(self, data: Table) -> tuple[str, ...]:
        """[table] computer_players: the names of the computer players seated at power-on
        (none by default: the seats are people, who join on their pads)."""
        return tuple(name for name, _ in self._computer_seats(data))

    def computer_levels(self, data: Table) -> dict[str, str]:
        """The level of each computer player given as {name = "...", level = "..."}."""
        return {name: level for name, level in self._computer_seats(data) if level}

    def _computer_seats(self, data: Table) -> list[tuple[str, str]]:
        """[table] computer_players: each a name, or a table {name = "Ada", level = "hard"}."""
        table = self.table(data, "table")
        self.known_keys(table, "table", ("computer_players",))
        entries = table.get("computer_players", [])
        example = '(e.g. computer_players = ["Robo", {name = "Ada", level = "hard"}], or [])'
        if not isinstance(entries, list):
            raise self.fail("table", "computer_players", f"must be a list of names {example}")
        seats = [self._computer_seat(entry, example) for entry in entries]
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

    def _computer_seat(self, entry: object, example: str) -> tuple[str, str]:
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
            raise self.fail("table", "computer_players", f"must be a list of names {example}")
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

    def web(self, data: Table) -> WebConfig:
        """[web]: phones as pads on the LAN; without the section, no web server."""
        if "web" not in data:
            return WebConfig(enabled=False)
        table = self.table(data, "web")
        self.known_keys(table, "web", ("enabled", "host", "port"))
        enabled = table.get("enabled", True)
        if not isinstance(enabled, bool):
            raise self.fail("web", "enabled", f"must be true or false, not {enabled!r}")
        host = table.get("host", WebConfig.host)
        if not _is_ip_address(host):
            raise self.fail(
                "web",
                "host",
                f'must be an IP address such as "0.0.0.0" (all networks), not {host!r}',
            )
        port = self.integer(table, "web", "port", 1, 65535, WebConfig.port)
        return WebConfig(enabled=enabled, host=host, port=port)

    def pins_used_once(self, config: TowerConfig) -> None:
        used: dict[int, str] = {}
        pins = [("[button] pin", config.button.pin)] if config.button else []
        pins += [(f"[lights] {c}", p) for c, p in (config.lights or {}).items()]
        if config.sound is not None and config.sound.buzzer is not None:
            pins.append(("[sound] buzzer", config.sound.buzzer))
        for key, pin in pins:
            if pin in used:
                raise ConfigError(f"{self.source}: {key}: GPIO{pin} is already used by {used[pin]}")
            used[pin] = key

    def sound(self, data: Table) -> SoundConfig | None:
        """[sound]: absent means a simulated buzzer and no speech."""
        if "sound" not in data:
            return None
        table = self.table(data, "sound")
        known = ("enabled", "buzzer", "speech", "voice", "volume", "speed")
        self.known_keys(table, "sound", known)
        speech = self.sound_switch(table, "speech")
        return SoundConfig(
            enabled=self.sound_switch(table, "enabled"),
            buzzer=self.pin(table, "sound", "buzzer", 18) if "buzzer" in table else None,
            speech=speech,
            voice=self.sound_voice(table, speech),
            volume=self.integer(table, "sound", "volume", 0, 200, 100),
            speed=self.integer(table, "sound", "speed", 80, 450, 160),
        )

    def sound_switch(self, table: Table, key: str) -> bool:
        value = table.get(key, True)
        if not isinstance(value, bool):
            raise self.fail("sound", key, f"must be true or false, not {value!r}")
        return value

    def sound_voice(self, table: Table, speech: bool) -> str:
        """An espeak-ng voice; where espeak-ng is installed, one it knows."""
        voice = table.get("voice", "en")
        if not isinstance(voice, str) or not VOICE_PATTERN.fullmatch(voice):
            raise self.fail(
                "sound", "voice", f'{voice!r} is not a voice name (e.g. voice = "en" or "en-us")'
            )
        if speech and check_voice(voice) is False:
            raise self.fail(
                "sound",
                "voice",
                f"espeak-ng has no voice {voice!r}; `espeak-ng --voices` lists them "
                '(e.g. voice = "en")',
            )
        return voice


def _is_ip_address(value: object) -> TypeGuard[str]:
    try:
        ipaddress.ip_address(value if isinstance(value, str) else "-")
    except ValueError:
        return False
    return True
