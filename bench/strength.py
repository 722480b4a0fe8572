"""How strong the computer players are: the ladder of levels, through our referee.

Each level against a random player, the rules of thumb, qwixxer's GA heuristic and its
Opportunist (both written afresh in bench/opponents) and the other levels: 2-player classic
games, seats rotated, seeded dice; the share of games won outright with its Wilson 95 %
interval, and mean points. Then the two qwixxer bots in qwixxer's own rule model against the
figures it publishes, the hard level at 3 and 4 players against GA heuristics, hard against
medium in every variant, each level's mean score alone, and what a decision costs (CPU time
per decision, p50/p99/max).

    nice .venv/bin/python bench/strength.py [--games 400]
        [--parts ladder,qwixxer,table,variants,solo]
    nice .venv/bin/python bench/strength.py --parts variants,solo-sheets --sheets classic big-points
    nice .venv/bin/python bench/strength.py --games 2000 --parts ga [--jobs 2]   # hard vs GA alone
    nice .venv/bin/python bench/strength.py --games 1000 --parts hard   # hard vs the others
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arena import Player, Tally, pieces, series, wilson
from opponents import qwixxer_model
from opponents.qwixxer_ga import QwixxerGA
from opponents.qwixxer_opportunist import Opportunist

from firmware_py.players import LEVELS, decide, prepare
from firmware_py.players.thumb import choose as thumb
from firmware_py.rules import Game, Mark, Pass
from sheets import sheet_names

Factory = Callable[[], Player]


def level(name: str, seed: int = 0) -> Factory:
    def make() -> Player:
        rng = random.Random(seed)
        return lambda game, player: decide(game, player, name, rng)

    return make


def random_player() -> Player:
    rng = random.Random(1)

    def play(game: Game, name: str) -> Mark | Pass:
        marks = game.legal_marks(name)
        pick = rng.randrange(len(marks) + 1)
        return marks[pick] if pick < len(marks) else Pass(name)

    return play


def ga() -> Player:
    return QwixxerGA().decide


def opportunist() -> Player:
    return Opportunist().decide


def rules_of_thumb() -> Player:
    return thumb


OPPONENTS: dict[str, Factory] = {
    "random": random_player,
    "thumb": rules_of_thumb,
    "GA": ga,
    "Opportunist": opportunist,
}


def line(label: str, tally: Tally, other: Tally) -> str:
    low, high = tally.interval()
    return (
        f"{label:<28} {tally.games:>5} {100 * tally.share():>6.1f} % "
        f"[{100 * low:4.1f}, {100 * high:4.1f}]  {tally.mean():>5.1f} vs {other.mean():>5.1f}"
    )


def times(tally: Tally) -> str:
    seconds = sorted(tally.seconds)
    if not seconds:
        return ""
    p50 = seconds[len(seconds) // 2]
    p99 = seconds[min(len(seconds) - 1, int(len(seconds) * 0.99))]
    return f"{1000 * p50:.2f} / {1000 * p99:.2f} / {1000 * seconds[-1]:.2f} ms"


def ladder(games: int) -> None:
    print("2 players, classic: sole wins [Wilson 95 %], mean points; decision CPU p50/p99/max")
    for name in LEVELS:
        for opponent, factory in OPPONENTS.items():
            mine, theirs = series("classic", [level(name), factory], games, seed=1, timed={0})
            print(f"{line(f'{name} vs {opponent}', mine, theirs)}   {times(mine)}", flush=True)
    for i, first in enumerate(LEVELS):
        for second in LEVELS[i + 1 :]:
            mine, theirs = series("classic", [level(second), level(first, 1)], games, seed=2)
            print(line(f"{second} vs {first}", mine, theirs), flush=True)


def against_ga(games: int, jobs: int = 1) -> None:
    """The headline line alone: hard against the GA heuristic, its games in `jobs` pieces played
    side by side (the same games however many)."""
    print("2 players, classic: sole wins [Wilson 95 %], mean points; decision CPU p50/p99/max")
    with Pool(jobs) as pool:
        played = pool.map(_hard_vs_ga, pieces(games, -(-games // jobs)), 1)
    mine, theirs = Tally(), Tally()
    for piece_mine, piece_theirs in played:
        mine.add(piece_mine)
        theirs.add(piece_theirs)
    print(f"{line('hard vs GA', mine, theirs)}   {times(mine)}", flush=True)


def _hard_vs_ga(piece: tuple[int, int]) -> list[Tally]:
    first, games = piece
    return series("classic", [level("hard"), ga], games, seed=1, timed={0}, first=first)


def qwixxer(games: int) -> None:
    """The benchmark opponents in qwixxer's own rule model, against its published figures
    (the GA heuristic: about 68.5 points alone, about 66 % of games against the Opportunist)."""
    print("\nqwixxer's own rule model: the benchmark opponents against its published figures")
    (alone,) = qwixxer_model.series([QwixxerGA], games, seed=7)
    print(f"GA alone {sum(alone.points) / games:.1f} points (qwixxer: about 68.5)")
    ga_, opp = qwixxer_model.series([QwixxerGA, Opportunist], games, seed=8)
    low, high = wilson(ga_.sole_wins, games)
    print(
        f"GA vs Opportunist {100 * ga_.sole_wins / games:.1f} % [{100 * low:.1f}, {100 * high:.1f}]"
        f" (qwixxer: about 66 %), {sum(ga_.points) / games:.1f} vs {sum(opp.points) / games:.1f}"
    )


def hard_line(games: int) -> None:
    """The hard level against every other opponent (the GA heuristic is the `ga` part)."""
    print("2 players, classic: sole wins [Wilson 95 %], mean points; decision CPU p50/p99/max")
    for opponent in ("Opportunist", "thumb"):
        mine, theirs = series("classic", [level("hard"), OPPONENTS[opponent]], games, seed=1)
        print(line(f"hard vs {opponent}", mine, theirs), flush=True)
    mine, theirs = series("classic", [level("hard"), level("medium", 1)], games, seed=2)
    print(line("hard vs medium", mine, theirs), flush=True)


def table(games: int) -> None:
    print("\nhard at a bigger table, classic (a fair share is 1/players)")
    for others in (2, 3):
        tallies = series("classic", [level("hard"), *[ga] * others], games, seed=3)
        rest = Tally(points=[p for t in tallies[1:] for p in t.points])
        print(line(f"hard vs {others} GA", tallies[0], rest), flush=True)
        tallies = series("classic", [level("hard"), *[rules_of_thumb] * others], games, seed=4)
        rest = Tally(points=[p for t in tallies[1:] for p in t.points])
        print(line(f"hard vs {others} thumb", tallies[0], rest), flush=True)


def variants(games: int, sheets: list[str] | None = None) -> None:
    print("\nhard vs medium, 2 players, every variant")
    for variant in sheets or sheet_names():
        mine, theirs = series(variant, [level("hard"), level("medium")], games, seed=5, timed={0})
        print(f"{line(variant, mine, theirs)}   {times(mine)}", flush=True)


def solo(games: int) -> None:
    print("\none player alone, classic: mean points (the exact optimum is 115.48)")
    solo_on("classic", games)


def solo_on(variant: str, games: int) -> None:
    """Each level's mean points alone on one sheet."""
    for name in LEVELS:
        (alone,) = series(variant, [level(name)], games, seed=6, timed={0})
        print(f"{name:<8} {alone.mean():>6.1f}   {times(alone)}", flush=True)
    if variant == "classic":  # the GA heuristic knows the classic sheet only
        (alone,) = series(variant, [ga], games, seed=6)
        print(f"{'GA':<8} {alone.mean():>6.1f}", flush=True)


def solo_per_sheet(games: int, sheets: list[str] | None = None) -> None:
    for variant in sheets or sheet_names():
        print(f"\none player alone, {variant}: mean points")
        solo_on(variant, games)


PARTS = {
    "ladder": ladder,
    "ga": against_ga,
    "hard": hard_line,
    "qwixxer": qwixxer,
    "table": table,
    "variants": variants,
    "solo": solo,
}


def main() -> None:
    prepare()  # the hard level's row prospects, as the tower works them out once it is ready
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per line")
    # "ga" is the ladder's hard vs GA line alone, "hard" its other lines of the hard level
    everything = "ladder,qwixxer,table,variants,solo"
    parser.add_argument("--parts", default=everything, help="which parts, comma-separated")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the ga part (1)")
    parser.add_argument("--sheets", nargs="*", help="the variants and solo-sheets parts: these")
    args = parser.parse_args()
    parts: dict[str, Callable[[int], None]] = {
        **PARTS,
        "ga": functools.partial(against_ga, jobs=args.jobs),
        "variants": functools.partial(variants, sheets=args.sheets),
        "solo-sheets": functools.partial(solo_per_sheet, sheets=args.sheets),
    }
    for part in args.parts.split(","):
        parts[part](args.games)


if __name__ == "__main__":
    main()
