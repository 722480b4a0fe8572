"""The simulated tower in a terminal: its two displays, its lock lights, its news, a keyboard.

The displays are luma devices (the dummy device keeps the last frame); this module only shows
their pictures, drawn in Braille dots (2x4 pixels per character, so a 128x64 panel is 64x16
characters). The roll button is gpiozero's mock pin: pressing Enter drives it low and high, the
same path a real button takes; `h` and Enter holds it (a long press: the tower's menu). Keyboard
seats type the number of a mark, or p to pass.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
from collections.abc import Callable
from typing import TextIO

from PIL import Image

from firmware_py.rules import ACTION1, ACTION2, Mark, Pass, Undo
from firmware_py.seating import KEYBOARD
from firmware_py.table import Table
from firmware_py.view import TableView
from sheets import COLOURS

BRAILLE_BASE = 0x2800
# Braille dot bit for the pixel at (x, y) inside a 2x4 cell.
_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
PRESS_SECONDS = 0.08  # how long Enter holds the simulated roll button down
NEWS_LINES = 8


def braille(image: Image.Image) -> list[str]:
    """A one-bit picture as lines of Braille characters."""
    image = image.convert("1")
    width, height = image.size
    pixels = image.load()
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


class Console:
    """Draws the table after every change; reads keyboard decisions and roll presses."""

    def __init__(self, table: Table, *, out: TextIO = sys.stdout, full_screen: bool = True) -> None:
        self.table = table
        self.out = out
        self.full_screen = full_screen
        self._printed_news = 0
        self.options: list[Mark] = []
        self.asking: str | None = None
        self.footers: list[Callable[[], list[str]]] = []  # more lines to show under the news
        self._seen = -1  # the version of the table last drawn
        self._typed = b""  # keyboard input not yet ended by Enter
        self.keyboard_closed = False
        table.subscribe(self.refresh)

    def refresh(self, view: TableView) -> None:
        """Draw the table after a change (the displays' own frames in between need no redraw)."""
        if view.version == self._seen:
            return
        self._seen = view.version
        self._update_question()
        if self.full_screen:
            self.out.write("\x1b[H\x1b[2J" + "\n".join(self.screen_lines()) + "\n")
        else:
            fresh = min(view.news_count - self._printed_news, len(view.news))
            for line in view.news[len(view.news) - fresh :]:  # plain: the news, line by line
                self.out.write(line + "\n")
            self._printed_news = view.news_count
        self.out.flush()

    def screen_lines(self) -> list[str]:
        """Both displays, the lock lights, the news and the question for a keyboard seat."""
        main = framed(braille(self._picture("main")), "main display")
        options = framed(braille(self._picture("options")), "options display")
        if shutil.get_terminal_size().columns >= 2 * len(main[0]) + 2:
            panels = [f"{a}  {b}" for a, b in zip(main, options, strict=True)]
        else:
            panels = main + options
        news = list(self.table.news)[-NEWS_LINES:]
        seats = self._seat_lines()
        footer = [line for lines in self.footers for line in lines()]
        questions = self._question_lines()
        return [*panels, self._lights_line(), *seats, "", *news, "", *footer, *questions]

    def _seat_lines(self) -> list[str]:
        """Each player's sheet in one line: crosses per row, penalties, total."""
        game = self.table.game
        if game is None:
            return []
        lines = []
        for player in game.players:
            rows = []
            for row, colour in enumerate(COLOURS):
                numbers = game.sheet.rows[row].numbers
                marks = ",".join(str(numbers[p]) for p in player.crossed_positions(row)) or "-"
                rows.append(
                    f"{colour[0].upper()}:{marks}{'+lock' if player.has_locked(row) else ''}"
                )
            total = game.total(player.name)
            lines.append(
                f"{player.name:<8}{total:>4}  {' '.join(rows)}  penalties:{player.penalties}"
            )
        return lines

    def _picture(self, role: str) -> Image.Image:
        display = self.table.hardware.displays[role]
        return display.frame or Image.new("1", display.size)

    def _lights_line(self) -> str:
        locked = self.table.hardware.lights.locked
        lamps = [f"({c[0].upper()})" if c in locked else f" {c[0].lower()} " for c in COLOURS]
        return "lock lights: " + " ".join(lamps)

    # ---- keyboard ----------------------------------------------------------------------------

    def _update_question(self) -> None:
        """The first keyboard seat the game waits for, and its legal marks."""
        game = self.table.game
        self.asking, self.options = None, []
        if game is None or game.phase not in (ACTION1, ACTION2):
            return
        for name in game.waiting_for():
            if self.table.kind_of(name) == KEYBOARD:
                self.asking, self.options = name, game.legal_marks(name)
                return

    def _question_lines(self) -> list[str]:
        if self.asking is None:
            return ["Enter: press the roll button   h Enter: hold it (menu)   Ctrl-C: stop"]
        marks = "  ".join(f"[{i}] {m.row} {m.number}" for i, m in enumerate(self.options, 1))
        action = "action 1" if self.table.game.phase == ACTION1 else "action 2"
        return [f"{self.asking}, {action}: {marks or 'nothing to cross'}", "[p] pass  [u] undo  > "]

    def attach_keyboard(self, loop: asyncio.AbstractEventLoop, fd: int | None = None) -> None:
        """Read lines typed on `fd` (standard input): each one is an answer."""
        fd = sys.stdin.fileno() if fd is None else fd
        self._typed = b""
        loop.add_reader(fd, self._on_input, loop, fd)

    def _on_input(self, loop: asyncio.AbstractEventLoop, fd: int) -> None:
        """What the terminal sends: whole lines are answers. End of input (Ctrl-D) presses
        nothing: the keyboard is closed and the tower goes on without it."""
        try:
            data = os.read(fd, 1024)
        except OSError:
            data = b""
        if not data:
            loop.remove_reader(fd)
            self.keyboard_closed = True
            self.table.say("the keyboard is closed (end of input); Ctrl-C stops the tower")
            return
        self._typed += data
        typed = self._typed.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        *lines, self._typed = typed.split(b"\n")
        for line in lines:
            self.answer(line.decode("utf-8", "replace").strip().lower())

    def answer(self, text: str) -> None:
        """One line typed at the keyboard."""
        if text in ("h", "hold"):
            asyncio.get_running_loop().create_task(self.press_button(hold=True))
            return
        if self.asking is None:
            if text == "":
                asyncio.get_running_loop().create_task(self.press_button())
            return
        event = self._event_for(text)
        if event is None:
            self.table.say("type the number of a mark, p to pass or u to undo")
            return
        refusal = self.table.decide(event)
        if refusal is not None:
            self.table.say(f"refused: {refusal.reason}")

    def _event_for(self, text: str):
        name = self.asking
        if text in ("p", "pass"):
            return Pass(name)
        if text in ("u", "undo"):
            return Undo(name)
        if text.isdigit() and 1 <= int(text) <= len(self.options):
            return self.options[int(text) - 1]
        return None

    async def press_button(self, *, hold: bool = False) -> None:
        """Press the simulated roll button (or hold it past a long press): its mock pin goes
        low, then high again."""
        hardware = self.table.hardware
        if hardware.button_factory is None:
            return  # a real button: press it
        pin = hardware.button_factory.pin(hardware.button_pin)
        pin.drive_low()
        await asyncio.sleep(self.table.long_press + PRESS_SECONDS if hold else PRESS_SECONDS)
        pin.drive_high()
