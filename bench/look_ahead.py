"""An experiment the playout engine makes possible: a computer player that looks ahead.

For each legal decision (and the pass) it plays the game on to its end PLAYOUTS times with
uniformly random players (`rules.rollout.play_out`, the same random numbers for every option)
and takes the decision with the best mean margin (its total minus the best other total). This
prints how it does against the tower's rule-of-thumb player (`players.choose`) in 2-player games
and what a decision costs. Not used by the tower yet: it beats the rule of thumb, but it prefers
a risky bigger margin to a certain win (see the closing note of the session that wrote it).

    .venv/bin/python bench/look_ahead.py [--games 40] [--playouts 150] [--variant classic]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import new_game, random_roll

from firmware_py.players import choose
from firmware_py.rules import ACTION1, ACTION2, Game, Mark, Pass
from firmware_py.rules.rollout import play_out


def look_ahead(game: Game, name: str, rng: random.Random, playouts: int) -> Mark | Pass:
    options = [*game.legal_marks(name), Pass(name)]
    if len(options) == 1:
        return options[0]
    seed = rng.getrandbits(64)
    margins = [mean_margin(game, name, option, seed, playouts) for option in options]
    return options[margins.index(max(margins))]


def mean_margin(game: Game, name: str, option, seed: int, playouts: int) -> float:
    tried = game.copy()
    tried.apply(option)
    rng = random.Random(seed)
    total = 0
    for _ in range(playouts):
        ended = tried.copy()
        play_out(ended, rng)
        others = [ended.total(p.name) for p in ended.players if p.name != name]
        total += ended.total(name) - max(others, default=0)
    return total / playouts


def match(variant: str, seed: int, playouts: int, timings: list[float]) -> tuple[int, int]:
    """One 2-player game, look-ahead (P0) against the rule of thumb (P1): their totals."""
    rng = random.Random(seed)
    game = new_game(variant, 2, rng)

    def decide(name: str):
        if name != "P0":
            return choose(game, name)
        start = time.perf_counter()
        decision = look_ahead(game, name, rng, playouts)
        timings.append(time.perf_counter() - start)
        return decision

    while not game.over:
        game.apply(random_roll(game, rng))
        while game.phase == ACTION1:
            for name in game.waiting_for():
                game.apply(decide(name))
        if game.phase == ACTION2:
            game.apply(decide(game.active_name))
    return game.total("P0"), game.total("P1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--playouts", type=int, default=150, help="per option")
    parser.add_argument("--variant", default="classic")
    args = parser.parse_args()
    timings: list[float] = []
    results = [match(args.variant, seed, args.playouts, timings) for seed in range(args.games)]
    wins = sum(mine > theirs for mine, theirs in results)
    ties = sum(mine == theirs for mine, theirs in results)
    print(f"{args.variant}, 2 players, {args.playouts} playouts per option, {args.games} games")
    print(f"look-ahead won {wins}, lost {args.games - wins - ties}, tied {ties}")
    print(
        f"mean totals: look-ahead {statistics.mean(r[0] for r in results):.1f}, "
        f"rule of thumb {statistics.mean(r[1] for r in results):.1f}"
    )
    print(
        f"per decision: median {1000 * statistics.median(timings):.0f} ms, "
        f"max {1000 * max(timings):.0f} ms"
    )


if __name__ == "__main__":
    main()
