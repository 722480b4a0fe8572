"""The simulated tower in a terminal: its two displays, its lock lights, its news, a prompt.

The displays are luma devices (the dummy device keeps the last frame); this module shows their
pictures, drawn in Braille dots (2x4 pixels per character, so a 128x64 panel is 64x16
characters), when the terminal is large enough, and always the moment in words: the white sum,
whose turn it is, the options and the keyboard player's prompt fit in 80x24. The screen is
redrawn in place (cursor addressing on the terminal's alternate screen: home, each line
overwritten and cleared to its end, the rest cleared), so nothing flickers or floods the
scrollback. The terminal only draws: the keyboard is a door of the seats stage
(`firmware_py.seats.keyboard`), whose question it draws as its `Prompt`.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable, Mapping
from typing import Protocol, TextIO

from PIL import Image

from drivers.display import Display
from drivers.lights import LockLights
from firmware_py.rules.connections import step_crosses
from firmware_py.rules.doubles import second_positions
from firmware_py.show.blocks import breakdown_lines, cells, in_cells, story_lines
from firmware_py.view import ATTRACT, ERROR, LUCKY, MENU, ROLLING, SETUP, TableView
from sheets import COLOURS

BRAILLE_BASE = 0x2800
# Braille dot bit for the pixel at (x, y) inside a 2x4 cell.
_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
NEWS_LINES = 8


def braille(image: Image.Image) -> list[str]:
    """A one-bit picture as lines of Braille characters."""
    image = image.convert("1")
    width, height = image.size
    pixels = image.load()
    if pixels is None:  # Pillow has no pixels to read in an image without data
        return []
    lines = []
    for top in range(0, height, 4):
        chars = []
        for left in range(0, width, 2):
            bits = 0
            for dy in range(4):
                for dx in range(2):
                    x, y = left + dx, top + dy
                    if x < width and y < height and pixels[x, y]:
                        bits |= _DOTS[dy][dx]
            chars.append(chr(BRAILLE_BASE + bits))
        lines.append("".join(chars))
    return lines


def framed(lines: list[str], title: str) -> list[str]:
    width = len(lines[0])
    top = f"┌─ {title} " + "─" * max(0, width - len(title) - 3) + "┐"
    return [top, *(f"│{line}│" for line in lines), "└" + "─" * width + "┘"]


ALTERNATE_SCREEN, MAIN_SCREEN = "\x1b[?1049h", "\x1b[?1049l"
HOME, CLEAR_LINE, CLEAR_REST = "\x1b[H", "\x1b[K", "\x1b[J"
LAST_WORDS = 5  # lines of news left in the terminal when the tower stops
COLUMNS_PLAIN = 100  # --plain: options wrap at this width
NAME_WIDTH = 10


def cut(line: str, columns: int) -> str:
    """A line no wider than the terminal (a longer one would wrap and scroll the screen)."""
    return line if len(line) <= columns else line[: max(columns - 1, 0)] + "~"


def in_place(lines: list[str]) -> str:
    """What redraws the screen with `lines` without clearing it first (no flicker): home, each
    line written over the old one and cleared to its end, the rest of the screen cleared. The
    last line ends without a new line, or the screen would scroll up by one."""
    return HOME + "\r\n".join(line + CLEAR_LINE for line in lines) + CLEAR_REST


def wrapped(words: str, columns: int) -> list[str]:
    """Words in lines of at most `columns` characters, broken at double spaces or spaces."""
    lines: list[str] = []
    line = ""
    for word in words.split(" "):
        if line and len(line) + 1 + len(word) > columns:
            lines.append(line.rstrip())
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line.rstrip()] if line.strip() else lines


def status_lines(view: TableView) -> list[str]:
    """The moment in words, from the view the displays draw: the white sum and the dice,
    whose turn, whom the table waits for, the menu, a message."""
    screen = view.screen
    if screen == MENU and view.menu is not None:
        menu = view.menu
        items = [("> " if i == menu.selected else "  ") + line for i, line in
                 enumerate(menu.lines)]  # fmt: skip
        return [f"menu: {menu.title}", *items, "  " + "; ".join(menu.hints)]
    if screen in (ERROR, ATTRACT, SETUP):
        seats = ", ".join(seat.label for seat in view.seats) or "nobody is seated yet"
        first = f"{view.title}: {seats}" if view.title else "Qwixx"
        return [first, view.message] if view.message else [first]
    if screen == LUCKY:
        chosen = "; ".join(f"{s.name} {','.join(map(str, s.lucky)) or '-'}" for s in view.seats)
        return [f"{view.title}: lucky numbers: {chosen}",
                "waiting for " + ", ".join(view.waiting_for)]  # fmt: skip
    if screen == ROLLING:
        return [f"{view.active} rolls ..."]
    return _game_lines(view)


def _game_lines(view: TableView) -> list[str]:
    locked = f"   locked: {', '.join(view.locked)}" if view.locked else ""
    if view.screen == "over":
        return [f"Game over: {' and '.join(view.winners)} won{locked}"]
    if view.white is None or view.screen == "roll":
        return [f"{view.title}: {view.active} rolls next: press Enter{locked}"]
    white_1, white_2 = view.white
    dice = "  ".join(f"{colour} {face}" for colour, face in view.colours.items())
    first = f"white {white_1}+{white_2} = {view.white_sum}   {dice}   {view.active}'s roll"
    if view.screen == "action2":
        waiting = f"action 2: {view.active} may add a white and a colour die"
    else:
        waiting = "action 1: waiting for " + (", ".join(view.waiting_for) or "nobody")
    return [first + locked, waiting, *filter(None, [view.absent])]


def initials(row: str) -> str:
    """A row's letters: "R" for red, "RY" for Big Points' red-yellow bonus row."""
    return "".join(part[0].upper() for part in row.split("-"))


def crosses_counted(rows: list[tuple[str, list[str], str]]) -> str:
    """How many crosses each row has, in words: "crosses 6 red, 2 yellow+lock, 0 green, 3 blue"
    (a count written "R:6" reads as the red 6, to the eye and to a screen reader)."""
    counts = [sum(2 if x.endswith("x2") else 1 for x in n) for _, n, _ in rows]  # Double: "5x2"
    return "crosses " + ", ".join(
        f"{count} {colour}{lock}" for count, (colour, _, lock) in zip(counts, rows, strict=True)
    )


def chart_parts(view: TableView, columns: int = 80) -> list[list[str]]:
    """At game over, the game's figures in block characters: the breakdown's lines, then the
    story's (none before the end, or without a story)."""
    if view.story is None or view.screen != "over":
        return []
    return [breakdown_lines(view.story.breakdown), story_lines(view.story, columns)]


class Prompt(Protocol):
    """What the terminal asks under the tower (the keyboard's question, `seats.keyboard`)."""

    @property
    def attached(self) -> bool: ...
    def question(self) -> tuple[str, list[str]]: ...
    def key(self) -> tuple[object, ...]: ...


class NoPrompt:
    """A terminal without a keyboard (the demo): only how to stop."""

    attached = False

    def question(self) -> tuple[str, list[str]]:
        return "", ["Ctrl-C: stop"]

    def key(self) -> tuple[object, ...]:
        return ()


Footer = Callable[[TableView], list[str]]  # more lines under the news, from the view


class Terminal:
    """Draws the table after every change: its `displays`' pictures, its `lights`, the moment
    in words, the news, the `prompt`'s question."""

    def __init__(
        self,
        displays: Mapping[str, Display],
        lights: LockLights,
        *,
        prompt: Prompt | None = None,
        out: TextIO = sys.stdout,
        full_screen: bool = True,
        size: Callable[[], os.terminal_size] = shutil.get_terminal_size,
        said_elsewhere: Callable[[str], bool] = lambda line: False,
    ) -> None:
        self.displays = displays
        self.lights = lights
        self.prompt = prompt or NoPrompt()
        self.out = out
        self.full_screen = full_screen
        self.size = size
        self.said_elsewhere = said_elsewhere  # plain: a line of news the log has said already
        self._printed_news = 0
        self.footers: list[Footer] = []  # more lines to show under the news
        self._seen = -1  # the version of the table last drawn
        self._view = TableView(ATTRACT)
        self._asked: tuple[object, ...] = ()  # the question last printed (plain)
        self._opened = False  # the alternate screen is in use
        self._closed = False  # the terminal is given back: nothing is drawn any more
        self._status: list[str] = []  # --plain: the between-games lines last printed

    def refresh(self, view: TableView) -> None:
        """Draw the table after a change (the displays' own frames in between need no redraw)."""
        if view.version == self._seen or self._closed:
            return
        self._seen = view.version
        self._view = view
        if self.full_screen:
            self.redraw()
        else:
            self._print_plain(view)
        self.out.flush()

    def keyboard_ready(self) -> None:
        """The keyboard was attached: plain, the page it starts from (shown before it)."""
        if not self.full_screen and self._seen >= 0:
            self._print_plain(self._view)
            self.out.flush()

    def redraw(self) -> None:
        """The whole screen, in place: home, every line overwritten and cleared to its end,
        the rest of the screen cleared; the cursor ends on the prompt."""
        if self._closed:
            return
        if not self._opened:
            self.out.write(ALTERNATE_SCREEN)
            self._opened = True
        columns, rows = self.size()
        # The last row stays free: Enter typed on the prompt line moves down to it (the
        # terminal echoes it) instead of scrolling the screen.
        lines = [cut(line, columns) for line in self.screen_lines(columns, rows - 1)]
        self.out.write(in_place(lines))
        self.out.flush()

    def close(self) -> None:
        """Leave the alternate screen, and leave the last news in the terminal; a change at
        the table after this (a pad's last frame as the hub closes) draws nothing, so the
        terminal is not taken back into the alternate screen, with nobody to leave it."""
        self._closed = True
        if self._opened:
            self.out.write(MAIN_SCREEN)
            self._opened = False
            for line in list(self._view.news)[-LAST_WORDS:]:
                self.out.write(line + "\n")
            self.out.flush()

    def _print_plain(self, view: TableView) -> None:
        """Plain lines: the news told since the last change (but what the log has said, which
        shares systemd's journal with these lines), then a keyboard seat's question when it is
        a new one."""
        fresh = min(view.news_count - self._printed_news, len(view.news))
        for line in view.news[len(view.news) - fresh :]:
            if not self.said_elsewhere(line):
                self.out.write(line + "\n")
        self._printed_news = view.news_count
        if view.ended:  # the game's figures, once, under its last news
            self.out.writelines(line + "\n" for part in chart_parts(view) for line in part)
        if self.prompt.attached and view.screen in (SETUP, MENU, LUCKY):
            status = status_lines(view)  # between games and in the menu: the page, once
            if status != self._status:  # (a message printed as news is not printed again)
                self.out.write("".join(line + "\n" for line in status if line not in view.news))
            self._status = status
        question = self.prompt.key()
        if question != self._asked:
            self._asked = question
            words, _ = self.prompt.question()
            if words:  # a question to a keyboard seat, not how to press the button
                for line in self._question_lines(COLUMNS_PLAIN):
                    self.out.write(line + "\n")

    def screen_lines(self, columns: int | None = None, rows: int | None = None) -> list[str]:
        """What fits in `columns` x `rows` (the terminal's size by default), most needed first:
        the moment in words and the prompt, the players, at game over the game's figures, the
        lock lights, both displays, the footers, then as much news as is left room for."""
        if columns is None or rows is None:
            columns, rows = self.size()
        status = self._status_lines()
        prompt = [line for line in self._question_lines(columns) if line not in status]
        seats = self._seat_lines(columns)
        room = rows - len(status) - len(prompt)
        seats = seats if len(seats) <= room else []
        room -= len(seats)
        charts: list[str] = []  # at game over, the figures: each part only where it fits
        for part in chart_parts(self._view, columns):
            charts += part if len(charts) + len(part) < room else []
        room -= len(charts) + 1
        lights = [self._lights_line()] if room >= 0 else []
        panels = self._panels(columns)
        panels = panels if len(panels) <= room else []
        room -= len(panels)
        footer = [line for lines in self.footers for line in lines(self._view)]
        footer = footer if len(footer) <= room else []
        room -= len(footer)
        news = [  # whole, wrapped: a refusal's point is at its end
            part
            for line in self._view.news
            if line not in status  # (not said twice)
            for part in wrapped(line, columns)
        ]
        news = news[-room:] if room > 0 else []
        return [*panels, *lights, *status, *seats, *charts, *news, *footer, *prompt][:rows]

    def _panels(self, columns: int) -> list[str]:
        """Both displays side by side, or the main display alone, or none: what fits."""
        main = framed(braille(self._picture("main")), "main display")
        options = framed(braille(self._picture("options")), "options display")
        if columns >= 2 * len(main[0]) + 2:
            return [f"{a}  {b}" for a, b in zip(main, options, strict=True)]
        return main if columns >= len(main[0]) else []

    def _status_lines(self) -> list[str]:
        return status_lines(self._view)

    def _seat_lines(self, columns: int) -> list[str]:
        """Each player's sheet in one line: total, crosses per row, penalties; the numbers
        crossed where the line has room ("R:2,5"), else how many in words ("crosses 2 red"),
        which no reader takes for a number crossed, as "R:2" was taken for red 2."""
        game = self._view.game
        if game is None:
            return []
        lines = []
        for player in game.players:
            mark = ">" if player.name == game.active_name and not game.over else " "
            head = f"{mark}{in_cells(player.name, NAME_WIDTH)}{game.total(player.name):>4}  "
            tail = f"  penalties {player.penalties}"
            if game.sheet.swaps:  # X-Change: the fields used ("X:3,6"), before the penalties
                used = [str(k + 1) for k in range(len(game.sheet.swaps)) if player.swaps >> k & 1]
                tail = f"  X:{','.join(used) or '-'}" + tail
            if player.pad is not None and player.pad.steps:  # Connected: the stair's crosses
                tail = f"  stair {step_crosses(player)}" + tail
            rows = []
            for row, colour in enumerate(game.sheet.row_names):  # Big Points: bonus rows last
                numbers = game.sheet.row_numbers(row)
                doubled = second_positions(player, row) if game.sheet.has_doubles else []
                crossed = [
                    f"{numbers[p]}{'x2' * (p in doubled)}" for p in player.crossed_positions(row)
                ]
                lock = "+lock" if player.has_locked(row) else ""
                rows.append((colour, crossed, lock))
            full = " ".join(f"{initials(c)}:{','.join(n) or '-'}{lock}" for c, n, lock in rows)
            wide = cells(head) + len(full) + len(tail) <= columns
            lines.append(head + (full if wide else crosses_counted(rows)) + tail)
        return lines

    def _picture(self, role: str) -> Image.Image:
        display = self.displays[role]
        return display.frame or Image.new("1", display.size)

    def _lights_line(self) -> str:
        locked = self.lights.locked
        lamps = [f"({c[0].upper()})" if c in locked else f" {c[0].lower()} " for c in COLOURS]
        return "lock lights: " + " ".join(lamps)

    def _question_lines(self, columns: int) -> list[str]:
        """The prompt's question: its words wrapped to `columns`, then its lines as they are."""
        words, lines = self.prompt.question()
        return [*wrapped(words, columns), *lines] if words else lines
