"""Computer players: choose a decision from the rules engine's legal moves.

The strategy is the one careful human players use. A cross is worth about as many points as the
row already has crosses (the score table grows by one more each cross), a lock adds its own
cross, and every number skipped is a cross that row can never have. So: take the best mark when
it gains more than it skips; as the active player with nothing crossed yet, accept a worse mark
rather than a five-point penalty.
"""

from __future__ import annotations

from firmware_py.rules import ACTION2, Game, Mark, Pass
from firmware_py.rules.doubles import crosses_in
from firmware_py.rules.scoring import counted_crosses

SKIP_COST = 1.0  # points a skipped number is worth giving up (tuned in bench/strategy.py)
PENALTY = 5.0  # what crossing nothing costs the active player


def choose(game: Game, name: str) -> Mark | Pass:
    """The decision a computer player makes now (a mark or a pass)."""
    marks = game.legal_marks(name)
    if not marks:
        return Pass(name)
    best = max(marks, key=lambda mark: value(game, name, mark))
    if value(game, name, best) > _worth_taking(game, name):
        return best
    return Pass(name)


def value(game: Game, name: str, mark: Mark) -> float:
    """Roughly the points a mark gains now minus what the numbers it skips could have made."""
    player = game.player(name)
    row = game.sheet.row_index(mark.row)
    position = game.sheet.positions[row][mark.number]
    if row >= len(game.sheet.rows):
        return _bonus_value(game, name, row, position)
    if game.sheet.has_doubles:
        return _double_value(game, name, row, position)
    crosses = player.crosses(row)
    gain = crosses + 1
    if position in game.sheet.lock_positions[row]:
        gain += crosses + 2  # the lock cross, and a die out of the game
    skipped = 0 if mark.lucky else position - player.last_position(row) - 1
    return gain - SKIP_COST * skipped


def _bonus_value(game: Game, name: str, row: int, position: int) -> float:
    """Big Points: a bonus box adds a cross to both rows beside it, each worth about as many
    points as that row already counts crosses; boxes skipped cost as numbers do."""
    sheet, player = game.sheet, game.player(name)
    between = sheet.bonus_rows[row - len(sheet.rows)].between
    gain = sum(counted_crosses(sheet, player, beside) + 1 for beside in between)
    return gain - SKIP_COST * (position - player.last_position(row) - 1)


def _double_value(game: Game, name: str, row: int, position: int) -> float:
    """Qwixx Double: a second cross (A) skips nothing, a cell printed double (B) is two
    crosses; a lock counts the row's second crosses."""
    sheet, player = game.sheet, game.player(name)
    crosses, last = crosses_in(player, row), player.last_position(row)
    gain = crosses + 1
    if position == last:
        return gain  # the second cross of the last cross
    if sheet.rows[row].numbers[position] in sheet.rows[row].double:
        gain += crosses + 2
    if position in sheet.lock_positions[row]:
        gain += crosses + 2
    return gain - SKIP_COST * (position - last - 1)


def _worth_taking(game: Game, name: str) -> float:
    """The value a mark must beat. A pass costs a penalty for an active player who crosses
    nothing this turn: certainly in action 2, perhaps (half the time, say) in action 1."""
    if name != game.active_name:
        return 0.0
    if game.phase == ACTION2:
        return -PENALTY if game.decisions.get(game.active) is None else 0.0
    return -PENALTY / 2
