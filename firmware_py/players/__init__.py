"""Computer players: they choose a decision from the rules engine's legal moves; no I/O.

`decide(game, name, level, rng)` is the one call from outside (shared/spec/computer-players.md);
the levels are in levels.py.
"""

from .levels import DEFAULT_LEVEL, LEVELS, UnknownLevel, check_level, decide

__all__ = ["DEFAULT_LEVEL", "LEVELS", "UnknownLevel", "check_level", "decide"]
