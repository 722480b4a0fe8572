"""The tower's screens: pure functions that draw a `TableView` on a 128x64 one-bit canvas.

Two displays: the main one (the white sum large, whose turn, the dice, locks) and the options
one (the active player's action-2 sums per colour, locked colours shown as gone). The white sum
is drawn as seven-segment digits 44 px tall, readable across a table; words use the shipped
10-pixel Unicode bitmap font (`firmware_py.show.font`), so any name is drawn, pictures are the same
on every machine and can be tested as PNGs. Words are measured by the pixels they take, never
by their count of characters: a Chinese name takes twice the room of a Latin one.

A name is never cut (issue 39): each is drawn whole, as large as it fits in its place, in the
small font on two or more lines where it must (`firmware_py.show.whole`), and what still does
not fit (a list of seats, scores) takes turns a page at a time, a name never split across
pages but between its words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache

from PIL import Image, ImageDraw

from firmware_py.menu import IDLE_SECONDS, short_title
from firmware_py.seating import MAX_SEATS
from firmware_py.show.font import FALLBACK, drawable, fit, picture, width
from firmware_py.show.font import HEIGHT as FONT_HEIGHT
from firmware_py.show.panel_charts import star, story_pages
from firmware_py.show.whole import (
    LARGE,
    NAME_SIZES,
    SMALL,
    Size,
    broken_lines,
    fitted,
    name_lines,
    packed,
    word_lines,
)
from firmware_py.view import ATTRACT, ERROR, LOCK, LUCKY, MENU, ROLLING, SETUP, Seat, TableView
from sheets import COLOURS

__all__ = ["FALLBACK", "draw_screen", "render"]

WIDTH, HEIGHT = 128, 64
LINE = 10  # pixels from one line of small text to the next
DIGIT_WIDTH, DIGIT_HEIGHT, STROKE = 24, 44, 5

NEXT_GAME = "press: next game"
WINNER_SIZES = ((3, 3), *NAME_SIZES)  # the winner's name: three times as large where it fits
NOBODY_YET = "no players: join on a pad or phone"
BIG_WORDS_KEPT = 64  # large words (sums, locks, winners) kept as pictures: 2.6 kB each at most

Draw = ImageDraw.ImageDraw


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


def drawn(draw: Draw, xy: tuple[int, int], shown: str, fill: int = 1) -> None:
    """Drawable words at `xy`, the pixels `draw.text` would light in the font, from a picture
    of them rasterised once and kept (`font.picture`)."""
    image, (left, top) = picture(shown)
    draw.bitmap((xy[0] + left, xy[1] + top), image, fill=fill)


def text(draw: Draw, xy: tuple[int, int], words: str, room: int | None = None) -> None:
    """Small words at `xy`, cut to `room` pixels (to the right edge unless given)."""
    drawn(draw, xy, fit(words, WIDTH - xy[0] if room is None else room))


def right(draw: Draw, x: int, y: int, words: str) -> None:
    """Small words that end at `x` (numbers in a column)."""
    drawn(draw, (x - width(words), y), drawable(words))


def big_text(draw: Draw, y: int, words: str, scale: int = 2, fill: int = 1) -> None:
    """Words in the bitmap font scaled up pixel for pixel, centred across the display (dark
    on a lit bar with `fill` 0)."""
    shown = fit(words, WIDTH // scale)
    if not shown:
        return
    large = _enlarged(shown, (scale, scale))
    draw.bitmap(((WIDTH - large.width) // 2, y), large, fill=fill)


@lru_cache(maxsize=BIG_WORDS_KEPT)
def _enlarged(shown: str, size: Size) -> Image.Image:
    """Drawable words in the font, larger pixel for pixel (`size`: times across, times
    down): kept, so shared and never drawn on."""
    small = Image.new("1", (max(1, width(shown)), FONT_HEIGHT))
    drawn(ImageDraw.Draw(small), (0, 0), shown)
    across, down = size
    return small.resize((small.width * across, small.height * down), Image.Resampling.NEAREST)


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
    """A line of words lit dark on a bright bar: the line the menu has picked, a lock."""
    draw.rectangle((0, y, WIDTH - 1, y + LINE - 1), fill=1)
    drawn(draw, (2, y), fit(words, WIDTH - 4), fill=0)


def centred(draw: Draw, y: int, words: str) -> None:
    shown = fit(words, WIDTH)
    drawn(draw, ((WIDTH - width(shown)) // 2, y), shown)


def wrap(words: str, room: int = WIDTH) -> list[str]:
    """`words` in lines of at most `room` pixels, broken where a line may break (a word
    longer than a line split, never cut)."""
    return [line for line in name_lines(words, room) if line]


def people(names: tuple[str, ...], room: int, lines: int = 1, page: int = 0) -> list[str]:
    """As many of `names` as fit whole in `lines` lines of `room` pixels, the rest counted:
    "Alexandra, Ben +2". Where not even the first fits with the count, every name in turns,
    a page of `lines` lines at a time: a name is never cut."""
    if not names:
        return []
    shown = [drawable(name) for name in names]
    for count in range(len(shown), 0, -1):
        rest = len(shown) - count
        wrapped = word_lines(", ".join(shown[:count]) + (f" +{rest}" if rest else ""), room)
        if wrapped is not None and len(wrapped) <= lines:
            return wrapped
    return paged(broken_lines(", ".join(shown), room), lines, page)


def draw_lines(draw: Draw, xy: tuple[int, int], lines: tuple[str, ...], size: Size = SMALL,
               centre: bool = False) -> None:  # fmt: skip
    """Drawable lines from `xy` down at `size` (times the small letters across, and down),
    each centred across the display with `centre`."""
    for row, line in enumerate(lines):
        y = xy[1] + row * FONT_HEIGHT * size[1]
        x = (WIDTH - width(line) * size[0]) // 2 if centre else xy[0]
        if size == SMALL:
            drawn(draw, (x, y), line)
        elif line:
            draw.bitmap((x, y), _enlarged(line, size), fill=1)


def name_in(draw: Draw, xy: tuple[int, int], name: str, box: tuple[int, int], page: int,
            sizes: tuple[Size, ...] = NAME_SIZES, centre: bool = False) -> None:  # fmt: skip
    """A name whole in a box (`box` pixels across and down from `xy`), as large as it fits;
    in turns, a page at a time, only where it fits the box at no size."""
    shape = fitted(name, box[0], box[1], sizes)
    draw_lines(draw, xy, shape.page(page), shape.size, centre)


def variant_name(title: str) -> str:
    """The variant a sheet's title names: "Qwixx Longo" as "Longo", "Qwixx" as "classic"."""
    short = short_title(title)
    return "classic" if short == "Qwixx" else short


def lucky_seats(view: TableView) -> tuple[str, ...]:
    """Longo: the players whose lucky numbers include the white sum (a lucky cross is theirs)."""
    total = view.white_sum
    return tuple(seat.name for seat in view.seats if total is not None and total in seat.lucky)


# ---- the main display -------------------------------------------------------------------------


def _attract(draw: Draw, view: TableView) -> None:
    """Power-on and between games: the variant, the seats, and how to start."""
    big_text(draw, 0, "QWIXX", scale=3)
    centred(draw, 26, variant_name(view.title))
    seated = tuple(seat.label for seat in view.seats)
    line = (people(seated, WIDTH, page=view.page) or ["no players yet"])[0]
    centred(draw, 38, line if view.title else "")
    centred(draw, 52, "press to start")


def _setup(draw: Draw, view: TableView) -> None:
    big_text(draw, 0, "New game")
    text(draw, (0, 22), view.title)
    seated = tuple(seat.label for seat in view.seats)
    text(draw, (0, 32), (people(seated, WIDTH, page=view.page) or ["no players"])[0])
    for row, line in enumerate(paged(wrap(view.message), 2, view.page)):
        text(draw, (0, 43 + row * LINE), line)


def _roll(draw: Draw, view: TableView) -> None:
    name_in(draw, (0, 0), view.active, (WIDTH, 20), view.page, centre=True)
    text(draw, (0, 23), "press to roll")
    _locks_line(draw, view, 35)
    for row, line in enumerate(paged(wrap(view.message), 1, view.page)):
        text(draw, (0, 52 + row * LINE), line)


def paged(lines: list[str], room: int, page: int) -> list[str]:
    """The lines of this page, `room` lines a page: a long message takes turns, whole."""
    pages = max(1, -(-len(lines) // room))
    first = (page % pages) * room
    return lines[first : first + room]


def _rolling(draw: Draw, view: TableView) -> None:
    big_text(draw, 4, "Rolling" + "." * (view.frame % 4))
    name_in(draw, (0, 34), view.active, (WIDTH, 30), view.page, centre=True)  # whose roll


def _turn(draw: Draw, view: TableView) -> None:
    """Action 1 and 2: whose roll and the white sum large, the dice, and large, a name a page,
    whom the table waits for."""
    whose = f"{view.active}'s roll"
    if width(whose) * 2 <= WIDTH:
        draw_lines(draw, (0, 0), (drawable(whose),), LARGE)
    else:
        name_in(draw, (0, 0), view.active, (WIDTH, 20), view.page)
    _dice(draw, view)


def _dice(draw: Draw, view: TableView) -> None:
    """Below the top line: the white sum large on the left; beside it the dice, and a name
    large a page: whom the table waits for, whose lucky number the sum is."""
    if view.white_sum is not None:
        big_number(draw, 0, 20, view.white_sum)
    x, room = 57, WIDTH - 58  # one pixel spare at the right edge (burn-in shift)
    faces = [f"{c[0]}{view.colours[c]}" if c in view.colours else f"{c[0]}-" for c in COLOURS]
    text(draw, (x, 21), " ".join(faces))
    pages = _named(view, room)
    if pages:
        label, lines, size = pages[view.page % len(pages)]
        text(draw, (x, 32), label)
        draw_lines(draw, (x, 43), lines, size)


def _named(view: TableView, room: int) -> list[tuple[str, tuple[str, ...], Size]]:
    """The names beside the sum, one a page, with what each is: in action 2 the active player
    alone; in action 1 whose lucky number the sum is (longo), then whom the table waits for.
    Each name is drawn whole in the room below its label: large, tall, or small on two
    lines."""
    if view.screen == "action2":
        named = [("action 2 only:", view.active)]
    else:
        lucky = [("lucky number:", name) for name in lucky_seats(view)]
        named = lucky + [("waiting for", name) for name in view.waiting_for]
    shapes = [(label, fitted(name, room, HEIGHT - 43)) for label, name in named]
    return [(label, lines, shape.size) for label, shape in shapes for lines in shape.pages]


def _lock(draw: Draw, view: TableView) -> None:
    """A lock announced. With the dice still on the table (a lock in action 1) the white sum
    stays in sight below the notice: the others are still deciding."""
    colour = view.locked[-1] if view.locked else ""
    if view.white is not None:
        _lock_bar(draw, colour.upper())
        _dice(draw, view)
        return
    big_text(draw, 0, colour.upper())
    big_text(draw, 21, "LOCKED")
    lines = wrap(f"the {colour} die leaves") + wrap(view.message)
    for row, line in enumerate(paged(lines, 2, view.page)):
        text(draw, (0, 43 + row * LINE), line)


def _lock_bar(draw: Draw, colour: str) -> None:
    """A lit bar across the top, the lock dark on it: "GREEN LOCKED" large, or the colour
    large and "LOCKED" beside it where both do not fit large."""
    draw.rectangle((0, 0, WIDTH - 1, 19), fill=1)
    words = f"{colour} LOCKED"
    if width(words) * 2 <= WIDTH - 4:
        big_text(draw, 0, words, fill=0)
        return
    _big_at(draw, (2, 0), colour, scale=2, fill=0)
    drawn(draw, (6 + 2 * width(colour), 5), "LOCKED", fill=0)


def _over(draw: Draw, view: TableView) -> None:
    """After a game the pages take turns: the final scores, and how phones join. A page that
    takes turns itself (scores of long names) turns once a round."""
    pages = over_pages(view)
    pages[view.page % len(pages)](draw, replace(view, page=view.page // len(pages)))


def over_pages(view: TableView) -> list[Callable[[Draw, TableView], None]]:
    """The winner large, the scores (with how to start the next game below them when there
    is room), each player's bars and the game's story (`panel_charts`), then the QR code and
    table code while phones may join, else how to start on a page alone."""
    results = [_winner, _final_scores, *story_pages(view)]
    if view.join_url and len(view.seats) < MAX_SEATS:
        return [*results, _join_next_game]
    if len(view.seats) >= MAX_SEATS:
        return [*results, _next_game]
    return results


def _final_scores(draw: Draw, view: TableView) -> None:
    """The final scores, highest first; a star before each winner."""
    text(draw, (0, 0), "Game over" + (" - locks" if len(view.locked) >= 2 else ""))
    ranked = sorted(view.seats, key=lambda seat: -seat.total)
    names = [name_lines(seat.name, WIDTH - 10 - width(" 999")) for seat in ranked]
    pages = packed([len(lines) for lines in names], 5 if len(ranked) >= MAX_SEATS else 4)
    y = 11
    for index in pages[view.page % len(pages)]:
        seat = ranked[index]
        if seat.name in view.winners:
            star(draw, 0, y + 1)
        right(draw, WIDTH - 1, y, str(seat.total))
        draw_lines(draw, (10, y), tuple(names[index]))
        y += LINE * len(names[index])
    if len(ranked) < MAX_SEATS:
        text(draw, (0, 54), NEXT_GAME)


def _join_next_game(draw: Draw, view: TableView) -> None:
    """The QR code of the join address, the table code large beside it, how to start."""
    qr_code(draw, view.join_url, HEIGHT)
    x = HEIGHT + 3
    text(draw, (x, 0), "Phones:")
    text(draw, (x, 10), "scan, code")
    _big_at(draw, (x, 22), view.join_code, scale=2)
    text(draw, (x, 44), "press:")
    text(draw, (x, 54), "next game")


def _next_game(draw: Draw, view: TableView) -> None:
    big_text(draw, 8, "Next game?")
    centred(draw, 36, "press the")
    centred(draw, 46, "roll button")


def _error(draw: Draw, view: TableView) -> None:
    big_text(draw, 0, "Problem")
    for row, line in enumerate(paged(wrap(view.message), 4, view.page)):
        text(draw, (0, 22 + row * LINE), line)


def _menu(draw: Draw, view: TableView) -> None:
    """A page of the menu: title, up to four lines (a window around the picked one), hints."""
    page = view.menu
    if page is None:
        return
    text(draw, (0, 0), page.title)
    draw.line((0, 11, WIDTH - 1, 11), fill=1)
    room = 4 if len(page.hints) < 2 else 3
    first = min(max(0, page.selected - room + 1), max(0, len(page.lines) - room))
    for row, line in enumerate(page.lines[first : first + room]):
        y = 13 + row * LINE
        if first + row == page.selected:
            inverted(draw, y, line)
        else:
            text(draw, (2, y), line)
    for row, hint in enumerate(page.hints):
        text(draw, (0, HEIGHT - LINE - LINE * (len(page.hints) - 1 - row)), hint)


def _lucky(draw: Draw, view: TableView) -> None:
    """Longo's lucky numbers being chosen: who has them (and which), who the table waits for."""
    inverted(draw, 0, "Lucky numbers")
    rows = [_seat_rows(seat.name, 62) for seat in view.seats]
    y = 10
    for index in _table_page(rows, 5, view.page):
        seat = view.seats[index]
        numbers = " ".join(str(n) for n in seat.lucky)
        waiting = seat.name in view.waiting_for
        shown = numbers + " ..." if numbers and waiting else numbers or "waiting"
        *above, name = rows[index]
        for line in above:
            drawn(draw, (0, y), line)
            y += 9
        drawn(draw, (0, y), name)
        text(draw, (64, y), shown)
        y += 9
    text(draw, (0, 54), "tap: draw the rest")


def _seat_rows(name: str, room: int) -> list[str]:
    """A seat's name in a table of seats: [the name] where it fits the name's column of
    `room` pixels; else its lines across the display and "" in the column, a row of its own
    for the seat's numbers."""
    shown = drawable(name)
    return [shown] if width(shown) <= room else [*name_lines(name, WIDTH), ""]


def _table_page(rows: list[list[str]], lines: int, page: int) -> range:
    """Which seats of a table of seats (each `rows` lines) show on this page of `lines`."""
    pages = packed([len(each) for each in rows], lines)
    return pages[page % len(pages)]


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
        _join_setup(draw, view, x)
        return
    text(draw, (x, 0), "Phones:")
    text(draw, (x, 10), "scan, code")
    _big_at(draw, (x, 24), view.join_code, scale=2)
    text(draw, (x, 52), "or tap: go")


def _join_setup(draw: Draw, view: TableView, x: int) -> None:
    """Beside the QR code: the variant, the table code large (as large as on the other join
    screens: it is typed from across the table), the seats and "press: start"; with nobody
    seated, how to join instead (the kiosk at power-on)."""
    room = WIDTH - x
    text(draw, (x, 0), variant_name(view.title) if view.title else "New game")
    _big_at(draw, (x, 11), view.join_code, scale=2)
    seated = tuple(seat.label for seat in view.seats)
    if not seated:
        for row, line in enumerate(wrap(NOBODY_YET, room)[:3]):
            text(draw, (x, 33 + row * LINE), line)
        return
    lines = [drawable(name) for name in seated]  # two rows under the code, whole names
    if len(lines) > 2 or any(width(line) > room for line in lines):
        lines = people(seated, room, 2, view.page)
    for row, line in enumerate(lines):
        text(draw, (x, 33 + row * LINE), line)
    text(draw, (x, 54), "press: start")


def qr_code(draw: Draw, data: str, side: int) -> None:
    """`data` as a QR code in the top-left square of `side` pixels, as large as whole pixels
    per module allow, with the quiet zone lit around it."""
    draw.rectangle((0, 0, side - 1, side - 1), fill=1)
    draw.bitmap((0, 0), _dark_modules(data, side), fill=0)


@lru_cache(maxsize=4)  # the join address changes with the table code, once a game at most
def _dark_modules(data: str, side: int) -> Image.Image:
    """The QR code's dark modules in a square of `side` pixels: kept, shared, never drawn on."""
    import segno  # (only where phones may join: a tower without them never loads it)

    code = segno.make(data, error="l", micro=False)
    modules = code.symbol_size(scale=1, border=0)[0]
    scale = max(1, side // (modules + 2))
    left = (side - modules * scale) // 2
    picture = Image.new("1", (side, side))
    draw = ImageDraw.Draw(picture)
    for y, row in enumerate(code.matrix):
        for x, dark in enumerate(row):
            if dark:
                x0, y0 = left + x * scale, left + y * scale
                draw.rectangle((x0, y0, x0 + scale - 1, y0 + scale - 1), fill=1)
    return picture


def _big_at(draw: Draw, xy: tuple[int, int], words: str, scale: int, fill: int = 1) -> None:
    """Words in the bitmap font scaled up pixel for pixel, from `xy`."""
    if words:
        draw.bitmap(xy, _enlarged(drawable(words), (scale, scale)), fill=fill)


# ---- the options display ----------------------------------------------------------------------


def _options(draw: Draw, view: TableView) -> None:
    """The active player's action-2 sums: white die plus each colour die still in play; in
    Longo, the active player's lucky numbers below. While the table waits for a player whose
    pad or phone has gone, who it is and that a press plays on without them instead."""
    if view.absent:
        for row, line in enumerate(paged(wrap(view.absent), 6, view.page)):
            text(draw, (0, row * LINE), line)
        return
    header = f"{view.active}: white+colour"
    if width(header) <= WIDTH:
        text(draw, (0, 0), header)
    else:  # the active player's name alone, whole
        name_in(draw, (0, 0), view.active, (WIDTH, LINE), view.page, (SMALL,))
    for row, colour in enumerate(COLOURS):
        sums = view.colour_sums(colour)
        y = 12 + row * LINE
        text(draw, (0, y), colour)
        text(draw, (40, y), "  ".join(f"{s:>2}" for s in sums) if sums else "gone")
    if view.bonus_boxes:  # Big Points: the bonus boxes those sums reach on the sheet
        text(draw, (0, 54), _bonus_line(view.bonus_boxes))
    if view.double_crosses:  # Double: the crosses worth two those sums reach ("x2 R5 G9")
        text(draw, (0, 54), _bonus_line(view.double_crosses, "x2"))
    elif view.swaps and view.white_sum is not None:  # X-Change, action 1: what the sum trades for
        text(draw, (0, 54), _swap_line(view.white_sum, view.swaps))
    elif view.connections:  # Connected: the chain's crosses or stair cells ("chain R6+Y6")
        text(draw, (0, 54), _bonus_line(view.connections, view.connected))
    active = next((seat for seat in view.seats if seat.name == view.active), None)
    if active is not None and active.lucky:
        lucky = "lucky: " + " ".join(map(str, sorted(active.lucky)))
        whose = f"{view.active}'s {lucky}"
        text(draw, (0, 54), whose if width(whose) <= WIDTH else lucky)  # the name is above


def _bonus_line(boxes: tuple[str, ...], word: str = "bonus") -> str:
    """ "bonus RY5 GB9": as many of the boxes as the line holds, and "+" if more."""
    line = word
    for shown, box in enumerate(boxes):
        longer = f"{line} {box.replace(' ', '')}"
        more = " +" if shown + 1 < len(boxes) else ""
        if width(longer + more) > WIDTH:
            return line + " +"
        line = longer
    return line


def _swap_line(total: int, swaps: tuple[tuple[int, int], ...]) -> str:
    """ "swap 11: 3 X3, 9 X8": the numbers X-Change fields trade the white sum for, with the
    field, as many as the line holds."""
    line = f"swap {total}:"
    for shown, (field, number) in enumerate(swaps):
        longer = f"{line}{',' if shown else ''} {number} X{field}"
        if width(longer) > WIDTH:
            return line + " +"
        line = longer
    return line


def _lock_options(draw: Draw, view: TableView) -> None:
    """While a lock is announced: the action-2 sums if the dice are still on the table (a lock
    in action 1), else the scores, as between rolls (a lock in action 2 ended the turn)."""
    (_options if view.white is not None else _scoreboard)(draw, view)


def _scoreboard(draw: Draw, view: TableView) -> None:
    """Every seat's score and penalties (x each); in Longo, their lucky numbers. With nobody
    seated (the kiosk at power-on), how to join and start instead of an empty list."""
    if not view.seats and view.screen in (ATTRACT, SETUP):
        _how_to_join(draw, view)
        return
    longo = any(seat.lucky for seat in view.seats)
    text(draw, (0, 0), "Scores")
    if longo:
        text(draw, (97, 0), "lucky")
    rows = [_seat_rows(seat.name, 50) for seat in view.seats]
    y = 11
    for index in _table_page(rows, 5, view.page):
        *above, name = rows[index]
        draw_lines(draw, (0, y), tuple(above))
        y += LINE * len(above)
        _score_line(draw, view.seats[index], name, y)
        y += LINE


def _how_to_join(draw: Draw, view: TableView) -> None:
    """Between games with nobody seated: how people join, and how they start."""
    phone = ", or scan the code with a phone" if view.join_url else ""
    words = (f"Nobody is seated yet. To join, press a button on a pad{phone}. "
             "Then press the roll button to start.")  # fmt: skip
    for row, line in enumerate(wrap(words)[:6]):
        text(draw, (0, row * LINE), line)


def _score_line(draw: Draw, seat: Seat, name: str, y: int) -> None:
    """A seat's row of scores: its name (drawable, fitting 50 pixels, or "" when the name
    has lines of its own above), total, penalties and lucky numbers."""
    drawn(draw, (0, y), name)
    right(draw, 68, y, str(seat.total))
    text(draw, (72, y), "x" * seat.penalties, room=24)
    text(draw, (97, y), " ".join(map(str, sorted(seat.lucky))))


def _winner(draw: Draw, view: TableView) -> None:
    """The winner's name as large as it fits, whole (the longest name on one small line);
    two winners each on a line of their own, more a line each or listed."""
    winners = view.winners
    centred(draw, 0, "Winner" if len(winners) == 1 else "Winners")
    points = {seat.name: seat.total for seat in view.seats}
    if len(winners) == 1:
        name_in(draw, (0, 13), winners[0], (WIDTH, 40), view.page, WINNER_SIZES, centre=True)
    elif len(winners) == 2:
        for row, name in enumerate(winners):
            name_in(draw, (0, 11 + row * 20), name, (WIDTH, 20), view.page, centre=True)
    else:
        draw_lines(draw, (0, 11), tuple(_listed(winners, view.page)), centre=True)
    if winners and winners[0] in points:
        centred(draw, 53, f"{points[winners[0]]} points" + (" each" if len(winners) > 1 else ""))


def _listed(names: tuple[str, ...], page: int) -> list[str]:
    """Three to five names in four lines: a line each where they fit, else listed with
    commas, in turns."""
    lines = [drawable(name) for name in names]
    if len(lines) <= 4 and all(width(line) <= WIDTH for line in lines):
        return lines
    return paged(broken_lines(", ".join(lines), WIDTH), 4, page)


def _attract_options(draw: Draw, view: TableView) -> None:
    """Between games the options display carries the table's last word when it has one
    ("nobody is seated: ..."), else the scores."""
    (_message if view.message else _scoreboard)(draw, view)


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
    for row, line in enumerate(paged(wrap(view.message), 6, view.page)):
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
    ATTRACT: _attract_options,
    "action1": _options,
    "action2": _options,
    LOCK: _lock_options,
    "over": _winner,
    ERROR: _message,
    MENU: _menu_help,
    LUCKY: _lucky_help,
}
