"""A game at a terminal: software dice, computer players, and humans who type their choices.

This is the tower on simulated hardware in its simplest form: the same rules engine and game
log as the appliance, with the table's news printed as lines of text.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from drivers.dice import SoftwareDice
from firmware_py.gamelog import event_to_line
from firmware_py.players import choose
from firmware_py.rules import ACTION1, ACTION2, Game, Mark, Pass, Refused, Roll, Start
from sheets import COLOURS


class TerminalTable:
    """Plays one game, asking `ask` for human decisions and printing to `out`."""

    def __init__(
        self,
        start: Start,
        *,
        humans: frozenset[str] = frozenset(),
        out: TextIO = sys.stdout,
        ask: Callable[[str], str] = input,
        delay: float = 0.0,
        log: TextIO | None = None,
        dice: SoftwareDice | None = None,
    ) -> None:
        self.game = Game.start(start)
        self.humans = humans
        self.out = out
        self.ask = ask
        self.delay = delay
        self.log = log
        self.dice = dice or SoftwareDice(faces=self.game.sheet.dice_faces)
        self._record(start)

    def play(self) -> Game:
        """Play turns until the game ends; print the final scores."""
        while not self.game.over:
            self._turn()
        self._say_scores()
        return self.game

    def _turn(self) -> None:
        game = self.game
        white, colours = self.dice.roll(game.dice_in_play())
        self._apply(Roll(white, colours))
        dice = ", ".join(f"{c} {f}" for c, f in colours.items())
        self._say(f"\n{game.active_name} rolls: white {white[0]}+{white[1]} = {sum(white)}; {dice}")
        locked_before = len(game.locked)
        while game.phase == ACTION1:
            for name in game.waiting_for():
                self._decide(name)
        self._announce_locks(locked_before)
        if game.phase == ACTION2:
            locked_before = len(game.locked)
            penalties = game.player(game.active_name).penalties
            self._decide(game.active_name)
            self._announce_locks(locked_before)
            self._announce_penalty(penalties)
        time.sleep(self.delay)

    def _decide(self, name: str) -> None:
        event = self._human_choice(name) if name in self.humans else choose(self.game, name)
        self._apply(event)
        what = "passes" if type(event) is Pass else f"crosses {_cell(event)}"
        self._say(f"  {name} {what}")

    def _human_choice(self, name: str) -> Mark | Pass:
        marks = self.game.legal_marks(name)
        action = "action 1 (white sum)" if self.game.phase == ACTION1 else "action 2"
        self._say(f"  {name}, {action}: " + _sheet_line(self.game, name))
        options = "  ".join(f"[{i}] {_cell(m)}" for i, m in enumerate(marks, start=1))
        while True:
            answer = self.ask(f"  {options}  [p] pass > ").strip().lower()
            if answer in ("p", "pass", ""):
                return Pass(name)
            if answer.isdigit() and 1 <= int(answer) <= len(marks):
                return marks[int(answer) - 1]
            self._say(f"  Type a number from 1 to {len(marks)}, or p to pass.")

    def _apply(self, event) -> None:
        try:
            self.game.apply(event)
        except Refused as refusal:  # the engine's own legal moves are never refused
            raise RuntimeError(f"the referee refused {event}: {refusal.reason}") from refusal
        self._record(event)

    def _record(self, event) -> None:
        if self.log is not None:
            self.log.write(event_to_line(event))
            self.log.flush()

    def _announce_locks(self, before: int) -> None:
        for row in self.game.locked[before:]:
            self._say(f"  ** {COLOURS[row]} is locked: the {COLOURS[row]} die leaves the game **")

    def _announce_penalty(self, before: int) -> None:
        player = self.game.player(self.game.active_name)
        if player.penalties > before:
            self._say(f"  {player.name} crossed nothing and takes penalty {player.penalties}")

    def _say_scores(self) -> None:
        game = self.game
        why = "two rows are locked" if game.reason == "locks" else "a fourth penalty"
        self._say(f"\nGame over: {why}.")
        for player in game.players:
            total = game.total(player.name)
            self._say(f"  {player.name:<10} {total:>4}   {_sheet_line(game, player.name)}")
        self._say("Winner: " + " and ".join(game.winners()))

    def _say(self, text: str) -> None:
        print(text, file=self.out, flush=True)


def _cell(mark: Mark) -> str:
    lucky = " (lucky)" if mark.lucky else ""
    choice = f" (bonus in {mark.choice})" if mark.choice else ""
    return f"{mark.row} {mark.number}{lucky}{choice}"


def _sheet_line(game: Game, name: str) -> str:
    player = game.player(name)
    parts = []
    for row, colour in enumerate(COLOURS):
        numbers = game.sheet.rows[row].numbers
        marks = ",".join(str(numbers[p]) for p in player.crossed_positions(row)) or "-"
        lock = " locked" if player.has_locked(row) else ""
        parts.append(f"{colour[0].upper()}:{marks}{lock}")
    return " ".join(parts) + f" penalties:{player.penalties}"
