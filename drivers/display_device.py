"""From a display configuration to a luma device: the chips and simulators we support, as data.

Real panels are 128x64 monochrome OLEDs (SSD1306, SH1106 or SSD1309) on I2C or SPI, driven by
luma.oled. Simulated panels are luma's own: the `dummy` device (keeps the last frame, for tests
and PNG capture) and the luma.emulator devices. Anything outside these tables raises
`DisplayConfigError` naming the setting and the fix; a bus that will not open raises
`DisplayOpenError` with a hint.
"""

from __future__ import annotations

import dataclasses
import errno
import glob
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import luma.core.error
import luma.oled.device
from luma.core.device import device as LumaDevice
from luma.core.device import dummy
from luma.core.interface.serial import i2c, noop, spi

from drivers.errors import DisplayConfigError, DisplayOpenError

SIZES = ((128, 64),)
#: What opening a bus or a chip raises when the hardware is absent, off or forbidden.
OPEN_ERRORS = (luma.core.error.Error, OSError, ImportError, RuntimeError)
I2C_ADDRESSES = (0x3C, 0x3D)
ROTATIONS = (0, 1, 2, 3)

#: Real chips: name -> luma.oled class. Always given width and height: ssd1309 defaults to 32 rows.
CHIPS: dict[str, Callable[..., LumaDevice]] = {
    "ssd1306": luma.oled.device.ssd1306,
    "sh1106": luma.oled.device.sh1106,
    "ssd1309": luma.oled.device.ssd1309,
}

#: How a chip is wired. "noop" speaks the chip's protocol into nothing: benchmarks, byte counts.
INTERFACES = ("i2c", "spi", "noop")

#: Simulated panels: name -> what each needs to show anything.
SIMULATORS = {
    "dummy": "nothing: keeps the last frame in .image (tests, PNG capture)",
    "asciiblock": "a terminal on standard output, no X: the frame as coloured half-blocks",
    "capture": "nothing: writes every frame to a numbered PNG file (capture_template)",
    "pygame": "a desktop session (X or Wayland): the frame in a window",
}

NO_SCREEN = "Use 'dummy' or 'capture' where there is no screen"

_OPEN_HINTS = {
    "i2c": "enable I2C (sudo raspi-config nonint do_i2c 0), check the display's bus and address "
    "(i2cdetect -y 1 lists what answers) and that the user is in the i2c group",
    "spi": "enable SPI (sudo raspi-config nonint do_spi 0), install spidev and RPi.GPIO "
    "(rpi-lgpio on a Pi 5), and check the display's device, dc and reset",
}


@dataclass(frozen=True)
class DisplayConfig:
    """One display's settings, as in the `[display]` table of the configuration file."""

    driver: str = "dummy"
    interface: str = "i2c"
    i2c_port: int = 1
    i2c_device: str = ""  # the bus's device file, when it is not /dev/i2c-<i2c_port>
    i2c_address: int = 0x3C
    spi_port: int = 0
    spi_device: int = 0
    gpio_dc: int = 24
    gpio_rst: int = 25
    width: int = 128
    height: int = 64
    rotate: int = 0
    capture_template: str = "display_{0:06}.png"
    where: str = dataclasses.field(default="display", compare=False)
    #: The messages' words for a program whose file calls `driver` otherwise (the tower's
    #: [[displays]] say `chip`) and takes no `dummy` or `capture` there.
    setting: str = dataclasses.field(default="driver", compare=False)
    without_screen: str = dataclasses.field(default=NO_SCREEN, compare=False)

    @classmethod
    def from_dict(cls, settings: Mapping[str, Any], *, where: str = "display") -> DisplayConfig:
        """Settings from a parsed TOML table; `where` names the table in error messages."""
        words = ("where", "setting", "without_screen")
        known = {f.name: f for f in dataclasses.fields(cls) if f.name not in words}
        values = {}
        for key, value in settings.items():
            if key not in known:
                raise DisplayConfigError(
                    f"{where}.{key} is not a display setting; the settings are {', '.join(known)}"
                )
            values[key] = _typed(where, key, value, known[key].type)
        return cls(**values, where=where)

    def __post_init__(self) -> None:
        check(self)

    @property
    def is_chip(self) -> bool:
        """True for a real chip on a bus, False for a simulated panel."""
        return self.driver in CHIPS


def check(config: DisplayConfig) -> None:
    """Raise `DisplayConfigError` for anything outside the tables above."""
    where = config.where
    if config.driver not in CHIPS and config.driver not in SIMULATORS:
        raise DisplayConfigError(
            f"{where}.{config.setting} = {config.driver!r} is not supported; use a chip "
            f"({', '.join(CHIPS)}) or a simulator ({', '.join(SIMULATORS)})"
        )
    if (config.width, config.height) not in SIZES:
        raise DisplayConfigError(
            f"{where}.width x {where}.height = {config.width} x {config.height} is not "
            f"supported; use {' or '.join(f'{w} x {h}' for w, h in SIZES)}"
        )
    if config.rotate not in ROTATIONS:
        raise DisplayConfigError(f"{where}.rotate = {config.rotate}; use 0, 1, 2 or 3")
    if config.is_chip:
        _check_wiring(config)


class CountingSerial:
    """A luma serial interface that counts the bytes it passes on to the real one."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.bytes_sent = 0

    def command(self, *cmd: int) -> None:
        self._inner.command(*cmd)
        self.bytes_sent += len(cmd)

    def data(self, data: Any) -> None:
        self._inner.data(data)
        self.bytes_sent += len(data)

    def cleanup(self) -> None:
        self._inner.cleanup()


def open_serial(config: DisplayConfig) -> CountingSerial:
    """The byte transport of a real chip (luma's i2c, spi or noop), counting what it sends."""
    check(config)
    try:
        return CountingSerial(_serial(config))
    except OPEN_ERRORS as error:
        raise open_error(config, error) from error


def build_chip(config: DisplayConfig, serial: Any) -> LumaDevice:
    """The luma.oled device on `serial`; constructing it sends the chip's init sequence."""
    chip = CHIPS[config.driver]
    return chip(
        serial_interface=serial, width=config.width, height=config.height, rotate=config.rotate
    )


def create_device(config: DisplayConfig) -> LumaDevice:
    """The luma device `config` describes: a chip on its bus, or a simulated panel.

    `open_display` is what the table service wants: this device behind a `Display`.
    """
    if not config.is_chip:
        return open_simulator(config)
    serial = open_serial(config)
    try:
        return build_chip(config, serial)
    except OPEN_ERRORS as error:
        serial.cleanup()
        raise open_error(config, error) from error


def open_simulator(config: DisplayConfig) -> LumaDevice:
    """The simulated panel named by `config.driver`, monochrome like the real one."""
    check(config)
    if config.driver == "dummy":
        return dummy(width=config.width, height=config.height, rotate=config.rotate, mode="1")
    try:
        return _emulator(config)
    except OPEN_ERRORS as error:
        raise DisplayOpenError(
            f"{config.where}.{config.setting} = {config.driver!r} needs "
            f"{SIMULATORS[config.driver]}; it failed: {error}. {config.without_screen}"
        ) from error


def _check_wiring(config: DisplayConfig) -> None:
    where = config.where
    if config.interface not in INTERFACES:
        raise DisplayConfigError(
            f"{where}.interface = {config.interface!r}; use one of {', '.join(INTERFACES)}"
        )
    if config.interface == "i2c" and config.i2c_address not in I2C_ADDRESSES:
        raise DisplayConfigError(
            f"{where}.i2c_address = {config.i2c_address:#04x}; these panels answer on 0x3C or "
            "0x3D (the solder jumper on the back of the board chooses)"
        )


def _serial(config: DisplayConfig) -> Any:
    if config.interface == "i2c":
        # smbus2 opens /dev/i2c-<port> for a number, and a device file named by its path
        return i2c(port=config.i2c_device or config.i2c_port, address=config.i2c_address)
    if config.interface == "spi":
        return spi(
            port=config.spi_port,
            device=config.spi_device,
            gpio_DC=config.gpio_dc,
            gpio_RST=config.gpio_rst,
        )
    return noop()


def _emulator(config: DisplayConfig) -> LumaDevice:
    emulators = _import_emulators(config)
    if config.driver == "asciiblock" and not sys.stdout.isatty():
        raise OSError("standard output is not a terminal")
    size = {"width": config.width, "height": config.height, "rotate": config.rotate}
    if config.driver == "capture":
        device = emulators.capture(**size, mode="1", file_template=config.capture_template)
        device._count = frames_written(config.capture_template)  # luma numbers on from its count
        return device
    device = getattr(emulators, config.driver)(**size, mode="1")  # pygame.error: a RuntimeError
    if config.driver == "pygame":
        _refuse_invisible_window()
    return device


def frames_written(template: str) -> int:
    """The highest number of the frames a capture `template` ("main-{0:06}.png") already names
    in its folder (0: none), so that a new run numbers on instead of writing over them."""
    before, _, rest = template.partition("{")
    after = rest.partition("}")[2]
    numbers = [
        path[len(before) : len(path) - len(after)]
        for path in glob.glob(glob.escape(before) + "*" + glob.escape(after))
    ]
    ours = (number for number in numbers if number.isascii() and number.isdigit())  # not "²"
    return max((int(number) for number in ours), default=0)


def _import_emulators(config: DisplayConfig) -> Any:
    """luma.emulator (and pygame), imported only when asked for: the kiosk does not install it."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep the terminal clean
    try:
        import luma.emulator.device as emulators
    except ImportError as error:
        raise DisplayOpenError(
            f"{config.where}.{config.setting} = {config.driver!r} is a luma.emulator device, "
            "which is not "
            "installed here: install the simulators with  pip install 'qwixx-tower[sim]'  "
            "(./dev does), or use a real chip"
        ) from error
    return emulators


def _refuse_invisible_window() -> None:
    """Without a desktop SDL quietly draws offscreen: say so rather than show nothing."""
    import pygame

    if pygame.display.get_driver() in ("offscreen", "dummy") and not os.environ.get(
        "SDL_VIDEODRIVER"
    ):
        pygame.display.quit()
        raise RuntimeError("no desktop session: SDL fell back to drawing offscreen")


def open_error(config: DisplayConfig, error: Exception) -> DisplayOpenError:
    """A `DisplayOpenError` for `error`, with a hint on what to check for this interface."""
    where = config.where
    if config.interface == "i2c" and _no_answer(error):
        return DisplayOpenError(
            f"{where}: no {config.driver} answers at {config.i2c_address:#04x} on I2C bus "
            f"{bus_name(config)}; check the panel's four wires (GND, VCC, SCL, SDA) and the "
            f"address jumper on its back (i2cdetect -y {config.i2c_port} lists what answers)"
        )
    return DisplayOpenError(
        f"{where}: cannot open {config.driver} on {config.interface}: {error}; "
        f"{_OPEN_HINTS.get(config.interface, '')}"
    )


def bus_name(config: DisplayConfig) -> str:
    """The I2C bus as people name it: its number, or its device file when one is set."""
    return config.i2c_device or str(config.i2c_port)


def _no_answer(error: Exception) -> bool:
    """True when the bus opened but nothing acknowledged the address (luma's wording hides it)."""
    cause = error.__context__ if isinstance(error, luma.core.error.Error) else error
    return isinstance(cause, OSError) and cause.errno in (errno.EREMOTEIO, errno.EIO, errno.ENXIO)


def _typed(where: str, key: str, value: Any, annotation: Any) -> Any:
    """`value` checked against the field's annotation ("int" or "str")."""
    if annotation == "int" and isinstance(value, str) and key == "i2c_address":
        value = _parse_int(where, key, value)  # "0x3C" from a JSON or env setting
    wanted = {"int": int, "str": str}[annotation]
    if not isinstance(value, wanted) or isinstance(value, bool):
        raise DisplayConfigError(
            f"{where}.{key} = {value!r} should be {'a whole number' if wanted is int else 'text'}"
        )
    return value


def _parse_int(where: str, key: str, text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise DisplayConfigError(f"{where}.{key} = {text!r}; write it as 0x3C or 0x3D") from None
