"""The displays' font: /efont/'s 10-pixel Unicode bitmap font, so any name a player types is
drawn, in Latin, Greek, Cyrillic, Hebrew, Chinese, Japanese or Korean.

Scripts the font lacks (Arabic, Thai, Devanagari and the other Indic scripts, Georgian,
Armenian ...) would need shaping that a 10-pixel bitmap cannot give, and a row of boxes names
nobody: their letters are drawn transliterated into Latin letters by anyascii (ISC licence),
a word's first one capitalised, so محمد is drawn "Mhmd", สมชาย "Smchay" and राहुल "Rahul". The
name itself (journal, news, pads, phones) stays as it was typed.

The font (`fonts/efont-b10.pcf.gz`, BSD-3-Clause, see `fonts/LICENSE-efont.txt`) ships inside
the package and Pillow draws it through FreeType: 5 px wide for most letters, 10 px for wide
ones (CJK), 10 px tall. A character the font lacks is drawn as its plain letter when it has one
(Vietnamese ễ as e), else transliterated when it is a letter or a mark, a symbol as its ASCII
look-alike (© as "(C)"); an emoji the font lacks is left out (the font draws ★ ☺ ♥ ♠ ☀ and
some 800 other symbols; ❤ is drawn as its ♥), as a space beside it; anything else is drawn as
`FALLBACK`, a box: text never raises and never shifts the layout.
"""

from __future__ import annotations

import gzip
import io
import struct
import unicodedata
from functools import cache, lru_cache
from importlib.resources import files

from PIL import Image, ImageDraw, ImageFont

from firmware_py.transliterate import joined, latin_letters, symbol_letters

FONT_FILE = "efont-b10.pcf.gz"
HEIGHT = 10  # pixels of a line of text
FALLBACK = "\u25a1"  # □, drawn for a character the font does not have
# Letters whose glyph at 10 px reads as another letter, drawn as their plain letter instead
# (efont's Ł is a "t"); and emoji the font lacks but has a look-alike of (❤ as ♥, ✔ as ✓).
MISREAD = {"Ł": "L", "ł": "l", "\u2764": "\u2665", "\u2714": "\u2713"}
_PCF_ENCODINGS = 1 << 5  # the PCF table that maps character codes to glyphs
_NO_GLYPH = 0xFFFF
GLYPHS_KEPT = 4096  # characters whose drawable form is kept: names typed on phones bring any
# Words (names, news, numbers) whose drawable form, width and cut are kept. The words of a
# screen recur frame after frame; dice and marks bring a few new ones each game, so a store of
# 4096 was still filling after 500 games (bench/soak.py: 0.36 MB more at game 300 than now).
WORDS_KEPT = 1024
# Pictures of words as FreeType draws them. Rasterising takes three quarters of a screen's
# drawing (bench/screens.py); a game's screens show a few hundred different words, and a
# picture of a line across the display holds about 1.3 kB.
PICTURES_KEPT = 512


@cache
def _pcf_bytes() -> bytes:
    return gzip.decompress((files("firmware_py.show") / "fonts" / FONT_FILE).read_bytes())


@cache
def font() -> ImageFont.FreeTypeFont:
    """The font, loaded once."""
    return ImageFont.truetype(io.BytesIO(_pcf_bytes()), HEIGHT)


@cache
def covered() -> frozenset[int]:
    """The code points the font has a glyph for, read from the PCF file's encodings table."""
    data = _pcf_bytes()
    (tables,) = struct.unpack_from("<i", data, 4)
    for entry in range(tables):
        kind, _, _, offset = struct.unpack_from("<4i", data, 8 + 16 * entry)
        if kind == _PCF_ENCODINGS:
            return _encodings(data, offset)
    return frozenset()


def _encodings(data: bytes, offset: int) -> frozenset[int]:
    (fmt,) = struct.unpack_from("<i", data, offset)
    order = ">" if fmt & 4 else "<"  # PCF_BYTE_MASK: the table is big-endian
    low, high, first_row, last_row, _ = struct.unpack_from(order + "5h", data, offset + 4)
    columns = high - low + 1
    count = columns * (last_row - first_row + 1)
    glyphs = struct.unpack_from(f"{order}{count}H", data, offset + 14)
    return frozenset(
        (first_row + index // columns) * 256 + low + index % columns
        for index, glyph in enumerate(glyphs)
        if glyph != _NO_GLYPH
    )


@lru_cache(maxsize=WORDS_KEPT)
def drawable(words: str) -> str:
    """`words` as the font can draw them: composed (Zoe + combining diaeresis as Zoë), white
    space and control characters as a space, a letter the font lacks as its plain letter or
    else in Latin letters (a word's first capitalised), an emoji it lacks left out, and
    anything else as FALLBACK."""
    if words.isascii() and words.isprintable():
        return words
    shown: list[str | None] = []
    word_start = True  # the next character begins a word
    for char in unicodedata.normalize("NFC", words):
        glyph = _glyph(char)
        kind = unicodedata.category(char)[0]
        if glyph != char and word_start and kind == "L":  # latin.py
            glyph = glyph[:1].upper() + glyph[1:]
        shown.append(None if kind == "S" and not glyph else glyph)  # an emoji left out
        word_start = (word_start and not glyph) or glyph.isspace()
    return joined(shown)


@lru_cache(maxsize=GLYPHS_KEPT)
def _glyph(char: str) -> str:
    if char.isspace() or unicodedata.category(char) in ("Cc", "Cs"):
        return " " if char.isspace() else FALLBACK
    if char in MISREAD:
        return MISREAD[char]
    have = covered()
    if ord(char) in have:
        return char
    base = unicodedata.normalize("NFKD", char)[:1]
    if base and ord(base) in have and base.isprintable():
        return base
    latin = latin_letters(char, word_start=False)  # a letter or a vowel sign: Latin letters
    if latin is None:
        latin = symbol_letters(char)  # a symbol's look-alike; "" for an emoji: left out
    return FALLBACK if latin is None else latin


@lru_cache(maxsize=WORDS_KEPT)  # the same names and words, frame after frame
def width(words: str) -> int:
    """Pixels `words` take across, as drawn."""
    return int(font().getlength(drawable(words)))


@lru_cache(maxsize=PICTURES_KEPT)
def picture(shown: str) -> tuple[Image.Image, tuple[int, int]]:
    """Drawable words as a one-bit picture, and where its top left corner sits from the point
    the words are drawn at: the pixels `ImageDraw.text` lights, found once for each line.
    The picture is shared: draw it (`ImageDraw.bitmap`), never draw on it."""
    left, top, right, bottom = (int(edge) for edge in font().getbbox(shown, mode="1"))
    image = Image.new("1", (max(1, right - left), max(1, bottom - top)))
    ImageDraw.Draw(image).text((-left, -top), shown, font=font(), fill=1)
    return image, (left, top)


@lru_cache(maxsize=WORDS_KEPT)
def fit(words: str, pixels: int, mark: str = "~") -> str:
    """`words` as drawable, cut to `pixels` across; a cut ends in `mark`."""
    shown = drawable(words)
    if width(shown) <= pixels:
        return shown
    room = pixels - width(mark)
    while shown and width(shown) > room:
        shown = shown[:-1]
    return shown + mark
