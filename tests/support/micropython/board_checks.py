"""Checks of the pad boards that need MicroPython itself (framebuf, micropython, select).

usage: micropython board_checks.py PAD_DIR

Prints `pass NAME` or `FAIL NAME: ERROR` per check, then `done`. board_pico.py cannot run here
(no machine.Pin or I2C), but it loads, its SSD1306 driver draws on a fake I2C bus, and its Board
offers exactly the methods of the unix board that the tests drive.
"""

import sys

sys.path.insert(0, sys.argv[1])

import board_pico
import board_unix
import framebuf


class FakeI2C:
    """Records what is written: ('cmd', byte) for a command, ('data', bytes) for display RAM."""

    def __init__(self):
        self.log = []

    def writeto(self, address, data):
        assert address == 0x3C and len(data) == 2 and data[0] == 0x80, data
        self.log.append(("cmd", data[1]))

    def writevto(self, address, parts):
        assert address == 0x3C and parts[0] == b"\x40"
        self.log.append(("data", bytes(parts[1])))


def rendered(text):
    page = bytearray(128)
    framebuf.FrameBuffer(page, 128, 8, framebuf.MONO_VLSB).text(text, 0, 0, 1)
    return bytes(page)


def public(cls):
    return sorted(name for name in dir(cls) if not name.startswith("_"))


def check_pico_and_unix_boards_offer_the_same_methods():
    assert public(board_pico.Board) == public(board_unix.Board), (
        public(board_pico.Board),
        public(board_unix.Board),
    )


def check_oled_starts_the_chip_then_draws_every_line():
    bus = FakeI2C()
    oled = board_pico.Oled(bus)
    lines = ["Ann         3 P0", "4+1=5 r6y2g3b6", "", "", "", "", "white 5: RYGB", "x"]
    oled.show(lines)
    commands = [value for kind, value in bus.log[: len(board_pico.Oled.INIT)]]
    assert commands == list(board_pico.Oled.INIT)
    assert commands[-3:] == [0x8D, 0x14, 0xAF], "charge pump on, then display on"
    pages = [value for kind, value in bus.log if kind == "data"]
    assert pages == [rendered(line) for line in lines]


def check_oled_sends_only_the_lines_that_changed_to_their_page():
    bus = FakeI2C()
    oled = board_pico.Oled(bus)
    lines = ["a", "b", "c", "d", "e", "f", "g", "h"]
    oled.show(lines)
    bus.log = []
    lines[5] = "F"
    oled.show(lines)
    assert bus.log == [
        ("cmd", 0x21),
        ("cmd", 0),
        ("cmd", 127),
        ("cmd", 0x22),
        ("cmd", 5),
        ("cmd", 5),
        ("data", rendered("F")),
    ], bus.log
    bus.log = []
    oled.show(lines)
    assert bus.log == []


def check_oled_starts_again_after_the_display_was_missing():
    bus = FakeI2C()
    oled = board_pico.Oled(bus)
    oled.show(["x"] * 8)
    oled.ready = False  # as Board.show leaves it after an OSError
    bus.log = []
    oled.show(["x"] * 8)
    assert len([kind for kind, _ in bus.log if kind == "data"]) == 8, "redrawn whole"


class Usb:
    """The rp2 port's stdin and its poller: `waiting` bytes; readinto blocks (here: fails)
    unless the whole buffer can be filled."""

    def __init__(self, waiting):
        self.waiting = bytearray(waiting)

    def ipoll(self, timeout):
        return [(self, 1)] if self.waiting else []

    def readinto(self, buffer):
        assert len(self.waiting) >= len(buffer), "a read that blocks the pad"
        buffer[:] = self.waiting[: len(buffer)]
        self.waiting = self.waiting[len(buffer) :]
        return len(buffer)


def check_usb_reader_takes_what_is_waiting_up_to_its_limit_without_blocking():
    usb = Usb(bytes(range(256)) * 3)
    reader = board_pico.UsbReader(usb, usb, limit=600)
    assert reader.read() == (bytes(range(256)) * 3)[:600]
    assert reader.read() == (bytes(range(256)) * 3)[600:], "the rest at the next read"
    assert reader.read() == b"", "nothing waiting: nothing read, no blocking"
    usb.waiting += b"\x00\x03\x00"
    assert reader.read() == b"\x00\x03\x00", "0x03 is data"


CHECKS = [value for name, value in sorted(globals().items()) if name.startswith("check_")]

for check in CHECKS:
    try:
        check()
        print("pass", check.__name__)
    except Exception as error:
        print("FAIL", check.__name__ + ":", type(error).__name__, error)
print("done")
