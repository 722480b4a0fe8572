"""The tower's screens: pure functions that draw a `TableView` on a 128x64 one-bit canvas.

Two displays: the main one (the white sum large, whose turn, the dice, locks) and the options
one (the active player's action-2 sums per colour, locked colours shown as gone). The white sum
is drawn as seven-segment digits 44 px tall, readable across a table; words use Pillow's
built-in bitmap font, so pictures are the same on every machine and can be tested as PNGs.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import segno
from PIL import Image, ImageDraw, ImageFont

from firmware_py.menu import IDLE_SECONDS
from firmware_py.seating import MAX_SEATS
from firmware_py.view import ATTRACT, ERROR, LOCK, LUCKY, MENU, ROLLING, SETUP, TableView
from sheets import COLOURS

WIDTH, HEIGHT = 128, 64
LINE = 10  # pixels from one line of small text to the next
CHARS = WIDTH // 6  # the bitmap font is 6 px wide
FONT = ImageFont.load_default_imagefont()
DIGIT_WIDTH, DIGIT_HEIGHT, STROKE = 24, 44, 5

Draw = ImageDraw.ImageDraw
FALLBACK = "?"  # drawn for a character the bitmap font (Latin-1) does not have
_LIKE = str.maketrans("ŁłĐđĦħŊŋŦŧ", "LlDdHhNnTt")  # letters with a stroke: no decomposition


def _drawable(words: str) -> str:
    """`words` in the bitmap font's Latin-1: a letter with an accent it lacks as the plain
    letter (Ł as L, ő as o), anything else as FALLBACK. Names come from players: any text."""
    if words.isascii():
        return words
    out = []
    for char in words.translate(_LIKE):
        if ord(char) < 256:
            out.append(char)
            continue
        base = unicodedata.normalize("NFKD", char)[:1]
        out.append(base if base and ord(base) < 256 else FALLBACK)
    return "".join(out)


def render(view: TableView, role: str = "main") -> Image.Image:
    """The picture of one display ("main" or "options") for this view."""
    image = Image.new("1", (WIDTH, HEIGHT))
    draw_screen(ImageDraw.Draw(image), view, role)
    return image


def draw_screen(draw: Draw, view: TableView, role: str = "main") -> None:
    """Draw on a luma canvas (or any ImageDraw): ``with canvas(device) as draw: ...``."""
    screens = MAIN_SCREENS if role == "main" else OPTIONS_SCREENS
    if role == "main" and view.join_url and view.screen in (ATTRACT, SETUP):
        screens = {view.screen: join_screen}  # phones may join: the QR code and table code
    screens.get(view.screen, _scoreboard)(draw, view)


# ---- drawing primitives -----------------------------------------------------------------------


def text(draw: Draw, xy: tuple[int, int], words: str) -> None:
    draw.text(xy, _drawable(words[:CHARS]), font=FONT, fill=1)


def big_text(draw: Draw, y: int, words: str, scale: int = 2) -> None:
    """Words in the bitmap font scaled up pixel for pixel, centred across the display."""
    if not words:
        return
    width = min(len(words) * 6, WIDTH // scale)
    small = Image.new("1", (width, 11))
    ImageDraw.Draw(small).text((0, 0), _drawable(words), font=FONT, fill=1)
    large = small.resize((width * scale, 11 * scale), Image.Resampling.NEAREST)
    draw.bitmap(((WIDTH - large.width) // 2, y), large, fill=1)


_SEGMENTS = {
    "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg",
    "5": "acdfg", "6": "acdefg", "7": "abc", "8": "abcdefg", "9": "abcdfg", "-": "g",
}  # fmt: skip


def seven_segment(draw: Draw, x: int, y: int, digit: str) -> None:
    """One digit in seven segments, DIGIT_WIDTH x DIGIT_HEIGHT."""
    w, h, t, mid = DIGIT_WIDTH, DIGIT_HEIGHT, STROKE, DIGIT_HEIGHT // 2
    boxes = {
        "a": (x + t, y, x + w - t - 1, y + t - 1),
        "b": (x + w - t, y + t, x + w - 1, y + mid - 1),
        "c": (x + w - t, y + mid, x + w - 1, y + h - t - 1),
        "d": (x + t, y + h - t, x + w - t - 1, y + h - 1),
        "e": (x, y + mid, x + t - 1, y + h - t - 1),
        "f": (x, y + t, x + t - 1, y + mid - 1),
        "g": (x + t, y + mid - t // 2, x + w - t - 1, y + mid - t // 2 + t - 1),
    }
    for segment in _SEGMENTS[digit]:
        draw.rectangle(boxes[segment], fill=1)


def big_number(draw: Draw, x: int, y: int, number: int) -> None:
    for offset, digit in enumerate(f"{number:>2}"):
        if digit != " ":
            seven_segment(draw, x + offset * (DIGIT_WIDTH + 4), y, digit)


def inverted(draw: Draw, y: int, words: str) -> None:
    """A line of words lit dark on a bright bar: the line the menu has picked."""
    draw.rectangle((0, y, WIDTH - 1, y + LINE - 1), fill=1)
    draw.text((2, y - 1), _drawable(words[: CHARS - 1]), font=FONT, fill=0)


def wrap(words: str, width: int = CHARS) -> list[str]:
    lines, line = [], ""
    for word in words.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line] if line else lines


def names(people: tuple[str, ...], width: int) -> str:
    joined = ", ".join(people)
    return joined if len(joined) <= width else joined[: width - 1] + "~"


# ---- the main display -------------------------------------------------------------------------


def _attract(draw: Draw, view: TableView) -> None:
    big_text(draw, 2, "QWIXX", scale=3)
    text(draw, (14, 40), "press the button")
    text(draw, (20, 52), "to start a game")


def _setup(draw: Draw, view: TableView) -> None:
    big_text(draw, 0, "New game")
    text(draw, (0, 24), view.title)
    text(draw, (0, 34), names(tuple(seat.name for seat in view.seats), CHARS) or "no players")
    for row, line in enumerate(wrap(view.message)[:2]):
        text(draw, (0, 44 + row * LINE), line)


def _roll(draw: Draw, view: TableView) -> None:
    big_text(draw, 0, view.active[:10])
    text(draw, (0, 26), "press to roll")
    _locks_line(draw, view, 38)
    for row, line in enumerate(wrap(view.message)[:1]):
        text(draw, (0, 52 + row * LINE), line)


def _rolling(draw: Draw, view: TableView) -> None:
    big_text(draw, 8, "Rolling" + "." * (view.frame % 4))
    text(draw, (0, 40), f"{view.active}'s roll")


def _turn(draw: Draw, view: TableView) -> None:
    """Action 1 and 2: the white sum large, then dice, and whom the table waits for."""
    text(draw, (0, 0), f"{view.active}'s roll"[:CHARS])
    if view.white_sum is not None:
        big_number(draw, 0, 16, view.white_sum)
    x = 60
    text(draw, (x, 14), f"white {view.white[0]}+{view.white[1]}" if view.white else "")
    faces = [f"{c[0]}{view.colours[c]}" if c in view.colours else f"{c[0]}-" for c in COLOURS]
    text(draw, (x, 24), " ".join(faces[:2]))
    text(draw, (x, 34), " ".join(faces[2:]))
    if view.screen == "action1":
        text(draw, (x, 44), "waiting for")
        text(draw, (x, 54), names(view.waiting_for, 11))
    else:
        text(draw, (x, 44), "action 2:")
        text(draw, (x, 54), f"{view.active[:10]} only")


def _lock(draw: Draw, view: TableView) -> None:
    colour = view.locked[-1] if view.locked else ""
    big_text(draw, 0, colour.upper())
    big_text(draw, 22, "LOCKED")
    text(draw, (0, 44), f"the {colour} die leaves"[:CHARS])
    text(draw, (0, 54), view.message)


def _over(draw: Draw, view: TableView) -> None:
    text(draw, (0, 0), "Game over" + (" - locks" if len(view.locked) >= 2 else ""))
    for row, seat in enumerate(view.seats[:5]):
        star = "*" if seat.name in view.winners else " "
        text(draw, (0, 12 + row * LINE), f"{star}{seat.name[:12]:<12}{seat.total:>5}")


def _error(draw: Draw, view: TableView) -> None:
    big_text(draw, 0, "Problem")
    for row, line in enumerate(wrap(view.message)[:4]):
        text(draw, (0, 24 + row * LINE), line)


def _menu(draw: Draw, view: TableView) -> None:
    """A page of the menu: title, up to four lines (a window around the picked one), hints."""
    page = view.menu
    text(draw, (0, 0), page.title)
    draw.line((0, 11, WIDTH - 1, 11), fill=1)
    room = 4 if len(page.hints) < 2 else 3
    first = min(max(0, page.selected - room + 1), max(0, len(page.lines) - room))
    for row, line in enumerate(page.lines[first : first + room]):
        y = 13 + row * LINE
        if first + row == page.selected:
            inverted(draw, y, line)
        else:
            text(draw, (2, y - 1), line)
    for row, hint in enumerate(page.hints):
        text(draw, (0, HEIGHT - 11 - LINE * (len(page.hints) - 1 - row)), hint)


def _lucky(draw: Draw, view: TableView) -> None:
    """Longo's lucky numbers being chosen: who has them (and which), who the table waits for."""
    inverted(draw, 0, "Lucky numbers")
    for row, seat in enumerate(view.seats[:5]):
        numbers = " ".join(str(n) for n in seat.lucky)
        waiting = seat.name in view.waiting_for
        shown = numbers + " ..." if numbers and waiting else numbers or "waiting"
        text(draw, (0, 9 + row * 9), f"{seat.name[:10]:<10} {shown}")
    text(draw, (0, 53), "tap: draw the rest")


def _locks_line(draw: Draw, view: TableView, y: int) -> None:
    text(draw, (0, y), "locked: " + (", ".join(view.locked) if view.locked else "none"))


def join_screen(draw: Draw, view: TableView) -> None:
    """Between games, when phones may join: a QR code of the join address on the left (dark
    modules on a lit square, as a camera expects), the table code large on the right, and
    the seats (setup) or how to start (attract)."""
    if len(view.seats) >= MAX_SEATS:
        _setup(draw, view)  # five players: nobody can join, the usual screen
        return
    qr_code(draw, view.join_url, HEIGHT)
    x = HEIGHT + 3
    if view.screen == SETUP:
        text(draw, (x, 0), "New game")
        text(draw, (x, 10), f"code {view.join_code}")
        for row, seat in enumerate(view.seats[:4]):
            text(draw, (x, 22 + row * LINE), seat.name[: (WIDTH - x) // 6])
        return
    text(draw, (x, 0), "Phones:")
    text(draw, (x, 10), "scan, code")
    _big_at(draw, (x, 24), view.join_code, scale=2)
    text(draw, (x, 52), "or tap: go")


def qr_code(draw: Draw, data: str, side: int) -> None:
    """`data` as a QR code in the top-left square of `side` pixels, as large as whole pixels
    per module allow, with the quiet zone lit around it."""
    code = segno.make(data, error="l", micro=False)
    modules = code.symbol_size(scale=1, border=0)[0]
    scale = max(1, side // (modules + 2))
    left = (side - modules * scale) // 2
    draw.rectangle((0, 0, side - 1, side - 1), fill=1)
    for y, row in enumerate(code.matrix):
        for x, dark in enumerate(row):
            if dark:
                x0, y0 = left + x * scale, left + y * scale
                draw.rectangle((x0, y0, x0 + scale - 1, y0 + scale - 1), fill=0)


def _big_at(draw: Draw, xy: tuple[int, int], words: str, scale: int) -> None:
    """Words in the bitmap font scaled up pixel for pixel, from `xy`."""
    if not words:
        return
    small = Image.new("1", (len(words) * 6, 11))
    ImageDraw.Draw(small).text((0, 0), _drawable(words), font=FONT, fill=1)
    large = small.resize((small.width * scale, 11 * scale), Image.Resampling.NEAREST)
    draw.bitmap(xy, large, fill=1)


# ---- the options display ----------------------------------------------------------------------


def _options(draw: Draw, view: TableView) -> None:
    """The active player's action-2 sums: white die plus each colour die still in play."""
    text(draw, (0, 0), f"{view.active[:10]}: white+colour")
    for row, colour in enumerate(COLOURS):
        sums = view.colour_sums(colour)
        shown = "  ".join(f"{s:>2}" for s in sums) if sums else "gone"
        text(draw, (0, 14 + row * 12), f"{colour:<7} {shown}")


def _lock_options(draw: Draw, view: TableView) -> None:
    """While a lock is announced: the action-2 sums if the dice are still on the table (a lock
    in action 1), else the scores, as between rolls (a lock in action 2 ended the turn)."""
    (_options if view.white is not None else _scoreboard)(draw, view)


def _scoreboard(draw: Draw, view: TableView) -> None:
    text(draw, (0, 0), "Scores")
    for row, seat in enumerate(view.seats[:5]):
        marks = "x" * seat.penalties
        text(draw, (0, 12 + row * LINE), f"{seat.name[:10]:<10}{seat.total:>4} {marks}")


def _winner(draw: Draw, view: TableView) -> None:
    big_text(draw, 0, "Winner" if len(view.winners) == 1 else "Winners")
    for row, name in enumerate(view.winners[:3]):
        text(draw, (0, 26 + row * LINE), name)


def _menu_help(draw: Draw, view: TableView) -> None:
    """The options display explains the one-button menu."""
    lines = ("The roll button:", "tap it: next", "hold it: choose", "",
             "The menu closes by", f"itself after {IDLE_SECONDS:.0f} s.")  # fmt: skip
    for row, line in enumerate(lines):
        text(draw, (0, row * LINE), line)


def _lucky_help(draw: Draw, view: TableView) -> None:
    """The options display says how a pad enters the lucky numbers."""
    lines = ("On your pad:", "R/Y: down/up", "P: choose it", "hold P: tower draws",
             "U: take back", "Your sheet shows two.")  # fmt: skip
    for row, line in enumerate(lines):
        text(draw, (0, row * LINE), line)


def _message(draw: Draw, view: TableView) -> None:
    for row, line in enumerate(wrap(view.message)[:6]):
        text(draw, (0, row * LINE), line)


MAIN_SCREENS: dict[str, Callable[[Draw, TableView], None]] = {
    ATTRACT: _attract,
    SETUP: _setup,
    "roll": _roll,
    ROLLING: _rolling,
    "action1": _turn,
    "action2": _turn,
    LOCK: _lock,
    "over": _over,
    ERROR: _error,
    MENU: _menu,
    LUCKY: _lucky,
}
OPTIONS_SCREENS: dict[str, Callable[[Draw, TableView], None]] = {
    "action1": _options,
    "action2": _options,
    LOCK: _lock_options,
    "over": _winner,
    ERROR: _message,
    MENU: _menu_help,
    LUCKY: _lucky_help,
}
