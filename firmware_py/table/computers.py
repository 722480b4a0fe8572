"""Computer players at the table: they decide after a pause, so that people can follow.

Each computer seat plays at its level (`players.decide`). The quick levels decide on the table's
loop; the hard level, and the look-ahead player (`lookahead.look_ahead`, with `look_ahead` set),
think in a worker thread on a copy of the game, so pads and displays are served meanwhile: a
decision that comes back after the table moved on is dropped, and the player thinks again.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from functools import partial
from typing import Protocol

from firmware_py.players import DEFAULT_LEVEL, decide, prepare
from firmware_py.players.lookahead import look_ahead
from firmware_py.players.thumb import choose
from firmware_py.rules import Game, Mark, Pass, Roll
from firmware_py.table.seats import SeatDoor
from firmware_py.table.state import Configured, GameOn, Seated
from firmware_py.table.timers import Schedule

log = logging.getLogger(__name__)

Moment = tuple[int, int, str, Roll | None]
QUICK_LEVELS = ("easy", "medium")  # microseconds a decision: no thread needed


class ComputersTable(GameOn, Seated, Configured, Protocol):
    """What the computer players read of the table: the game, which game it is (the games
    begun so far), each seat's level, how far to look ahead (its settings)."""

    @property
    def games_begun(self) -> int: ...


class ComputerPlayers:
    """Decides for the table's computer seats, on the table's loop; each decision goes in by
    `door`, the computer's `SeatDoor`, as every seat's does. With look-ahead playouts set,
    they look ahead instead of playing their level; a thought that came back too late is
    thought again by the phase's timers (`schedule`)."""

    def __init__(self, table: ComputersTable, door: SeatDoor, schedule: Schedule) -> None:
        self.table = table
        self.door = door
        self.schedule = schedule
        self.thinking: set[str] = set()  # players whose thought is running in the worker
        self._rng = random.Random()  # for decisions that draw (the dice have their own source)

    def prepare(self) -> None:
        """Work out ahead, in a worker thread, what the hard level's decisions read."""
        asyncio.get_running_loop().run_in_executor(None, prepare)

    def decide(self, name: str) -> None:
        """`name`'s decision, if the table still waits for it."""
        game = self.table.game
        if game is None or name not in game.waiting_for() or name in self.thinking:
            return
        playouts = self.table.settings.look_ahead
        level = self.table.seating.level_of(name) or DEFAULT_LEVEL
        if playouts:
            self._think(name, look_ahead, game, self._rng, playouts)
        elif level in QUICK_LEVELS:
            self.door.decide(decide(game, name, level, self._rng))
        else:
            self._think(name, decide, game, level, self._rng)

    def _think(
        self, name: str, thinker: Callable[..., Mark | Pass], game: Game, *more: object
    ) -> None:
        """Run `thinker(copy of game, name, *more)` in a worker thread; `thought` plays it."""
        self.thinking.add(name)
        loop = asyncio.get_running_loop()
        thought = loop.run_in_executor(None, thinker, game.copy(), name, *more)
        thought.add_done_callback(partial(self.thought, name, self.moment()))

    def thought(self, name: str, moment: Moment, thought: asyncio.Future[Mark | Pass]) -> None:
        """A thought is done: play it if the table is still at the moment it was asked for
        (the same game, turn and action), else think again about where the table is now."""
        self.thinking.discard(name)
        game = self.table.game
        if thought.cancelled() or game is None or name not in game.waiting_for():
            return
        failure = thought.exception()
        if failure is not None:
            log.error("a computer player's thought failed: %r", failure)
            self.door.decide(choose(game, name))
        elif self.moment() != moment:
            self.schedule.once(object(), 0, self.decide, name)  # think again
        else:
            self.door.decide(thought.result())

    def moment(self) -> Moment:
        """The game, turn and action the table is at: a decision made for it stays legal
        (locks change only as an action ends, so they need no place here)."""
        game = self.table.game
        assert game is not None  # asked only while a game waits for a computer player
        return (self.table.games_begun, game.active, game.phase, game.dice)
