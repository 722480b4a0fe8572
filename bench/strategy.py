"""How well the computer players play: mean scores against random players and among themselves.

.venv/bin/python bench/strategy.py [--games 200]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import new_game, play_to_the_end, random_decision

from firmware_py.players.thumb import choose
from firmware_py.rules import Mark, Pass
from sheets import sheet_names


def play(variant: str, rng: random.Random, computers: set[str]) -> list[int]:
    """One 3-player game; seats in `computers` use the strategy, the others play at random."""
    game = new_game(variant, 3, rng)

    def decide(name: str) -> Mark | Pass:
        return choose(game, name) if name in computers else random_decision(game, name, rng)

    play_to_the_end(game, rng, decide)
    return [game.total(player.name) for player in game.players]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    print(f"{'variant':<9} {'computer':>8} {'random':>7} {'won':>5}   {'3 computers':>11}")
    for variant in sheet_names():
        rng = random.Random(7)
        mixed = [play(variant, rng, {"P0"}) for _ in range(args.games)]
        alone = [play(variant, rng, {"P0", "P1", "P2"}) for _ in range(args.games)]
        won = sum(scores[0] >= max(scores) for scores in mixed) / args.games
        print(
            f"{variant:<9} {statistics.mean(s[0] for s in mixed):>8.1f} "
            f"{statistics.mean(s[1] for s in mixed):>7.1f} {won:>5.0%}   "
            f"{statistics.mean(statistics.mean(s) for s in alone):>11.1f}"
        )


if __name__ == "__main__":
    main()
