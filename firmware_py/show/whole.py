"""Names (and any words) laid out whole on a display: broken into lines only where a line may
break, drawn as large as they fit, and taking turns (pages) only when they fit nowhere at once.

Sizes are the small letters (10 pixels tall) enlarged pixel for pixel: LARGE twice across and
down, TALL twice down only (narrow letters 20 pixels tall, twice as many to a line as LARGE,
as readable from a chair), SMALL as they are.

A line may break after a space, after a hyphen ("Alexandra-" / "Charlotte") and between two
wide (Chinese, Japanese, Korean) characters, never inside a word: issue 39, where "waiting
for" showed "arlotte" and the winner screen "Alexandra-C~". Only a word wider than a whole
line at the smallest size is split (with a hyphen): the longest name, MAX_NAME characters, is
120 pixels in Latin letters and so always fits the display's 128 pixels.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from firmware_py.show.font import HEIGHT as FONT_HEIGHT
from firmware_py.show.font import drawable, width

HYPHENS = frozenset("-\u2010")  # a line may break after one
Size = tuple[int, int]  # the small letters' pixels enlarged: times across, times down
LARGE, TALL, SMALL = (2, 2), (1, 2), (1, 1)
NAME_SIZES = (LARGE, TALL, SMALL)  # a name as large as it fits
LAYOUTS_KEPT = 256  # names and boxes recur frame after frame


@dataclass(frozen=True)
class Fitted:
    """Words as they fit a box: their `size`, and pages of drawable lines (one page when
    they fit at once)."""

    size: Size
    pages: tuple[tuple[str, ...], ...]

    def page(self, number: int) -> tuple[str, ...]:
        return self.pages[number % len(self.pages)]


@lru_cache(maxsize=LAYOUTS_KEPT)
def fitted(words: str, room: int, height: int, sizes: tuple[Size, ...] = NAME_SIZES) -> Fitted:
    """`words` in a box `room` pixels across and `height` tall: whole on one page at the
    first of `sizes` (the largest first) where they fit, else in pages of whole words at the
    last."""
    shown = drawable(words)
    for across, down in sizes:
        rows = height // (FONT_HEIGHT * down)
        lines = word_lines(shown, room // across) if rows else None
        if lines is not None and len(lines) <= rows:
            return Fitted((across, down), (tuple(lines),))
    across, down = sizes[-1]
    rows = max(1, height // (FONT_HEIGHT * down))
    lines = broken_lines(shown, room // across)
    pages = tuple(tuple(lines[at : at + rows]) for at in range(0, len(lines), rows))
    return Fitted((across, down), pages or ((),))


def word_lines(shown: str, room: int) -> list[str] | None:
    """Drawable words in lines of at most `room` pixels, broken only where a line may break;
    None when a word is wider than a line."""
    pieces = breaks(shown)
    if any(width(piece) > room for _, piece in pieces):
        return None
    return _flowed(pieces, room)


def broken_lines(shown: str, room: int) -> list[str]:
    """As `word_lines`, but a word wider than a line is split, a hyphen after each part
    (none between wide characters): the last resort, never needed by a Latin name."""
    pieces = [
        (glue if at == 0 else "", part)
        for glue, piece in breaks(shown)
        for at, part in enumerate(split_word(piece, room))
    ]
    return _flowed(pieces, room)


def _flowed(pieces: list[tuple[str, str]], room: int) -> list[str]:
    """Pieces as lines: each on the line before when it fits there, else on a new one."""
    lines: list[str] = []
    for glue, piece in pieces:
        if lines and width(lines[-1] + glue + piece) <= room:
            lines[-1] += glue + piece
        else:
            lines.append(piece)
    return lines


def breaks(shown: str) -> list[tuple[str, str]]:
    """`shown` cut where a line may break, as (glue, piece): glue is " " after a space, ""
    after a hyphen or between two wide characters (the first piece's glue is "")."""
    pieces: list[tuple[str, str]] = []
    for word in shown.split():
        glue, start = (" " if pieces else ""), 0
        for at in range(1, len(word)):
            if word[at - 1] in HYPHENS or (wide(word[at - 1]) and wide(word[at])):
                pieces.append((glue, word[start:at]))
                glue, start = "", at
        pieces.append((glue, word[start:]))
    return pieces


def split_word(piece: str, room: int) -> list[str]:
    """A word in parts of at most `room` pixels (a part of one character may be wider)."""
    parts: list[str] = []
    while len(piece) > 1 and width(piece) > room:
        cut = len(piece) - 1
        while cut > 1 and width(piece[:cut] + _mark(piece, cut)) > room:
            cut -= 1
        parts.append(piece[:cut] + _mark(piece, cut))
        piece = piece[cut:]
    return [*parts, piece]


def _mark(piece: str, cut: int) -> str:
    """The hyphen that ends a part of a split word; none between wide characters."""
    return "" if wide(piece[cut - 1]) and wide(piece[cut]) else "-"


def wide(char: str) -> bool:
    """A character drawn twice as wide as a Latin letter (Chinese, Japanese, Korean)."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def name_lines(words: str, room: int) -> list[str]:
    """Words in lines of `room` pixels at the small size, broken where a line may break (a
    word wider than a line split): never cut, never empty."""
    shown = drawable(words)
    return word_lines(shown, room) or broken_lines(shown, room) or [""]


def packed(heights: list[int], rows: int) -> list[range]:
    """Consecutive items of these heights (in lines) in pages of at most `rows` lines: which
    items each page holds (an item taller than a page is alone on one)."""
    pages: list[range] = []
    first, used = 0, 0
    for index, height in enumerate(heights):
        if used and used + height > rows:
            pages.append(range(first, index))
            first, used = index, 0
        used += height
    return [*pages, range(first, len(heights))]
