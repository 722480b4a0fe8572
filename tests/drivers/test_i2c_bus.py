"""The displays through the real Linux I2C path: the tower's driver, luma.oled, luma.core's `i2c`
and smbus2, all unchanged, make their real ioctls on a `/dev/i2c-1` that a FUSE server answers
(tests/support/fakebus). What each panel shows is decoded from the bytes that crossed the bus, as an
SSD1306 or SH1106 would, and compared with the screen's reference picture.

Skipped, with the reason, where FUSE cannot run (see tests/support/fakebus/harness.py).
"""

from __future__ import annotations

import errno
import io
import sys
from pathlib import Path

import pytest
from luma.core.render import canvas
from PIL import Image, ImageChops, ImageDraw
from smbus2 import SMBus
from support.fakebus.harness import fuse_bus, run_as_dev
from support.fakes import FakeClock
from support.paths import GOLDEN, ROOT
from support.views import VIEWS

from drivers.display import SHIFT_OFFSETS, open_display
from firmware_py.app.config import ConfigError, parse_config
from firmware_py.app.doctor import _test_pattern, report, run_checks
from firmware_py.show.screens import draw_screen
from firmware_py.view import TableView

MAIN, OPTIONS = 0x3C, 0x3D
SCREENS = {name: VIEWS[name] for name in ("attract", "error")}  # the golden pictures' views


@pytest.fixture
def bus(tmp_path):
    """/dev/i2c-1 with an SSD1306 at 0x3C and an SH1106 at 0x3D, as on the tower."""
    with fuse_bus(tmp_path, {MAIN: "ssd1306", OPTIONS: "sh1106"}) as mounted:
        yield mounted


@pytest.fixture
def clock():
    return FakeClock(0.0)


def panel_settings(bus, address: int, chip: str) -> dict:
    return {"driver": chip, "i2c_address": address, "i2c_device": str(bus.path)}


def golden(name: str) -> Image.Image:
    return Image.open(GOLDEN / f"{name}.png").convert("1")


def differs(a: Image.Image, b: Image.Image):
    """None when the two pictures are the same, else the box where they differ."""
    return ImageChops.logical_xor(a.convert("1"), b.convert("1")).getbbox()


def show(display, view: TableView, role: str) -> None:
    with canvas(display) as draw:
        draw_screen(draw, view, role)


def square(box=(20, 10, 60, 40)) -> Image.Image:
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).rectangle(box, fill=1)
    return image


def shifted(image: Image.Image, offset: tuple[int, int]) -> Image.Image:
    moved = Image.new("1", image.size)
    moved.paste(image, offset)
    return moved


def dark() -> Image.Image:
    return Image.new("1", (128, 64))


@pytest.mark.parametrize(
    ("chip", "address", "screen", "role"),
    [
        ("ssd1306", MAIN, "attract", "main"),
        ("sh1106", OPTIONS, "error", "options"),
        ("ssd1306", MAIN, "error", "main"),
        ("sh1106", OPTIONS, "attract", "options"),
    ],
)
def test_the_panel_shows_the_screen_as_its_reference_picture(bus, chip, address, screen, role):
    with open_display(panel_settings(bus, address, chip), shift_every=None) as display:
        show(display, SCREENS[screen], role)
        shown = bus.picture(address)
        assert differs(shown, golden(f"{screen}-{role}")) is None
        assert differs(shown, display.frame) is None
        assert bus.state(address)["on"] is True


def test_two_panels_on_one_bus_each_show_their_own_screen(bus):
    main = open_display(panel_settings(bus, MAIN, "ssd1306"), shift_every=None)
    options = open_display(panel_settings(bus, OPTIONS, "sh1106"), shift_every=None)
    with main, options:
        show(main, SCREENS["attract"], "main")
        show(options, SCREENS["error"], "options")
        assert differs(bus.picture(MAIN), golden("attract-main")) is None
        assert differs(bus.picture(OPTIONS), golden("error-options")) is None


def test_the_chips_hear_nothing_they_do_not_know(bus):
    with open_display(panel_settings(bus, MAIN, "ssd1306"), shift_every=None) as display:
        display.display(square())
    state = bus.state(MAIN)
    assert state["unknown"] == []
    assert state["charge_pump"] is True  # without it an SSD1306 module stays dark
    assert state["on"] is False  # closing the display switched it off


def test_an_unchanged_frame_does_not_cross_the_bus_again(bus):
    with open_display(panel_settings(bus, MAIN, "ssd1306"), shift_every=None) as display:
        display.display(square())
        sent = bus.state(MAIN)["data_bytes"]
        display.display(square())
        assert bus.state(MAIN)["data_bytes"] == sent
        display.display(square((0, 0, 5, 5)))
        assert bus.state(MAIN)["data_bytes"] == sent + 128 * 64 // 8


@pytest.mark.parametrize(("chip", "address"), [("ssd1306", MAIN), ("sh1106", OPTIONS)])
def test_dim_blank_and_wake_are_seen_on_the_glass(bus, chip, address):
    with open_display(panel_settings(bus, address, chip), shift_every=None) as display:
        display.display(square())
        display.dim()
        assert bus.state(address)["contrast"] == display.dim_contrast
        assert differs(bus.picture(address), square()) is None
        display.blank()
        assert differs(bus.picture(address), dark()) is None
        display.wake()
        assert bus.state(address)["contrast"] == display.contrast
        assert differs(bus.picture(address), square()) is None


def test_the_burn_in_shift_moves_the_picture_on_the_glass_by_one_pixel(bus, clock):
    settings = panel_settings(bus, MAIN, "ssd1306")
    with open_display(settings, clock=clock, shift_every=300.0) as display:
        display.display(square())
        clock.advance(300.0)
        display.refresh()
        assert differs(bus.picture(MAIN), shifted(square(), SHIFT_OFFSETS[1])) is None


def test_a_panel_whose_wires_come_back_is_set_up_again_and_shows_the_latest_frame(bus, clock):
    settings = panel_settings(bus, OPTIONS, "sh1106")
    with open_display(settings, clock=clock, shift_every=None) as display:
        display.display(square())
        bus.unplug(OPTIONS)
        display.display(square((0, 0, 10, 10)))  # lost: nothing answers
        assert display.errors == 1
        bus.plug(OPTIONS)  # powered up from reset: dark until the tower sets it up again
        assert differs(bus.picture(OPTIONS), dark()) is None
        clock.advance(1.0)
        display.refresh()
        assert differs(bus.picture(OPTIONS), square((0, 0, 10, 10))) is None


def test_a_scan_of_the_bus_finds_the_panels_and_nothing_else(bus):
    """What `i2cdetect -y 1` does: a quick write to each address; absent ones do not ack."""
    bus.unplug(OPTIONS)
    found = []
    with SMBus(str(bus.path)) as smbus:
        for address in range(0x08, 0x78):
            try:
                smbus.write_quick(address)
            except OSError as error:
                assert error.errno == errno.EREMOTEIO  # what the Pi's i2c-bcm2835 reports
            else:
                found.append(address)
    assert found == [MAIN]


def doctor_config(bus):
    return parse_config(
        {
            "displays": [
                {"role": "main", "chip": "ssd1306", "address": MAIN, "bus_device": str(bus.path)},
                {
                    "role": "options",
                    "chip": "sh1106",
                    "address": OPTIONS,
                    "bus_device": str(bus.path),
                },
            ]
        }
    )


def shows_test_pattern(picture: Image.Image) -> bool:
    """The doctor's pattern, moved by the burn-in shift of the moment (the doctor keeps it on)."""
    return any(
        differs(picture, shifted(_test_pattern((128, 64)), at)) is None for at in SHIFT_OFFSETS
    )


def doctor(bus, tmp_path) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = report(run_checks(doctor_config(bus), tmp_path / "games"), out)
    return status, out.getvalue().splitlines()


def test_doctor_finds_the_panel_at_0x3c_and_says_nothing_answers_at_0x3d(bus, tmp_path):
    bus.unplug(OPTIONS)
    status, lines = doctor(bus, tmp_path)
    assert status == 1
    main = next(line for line in lines if "main display" in line)
    assert main == f"[ok] main display (ssd1306 at 0x3c, I2C bus {bus.path}): drew a test pattern"
    assert shows_test_pattern(bus.picture_before_off(MAIN))
    options = next(line for line in lines if "options display" in line)
    assert options.startswith(f"[!!] options display (sh1106 at 0x3d, I2C bus {bus.path}): ")
    assert f"no sh1106 answers at 0x3d on I2C bus {bus.path}" in options
    assert "check the panel's four wires" in options
    assert lines[-1] == "1 part(s) need attention"


def test_doctor_draws_its_test_pattern_on_both_panels_of_one_bus(bus, tmp_path):
    status, lines = doctor(bus, tmp_path)
    assert status == 0, lines
    for address in (MAIN, OPTIONS):
        assert shows_test_pattern(bus.picture_before_off(address))
        assert differs(bus.picture(address), dark()) is None  # and switched it off after


def test_doctor_on_the_example_configuration_finds_the_panels_on_dev_i2c_1(tmp_path):
    """The unchanged command and configuration, with the FUSE bus as /dev/i2c-1 itself."""
    example = ROOT / "systemd" / "config.example.toml"
    tower = str(Path(sys.executable).parent / "qwixx-tower")
    with fuse_bus(tmp_path, {MAIN: "sh1106", OPTIONS: "sh1106"}) as bus:
        bus.unplug(OPTIONS)
        doctor = [tower, "doctor", "--config", str(example), "--state-dir", str(tmp_path / "g")]
        result = run_as_dev(bus, doctor)
        lines = result.stdout.splitlines()
        assert "[ok] main display (sh1106 at 0x3c, I2C bus 1): drew a test pattern" in lines
        assert shows_test_pattern(bus.picture_before_off(MAIN))
        options = next(line for line in lines if "options display" in line)
        assert "no sh1106 answers at 0x3d on I2C bus 1; check the panel's four wires" in options
        assert "i2cdetect -y 1" in options
        assert "Traceback" not in result.stderr


def test_a_bus_device_must_be_a_full_path():
    with pytest.raises(ConfigError, match=r'bus_device.*"/dev/i2c-1"'):
        parse_config({"displays": [{"role": "main", "bus_device": "i2c-1"}]})
