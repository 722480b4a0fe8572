"""The sections of the configuration file for the tower's parts: [button] and [lights] on GPIO
pins, [dice], [pads] and [sound]. (The displays have displays.py.)"""

from __future__ import annotations

from drivers.speech import VOICE_PATTERN, check_voice
from firmware_py.app.config.settings import ButtonConfig, ConfigError, SoundConfig, TowerConfig
from firmware_py.app.config.values import TomlTable, TomlValues
from sheets import COLOURS

DICE_SOURCES = ("software", "pixels")
DIE_ROLES = ("white 1", "white 2", *COLOURS)


class GpioChecker(TomlValues):
    """[button] and [lights], and that no GPIO pin of the file is used twice."""

    def button(self, data: TomlTable) -> ButtonConfig | None:
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

    def lights(self, data: TomlTable) -> dict[str, int] | None:
        if "lights" not in data:
            return None
        table = self.table(data, "lights")
        self.known_keys(table, "lights", COLOURS)
        examples = dict(zip(COLOURS, (5, 6, 13, 19), strict=True))
        return {colour: self.pin(table, "lights", colour, examples[colour]) for colour in COLOURS}

    def pins_used_once(self, config: TowerConfig) -> None:
        """No two of the button, the lights and the buzzer on one pin, nor one of them on an
        SPI display's D/C or RES pin (displays among themselves are the wiring's business)."""
        used: dict[int, str] = {}
        pins = [("[button] pin", config.button.pin)] if config.button else []
        pins += [(f"[lights] {c}", p) for c, p in (config.lights or {}).items()]
        if config.sound is not None and config.sound.buzzer is not None:
            pins.append(("[sound] buzzer", config.sound.buzzer))
        for key, pin in pins:
            self.pin_free(used, key, pin)
            used[pin] = key
        for key, pin in self.display_pins(config):
            self.pin_free(used, key, pin)

    def pin_free(self, used: dict[int, str], key: str, pin: int) -> None:
        if pin in used:
            raise ConfigError(f"{self.source}: {key}: GPIO{pin} is already used by {used[pin]}")

    @staticmethod
    def display_pins(config: TowerConfig) -> list[tuple[str, int]]:
        """The D/C and RES pins of each SPI display: a light or the button on one of them
        would flicker with every frame sent, or reset the display."""
        pins: list[tuple[str, int]] = []
        for role, display in config.displays.items():
            if display.interface == "spi" and display.is_chip:
                pins.append((f"the {role} display's dc", display.gpio_dc))
                pins.append((f"the {role} display's reset", display.gpio_rst))
        return pins


class DiceChecker(TomlValues):
    """[dice]: software dice, or Pixels dice by their ids."""

    def source_kind(self, data: TomlTable) -> str:
        """Where rolls come from: DICE_SOURCES."""
        return self.choice(self.table(data, "dice"), "dice", "source", DICE_SOURCES, "software")

    def pixels(self, data: TomlTable) -> dict[str, int]:
        dice = self.table(data, "dice")
        self.known_keys(dice, "dice", ("source", "pixels"))
        table = dice.get("pixels", {})
        if not isinstance(table, dict):
            raise self.fail("dice", "pixels", 'must be a table: [dice.pixels] "white 1" = DIE_ID')
        self.known_keys(table, "dice.pixels", DIE_ROLES)
        return {role: self.integer(table, "dice.pixels", role, 0, 2**32 - 1) for role in table}


class PadsChecker(TomlValues):
    """[pads]: the serial ports pads are plugged into, their speed, their players' names."""

    def ports(self, data: TomlTable) -> tuple[str, ...]:
        pads = self.table(data, "pads")
        self.known_keys(pads, "pads", ("ports", "baud", "names"))
        ports = pads.get("ports", [])
        if not isinstance(ports, list) or not all(isinstance(p, str) and p for p in ports):
            raise self.fail(
                "pads", "ports", 'must be a list of paths, e.g. ports = ["/dev/qwixx-pad-*"]'
            )
        return tuple(ports)

    def baud(self, data: TomlTable) -> int:
        return self.integer(self.table(data, "pads"), "pads", "baud", 1200, 4_000_000, 115200)

    def names(self, data: TomlTable) -> dict[str, str]:
        names = self.table(data, "pads").get("names", {})
        if not isinstance(names, dict) or not all(
            isinstance(name, str) and name.strip() for name in names.values()
        ):
            raise self.fail(
                "pads",
                "names",
                'must map pad idents to names: names = {"pad-e6614c311b7a2f2e" = "Ann"}',
            )
        for name in names.values():
            self.short_name("pads", "names", name)
        return dict(names)


class SoundChecker(TomlValues):
    """[sound]: absent means a simulated buzzer and no speech."""

    def sound(self, data: TomlTable) -> SoundConfig | None:
        if "sound" not in data:
            return None
        table = self.table(data, "sound")
        known = ("enabled", "buzzer", "speech", "voice", "volume", "speed")
        self.known_keys(table, "sound", known)
        speech = self.switch(table, "sound", "speech")
        return SoundConfig(
            enabled=self.switch(table, "sound", "enabled"),
            buzzer=self.pin(table, "sound", "buzzer", 18) if "buzzer" in table else None,
            speech=speech,
            voice=self.voice(table, speech),
            volume=self.integer(table, "sound", "volume", 0, 200, 100),
            speed=self.integer(table, "sound", "speed", 80, 450, 160),
        )

    def voice(self, table: TomlTable, speech: bool) -> str:
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
