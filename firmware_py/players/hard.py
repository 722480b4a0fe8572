"""The strongest level: every decision judged by the evaluation, the whole turn at once.

Each option (each legal mark, and the pass) is made on a copy of the game and the position it
leaves is judged (evaluation.py). The active player sees all the dice at the roll, so in action 1
it judges each white-sum option together with the best colour-sum option it leaves for action 2;
a position where the game ends is judged by its final margin, with a bonus for a win.
"""

from __future__ import annotations

from firmware_py.rules import ACTION1, ACTION2, Game, Mark, Pass

from .evaluation import Weights, load_weights, prepare_shipped_sheets, rolls_left, worth

_WEIGHTS: Weights | None = None
prepare_shipped_sheets()


def shipped_weights() -> Weights:
    global _WEIGHTS
    if _WEIGHTS is None:
        _WEIGHTS = load_weights()
    return _WEIGHTS


def choose(game: Game, name: str, weights: Weights | None = None) -> Mark | Pass:
    """The decision of the hard level for `name` now; `game` is left as it was."""
    weights = weights or shipped_weights()
    options: list[Mark | Pass] = [*game.legal_marks(name), Pass(name)]
    if len(options) == 1:
        return options[0]
    planning = game.phase is ACTION1 and name == game.active_name
    best, best_value = options[-1], float("-inf")
    for option in options:
        after = game.copy()
        after.apply(option)
        value = _turn_value(after, name, weights) if planning else judge(after, name, weights)
        if value > best_value:
            best, best_value = option, value
    return best


def _turn_value(game: Game, name: str, weights: Weights) -> float:
    """The active player after its action-1 decision: the best its action 2 can then make
    (the others' action-1 decisions taken as passes)."""
    for waiting in game.waiting_for():
        game.apply(Pass(waiting))
    if game.phase is not ACTION2:
        return judge(game, name, weights)
    best = float("-inf")
    options: list[Mark | Pass] = [*game.legal_marks(name), Pass(name)]
    for option in options:
        after = game.copy()
        after.apply(option)
        best = max(best, judge(after, name, weights))
    return best


def judge(game: Game, name: str, weights: Weights) -> float:
    """How good the position is for `name`: a margin of worths, or at the end the margin of
    points with a bonus for winning."""
    closed = game.closed | game.locking
    me = game.player(name)
    others = [p for p in game.players if p is not me]
    if game.over or bin(closed).count("1") >= game.sheet.locks_to_end:
        mine = game.total(name)
        best_other = max((game.total(p.name) for p in others), default=0)
        margin = mine - best_other
        if not others:
            return mine  # alone: the points are all there is
        return margin + (weights.win if margin > 0 else -weights.win if margin < 0 else 0)
    scale = rolls_left(game, weights, closed)
    value = worth(game, me, closed, scale)
    if others:
        value -= weights.opponents * max(worth(game, p, closed, scale) for p in others)
    return value
