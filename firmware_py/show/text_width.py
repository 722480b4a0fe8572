"""How wide a phone draws a chart's words, so that a chart drawn on the tower keeps each word
inside its picture (`show/svg.py`): the advance widths of DejaVu Sans, the font the charts name
first and the widest of those a phone has (Roboto, Arial and Helvetica draw narrower), read
from Debian's fonts-dejavu-core 2.37 with Pillow, in thousandths of an em. A character beyond
ASCII counts as wide as the widest ASCII one (a Chinese or Japanese character as a whole em
and more), so a name in any script is never thought narrower than it is drawn."""

from __future__ import annotations

import unicodedata

# Characters 32 (space) to 126 (~), in order
_REGULAR = (
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636,
    636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698,
    770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732,
    684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635,
    634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592,
    525, 636, 337, 636, 838,
)  # fmt: skip
_BOLD = (
    348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696,
    696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734,
    830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812,
    774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716,
    712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652,
    582, 712, 365, 712, 838,
)  # fmt: skip
_BEYOND_ASCII = 1000  # an ASCII character is at most this wide (W bold: 1103, % 1002)
_WIDE = 1200  # a character East Asian scripts draw wide ("W" or "F" in Unicode's table)


def _thousandths(character: str, widths: tuple[int, ...]) -> int:
    code = ord(character)
    if 32 <= code <= 126:
        return widths[code - 32]
    if unicodedata.combining(character):
        return 0
    return _WIDE if unicodedata.east_asian_width(character) in "WF" else _BEYOND_ASCII + 103


def width_of(words: str, size: float, bold: bool = False) -> float:
    """How wide `words` are drawn at `size` (in the units the size is in), or a little less."""
    widths = _BOLD if bold else _REGULAR
    return sum(_thousandths(character, widths) for character in words) * size / 1000


def fitted(words: str, room: float, size: float, bold: bool = False) -> str:
    """`words` cut with "…" where they are wider than `room` (a long name in a narrow place:
    a chart's sentence and tables carry it whole)."""
    if width_of(words, size, bold) <= room:
        return words
    while words and width_of(words + "…", size, bold) > room:
        words = words[:-1]
    return words + "…"
