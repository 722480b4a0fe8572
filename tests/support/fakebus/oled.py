"""SSD1306 and SH1106 OLED controllers as the I2C bytes reach them: commands in, a picture out.

Each write to the chip's address is a stream of control bytes (Co and D/C# bits) followed by
commands or display RAM data, as in the datasheets (SSD1306 rev 1.1 section 8.1.5, SH1106
rev 0.1 "I2C-bus interface"). The models keep the display RAM and the registers a person would
notice (on/off, contrast, inverse, mirroring, start line) and draw the panel as a 128x64 picture:
what the glass shows, dark when the panel is off. Unknown command bytes are ignored, as the chips
do, and kept in `unknown` so a test can see them.
"""

from __future__ import annotations

from typing import ClassVar

from PIL import Image

WIDTH, HEIGHT, PAGES = 128, 64, 8
CO, DATA = 0x80, 0x40  # the control byte's "one byte follows" and "data, not a command" bits


class Panel:
    """What both controllers share: control bytes, commands with arguments, RAM, the picture."""

    chip = "?"
    ram_columns = WIDTH  # columns of display RAM
    column_offset = 0  # RAM column shown at the panel's left edge (SEG0 side)
    arguments: ClassVar[dict[int, int]] = {}  # command byte -> how many argument bytes follow it

    def __init__(self) -> None:
        self.ram = bytearray(self.ram_columns * PAGES)
        self.on = False  # both chips come out of reset with the display off
        self.contrast = 0x7F
        self.inverse = False
        self.entire_on = False
        self.mirror_x = True  # segment remap off: a module built for A1 shows it mirrored
        self.flip_y = True  # COM scan direction C0: the same modules show it upside down
        self.start_line = 0
        self.page = 0
        self.column = 0
        self.last_seen = self.picture()  # what the glass showed before it last went dark
        self.registers: dict[int, tuple[int, ...]] = {}
        self.unknown: list[int] = []
        self.commands = 0
        self.data_bytes = 0
        self.writes = 0
        self._pending: list[int] = []

    # the I2C side

    def write(self, payload: bytes) -> None:
        """One I2C write transaction to this address (the bytes after the address)."""
        self.writes += 1
        index = 0
        while index < len(payload):
            control = payload[index]
            index += 1
            rest = payload[index : index + 1] if control & CO else payload[index:]
            for byte in rest:
                if control & DATA:
                    self._data(byte)
                else:
                    self._command_byte(byte)
            index += len(rest)

    def read(self, count: int) -> bytes:
        """A read transaction: the status byte (bit 6 set while the display is off)."""
        status = 0x00 if self.on else 0x40
        return bytes([status] * count)

    # what the glass shows

    def picture(self) -> Image.Image:
        """The panel as a person sees it: white pixels lit, all dark when switched off."""
        image = Image.new("1", (WIDTH, HEIGHT))
        if not self.on:
            return image
        pixels = image.load()
        for y in range(HEIGHT):
            row = (((HEIGHT - 1 - y) if self.flip_y else y) + self.start_line) % HEIGHT
            for x in range(WIDTH):
                column = self.column_offset + ((WIDTH - 1 - x) if self.mirror_x else x)
                lit = self.entire_on or bool(self.ram[self._at(row // 8, column)] >> (row % 8) & 1)
                pixels[x, y] = 255 if lit != self.inverse else 0
        return image

    def state(self) -> dict[str, object]:
        """The registers a test may assert, as plain data."""
        return {
            "chip": self.chip,
            "on": self.on,
            "contrast": self.contrast,
            "inverse": self.inverse,
            "entire_on": self.entire_on,
            "writes": self.writes,
            "commands": self.commands,
            "data_bytes": self.data_bytes,
            "unknown": self.unknown,
        }

    # commands

    def _command_byte(self, byte: int) -> None:
        if self._pending:
            self._pending.append(byte)
        else:
            self._pending = [byte]
        opcode, *args = self._pending
        if len(args) < self.arguments.get(opcode, 0):
            return
        self._pending = []
        self.commands += 1
        if not self._own(opcode, args) and not self._common(opcode, args):
            self.unknown.append(opcode)

    def _common(self, opcode: int, args: list[int]) -> bool:
        """The commands SSD1306 and SH1106 share; False for any other."""
        if opcode in (0xAE, 0xAF):
            if self.on and opcode == 0xAE:
                self.last_seen = self.picture()
            self.on = opcode == 0xAF
        elif opcode == 0x81:
            self.contrast = args[0]
        elif opcode in (0xA6, 0xA7):
            self.inverse = opcode == 0xA7
        elif opcode in (0xA4, 0xA5):
            self.entire_on = opcode == 0xA5
        elif opcode in (0xA0, 0xA1):
            self.mirror_x = opcode == 0xA0
        elif opcode in (0xC0, 0xC8):
            self.flip_y = opcode == 0xC0
        elif 0x40 <= opcode <= 0x7F:
            self.start_line = opcode - 0x40
        elif 0xB0 <= opcode <= 0xB7:
            self.page = opcode - 0xB0
        elif opcode <= 0x0F:
            self.column = (self.column & 0xF0) | opcode
        elif opcode <= 0x1F:
            self.column = (self.column & 0x0F) | (opcode - 0x10) << 4
        elif opcode in self.arguments or opcode == 0xE3:  # timing, voltages, multiplex; nop
            self.registers[opcode] = tuple(args)
        else:
            return False
        return True

    def _own(self, opcode: int, args: list[int]) -> bool:
        return False

    # display RAM

    def _data(self, byte: int) -> None:
        self.data_bytes += 1
        if self.column < self.ram_columns:
            self.ram[self._at(self.page, self.column)] = byte
        self._advance()

    def _advance(self) -> None:
        """Page addressing: the column moves right and stops at the last one."""
        self.column = min(self.column + 1, self.ram_columns)

    def _at(self, page: int, column: int) -> int:
        return page * self.ram_columns + column


class SSD1306(Panel):
    """SSD1306: 128 RAM columns; page, horizontal or vertical addressing (reset: page)."""

    chip = "ssd1306"
    arguments: ClassVar[dict[int, int]] = {
        0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2,
        0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1,
    }  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.addressing = 2  # 0 horizontal, 1 vertical, 2 page
        self.columns = (0, WIDTH - 1)
        self.pages = (0, PAGES - 1)
        self.charge_pump = False

    def state(self) -> dict[str, object]:
        return {**super().state(), "charge_pump": self.charge_pump, "addressing": self.addressing}

    def _own(self, opcode: int, args: list[int]) -> bool:
        if opcode == 0x20:
            self.addressing = args[0] & 0x03
        elif opcode == 0x21:
            self.columns = (args[0] & 0x7F, args[1] & 0x7F)
            self.column = self.columns[0]
        elif opcode == 0x22:
            self.pages = (args[0] & 0x07, args[1] & 0x07)
            self.page = self.pages[0]
        elif opcode == 0x8D:
            self.charge_pump = bool(args[0] & 0x04)
        else:
            return False
        return True

    def _advance(self) -> None:
        if self.addressing == 0:  # horizontal: along the page, then down to the next one
            self.column, wrapped = _step(self.column, self.columns)
            if wrapped:
                self.page, _ = _step(self.page, self.pages)
        elif self.addressing == 1:  # vertical: down the column, then right to the next one
            self.page, wrapped = _step(self.page, self.pages)
            if wrapped:
                self.column, _ = _step(self.column, self.columns)
        else:  # page: along the page, back to its start (the datasheet's page mode)
            self.column = self.column + 1 if self.column < WIDTH - 1 else self.columns[0]


class SH1106(Panel):
    """SH1106: 132 RAM columns of which a 128-wide panel shows 2..129; page addressing only."""

    chip = "sh1106"
    ram_columns = 132
    column_offset = 2
    arguments: ClassVar[dict[int, int]] = {
        0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1,
    }  # fmt: skip

    def __init__(self) -> None:
        super().__init__()
        self.contrast = 0x80

    def _own(self, opcode: int, args: list[int]) -> bool:
        return 0x30 <= opcode <= 0x33 or opcode in (0xE0, 0xEE)  # pump voltage, read-modify-write


def _step(value: int, bounds: tuple[int, int]) -> tuple[int, bool]:
    """`value` + 1 within `bounds`, and whether it wrapped to the start."""
    if value >= bounds[1]:
        return bounds[0], True
    return value + 1, False


CHIPS: dict[str, type[Panel]] = {"ssd1306": SSD1306, "ssd1309": SSD1306, "sh1106": SH1106}
