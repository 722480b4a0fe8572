"""`qwixx-tower doctor`: checks the configured hardware one part at a time, in plain words.

Each check opens one part the way the tower does, exercises it (the displays draw a test
pattern, the lock lights blink), and says what answers and what does not, with the fix to try.
"""

from __future__ import annotations

import asyncio
import errno
import glob
import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TextIO

from gpiozero import Device
from gpiozero.pins import Factory
from PIL import Image, ImageDraw

from drivers.button import RollButton
from drivers.buzzer import TEST, Buzzer
from drivers.clock import clock_synchronised
from drivers.display import open_display
from drivers.display_device import DisplayConfig, bus_name
from drivers.errors import DriverError, PixelsConfigError, SpeechError
from drivers.gpio import hardware_pin_factory, make_pin_factory
from drivers.lights import LockLights
from drivers.padport import A_PORT_IS, is_a_terminal
from drivers.pixels import (
    BleakPixelsScanner,
    PixelsScanner,
    bluetooth_trouble,
    check_table_dice,
    parse_advertisement,
)
from drivers.speech import Speech
from firmware_py.app import paths
from firmware_py.app.config import TowerConfig
from firmware_py.app.hardware import (
    DISPLAY_ROLES,
    SIMULATED_BUTTON_PIN,
    SIMULATED_BUZZER_PIN,
    SIMULATED_LIGHT_PINS,
    dice_binding_words,
    error_words,
    simulated_buzzer,
)
from firmware_py.app.paths import default_state_dir
from firmware_py.app.web import port_note
from firmware_py.seats.phones.join_key import noted_join_key
from firmware_py.seats.phones.server import EVERY_NETWORK, lan_address, listening_socket
from firmware_py.show.qr import terminal_lines

Check = tuple[bool, str]
PIXELS_LISTEN = 6.0  # seconds doctor listens for Pixels dice advertising
SYS_CLASS_TTY = "/sys/class/tty"  # the kernel's view of serial ports, with their USB device


def run_checks(config: TowerConfig, state_dir: Path | None = None) -> Iterator[Check]:
    """Every check for this configuration, one result at a time."""
    yield _configuration(config)
    try:
        factory = _pin_factory(config)
    except DriverError as error:  # no GPIO here: one sentence for the button and lights both
        yield False, f"GPIO: {error}"
    else:
        yield from _guarded("roll button", lambda: _button(config, factory))
        yield from _guarded("lock lights", lambda: _lights(config, factory))
    yield from _displays(config)
    yield _dice(config)
    yield from _guarded("buzzer", lambda: _buzzer(config))
    yield _speech(config)
    yield _pads(config)
    state_dir = state_dir or config.state_dir or default_state_dir()
    yield _phones(config, state_dir)
    yield from _guarded("MQTT", lambda: _mqtt(config))
    yield _clock(config)
    yield _state_dir(state_dir)


def report(checks: Iterator[Check], out: TextIO) -> int:
    """Print each result; the exit status is 0 when every part works, 1 otherwise."""
    failed = 0
    for ok, words in checks:
        print(f"[{'ok' if ok else '!!'}] {words}", file=out)
        failed += not ok
    print("everything answers" if not failed else f"{failed} part(s) need attention", file=out)
    return 1 if failed else 0


def _guarded(part: str, check: Callable[[], Check]) -> Iterator[Check]:
    try:
        yield check()
    except Exception as error:  # a doctor reports every failure in words, it never crashes
        yield False, f"{part}: {error}"


def _configuration(config: TowerConfig) -> Check:
    if config.simulated:
        return _simulated()
    if config.dice_source == "pixels":
        try:
            check_table_dice(config.pixels)
        except PixelsConfigError as error:  # run says it and rolls with the button
            return False, f"configuration {config.source}: {dice_binding_words(error)}"
    return True, f"configuration {config.source} is complete and consistent"


def _simulated() -> Check:
    """No --config: every part simulated. On a kiosk (its configuration file is there) that
    is not what the maker meant to check: a dark display would pass, so it is a problem, said
    with the command that checks the real parts."""
    kiosk = paths.CONFIG_FILE
    if os.path.isfile(kiosk):
        return False, (
            f"no configuration file given: every part is simulated, not this machine's "
            f"(doctor --config {kiosk} checks them)"
        )
    return True, "no configuration file: every part is simulated"


def _pin_factory(config: TowerConfig) -> Factory:
    real = config.button is not None or config.lights is not None
    return make_pin_factory("hardware" if real else "simulated")


def _button(config: TowerConfig, factory: Factory) -> Check:
    pin = config.button.pin if config.button else SIMULATED_BUTTON_PIN
    where = f"roll button on GPIO{pin}" + ("" if config.button else " (simulated)")
    with _roll_button(config, factory) as button:
        held = button.is_pressed
    if held:
        return False, f"{where}: reads as pressed; check it is wired to ground, normally open"
    return True, f"{where}: answers, not pressed"


def _roll_button(config: TowerConfig, factory: Factory) -> RollButton:
    """The configured roll button on `factory`, or the simulated one on a factory of its own."""
    if config.button is None:
        return RollButton(SIMULATED_BUTTON_PIN, pin_factory=make_pin_factory("simulated"))
    return RollButton(
        config.button.pin,
        pin_factory=factory,
        debounce_time=config.button.debounce,
        long_press_time=config.button.long_press,
    )


def _lights(config: TowerConfig, factory: Factory) -> Check:
    pins = config.lights or SIMULATED_LIGHT_PINS
    chosen = factory if config.lights else make_pin_factory("simulated")
    with LockLights(pins, pin_factory=chosen) as lights:
        lights.celebrate()
        lights.wait_until_steady(timeout=10)
        lights.all_off()
    return True, _lights_words(pins, simulated=not config.lights)


def _lights_words(pins: Mapping[str, int], *, simulated: bool) -> str:
    """The pins and colours in one line that fits 80 columns, as a maker reads it beside the
    wiring (GPIO5/6/13/19 for red/yellow/green/blue)."""
    where = "/".join(str(pin) for pin in pins.values())
    colours = "/".join(pins)
    if simulated:
        return f"lock lights on GPIO{where} ({colours}, simulated): switched"
    return f"lock lights on GPIO{where} ({colours}): did each blink?"


def _buzzer(config: TowerConfig) -> Check:
    """A test beep on the piezo (simulated without a pin in [sound])."""
    sound = config.sound
    if sound is not None and not sound.enabled:
        return True, "sound: switched off ([sound] enabled = false)"
    if sound is None or sound.buzzer is None:
        with simulated_buzzer() as buzzer:
            buzzer.play(TEST)
            buzzer.wait_until_quiet(timeout=5)
        return True, f"buzzer on GPIO{SIMULATED_BUZZER_PIN} (simulated): played a test beep"
    try:
        factory = Device.pin_factory or hardware_pin_factory()
        buzzer = Buzzer(sound.buzzer, pin_factory=factory)
    except DriverError:  # no GPIO chip here: the GPIO line says what to check
        return False, f"buzzer on GPIO{sound.buzzer}: not checked, as there is no GPIO (above)"
    except Exception as error:  # pin busy, no PWM
        why = error_words(error)
        return False, f"buzzer on GPIO{sound.buzzer}: cannot be used ({why}); see wiring.md"
    with buzzer:
        buzzer.play(TEST)
        buzzer.wait_until_quiet(timeout=5)
    return True, f"buzzer on GPIO{sound.buzzer}: played a test beep; listen: did it beep?"


def _speech(config: TowerConfig) -> Check:
    """Whether espeak-ng and an audio device are there; if so, a sentence said."""
    sound = config.sound
    if sound is None or not sound.enabled or not sound.speech:
        return True, "speech: off (speech = true in [sound] lets the tower speak)"
    with Speech(voice=sound.voice, amplitude=sound.volume, speed=sound.speed) as speech:
        if speech.silent_because:
            return False, f"speech: the tower cannot speak: {speech.silent_because}"
        try:
            speech.say_now("the tower can speak")
        except SpeechError as error:
            return False, f"speech: {error}"
        return True, f'speech: said "the tower can speak" through {speech.device}'


def _displays(config: TowerConfig) -> Iterator[Check]:
    """Each display's check; a problem both displays share (one bus, the same cause, as a bus
    that is not there) is said once, for both."""
    settings = {role: _display_settings(config, role) for role in DISPLAY_ROLES}
    found = {role: _display(settings[role], role) for role in DISPLAY_ROLES}
    (main_ok, main_says), (options_ok, options_says) = found["main"], found["options"]
    bus = _bus_words(settings["main"])
    shared = bus is not None and bus == _bus_words(settings["options"])
    if shared and not main_ok and not options_ok and main_says == options_says:
        yield False, f"main and options displays (both on {bus}): {main_says}"
        return
    for role, (ok, says) in found.items():
        yield ok, f"{_display_words(role, settings[role])}: {says}"


def _display_settings(config: TowerConfig, role: str) -> DisplayConfig:
    return config.displays.get(role) or DisplayConfig(driver="dummy")


def _display(settings: DisplayConfig, role: str) -> tuple[bool, str]:
    """Whether the display drew a test pattern, and what it did or why not (without the
    configuration table's name, which differs between two displays with one problem)."""
    try:
        with open_display(settings) as display:
            display.display(_test_pattern(display.size))
            display.flush()  # drawn on the glass, or failed on the bus
            if display.errors:
                return False, "does not answer; check its wires and `i2cdetect -y 1`"
    except Exception as error:  # a doctor reports every failure in words, it never crashes
        return False, str(error).removeprefix(f"{settings.where}: ")
    return True, "drew a test pattern"


def _bus_words(settings: DisplayConfig) -> str | None:
    """The bus a display hangs on, as people name it (None for a simulated one)."""
    if not settings.is_chip:
        return None
    if settings.interface == "i2c":
        return f"I2C bus {bus_name(settings)}"
    return f"SPI {settings.spi_port}"


def _display_words(role: str, settings: DisplayConfig) -> str:
    if settings.driver == "dummy":
        return f"{role} display (simulated)"
    chip = settings.driver
    if settings.interface == "i2c":
        bus = bus_name(settings)
        return f"{role} display ({chip} at {settings.i2c_address:#x}, I2C bus {bus})"
    return f"{role} display ({chip} on SPI {settings.spi_port}.{settings.spi_device})"


def _test_pattern(size: tuple[int, int]) -> Image.Image:
    image = Image.new("1", size)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, size[0] - 1, size[1] - 1), outline=1)
    draw.line((0, 0, size[0] - 1, size[1] - 1), fill=1)
    draw.line((0, size[1] - 1, size[0] - 1, 0), fill=1)
    return image


def _dice(config: TowerConfig, scanner: PixelsScanner | None = None) -> Check:
    if config.dice_source == "software":
        return True, "dice: the software roll (the operating system's random source)"
    try:
        heard = asyncio.run(_listen_for_pixels(scanner or BleakPixelsScanner(connect=False)))
    except Exception as error:  # no adapter, BlueZ not running, adapter powered off, ...
        words = bluetooth_trouble(error)
        return False, f"dice: Bluetooth cannot be used ({words}); {BLUETOOTH_FIX}"
    bound = {die: role for role, die in config.pixels.items()}
    missing = [f"{role} ({die:#010x})" for role, die in config.pixels.items() if die not in heard]
    dice = ", ".join(f"{die:#010x} ({bound.get(die, 'not in [dice.pixels]')})" for die in heard)
    words = f"Pixels dice heard: {dice or 'none'}"
    if missing:
        hint = "wake them: roll them; a die held by a phone's Pixels app stays silent"
        return False, f"dice: {words}; not heard: {', '.join(missing)} ({hint})"
    return True, f"dice: {words}; the software roll stays the fallback"


BLUETOOTH_FIX = (
    "check that Bluetooth is on: sudo rfkill unblock bluetooth, sudo systemctl enable --now "
    "bluetooth, and bluetoothctl show says Powered: yes"
)


async def _listen_for_pixels(scanner: PixelsScanner) -> list[int]:
    """The ids of the Pixels dice that advertise within PIXELS_LISTEN seconds, in order heard."""
    heard = _PixelsHeard()
    await scanner.start(heard)
    try:
        await asyncio.sleep(PIXELS_LISTEN)
    finally:
        await scanner.stop()
    return list(heard.ids)


class _PixelsHeard:
    """A listener that only notes which dice advertise; doctor connects to none."""

    def __init__(self) -> None:
        self.ids: dict[int, None] = {}

    def on_advertisement(
        self, address: str, manufacturer: Mapping[int, bytes], service: Mapping[str, bytes]
    ) -> bool:
        status = parse_advertisement(manufacturer, service)
        if status is not None:
            self.ids[status.die_id] = None
        return False

    def on_notification(self, address: str, data: bytes) -> None:
        pass

    def on_link(self, address: str, connected: bool) -> None:
        pass

    def on_trouble(self, words: str | None) -> None:
        pass


def _pads(config: TowerConfig) -> Check:
    if not config.pad_ports:
        return True, "pads: none configured (players use computer seats or the keyboard)"
    found = sorted({port for pattern in config.pad_ports for port in glob.glob(pattern)})
    if not found:
        wanted = ", ".join(config.pad_ports)
        return False, f"pads: no serial port matches {wanted}; is a pad plugged in?"
    not_ports = [port for port in found if not is_a_terminal(port)]
    if not_ports:
        what = "not a serial port" if len(not_ports) == 1 else "not serial ports"
        return False, f"pads: {what}: {', '.join(not_ports)} ({A_PORT_IS})"
    described = ", ".join(_pad_words(port, config.pad_names) for port in found)
    return True, f"pads: {len(found)} found: {described}"


def _pad_words(port: str, names: dict[str, str]) -> str:
    """A port with the ident its pad will say, and its player's name from [pads] names."""
    ident = pad_ident(port)
    if ident is None:
        return port
    name = names.get(ident)
    return f"{port} ({ident}, {name})" if name else f"{port} ({ident}, not in [pads] names)"


def pad_ident(port: str) -> str | None:
    """The ident a pad on `port` says in its hello, read from the kernel without opening the
    port (the running tower holds it): a Pico's MicroPython makes its USB serial number the
    hex of its unique id, and the pad firmware's ident is "pad-" and that hex."""
    tty = Path(os.path.realpath(port)).name
    usb_device = (Path(SYS_CLASS_TTY) / tty / "device").resolve().parent
    try:
        serial = (usb_device / "serial").read_text().strip()
    except OSError:
        return None
    return f"pad-{serial.lower()}" if serial else None


def _phones(config: TowerConfig, state_dir: Path) -> Check:
    """Where phones join, with its QR code to scan from the terminal (the table code is on
    the main display while the tower runs); or why `run` could not listen there."""
    web = config.web
    if not web.enabled:
        return True, "phones: off ([web] enabled = true lets phones join)"
    port = port_note(web, state_dir).kept()
    problem = cannot_listen(web.host, port)
    if problem is not None:
        return False, f"phones: {problem}"
    host = lan_address() if web.host in EVERY_NETWORK else web.host
    host = f"[{host}]" if ":" in host else host
    url = f"http://{host}:{port}/"
    key = noted_join_key(state_dir)
    if key is not None:  # the QR code's link, as the tower shows it (it stays: printable)
        url += f"?code={key}"
    why = "" if key else " (code on the main display)"
    qr = "\n".join(terminal_lines(url))
    return True, f"phones join at {url}{why}\n{qr}"


LISTEN_FIXES = {
    errno.EADDRNOTAVAIL: 'set [web] host to an address of this machine, or "0.0.0.0" for all',
    errno.EACCES: "a port below 1024 needs privileges the tower has not: use [web] port = 8080",
}


def cannot_listen(host: str, port: int) -> str | None:
    """Why `run` could not listen for phones on `host` and `port`, in one sentence with the
    fix; None when it can (a port in use is no reason: the running tower may hold it, and
    else `run` takes a free one and says which)."""
    try:
        listening_socket(host, port).close()
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            return None
        fix = LISTEN_FIXES.get(error.errno or 0, "check [web] host and port")
        return f"the tower cannot listen on {host} port {port} ({error.strerror}): {fix}"
    return None


def _mqtt(config: TowerConfig) -> Check:
    """Whether the broker of [mqtt] answers, or why not, in one sentence (the bus is loaded
    only with [mqtt])."""
    if config.mqtt is None:
        return True, "MQTT: off ([mqtt] puts the tower on the house's broker: home-assistant.md)"
    try:
        from firmware_py.bus.check import broker_check
    except ImportError:
        return False, "MQTT: [mqtt] is set, but aiomqtt is not: pip install 'qwixx-tower[mqtt]'"
    return broker_check(config.mqtt)


CLOCK_HINT = 'a Pi keeps no time without power: see docs/kiosk.md, "The clock"'


def _clock(config: TowerConfig) -> Check:
    """Whether a time server sets the clock the games are dated by. Unset, it needs attention
    on a tower that publishes its results ([mqtt]: the league orders and sorts its evening by
    their times); a tower that keeps its games to itself only has its history's dates wrong."""
    synchronised = clock_synchronised()
    if synchronised is None:
        return True, "clock: cannot tell whether a time server sets it (`timedatectl` may)"
    if synchronised:
        return True, "clock: set from a time server"
    if config.mqtt is None:
        return True, (
            "clock: not set from any time server: the history's dates are a guess;\n"
            f"     {CLOCK_HINT}"
        )
    return False, (
        "clock: not set from any time server: the games' dates are a guess\n"
        "     (the history, the results on the bus, the league's evening); a Pi keeps\n"
        '     no time without power: see docs/kiosk.md, "The clock"'
    )


def _state_dir(path: Path) -> Check:
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".doctor"
        probe.write_text("ok")
        os.remove(probe)
    except OSError as error:
        return False, f"game journal {path}: cannot write there ({error.strerror})"
    return True, f"game journal {path}: writable"
