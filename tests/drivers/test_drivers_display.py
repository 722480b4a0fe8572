"""Displays as pictures: what reaches the panel, what is not resent, and a loose wire survived."""

import fcntl
import io
import logging
import os
import struct
import sys
import termios
import threading

import pytest
from luma.core.device import dummy
from luma.core.interface.serial import i2c
from luma.core.render import canvas
from luma.oled.device import ssd1306
from PIL import Image, ImageDraw
from support.display import DISPLAYOFF, LooseBus
from support.fakes import FakeClock

from drivers.display import SHIFT_OFFSETS, Display, DisplayConfig, open_display
from drivers.display_device import CountingSerial, create_device
from drivers.errors import (
    DisplayConfigError,
    DisplayOpenError,
    DriverClosedError,
    FrameSizeError,
)

WHITE = 255
BLACK = 0
SETCONTRAST = 0x81
DISPLAYON = 0xAF


def as_ssd1306_would_send(image):
    """The framebuffer bytes an SSD1306 receives for `image`."""
    bus = LooseBus()
    ssd1306(i2c(bus=bus)).display(image)
    return bus.data[-128 * 64 // 8 :]


@pytest.fixture
def clock():
    return FakeClock(0.0)


@pytest.fixture
def bus():
    return LooseBus()


@pytest.fixture
def panel(bus, clock):
    """An SSD1306 on a loose I2C wire, as `open_display` would wrap it."""
    link = CountingSerial(i2c(bus=bus, address=0x3C))
    with Display(
        ssd1306(link), link=link, reinit=lambda: ssd1306(link), clock=clock, shift_every=None
    ) as display:
        yield display


@pytest.fixture
def screen(clock):
    """The simulated panel: luma's dummy device behind a Display."""
    with open_display({"driver": "dummy"}, clock=clock, shift_every=60.0) as display:
        yield display


def draw_square(display, box=(40, 16, 87, 47)):
    with canvas(display) as draw:
        draw.rectangle(box, fill="white")


def square_image(box):
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).rectangle(box, fill="white")
    return image


def draw_checkerboard(display, cell=8):
    with canvas(display) as draw:
        for top in range(0, display.height, cell):
            for left in range(0, display.width, cell):
                if (left // cell + top // cell) % 2 == 0:
                    draw.rectangle((left, top, left + cell - 1, top + cell - 1), fill="white")


def test_the_simulated_panel_is_a_monochrome_128_by_64_dummy(screen):
    assert isinstance(screen.device, dummy)
    assert (screen.mode, screen.size) == ("1", (128, 64))


def test_a_test_pattern_arrives_pixel_for_pixel(screen):
    draw_checkerboard(screen)
    image = screen.device.image
    assert image.getpixel((0, 0)) == WHITE
    assert image.getpixel((8, 0)) == BLACK
    assert image.getpixel((8, 8)) == WHITE
    assert image.getpixel((127, 63)) == WHITE
    assert image.getpixel((119, 63)) == BLACK
    reference = dummy(width=128, height=64, mode="1")
    draw_checkerboard(reference)
    assert image.tobytes() == reference.image.tobytes()


def test_an_unchanged_frame_is_not_sent_again(screen):
    draw_square(screen)
    first = screen.device.image
    draw_square(screen)
    assert screen.frames_sent == 1
    assert screen.device.image is first
    draw_square(screen, box=(0, 0, 10, 10))
    assert screen.frames_sent == 2
    assert screen.device.image.getpixel((5, 5)) == WHITE


def test_a_changed_frame_costs_its_changed_pages_and_an_unchanged_one_nothing():
    with open_display({"driver": "ssd1306", "interface": "noop"}, shift_every=None) as display:
        draw_square(display)
        display.flush()  # a chip is written from its own thread
        before = display.bytes_sent
        draw_square(display)
        display.flush()
        assert display.bytes_sent == before
        draw_square(display, box=(0, 0, 10, 10))
        display.flush()
        changed = display.bytes_sent - before
        assert 0 < changed < 128 * 64 // 8  # not the whole framebuffer: the pages that changed


def test_the_picture_moves_one_pixel_when_the_shift_is_due(screen, clock):
    with canvas(screen) as draw:
        draw.point((20, 20), fill="white")
    assert screen.device.image.getpixel((20, 20)) == WHITE
    clock.advance(60.0)
    screen.refresh()
    dx, dy = SHIFT_OFFSETS[1]
    assert screen.device.image.getpixel((20 + dx, 20 + dy)) == WHITE
    assert screen.device.image.getpixel((20, 20)) == BLACK
    assert screen.frames_sent == 2


def test_a_frame_of_the_wrong_size_is_refused(screen):
    with pytest.raises(FrameSizeError, match="128, 64"):
        screen.display(Image.new("1", (64, 32)))


def test_a_loose_wire_never_reaches_the_caller_and_is_logged(panel, bus, caplog):
    bus.plugged = False
    with caplog.at_level(logging.WARNING, logger="drivers.display"):
        draw_square(panel)
        panel.dim()
        panel.refresh()
    assert panel.errors == 1  # the dim and the refresh waited for the retry time
    assert "display: I/O error" in caplog.text


def test_retries_wait_longer_and_longer_while_the_wire_is_loose(panel, bus, clock):
    bus.plugged = False
    draw_square(panel)
    attempts = bus.attempts
    for delay in (0.5, 1.0, 2.0):
        clock.advance(delay * 0.9)
        panel.refresh()
        assert bus.attempts == attempts  # still waiting
        clock.advance(delay * 0.2)
        panel.refresh()
        assert bus.attempts > attempts  # tried again, failed again
        attempts = bus.attempts
    assert panel.errors == 4


def test_once_the_wire_is_back_the_panel_is_reinitialised_and_shows_the_latest_frame(
    panel, bus, clock
):
    draw_square(panel)
    bus.plugged = False
    draw_square(panel, box=(0, 0, 10, 10))
    old_device = panel.device
    bus.plugged = True
    bus.commands.clear()
    clock.advance(1.0)
    panel.refresh()
    assert panel.device is not old_device
    assert bus.initialised()
    assert panel.frames_sent == 2
    assert bus.data[-1024:] == as_ssd1306_would_send(square_image((0, 0, 10, 10)))
    draw_square(panel, box=(0, 0, 10, 10))
    assert panel.frames_sent == 2  # that frame is already on the panel


def test_dim_wake_and_blank_reach_the_chip(panel, bus):
    panel.dim()
    assert bus.commands[-2:] == [[DISPLAYON], [SETCONTRAST, panel.dim_contrast]]
    panel.blank()
    assert bus.commands[-1] == [DISPLAYOFF]
    panel.wake()
    assert bus.commands[-2:] == [[DISPLAYON], [SETCONTRAST, panel.contrast]]


def test_a_blank_asked_for_while_the_wire_is_loose_happens_when_it_is_back(panel, bus, clock):
    bus.plugged = False
    panel.blank()
    bus.plugged = True
    clock.advance(1.0)
    panel.refresh()
    assert bus.commands[-1] == [DISPLAYOFF]


def test_close_twice_is_harmless_and_later_frames_are_refused(screen):
    screen.close()
    screen.close()
    with pytest.raises(DriverClosedError):
        draw_square(screen)


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"driver": "ssd1351"}, "display.driver = 'ssd1351'"),
        ({"driver": "ssd1306", "height": 32}, "display.width x display.height"),
        ({"driver": "sh1106", "i2c_address": 0x50}, "display.i2c_address = 0x50"),
        ({"driver": "ssd1309", "interface": "usb"}, "display.interface = 'usb'"),
        ({"driver": "dummy", "rotate": 5}, "display.rotate = 5"),
    ],
)
def test_unsupported_settings_name_the_setting_and_the_fix(settings, named):
    with pytest.raises(DisplayConfigError) as caught:
        DisplayConfig.from_dict(settings)
    assert named in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_unknown_and_mistyped_settings_are_refused_by_name():
    with pytest.raises(DisplayConfigError, match=r"displays\[1\]\.colour is not a display setting"):
        DisplayConfig.from_dict({"colour": "blue"}, where="displays[1]")
    with pytest.raises(DisplayConfigError, match=r"display\.width = '128' should be"):
        DisplayConfig.from_dict({"width": "128"})


def test_an_i2c_address_may_be_written_as_hex_text():
    assert DisplayConfig.from_dict({"i2c_address": "0x3D"}).i2c_address == 0x3D


@pytest.mark.parametrize("chip", ["ssd1306", "sh1106", "ssd1309"])
def test_every_supported_chip_is_128_by_64_monochrome(chip):
    device = create_device(DisplayConfig(driver=chip, interface="noop"))
    assert (device.mode, device.size) == ("1", (128, 64))


def test_a_missing_i2c_bus_says_how_to_enable_it():
    with pytest.raises(DisplayOpenError, match="raspi-config"):
        open_display({"driver": "ssd1306", "i2c_port": 97})


def test_the_terminal_emulator_needs_a_terminal(monkeypatch):
    monkeypatch.setattr("sys.stdout", io.StringIO())
    with pytest.raises(DisplayOpenError, match=r"display\.driver = 'asciiblock'.*'dummy'"):
        open_display({"driver": "asciiblock"})


def test_the_capture_emulator_writes_each_new_frame_as_a_png(tmp_path, clock):
    template = str(tmp_path / "frame_{0:03}.png")
    config = {"driver": "capture", "capture_template": template}
    with open_display(config, clock=clock, shift_every=None) as display:
        draw_square(display)
        draw_square(display)
        draw_checkerboard(display)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frame_001.png", "frame_002.png"]


def test_an_emulated_panel_in_a_terminal_of_no_size_fails_like_a_loose_wire(clock, monkeypatch):
    """luma.emulator's asciiblock draws into the terminal; in one of no rows it raises. The
    game must not notice: the frame waits, and shows once the terminal has a size."""
    leader, follower = os.openpty()  # a fresh pty: 0 rows, 0 columns
    shown = bytearray()
    reader = threading.Thread(target=_read_until_closed, args=(leader, shown), daemon=True)
    reader.start()
    terminal = os.fdopen(follower, "w")
    monkeypatch.setattr(sys, "stdout", terminal)
    try:
        panel = open_display(DisplayConfig(driver="asciiblock"), clock=clock)
        draw_square(panel)
        assert panel.errors == 1 and panel.frames_sent == 0
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        clock.advance(1.0)
        panel.refresh()
        assert panel.errors == 1 and panel.frames_sent == 1
        panel.close()  # clears the pty's screen
        panel.device.cleanup = lambda: None  # luma's exit hook would clear the real terminal
    finally:
        monkeypatch.undo()
        terminal.close()
        reader.join(timeout=5)
        os.close(leader)
    assert "\u2584".encode() in shown  # the square reached the terminal as half blocks


def _read_until_closed(fd: int, into: bytearray) -> None:
    """Drain a pty's leader side (a terminal that nobody reads stops its writers)."""
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:  # EIO: the follower side is closed
            return
        if not data:
            return
        into.extend(data)


def test_a_display_that_cannot_be_opened_names_the_configuration_keys_to_check(tmp_path):
    """Issue 24: the hint named i2c_port and i2c_address, keys a configuration does not have
    (they are bus and address in [[displays]])."""
    from drivers.display_device import DisplayConfig, open_error

    config = DisplayConfig(driver="sh1106", i2c_port=7, where="[displays.0]")
    words = str(open_error(config, OSError("I2C device not found: /dev/i2c-7")))
    assert "check the display's bus and address" in words and "i2c_" not in words
    spi = DisplayConfig(driver="sh1106", interface="spi", where="[displays.0]")
    words = str(open_error(spi, OSError("no spidev")))
    assert "check the display's device, dc and reset" in words and "gpio_" not in words


def test_a_capture_folder_with_a_stray_file_numbers_on_after_its_own_frames(tmp_path, clock):
    """A file in the capture folder whose "number" is "²" (a digit to str.isdigit, not to int)
    stopped the display from opening; it is not one of the tower's frames and is passed over."""
    template = str(tmp_path / "frame_{0:03}.png")
    (tmp_path / "frame_007.png").write_bytes(b"")
    (tmp_path / "frame_².png").write_bytes(b"")
    with open_display({"driver": "capture", "capture_template": template}, clock=clock) as display:
        draw_square(display)
    assert (tmp_path / "frame_008.png").exists()
