"""How the look-ahead player (firmware_py/players/lookahead.py) does against the rules of thumb.

2-player games, the look-ahead player against `players.choose`, and what a decision costs.
`--win-bonus` sets what a won playout is worth on top of its margin. Measured over 120 classic
games at 150 playouts per option: margin alone (0) won 66, a bonus of 30 won 73, winning alone
(1000) won 61; margin alone also passes up a certain win for a risky bigger margin.

    .venv/bin/python bench/look_ahead.py [--games 40] [--playouts 150] [--win-bonus 30]
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

from engine import new_game, play_to_the_end

from firmware_py.players.lookahead import WIN_BONUS, look_ahead
from firmware_py.players.thumb import choose
from firmware_py.rules import Mark, Pass


def match(
    variant: str, seed: int, args: argparse.Namespace, timings: list[float]
) -> tuple[int, int]:
    """One 2-player game, look-ahead (P0) against the rule of thumb (P1): their totals."""
    rng = random.Random(seed)
    game = new_game(variant, 2, rng)

    def decide(name: str) -> Mark | Pass:
        if name != "P0":
            return choose(game, name)
        start = time.perf_counter()
        decision = look_ahead(game, name, rng, args.playouts, args.win_bonus)
        timings.append(time.perf_counter() - start)
        return decision

    play_to_the_end(game, rng, decide)
    return game.total("P0"), game.total("P1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--playouts", type=int, default=150, help="per option")
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--win-bonus", type=float, default=WIN_BONUS, help="points per win")
    args = parser.parse_args()
    timings: list[float] = []
    results = [match(args.variant, seed, args, timings) for seed in range(args.games)]
    wins = sum(mine > theirs for mine, theirs in results)
    ties = sum(mine == theirs for mine, theirs in results)
    print(
        f"{args.variant}, 2 players, {args.playouts} playouts per option, "
        f"win bonus {args.win_bonus:g}, {args.games} games"
    )
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
