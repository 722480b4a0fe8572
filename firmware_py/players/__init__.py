"""Computer players: they choose a decision from the rules engine's legal moves; no I/O.

`decide(game, name, level, rng)` is the one call from outside (shared/spec/computer-players.md);
the levels are in levels.py. `prepare()` works out ahead what the hard level's decisions read
(every shipped sheet's row prospects), so that no decision waits for it.
"""

from .evaluation import prepare_shipped_sheets as prepare
from .levels import DEFAULT_LEVEL, LEVELS, UnknownLevel, check_level, decide

__all__ = ["DEFAULT_LEVEL", "LEVELS", "UnknownLevel", "check_level", "decide", "prepare"]
