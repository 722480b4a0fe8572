"""Whether a display's picture shows some words whole: the words drawn alone in the display
font (at a scale), looked for at every place in the picture, pixel for pixel. Independent of
how a screen lays them out: the tests of names drawn whole (issue 39) ask only whether the
whole name is there."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from firmware_py.show import font


def words_picture(words: str, size: tuple[int, int] = (1, 1)) -> np.ndarray:
    """The lit pixels of `words` drawn in the display font, enlarged `size` times (across,
    down), cropped to them."""
    shown = font.drawable(words)
    image = Image.new("1", (max(1, font.width(shown)) + 8, font.HEIGHT + 8))
    ImageDraw.Draw(image).text((4, 4), shown, font=font.font(), fill=1)
    box = image.getbbox()
    assert box is not None, f"{words!r} lights no pixel"
    image = image.crop(box)
    image = image.resize((image.width * size[0], image.height * size[1]), Image.Resampling.NEAREST)
    return np.array(image, dtype=bool)


def display_pixels(picture: Image.Image, width: int = 128) -> np.ndarray:
    """A display's lit pixels from its picture: as drawn, or as `run --screens` saves it
    (luma.emulator's capture: twice as large, by scale2x, which changes at most one of the
    four pixels each display pixel becomes, so two or more lit ones mean a lit pixel)."""
    lit = np.array(picture.convert("L")) > 0
    if picture.width == width:
        return lit
    blocks = lit.reshape(lit.shape[0] // 2, 2, lit.shape[1] // 2, 2)
    return blocks.sum(axis=(1, 3)) >= 2


def shows(picture: Image.Image, words: str, size: tuple[int, int] = (1, 1)) -> bool:
    """`picture` holds `words` drawn whole at `size`: some place where exactly their pixels
    are lit within their box, and no more."""
    frame = display_pixels(picture)
    patch = words_picture(words, size)
    rows, columns = patch.shape
    for y in range(frame.shape[0] - rows + 1):
        for x in range(frame.shape[1] - columns + 1):
            if np.array_equal(frame[y : y + rows, x : x + columns], patch):
                return True
    return False
