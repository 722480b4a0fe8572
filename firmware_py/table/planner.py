"""What happens next by itself: the timers the table starts after every change it publishes.

Computer players roll and decide after a pause (so the people at the table can follow), thrown
electronic dice are read when a roll is due, a person's action-1 time runs out if the table is
set to, the table plays on without a player whose device has gone once their grace is over
(`absence.Absence`), and computer players alone at a table (the simulated tower) start their
next game. The timers belong to the phase they were started in (`PhaseTimers`) and end with
it. Nothing is planned while the menu is open, the dice roll, the lucky numbers are chosen, or
saving fails.
Between games and during one, different things go on by themselves: `BetweenGames` and
`InGame` plan each, `Planner` says which of them plans now.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from firmware_py.rules import ACTION1, ACTION2, ROLL, Event, Pass
from firmware_py.seating import COMPUTER
from firmware_py.table import phase as phases
from firmware_py.table.decisions import Refusal
from firmware_py.table.state import Configured, GameOn, Paused, Phased, Seated
from firmware_py.table.timers import Schedule

WAITING = (phases.MENU, phases.LUCKY, phases.ROLLING)  # phases that plan nothing
BETWEEN_GAMES = (phases.ATTRACT, phases.GAME_OVER)
JOIN_WINDOW = 20.0  # seconds between computer players' games while phones can join: time to scan
LOOK_AGAIN = 0.5  # seconds: a run of counted games looks again whether its last end was shown


class BetweenGamesTable(Phased, Seated, Configured, Protocol):
    """What the plans between games read of the table (where it is, who sits there, its
    settings, how many games have finished, where phones join) and ask of it: go on as a
    press would, stop."""

    @property
    def games_finished(self) -> int: ...
    @property
    def join_address(self) -> tuple[str, str]: ...
    def go_on(self) -> None: ...
    def stop(self) -> None: ...


class InGameTable(GameOn, Seated, Configured, Protocol):
    """What the plans in a game read of the table (the game, who decides how, its settings)
    and ask of it: go on as a press would, a message, a pass for a person whose time ran out."""

    def go_on(self) -> None: ...
    def set_message(self, words: str) -> None: ...
    def submit(self, event: Event, request: str | None = None) -> Refusal | None: ...


class Throws(Protocol):
    """Electronic dice thrown by hand (`thrown.ThrownDice`): whether there are any, and
    reading them when a roll is due."""

    def electronic(self) -> bool: ...
    def read_thrown(self) -> None: ...


class AbsentPlayers(Protocol):
    """Players whose device has gone (`absence.Absence`): the grace and passes it plans."""

    def plan(self) -> None: ...


class PlanTable(Phased, GameOn, Paused, Protocol):
    """What choosing the plans reads of the table: its phase, the game, a storage fault."""


class BetweenGames:
    """Computer players alone at the table start their next game; `games_wanted` games
    finished end the run (None: never), once the displays have shown the last game's end
    (`end_shown`: with every frame kept, each of its pages)."""

    def __init__(self, table: BetweenGamesTable, schedule: Schedule,
                 end_shown: Callable[[], bool] = lambda: True) -> None:  # fmt: skip
        self.table = table
        self.schedule = schedule
        self.end_shown = end_shown
        self.games_wanted: int | None = None
        self._looks = 0  # how often the run looked whether the end was shown, to stop

    def plan(self) -> None:
        table, pace = self.table, self.table.settings.pace
        alone = table.settings.autoplay and table.seating.all_computers() and table.seating.seats
        if alone and not self.finished_enough():
            self.schedule.once("next game", self.pause_between_games(), table.go_on)
        if self.finished_enough():
            self.schedule.once("stop", pace * 2, self.stop_once_shown)

    def stop_once_shown(self) -> None:
        """The run's games are played: it stops once the last one's end has been shown, looked
        at again every LOOK_AGAIN seconds until then."""
        if self.end_shown():
            self.table.stop()
            return
        self._looks += 1
        self.schedule.once(("stop", self._looks), LOOK_AGAIN, self.stop_once_shown)

    def pause_between_games(self) -> float:
        """Computer players alone start their next game after a short pause; while phones can
        join (the web server is on) and the run is not counting games, long enough for someone
        to scan the code and take a seat, which stops the computer players' next game."""
        pause = self.table.settings.pace * 3
        after_a_game = self.table.phase is phases.GAME_OVER  # the first game starts at once
        phones_join = bool(self.table.join_address[0])  # the web server is on
        if after_a_game and phones_join and self.games_wanted is None:
            return max(pause, JOIN_WINDOW)
        return pause

    def finished_enough(self) -> bool:
        return self.games_wanted is not None and self.table.games_finished >= self.games_wanted


class InGame:
    """Computer players roll and decide, thrown dice are read, a person's time runs out, the
    players whose device has gone are waited for and played on without (`absent`);
    `decide_for` is a computer player's decision (`ComputerPlayers.decide`)."""

    def __init__(
        self,
        table: InGameTable,
        schedule: Schedule,
        thrown: Throws,
        decide_for: Callable[[str], None],
        absent: AbsentPlayers,
    ) -> None:
        self.table = table
        self.schedule = schedule
        self.thrown = thrown
        self.decide_for = decide_for
        self.absent = absent

    def plan(self) -> None:
        # The table's phase changes at every roll, so within a phase a player and the game's
        # own phase name a decision: no timer is started twice for one.
        table, settings = self.table, self.table.settings
        game, pace = table.game, settings.pace
        assert game is not None
        if game.phase is ROLL and table.seating.kind_of(game.active_name) == COMPUTER:
            self.schedule.once("roll", pace, table.go_on)
        elif game.phase is ROLL and self.thrown.electronic():
            self.thrown.read_thrown()
        if game.phase is not ACTION1 and game.phase is not ACTION2:
            return
        self.absent.plan()
        for name in game.waiting_for():
            if table.seating.kind_of(name) == COMPUTER:
                decision = ("decide", name, game.phase)
                self.schedule.once(decision, pace * random.uniform(0.3, 1.0), self.decide_for, name)
            elif settings.action1_timer and game.phase is ACTION1:
                time_out = ("time out", name)
                self.schedule.once(time_out, settings.action1_timer, self._time_out, name)

    def _time_out(self, name: str) -> None:
        """A person took too long in action 1: they pass."""
        table = self.table
        if table.game is not None and table.game.can_pass(name):
            table.set_message(f"{name} took too long and passes")
            table.submit(Pass(name))


class Planner:
    """Plans the table's next moves: nothing while it waits or cannot save, else the plans
    between games or in a game."""

    def __init__(self, table: PlanTable, between: BetweenGames, in_game: InGame) -> None:
        self.table = table
        self.between = between
        self.in_game = in_game

    def plan(self) -> None:
        """The timers of this moment (a timer already running for it is not started again)."""
        table = self.table
        if table.fault:
            return  # paused: nothing goes on unsaved, until saving works again
        if table.phase in WAITING:
            return
        if table.phase in BETWEEN_GAMES or table.game is None:
            self.between.plan()
        else:
            self.in_game.plan()
