"""Computer players at the table: they decide after a pause, so that people can follow.

With `look_ahead` set, a computer player plays each of its options out thousands of times
(`lookahead.look_ahead`) in a worker thread, so pads and displays are served meanwhile; a
decision that comes back after the table moved on is dropped, and the player thinks again.
"""

from __future__ import annotations

import asyncio
import logging
import random
from functools import partial
from typing import TYPE_CHECKING

from firmware_py.players.lookahead import look_ahead
from firmware_py.players.thumb import choose
from firmware_py.rules import Mark, Pass, Roll
from firmware_py.seating import COMPUTER
from firmware_py.table.seats import SeatDoor

if TYPE_CHECKING:
    from firmware_py.table.core import Table

log = logging.getLogger(__name__)

Moment = tuple[object, int, str, Roll | None]


class ComputerPlayers:
    """Decides for the table's computer seats, on the table's loop."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.door = SeatDoor(table, COMPUTER)  # computer players decide as every seat does
        self.thinking: set[str] = set()  # players whose look-ahead is running
        self._rng = random.Random()  # for look-ahead playouts (the dice have their own source)

    def decide(self, name: str) -> None:
        """`name`'s decision, if the table still waits for it."""
        game = self.table.game
        if game is None or name not in game.waiting_for() or name in self.thinking:
            return
        playouts = self.table.look_ahead
        if not playouts:
            self.door.decide(choose(game, name))
            return
        self.thinking.add(name)
        loop = asyncio.get_running_loop()
        thought = loop.run_in_executor(None, look_ahead, game.copy(), name, self._rng, playouts)
        thought.add_done_callback(partial(self.thought, name, self.moment()))

    def thought(self, name: str, moment: Moment, thought: asyncio.Future[Mark | Pass]) -> None:
        """A look-ahead is done: play it if the table is still at the moment it was asked for
        (the same game, turn and action), else think again about where the table is now."""
        self.thinking.discard(name)
        game = self.table.game
        if thought.cancelled() or game is None or name not in game.waiting_for():
            return
        failure = thought.exception()
        if failure is not None:
            log.error("a computer player's look-ahead failed: %r", failure)
            self.door.decide(choose(game, name))
        elif self.moment() != moment:
            self.table.timers.once(object(), 0, self.decide, name)  # think again
        else:
            self.door.decide(thought.result())

    def moment(self) -> Moment:
        """The game, turn and action the table is at: a decision made for it stays legal
        (locks change only as an action ends, so they need no place here)."""
        game = self.table.game
        assert game is not None  # asked only while a game waits for a computer player
        return (self.table.game_log, game.active, game.phase, game.dice)
