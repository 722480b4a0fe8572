"""The tower's hardware, built from its configuration: real parts, or simulated ones.

A part missing from the configuration is simulated by the libraries' own means: gpiozero's
MockFactory for the roll button and lock lights, luma's dummy device for the displays, the
software roll for the dice. The table service cannot tell the difference.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from gpiozero import Device, PinPWMError
from gpiozero.pins import Factory

from drivers.buzzer import Buzzer
from drivers.dice import SoftwareDice
from drivers.display import Display, open_display
from drivers.display_device import DisplayConfig
from drivers.errors import DriverError, PixelsConfigError
from drivers.gpio import hardware_pin_factory, make_pin_factory, simulated_pin_factory
from drivers.lights import LockLights
from drivers.pixels import BleakPixelsScanner, PixelsReader, check_table_dice
from drivers.speech import Speech
from firmware_py.app.config import SoundConfig, TowerConfig
from sheets import COLOURS

log = logging.getLogger(__name__)

SIMULATED_BUTTON_PIN = 17
SIMULATED_LIGHT_PINS = dict(zip(COLOURS, (5, 6, 13, 19), strict=True))
DISPLAY_ROLES = ("main", "options")
SIMULATED_BUZZER_PIN = 18


@dataclass
class Hardware:
    """The parts the table service drives; `problems` says which configured parts failed."""

    button_factory: Factory | None
    button_pin: int
    lights: LockLights
    displays: dict[str, Display]
    dice: SoftwareDice
    problems: list[str] = field(default_factory=list)
    button_debounce: float = 0.03  # seconds: [button] debounce, handed to the RollButton
    pixels: PixelsReader | None = None  # electronic dice, when configured
    buzzer: Buzzer | None = None  # None: sound is switched off
    speech: Speech | None = None  # None: the tower does not speak
    frames_kept: bool = False  # every frame of the displays is kept as a picture (--screens)

    def close(self) -> None:
        if self.buzzer is not None:
            self.buzzer.close()
        if self.speech is not None:
            self.speech.close()
        self.lights.close()
        for display in self.displays.values():
            display.close()


def build_hardware(config: TowerConfig, faces: int, capture: Path | None = None) -> Hardware:
    """Open every part; a display that does not answer is reported, not fatal. With `capture`,
    simulated displays are luma.emulator capture devices writing each new frame as a PNG."""
    real_gpio = config.button is not None or config.lights is not None
    factory = make_pin_factory("hardware" if real_gpio else "simulated")
    simulated_factory = factory if not real_gpio else make_pin_factory("simulated")
    problems: list[str] = []
    lights = LockLights(
        config.lights or SIMULATED_LIGHT_PINS,
        pin_factory=factory if config.lights else simulated_factory,
    )
    displays = {role: _display(config, role, problems, capture) for role in DISPLAY_ROLES}
    return Hardware(
        button_factory=factory if config.button else simulated_factory,
        button_pin=config.button.pin if config.button else SIMULATED_BUTTON_PIN,
        button_debounce=config.button.debounce if config.button else 0.03,
        lights=lights,
        displays=displays,
        dice=SoftwareDice(faces=faces),
        problems=problems,
        pixels=_pixels(config, faces, problems),
        buzzer=_buzzer(config.sound, problems),
        speech=_speech(config.sound),
        frames_kept=capture is not None,
    )


def _simulated(role: str, capture: Path | None) -> DisplayConfig:
    if capture is None:
        return DisplayConfig(driver="dummy")
    capture.mkdir(parents=True, exist_ok=True)
    template = str(capture / f"{role}-{{0:06}}.png")
    return DisplayConfig(driver="capture", capture_template=template)


def _pixels(config: TowerConfig, faces: int, problems: list[str]) -> PixelsReader | None:
    """The electronic dice's reader; None, with the problem said, when [dice.pixels] binds
    them in a way no roll can be read with (one die for two colours, a colour without its
    die): the button rolls."""
    if config.dice_source != "pixels":
        return None
    try:
        check_table_dice(config.pixels)
        return PixelsReader(config.pixels, scanner=BleakPixelsScanner(), faces=faces)
    except PixelsConfigError as error:
        problems.append(dice_binding_words(error))
        return None


def dice_binding_words(error: PixelsConfigError) -> str:
    """A [dice.pixels] that cannot be used, and what the tower does meanwhile."""
    return f"{error}: the electronic dice are not used until that is fixed; the button rolls"


def _display(config: TowerConfig, role: str, problems: list[str], capture: Path | None) -> Display:
    settings = config.displays.get(role)
    if settings is None:
        return _simulated_display(role, problems, capture)
    try:
        return open_display(settings)
    except DriverError as error:
        problems.append(f"the {role} display does not answer: {error}")  # said by the table
        return _simulated_display(role, problems, capture)


def _simulated_display(role: str, problems: list[str], capture: Path | None) -> Display:
    """luma's dummy device, or a capture device with `capture` (which needs the [sim] extra)."""
    try:
        return open_display(_simulated(role, capture))
    except DriverError as error:
        problems.append(f"the {role} display's frames cannot be saved: {error}")
        return open_display(_simulated(role, None))


def _buzzer(sound: SoundConfig | None, problems: list[str]) -> Buzzer | None:
    """The piezo on its pin; simulated when [sound] names no pin or the pin cannot be used;
    None when sound is switched off."""
    if sound is not None and not sound.enabled:
        return None
    if sound is not None and sound.buzzer is not None:
        try:
            factory = Device.pin_factory or hardware_pin_factory()
            return Buzzer(sound.buzzer, pin_factory=factory)
        except Exception as error:  # no GPIO here, pin busy, no PWM: the game goes on
            why = error_words(error)
            problems.append(f"the buzzer on GPIO{sound.buzzer} cannot be used: {why}")
    return simulated_buzzer()


def error_words(error: Exception) -> str:
    """An error in words: gpiozero's PWM errors often carry none."""
    if isinstance(error, PinPWMError) and not str(error):
        return "its pin cannot play tones (no PWM on it here)"
    return str(error) or type(error).__name__


def simulated_buzzer() -> Buzzer:
    """A buzzer on its own MockFactory, whose pins (unlike the shared one's) can do PWM."""
    return Buzzer(SIMULATED_BUZZER_PIN, pin_factory=simulated_pin_factory(pwm=True))


def _speech(sound: SoundConfig | None) -> Speech | None:
    """espeak-ng's voice when [sound] asks for speech (the simulated tower stays quiet); where
    it cannot speak, the log says why once."""
    if sound is None or not sound.enabled or not sound.speech:
        return None
    speech = Speech(voice=sound.voice, amplitude=sound.volume, speed=sound.speed)
    if speech.silent_because:
        log.warning("the tower will not speak: %s", speech.silent_because)
    return speech
