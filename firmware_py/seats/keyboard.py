"""The terminal's keyboard: a door for keyboard seats, and a finger on the roll button.

Keyboard seats type the number of a mark or p to pass while their action is open, and u to undo
once they have decided in action 1 (undo is offered only then: before a decision there is nothing
to take back); the question is the first keyboard seat the game waits for (or one that decided
in action 1 and may still undo, as on a pad). The roll button is gpiozero's mock pin: pressing
Enter drives it low and high, the same path a real button takes; `h` and Enter holds it (a long
press: the tower's menu). The terminal (`firmware_py.show.terminal`) draws the question this
keyboard asks (`Keyboard` is its `Prompt`); the decisions go in through the table's `SeatDoor`
for keyboard seats.
"""

from __future__ import annotations

import asyncio
import os
import sys

from gpiozero.pins import Factory
from gpiozero.pins.mock import MockPin

from firmware_py.rules import ACTION1, ACTION2, Game, Mark, Pass, Undo
from firmware_py.rules.connections import connection_note
from firmware_py.rules.doubles import twice_words
from firmware_py.seating import KEYBOARD
from firmware_py.table import SeatDoor
from firmware_py.table.news_words import mark_words
from firmware_py.view import MENU, TableView
from firmware_py.words import in_digits

PRESS_SECONDS = 0.08  # how long Enter holds the simulated roll button down
REAL_BUTTON = "the roll button is a real one here: press it on the tower"
KEYBOARD_GONE = "the keyboard is closed (end of input): Ctrl-C stops the tower"
ROLL_KEYS = "Enter: roll button  h Enter: hold it (menu)  Ctrl-D: no keyboard  Ctrl-C: stop"


class RollFinger:
    """Presses the simulated roll button: its mock pin on gpiozero's `factory` (None, or a
    real pin: a real button, which nobody presses from here), held past `long_press` for a
    hold, and let go of for longer than `debounce` before the next press."""

    def __init__(
        self, factory: Factory | None, pin: int, *, long_press: float, debounce: float
    ) -> None:
        self.factory = factory
        self.pin = pin
        self.long_press = long_press
        self.debounce = debounce
        self._finger = asyncio.Lock()  # one press at a time: an Enter typed meanwhile waits

    def real(self) -> bool:
        """True when the button is a real one (`--config` with a button): Enter cannot press it."""
        return self.factory is None or not isinstance(self.factory.pin(self.pin), MockPin)

    async def press(self, *, hold: bool = False) -> None:
        """Press the simulated roll button (or hold it past a long press): its mock pin goes
        low, then high again. Presses take turns, so no Enter is lost however busy the
        machine is."""
        if self.factory is None:
            return
        pin = self.factory.pin(self.pin)
        if not isinstance(pin, MockPin):
            return
        async with self._finger:
            pin.drive_low()
            await asyncio.sleep(self.long_press + PRESS_SECONDS if hold else PRESS_SECONDS)
            pin.drive_high()
            await asyncio.sleep(2 * self.debounce)  # let go of, then the next


class Keyboard:
    """Reads lines typed at the terminal: a keyboard seat's decisions through `door`, or
    presses of the roll button by `finger`. A presenter (`see`), subscribed before the
    terminal, so that the question it draws is this change's."""

    def __init__(self, door: SeatDoor, finger: RollFinger) -> None:
        self.door = door
        self.finger = finger
        self.options: list[Mark] = []
        self.asking: str | None = None
        self.decided: str | None = None  # the asking seat's action-1 decision, in words
        self.closed = False  # end of input: the tower goes on without a keyboard
        self.attached = False
        self._view = TableView("attract")
        self._typed = b""  # keyboard input not yet ended by Enter

    def see(self, view: TableView) -> None:
        """A change at the table: the keyboard seat to ask, its legal marks, and its action-1
        decision if made: the first keyboard seat the game waits for, else one that decided
        in action 1 while that action is open (it may still undo, as on a pad)."""
        self._view = view
        game = view.game
        self.asking, self.options, self.decided = None, [], None
        if game is None or game.phase not in (ACTION1, ACTION2) or view.phase == MENU:
            return
        kinds = {seat.name: seat.kind for seat in self.door.now().seats}
        keyboard = [p.name for p in game.players if kinds.get(p.name) == KEYBOARD]
        waiting = [name for name in game.waiting_for() if name in keyboard]
        if waiting:
            self.asking, self.options = waiting[0], game.legal_marks(waiting[0])
            return
        undoable = [name for name in keyboard if game.can_undo(name)]
        if undoable:
            self.asking = undoable[0]
            self.decided = self._decision_words(undoable[0])

    def _decision_words(self, name: str) -> str:
        """What `name` decided in this action 1: the mark or the pass this tower took, else
        (a game carried on after a restart) what the game says: marked or passed."""
        last = self._view.decisions.get(name)
        if isinstance(last, Mark):
            return f"crossed {mark_words(last)}"
        if isinstance(last, Pass):
            return "passed"
        game = self._view.game
        assert game is not None  # asked only during action 1
        seat = [player.name for player in game.players].index(name)
        return "passed" if game.decisions.get(seat) is None else "crossed a number"

    # ---- the question, as the terminal draws it (its `Prompt`) ------------------------------

    def key(self) -> tuple[object, ...]:
        """What the question is about: a new key is a new question (printed once, plain)."""
        game = self._view.game
        dice = game.dice if game is not None else None
        return (self.asking, id(dice), dice, game and game.phase, self.decided, *self.options)

    def question(self) -> tuple[str, list[str]]:
        """The keyboard seat's question, as words the terminal wraps (its options) and lines
        it shows as they are (the prompt); or how to press the roll button."""
        if self.asking is None:
            if self.closed or not self.attached:
                return "", [KEYBOARD_GONE if self.closed else "Ctrl-C: stop"]
            return "", [ROLL_KEYS]
        game = self._view.game
        action = "action 1" if game is not None and game.phase == ACTION1 else "action 2"
        if self.decided is not None:
            words = f"{self.asking}, {action}: you {self.decided}; the others decide"
            return words, ["[u] undo  > "]
        choices = [
            f"[{i}] {mark_words(mark)}{self._notes(game, mark)}"
            for i, mark in enumerate(self.options, 1)
        ]
        head = f"{self.asking}, {action}: " + ("  ".join(choices) or "nothing to cross")
        return head, ["[p] pass  > "]  # undo is offered once there is a decision to take back

    @staticmethod
    def _notes(game: Game | None, mark: Mark) -> str:
        """What a choice sets off or is worth beyond its cell: Double's " again", Connected's
        " (chain: yellow 6)" or " (stair)"."""
        if game is None:
            return ""
        player = game.player(mark.player)
        return twice_words(game, mark) + connection_note(game.sheet, player, mark.row, mark.number)

    # ---- typing --------------------------------------------------------------------------------

    def attach(self, loop: asyncio.AbstractEventLoop, fd: int | None = None) -> None:
        """Read lines typed on `fd` (standard input): each one is an answer."""
        fd = sys.stdin.fileno() if fd is None else fd
        self._typed = b""
        self.attached = True
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
            self.closed = True
            self.door.news.say(KEYBOARD_GONE)
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
        event = self._event_for(self.asking, text)
        if event is None:
            self.door.news.say(self._how_to_answer())
            return
        refusal = self.door.decide(event)
        if refusal is not None:
            self.door.news.say(f"refused: {refusal.reason}")

    def _event_for(self, name: str, text: str) -> Mark | Pass | Undo | None:
        """The decision `text` types for `name`; None if it names none the question offers
        (undo only after a decision in action 1, pass only before one)."""
        if self.decided is not None:
            return Undo(name) if text in ("u", "undo") else None
        if text in ("p", "pass"):
            return Pass(name)
        if in_digits(text) and 1 <= int(text) <= len(self.options):
            return self.options[int(text) - 1]
        return None

    def _how_to_answer(self) -> str:
        """What the question takes, in words: the keys it offers now."""
        if self.decided is not None:
            return "type u to undo your decision, or wait for the others"
        return "type the number of a mark or p to pass"

    async def press_button(self, *, hold: bool = False) -> None:
        """Enter (or h Enter): the roll button pressed (or held), when it is a simulated one."""
        if self.finger.factory is not None and self.finger.real():
            self.door.news.say(REAL_BUTTON)  # --config with a real button: press it
            return
        await self.finger.press(hold=hold)
