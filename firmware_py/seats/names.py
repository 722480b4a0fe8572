"""Players' names as every door takes them (phones, pads, the command line): one cleaner, one
length limit, and one test of which names look alike.

A name is NFKC-normalised (full-width "Ａｎｎ" is "Ann"), stripped of control and format
characters, its spaces squeezed, and cut to MAX_NAME characters. It must show at least one
letter or digit (U+3164 HANGUL FILLER or U+2800 BRAILLE BLANK alone show nothing) and carry
few combining marks (no "zalgo" piles that spill over the other names on a display).

Two names are the same seat's when their skeletons are equal: after Unicode TR39's idea, each
character is mapped to the Latin letter it is drawn like (Cyrillic "Вот" is "Bot"), then case
is folded. The table below holds the confusables of Latin letters and digits from the Cyrillic,
Greek and Armenian blocks of TR39's confusables.txt (what a phone's keyboard types by
accident or on purpose); a name that matches a seated one by skeleton is numbered, as "Bot 2".
"""

from __future__ import annotations

import unicodedata

from firmware_py.seating import NAME_LENGTH

MAX_NAME = NAME_LENGTH  # characters: the one limit of every door (the page's field too)
MAX_MARKS = 4  # combining marks in a name (a Vietnamese name needs a few)

# TR39 confusables of Latin letters (source: confusables.txt), from the scripts a phone's
# keyboard offers beside Latin; with Cyrillic small letters drawn as small capitals (т, к, м,
# н, п), which TR39 leaves out but which read as Latin in a name on a display.
_LOOKALIKES = {
    "a": "аɑα",
    "b": "Ьƅ",
    "c": "сϲ",
    "d": "ԁ",
    "e": "еҽ",
    "g": "ɡ",
    "h": "һн",
    "i": "іɩιӏ",
    "j": "јϳ",
    "k": "κк",
    "l": "Ӏ",
    "n": "ոп",
    "o": "оοօσ",
    "p": "рρ",
    "q": "ԛ",
    "s": "ѕ",
    "u": "υս",
    "v": "νѵ",
    "w": "ԝ",
    "x": "хχ",
    "y": "уγ",
    "A": "АΑ",
    "B": "ВΒ",
    "C": "СϹ",
    "E": "ЕΕ",
    "H": "НΗ",
    "I": "ІΙ",
    "J": "Ј",
    "K": "КΚ",
    "M": "МΜ",
    "N": "Ν",
    "O": "ОΟՕ",
    "P": "РΡ",
    "S": "Ѕ",
    "T": "ТΤ",
    "X": "ХΧ",
    "Y": "ҮΥ",
    "Z": "Ζ",
    "t": "тτ",
    "m": "м",
    "3": "ЗӠ",
}
_TO_LATIN = str.maketrans({char: latin for latin, chars in _LOOKALIKES.items() for char in chars})
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


def skeleton(name: str) -> str:
    """What a name looks like, for telling names apart: TR39's skeleton (decomposed, each
    character mapped to the Latin one it is drawn like) with case folded and spaces dropped.
    Mapped before and after folding: a capital's look-alike may differ from its small one's."""
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))
    latin = decomposed.translate(_TO_LATIN).casefold().translate(_TO_LATIN)
    return "".join(unicodedata.normalize("NFD", latin).split())
