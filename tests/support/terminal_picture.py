"""Lines of a terminal as a picture, for golden PNGs of what the terminal draws: a cell of
CELL pixels per character (two for a wide one), block elements (▁ to █, ▏ to ▉) drawn as the
rectangles they are, every other character in the displays' bitmap font. The same on every
machine: no system font is involved."""

from __future__ import annotations

from PIL import Image, ImageDraw

from firmware_py.show.blocks import cells
from firmware_py.show.font import drawable, picture

CELL = (6, 12)  # pixels across and down of a terminal cell
LOWER = "▁▂▃▄▅▆▇█"  # eighths of a cell's height, from the bottom
LEFT = "▏▎▍▌▋▊▉"  # eighths of a cell's width, from the left


def terminal_picture(lines: list[str], columns: int = 80) -> Image.Image:
    """`lines` on a terminal `columns` wide, lit on dark."""
    across, down = CELL
    image = Image.new("1", (columns * across, len(lines) * down))
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        column = 0
        for char in line:
            _draw_char(draw, char, column * across, row * down)
            column += cells(char)
    return image


def _draw_char(draw: ImageDraw.ImageDraw, char: str, x: int, y: int) -> None:
    across, down = CELL
    if char in LOWER:
        height = round(down * (LOWER.index(char) + 1) / 8)
        draw.rectangle((x, y + down - height, x + across - 1, y + down - 1), fill=1)
    elif char in LEFT:
        width = round(across * (LEFT.index(char) + 1) / 8)
        draw.rectangle((x, y, x + width - 1, y + down - 1), fill=1)
    elif not char.isspace():
        glyph, (left, top) = picture(drawable(char))
        draw.bitmap((x + left, y + 1 + top), glyph, fill=1)
