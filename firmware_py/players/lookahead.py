"""The look-ahead computer player: it tries each decision and plays the game out many times.

Each legal mark, and the pass, is made on a copy of the game, which is then played to its end
`playouts` times by uniformly random players (`rules.rollout.play_out`; every option on the same
random numbers, so options differ by the decision alone). An option is worth its mean margin
(the player's total minus the best other total) plus `WIN_BONUS` points for each game won, and
a decision that wins every playout (a lock that ends the game in the player's favour) beats any
other. Against the rule-of-thumb player (`players.choose`) it won 73 of 120 2-player classic
games at 150 playouts per option, 17 ms a decision here (bench/look_ahead.py).
"""

from __future__ import annotations

import random

from firmware_py.rules import Game, Mark, Pass
from firmware_py.rules.rollout import play_out

PLAYOUTS = 150  # per option
WIN_BONUS = 30  # points a won playout is worth on top of its margin (bench/look_ahead.py)


def look_ahead(
    game: Game,
    name: str,
    rng: random.Random,
    playouts: int = PLAYOUTS,
    win_bonus: float = WIN_BONUS,
) -> Mark | Pass:
    """The decision `name` makes now: the option whose playouts end best for them. `game` is
    left as it was."""
    options: list[Mark | Pass] = [*game.legal_marks(name), Pass(name)]
    if len(options) == 1:
        return options[0]
    seed = rng.getrandbits(64)
    values = [_value(game, name, option, seed, playouts, win_bonus) for option in options]
    return options[values.index(max(values))]


def _value(
    game: Game, name: str, option: Mark | Pass, seed: int, playouts: int, win_bonus: float
) -> tuple[bool, float]:
    """(whether every playout is won, the mean of margin plus the bonus for a win)."""
    tried = game.copy()
    tried.apply(option)
    rng = random.Random(seed)  # the same numbers for every option
    total = 0.0
    wins = 0
    for _ in range(playouts):
        ended = tried.copy()
        play_out(ended, rng)
        margin = _margin(ended, name)
        wins += margin > 0
        total += margin + (win_bonus if margin > 0 else 0)
    return wins == playouts, total / playouts


def _margin(game: Game, name: str) -> int:
    others = [game.total(player.name) for player in game.players if player.name != name]
    return game.total(name) - max(others, default=0)
