"""The pad's board on a Raspberry Pi Pico (wiring.md): six buttons, an SSD1306, USB serial, LED.

The data channel is the USB CDC serial port, which MicroPython also gives its REPL: read through
sys.stdin.buffer (select.poll says when a byte is there) and written to sys.stdout.buffer, with
`micropython.kbd_intr(-1)` so that a 0x03 byte on the line is data, not a Ctrl-C that stops the
firmware. So nothing may print: stdout is the cable. Buttons pull their pin to ground (internal
pull-ups); a watchdog restarts a pad whose loop hangs. To reach the REPL again, hold undo while
plugging the pad in (see main.py).

Mirrors board_unix.Board exactly: ident, timing, ticks_ms, random16, read, write, buttons, show,
led, wait, running, report. The hardware imports are guarded so that tests can load the module
(and drive `Oled` with a fake bus) on the unix port.
"""

import os
import select
import sys
import time
from binascii import hexlify

import framebuf
import micropython

try:
    from machine import I2C, WDT, Pin, unique_id
except ImportError:  # not a Pico (tests): only Oled is usable
    I2C = WDT = Pin = unique_id = None

BUTTON_PINS = (10, 11, 12, 13, 14, 15)  # red, yellow, green, blue, pass/confirm, undo
UNDO_PIN = 15
SDA_PIN, SCL_PIN = 4, 5
OLED_ADDRESS = 0x3C
I2C_HZ = 400_000
READ_LIMIT = 600  # bytes taken from the line per loop at most, so buttons stay responsive
WATCHDOG_MS = 8000  # the rp2 watchdog's longest timeout is about 8.3 s


class Oled:
    """An SSD1306 128x64 on I2C, drawn a text line (one 8-pixel page) at a time.

    micropython-lib's ssd1306 driver is not frozen into the stock RPI_PICO firmware (its
    ports/rp2/boards/manifest.py freezes onewire, ds18x20, dht, neopixel and asyncio), so the few
    commands are written here. Only changed lines are sent: a whole frame is 1 KB, about 25 ms
    at 400 kHz; a line is 128 bytes.
    """

    INIT = (
        0xAE,  # display off
        0x20, 0x00,  # horizontal addressing
        0x40,  # start at line 0
        0xA1,  # column 127 is SEG0
        0xA8, 63,  # multiplex ratio: 64 rows
        0xC8,  # scan COM outputs from the bottom
        0xD3, 0x00,  # no vertical offset
        0xDA, 0x12,  # COM pins: alternative configuration (128x64)
        0xD5, 0x80,  # clock divide ratio and oscillator
        0xD9, 0xF1,  # pre-charge period, internal charge pump
        0xDB, 0x30,  # VCOMH deselect level
        0x81, 0xCF,  # contrast
        0xA4,  # show the RAM
        0xA6,  # not inverted
        0x8D, 0x14,  # charge pump on
        0xAF,  # display on
    )  # fmt: skip

    def __init__(self, i2c, address=OLED_ADDRESS):
        self.i2c = i2c
        self.address = address
        self.page = bytearray(128)  # one page: 128 columns of 8 pixels, as the chip stores it
        self.canvas = framebuf.FrameBuffer(self.page, 128, 8, framebuf.MONO_VLSB)
        self.shown = [None] * 8
        self.ready = False

    def show(self, lines):
        """Draw the lines that differ from what the display shows; OSError if it is not there."""
        if not self.ready:
            for byte in self.INIT:
                self.command(byte)
            self.ready = True
            self.shown = [None] * 8
        for index in range(8):
            text = lines[index] if index < len(lines) else ""
            if text != self.shown[index]:
                self.draw_line(index, text)
                self.shown[index] = text

    def draw_line(self, index, text):
        self.canvas.fill(0)
        self.canvas.text(text, 0, 0, 1)
        for byte in (0x21, 0, 127, 0x22, index, index):  # columns 0..127, page `index`
            self.command(byte)
        self.i2c.writevto(self.address, (b"\x40", self.page))

    def command(self, byte):
        self.i2c.writeto(self.address, bytes((0x80, byte)))


class UsbReader:
    """Reads what is waiting on the USB serial without ever blocking.

    A read of stdin blocks until it has every byte asked for, and select says only that one is
    there, so bytes come one at a time; the loop keeps that cheap: its methods looked up once,
    each byte read into a one-byte buffer and stored in a buffer kept from call to call, so no
    object is made per byte (the old loop made three, and topped out near 14 KB/s on a Pico).
    """

    def __init__(self, stream, poller, limit=READ_LIMIT):
        self.stream = stream
        self.poller = poller
        self.buffer = bytearray(limit)
        self.one = bytearray(1)

    def read(self):
        """The bytes waiting, as a new bytearray (b"" for none)."""
        buffer, one, limit = self.buffer, self.one, len(self.buffer)
        ready, readinto = self.poller.ipoll, self.stream.readinto
        count = 0
        while count < limit:
            for _ in ready(0):
                break
            else:
                break  # nothing more waiting
            readinto(one)
            buffer[count] = one[0]
            count += 1
        return buffer[:count] if count else b""


def maintenance_requested():
    """True while the undo button is held: main.py then leaves the REPL to mpremote."""
    undo = Pin(UNDO_PIN, Pin.IN, Pin.PULL_UP)
    time.sleep_ms(20)  # let the pull-up charge the line
    return undo.value() == 0


class Board:
    """A Pico pad, as wired in wiring.md."""

    def __init__(self):
        micropython.kbd_intr(-1)  # 0x03 on the cable is data (main.py did so first already)
        self.ident = "pad-" + hexlify(unique_id()).decode()
        self.timing = {}  # the protocol's own beat and retry
        self.pins = [Pin(number, Pin.IN, Pin.PULL_UP) for number in BUTTON_PINS]
        self.led_pin = Pin("LED", Pin.OUT)
        self.oled = Oled(I2C(0, sda=Pin(SDA_PIN), scl=Pin(SCL_PIN), freq=I2C_HZ))
        self.stdout = sys.stdout.buffer
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.line = UsbReader(sys.stdin.buffer, self.poller)
        self.errors = 0
        self._led = None
        self.watchdog = WDT(timeout=WATCHDOG_MS)

    def ticks_ms(self):
        return time.ticks_ms()

    def random16(self):
        data = os.urandom(2)  # the ring oscillator's noise on rp2
        return data[0] | data[1] << 8

    def read(self):
        """What has arrived on USB (READ_LIMIT bytes at most)."""
        return self.line.read()

    def write(self, data):
        self.stdout.write(data)  # unplugged: MicroPython keeps the newest bytes, never blocks

    def buttons(self, now):
        raw = 0
        for index, pin in enumerate(self.pins):
            if pin.value() == 0:
                raw |= 1 << index
        return raw

    def show(self, lines):
        try:
            self.oled.show(lines)
        except OSError:  # no display on the bus: try again at the next change
            self.oled.ready = False

    def led(self, on):
        if on != self._led:
            self._led = on
            self.led_pin.value(1 if on else 0)

    def wait(self, ms):
        self.watchdog.feed()
        self.poller.poll(ms)  # returns early when a byte arrives

    def running(self):
        return True

    def report(self, error):
        self.errors += 1  # nothing may be printed: standard output is the cable
