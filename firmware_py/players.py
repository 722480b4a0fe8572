"""Computer players: choose a decision from the rules engine's legal moves.

The strategy is the one careful human players use: cross numbers without skipping many cells,
lock a row when allowed, and in action 2 accept a small gap rather than a penalty.
"""

from __future__ import annotations

from firmware_py.rules import ACTION2, Game, Mark, Pass

ACTION1_MAX_GAP = 1  # cells a computer player skips for a cross any player may take
ACTION2_MAX_GAP = 2  # skipped cells worth more than a -5 penalty when it would be the only cross


def choose(game: Game, name: str) -> Mark | Pass:
    """The decision a computer player makes now (a mark or a pass)."""
    marks = game.legal_marks(name)
    if not marks:
        return Pass(name)
    best = min(marks, key=lambda mark: _cost(game, name, mark))
    if _gap(game, name, best) <= _gap_allowed(game, name):
        return best
    return Pass(name)


def _gap_allowed(game: Game, name: str) -> int:
    if game.phase != ACTION2:
        return ACTION1_MAX_GAP
    crossed_in_action1 = game.decisions.get(game.active) is not None
    return ACTION1_MAX_GAP if crossed_in_action1 else ACTION2_MAX_GAP


def _gap(game: Game, name: str, mark: Mark) -> int:
    """How many cells the mark skips in its row."""
    player = game.player(name)
    row = game.sheet.row_index(mark.row)
    position = game.sheet.positions[row][mark.number]
    return position - player.last_position(row) - 1


def _cost(game: Game, name: str, mark: Mark) -> tuple[int, int]:
    """Smaller is better: few skipped cells first, then prefer rows that already score."""
    player = game.player(name)
    row = game.sheet.row_index(mark.row)
    return _gap(game, name, mark), -player.crosses(row)
