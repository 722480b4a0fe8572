"""The levels of the computer players, and `decide`, the one call that asks any of them.

- easy: a beginner. The rules of thumb with a beginner's habits: it takes a cross that skips
  several numbers as readily as a good one, now and then passes up a cross it should take, and
  often forgets to lock a row it could. A fair opponent for a child of eight.
- medium: the rules of thumb (thumb.py): a cross when it gains more than it skips.
- hard: the whole turn judged by an evaluation tuned by self-play (hard.py, evaluation.py).
"""

from __future__ import annotations

import random

from firmware_py.errors import TowerError
from firmware_py.rules import Game, Mark, Pass
from firmware_py.seating import DEFAULT_LEVEL, LEVELS

from . import hard, thumb

__all__ = ["DEFAULT_LEVEL", "LEVELS", "decide"]

FORGETS_TO_LOCK = 0.6  # how often the beginner misses a lock it could make
SKIPS_CARELESSLY = 0.5  # how often it takes the first cross it sees, however much it skips
HESITATES = 0.15  # how often it passes up a cross


class UnknownLevel(TowerError, ValueError):
    """A level name that is not one of LEVELS."""


def check_level(level: object) -> str:
    """The level, or UnknownLevel with one sentence that says which levels there are."""
    if level not in LEVELS:
        raise UnknownLevel(f"{level!r} is not a level; the levels are {', '.join(LEVELS)}")
    return str(level)


def decide(game: Game, name: str, level: str, rng: random.Random) -> Mark | Pass:
    """The decision `name` makes now at `level` (shared/spec/computer-players.md): a mark of
    `game.legal_marks(name)` or a pass. `game` is left as it was; `rng` is the only chance."""
    check_level(level)
    if level == "hard":
        return hard.choose(game, name)
    if level == "medium":
        return thumb.choose(game, name)
    return beginner(game, name, rng)


def beginner(game: Game, name: str, rng: random.Random) -> Mark | Pass:
    """The easy level's decision: the rules of thumb, with a beginner's mistakes."""
    marks = game.legal_marks(name)
    locks = [mark for mark in marks if _locks(game, name, mark)]
    if locks and rng.random() < FORGETS_TO_LOCK:
        marks = [mark for mark in marks if mark not in locks]
    if not marks:
        return Pass(name)
    if rng.random() < HESITATES:
        return Pass(name)
    if rng.random() < SKIPS_CARELESSLY:
        return rng.choice(marks)
    choice = thumb.choose(game, name)
    return choice if choice in marks or isinstance(choice, Pass) else Pass(name)


def _locks(game: Game, name: str, mark: Mark) -> bool:
    row = game.sheet.row_index(mark.row)
    position = game.sheet.positions[row][mark.number]
    return not mark.lucky and position in game.sheet.lock_positions[row]
