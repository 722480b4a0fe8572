"""What happens next by itself: the timers the table starts after every change it publishes.

Computer players roll and decide after a pause (so the people at the table can follow), thrown
electronic dice are read when a roll is due, a person's action-1 time runs out if the table is
set to, and computer players alone at a table (the simulated tower) start their next game. The
timers belong to the phase they were started in (`PhaseTimers`) and end with it. Nothing is
planned while the menu is open, the dice roll, the lucky numbers are chosen, or saving fails.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from firmware_py.rules import ACTION1, ACTION2, ROLL, Event, Pass
from firmware_py.seating import COMPUTER, SeatKind
from firmware_py.table import phase as phases
from firmware_py.table.decisions import Refusal
from firmware_py.table.rolling import Dice
from firmware_py.table.state import GameOn, Paused, Phased, Seated, Timed

WAITING = (phases.MENU, phases.LUCKY, phases.ROLLING)  # phases that plan nothing
BETWEEN_GAMES = (phases.ATTRACT, phases.GAME_OVER)
JOIN_WINDOW = 20.0  # seconds between computer players' games while phones can join: time to scan


class PlannerTable(Phased, GameOn, Seated, Timed, Paused, Protocol):
    """What the planner reads of the table (where it is, who sits where, its settings) and
    what it asks of it: go on as a press would, stop, a message, a pass for a person."""

    @property
    def pace(self) -> float: ...
    @property
    def action1_timer(self) -> float: ...
    @property
    def autoplay(self) -> bool: ...
    @property
    def join_address(self) -> tuple[str, str]: ...
    @property
    def games_finished(self) -> int: ...
    def kind_of(self, name: str) -> SeatKind: ...
    def go_on(self) -> None: ...
    def stop(self) -> None: ...
    def set_message(self, words: str) -> None: ...
    def submit(self, event: Event, request: str | None = None) -> Refusal | None: ...


class Planner:
    """Plans the table's next moves; `games_wanted` games finished end the run (None: never).
    Built with the dice (to wait for thrown ones) and `decide_for`, a computer player's
    decision (`ComputerPlayers.decide`)."""

    def __init__(self, table: PlannerTable, dice: Dice, decide_for: Callable[[str], None]) -> None:
        self.table = table
        self.dice = dice
        self.decide_for = decide_for
        self.games_wanted: int | None = None

    def plan(self) -> None:
        """The timers of this moment (a timer already running for it is not started again)."""
        table = self.table
        if table.fault:
            return  # paused: nothing goes on unsaved, until saving works again
        if table.phase in WAITING:
            return
        if table.phase in BETWEEN_GAMES or table.game is None:
            self._between_games()
        else:
            self._in_game()

    def _between_games(self) -> None:
        table = self.table
        alone = table.autoplay and table.seating.all_computers() and table.seating.seats
        if alone and not self.finished_enough():
            table.timers.once("next game", self.pause_between_games(), table.go_on)
        if self.finished_enough():
            table.timers.once("stop", table.pace * 2, table.stop)

    def pause_between_games(self) -> float:
        """Computer players alone start their next game after a short pause; while phones can
        join (the web server is on) and the run is not counting games, long enough for someone
        to scan the code and take a seat, which stops the computer players' next game."""
        pause = self.table.pace * 3
        after_a_game = self.table.phase is phases.GAME_OVER  # the first game starts at once
        if after_a_game and self.table.join_address[0] and self.games_wanted is None:
            return max(pause, JOIN_WINDOW)
        return pause

    def _in_game(self) -> None:
        # The table's phase changes at every roll, so within a phase a player and the game's
        # own phase name a decision: no timer is started twice for one.
        table = self.table
        game = table.game
        assert game is not None
        if game.phase is ROLL and table.kind_of(game.active_name) == COMPUTER:
            table.timers.once("roll", table.pace, table.go_on)
        elif game.phase is ROLL and self.dice.electronic():
            self.dice.read_thrown()
        if game.phase is not ACTION1 and game.phase is not ACTION2:
            return
        for name in game.waiting_for():
            if table.kind_of(name) == COMPUTER:
                pause = table.pace * random.uniform(0.3, 1.0)
                decision = ("decide", name, game.phase)
                table.timers.once(decision, pause, self.decide_for, name)
            elif table.action1_timer and game.phase is ACTION1:
                time_out = ("time out", name)
                table.timers.once(time_out, table.action1_timer, self._time_out, name)

    def _time_out(self, name: str) -> None:
        """A person took too long in action 1: they pass."""
        table = self.table
        if table.game is not None and table.game.can_pass(name):
            table.set_message(f"{name} took too long and passes")
            table.submit(Pass(name))

    def finished_enough(self) -> bool:
        return self.games_wanted is not None and self.table.games_finished >= self.games_wanted
