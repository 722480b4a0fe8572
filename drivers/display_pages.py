"""Only what changed crosses the bus: a frame is sent to an OLED chip as the columns of each
8-pixel page that differ from the last frame the chip was sent.

luma.oled sends every page of every frame (an SH1106 frame is 1,080 bytes on the wire, 24 ms of
a 400 kHz I2C bus) and packs its pixels one by one in Python. The tower's screens change a few
pages at a time (the dice of a rolling animation, a cross on a sheet), and two panels share one
bus: here the frame is packed in one PIL transpose, compared with what the chip already holds,
and each changed page is sent from its first to its last changed column. The chips' addressing
commands are data, by luma class: an SH1106 is addressed a page at a time (its 132-column RAM
shown from column 2), an SSD1306 or SSD1309 by a column and page window.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import luma.oled.device
from PIL import Image

PAGE_ROWS = 8
Pages = list[bytes]
#: The commands that point a chip's RAM at `page`, columns `first` to `last`.
Addressing = Callable[[int, int, int], Sequence[int]]


def sh1106_window(page: int, first: int, last: int) -> Sequence[int]:
    """Set page address, then the column's low and high nibbles (RAM column 2 is the left edge)."""
    column = first + SH1106_COLUMN_OFFSET
    return (0xB0 | page, column & 0x0F, 0x10 | column >> 4)


def ssd1306_window(page: int, first: int, last: int) -> Sequence[int]:
    """Column address window, page address window (luma sets horizontal addressing mode)."""
    return (0x21, first, last, 0x22, page, page)


SH1106_COLUMN_OFFSET = 2
#: luma class -> how a window of its RAM is addressed (ssd1309 is an ssd1306 to luma).
ADDRESSING: tuple[tuple[type, Addressing], ...] = (
    (luma.oled.device.sh1106, sh1106_window),
    (luma.oled.device.ssd1306, ssd1306_window),
)


def addressing_of(device: object) -> Addressing | None:
    """How to address `device`'s RAM, or None for a device that is not one of these chips."""
    for chip, addressing in ADDRESSING:
        if isinstance(device, chip):
            return addressing
    return None


def pages_of(image: Image.Image) -> Pages:
    """A mode "1" picture as the chip's pages: per page, one byte per column, the top pixel in
    bit 0. Turned a quarter clockwise, each column is a row whose packed bytes are its pages,
    bottom page first and the top pixel in each byte's lowest bit."""
    columns = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    count = image.height // PAGE_ROWS
    return [columns[count - 1 - page :: count] for page in range(count)]


def changed_span(new: bytes, old: bytes | None) -> tuple[int, int] | None:
    """The first and last column where `new` differs from `old` (all of it without `old`)."""
    if old is None:
        return 0, len(new) - 1
    if new == old:
        return None
    differing = [i for i, (a, b) in enumerate(zip(new, old, strict=True)) if a != b]
    return differing[0], differing[-1]


class PageWriter:
    """Sends frames to one chip `device` (a luma device on its serial link), page by page."""

    def __init__(self, device: object, addressing: Addressing) -> None:
        self.device = device
        self.addressing = addressing
        self.held: Pages | None = None  # what the chip's RAM holds (None: unknown)

    def forget(self) -> None:
        """The chip's RAM is unknown again (re-initialised, or a write failed): next frame whole."""
        self.held = None

    def send(self, image: Image.Image) -> int:
        """Write the pages of `image` that differ from the chip's RAM; the pages written."""
        device: luma.oled.device.device = self.device
        pages = pages_of(device.preprocess(image))
        held, self.held = self.held, None  # unknown until every page is written
        written = 0
        for page, data in enumerate(pages):
            span = changed_span(data, held[page] if held else None)
            if span is None:
                continue
            first, last = span
            device.command(*self.addressing(page, first, last))
            device.data(data[first : last + 1])
            written += 1
        self.held = pages
        return written
