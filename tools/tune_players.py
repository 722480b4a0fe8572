"""Tune the hard computer player's evaluation weights by self-play, from a seed.

Coordinate search: starting from the defaults in evaluation.Weights, each weight in turn is
tried a step up and a step down; a change that raises the score by more than `--margin` (more
than the games' noise) is kept, and the steps halve after each round. A candidate's score is
its share of sole wins over the same seeded games (common dice, so candidates differ by their
play alone) against several opponents, not one:
qwixxer's GA heuristic and its Opportunist (bench/opponents), the rules of thumb (medium), and
a 3-player table of it, the GA heuristic and the rules of thumb.
Writes firmware_py/players/weights.json.

    nice .venv/bin/python tools/tune_players.py [--seed 1] [--games 300] [--rounds 1] [--jobs 2]

Each candidate's games are played in pieces of 25 across `--jobs` processes (the machine's
cores by default): the same games, numbered and seeded alike, as in one process, so the
result does not depend on the number of processes.

Reproduces the shipped weights from `--seed 1` (with the defaults above: 300 games a part,
one round; no step won more than the margin, so the starting point stood): measured with
`nice /usr/bin/time -v .venv/bin/python tools/tune_players.py --seed 1` on this machine's 2
cores, shared with a test suite (a load of 5 to 20): 13 minutes of wall time, 6.6 minutes of
CPU (393 s user). The cost of a skipped number for a player alone (`skip_alone`) is not tuned
here: these games are all in company; it was set from games alone (bench/strength.py --parts
solo).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Callable, Iterator
from multiprocessing import Pool
from multiprocessing.pool import Pool as PoolType
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from arena import Player, pieces, series
from opponents.qwixxer_ga import QwixxerGA
from opponents.qwixxer_opportunist import Opportunist

from firmware_py.players import hard
from firmware_py.players.evaluation import Weights
from firmware_py.players.thumb import choose as thumb

ROOT = Path(__file__).resolve().parent.parent
STEPS = {
    "rolls": 6.0,
    "per_lock": 0.3,
    "per_lockable": 0.1,
    "opponents": 0.3,
    "win": 10.0,
}
WEIGHTS_FILE = ROOT / "firmware_py" / "players" / "weights.json"
# The parts of a candidate's score: (how much it counts, the line-up, its games as a share of
# --games, its dice seed's offset). Against the GA heuristic counts twice.
PARTS = (
    (2, ("me", "GA"), 1.0, 0),
    (1, ("me", "Opportunist"), 0.5, 3),
    (1, ("me", "medium"), 0.5, 1),
    (1, ("me", "GA", "medium"), 1.0, 2),
)
PIECE = 25  # games a process plays at once
# One piece of a part: the candidate's weights, the lineup, the seed, first game, games
Job = tuple[dict[str, float], tuple[str, ...], int, int, int]


def factory(bot: str, weights: Weights) -> Callable[[], Player]:
    """A fresh player for each game: the candidate ("me") or a benchmark opponent."""
    if bot == "me":
        return lambda: lambda game, name: hard.choose(game, name, weights)
    if bot == "GA":
        return lambda: QwixxerGA().decide
    if bot == "Opportunist":
        return lambda: Opportunist().decide
    return lambda: thumb


def sole_wins(job: Job) -> int:
    """The candidate's sole wins in one piece of a part (run in a worker process)."""
    weights, lineup, seed, first, games = job
    bots = [factory(bot, Weights(**weights)) for bot in lineup]
    return series("classic", bots, games, seed, first=first)[0].sole_wins


def jobs_of(weights: Weights, games: int, seed: int) -> Iterator[tuple[int, Job]]:
    """Every part split into pieces of PIECE games: (part, job)."""
    as_dict = dataclasses.asdict(weights)
    for index, (_, lineup, share, offset) in enumerate(PARTS):
        for first, count in pieces(int(games * share), PIECE):
            yield index, (as_dict, lineup, seed + offset, first, count)


def score(weights: Weights, games: int, seed: int, pool: PoolType) -> float:
    """Share of sole wins: 2 players against the GA heuristic (counted twice), against
    qwixxer's Opportunist, against the rules of thumb, and 3 players with the GA heuristic and
    the rules of thumb. The same games whether played in one process or several."""
    jobs = list(jobs_of(weights, games, seed))
    results = pool.map(sole_wins, [job for _, job in jobs], 1)
    wins = [0] * len(PARTS)
    for (index, _), won in zip(jobs, results, strict=True):
        wins[index] += won
    shares = [wins[i] / int(games * share) for i, (_, _, share, _) in enumerate(PARTS)]
    counts = [count for count, _, _, _ in PARTS]
    return sum(c * s for c, s in zip(counts, shares, strict=True)) / sum(counts)


def tune(seed: int, games: int, rounds: int, margin: float, pool: PoolType) -> Weights:
    best = Weights()
    best_score = score(best, games, seed, pool)
    print(f"start {best} {best_score:.3f}", flush=True)
    steps = dict(STEPS)
    for round_ in range(rounds):
        for name, step in steps.items():
            for sign in (1, -1):
                value = max(0.0, getattr(best, name) + sign * step)
                candidate = dataclasses.replace(best, **{name: value})
                result = score(candidate, games, seed + 10 * round_, pool)
                if result > best_score + margin:
                    best, best_score = candidate, result
                    print(f"round {round_} {name}={value:g}: {result:.3f}", flush=True)
                    break
        best_score = score(best, games, seed + 10 * (round_ + 1), pool)  # fresh games
        steps = {name: step / 2 for name, step in steps.items()}
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--margin", type=float, default=0.01, help="a gain that counts")
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE)
    parser.add_argument("--jobs", type=int, default=os.cpu_count(), help="processes")
    args = parser.parse_args()
    with Pool(args.jobs) as pool:
        weights = tune(args.seed, args.games, args.rounds, args.margin, pool)
    text = json.dumps({k: round(v, 4) for k, v in dataclasses.asdict(weights).items()})
    args.out.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {text}")


if __name__ == "__main__":
    main()
