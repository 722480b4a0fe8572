"""Rules-engine speed: random full games, rolls and legal-move queries per second.

Uniformly random legal players: at each decision a player takes one of `legal_marks` or passes,
each with equal chance. Two ways to play them, both measured:
- "checked": every event is built and goes through `Game.apply`, which checks it as it would an
  event from a pad (the table's path);
- "playout": `rules.rollout.play_out`, the path computer players simulate games with: the same
  choices and the same rules, without the referee's checks; on plain sheets (classic, Longo,
  Mixx, Big Points) the fast path of rules/plain.py, on bonus sheets `Game.apply_unchecked`
  (tests/rules/test_rules_rollout.py replays playouts through `Game.apply`, and holds the fast
  path to the referee decision by decision on every sheet, to show they are the same games).
One process, one core. Run:

    .venv/bin/python bench/engine.py            # every variant, 2 and 4 players
    .venv/bin/python bench/engine.py --seconds 5 --variants classic

Wall-clock figures on a shared host swing by half within minutes. To compare two versions of
the engine, count instructions instead: `--play N` plays N 4-player playouts of each variant
untimed, and valgrind counts what they cost, the same on every run:

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        .venv/bin/python bench/engine.py --play 1000 --variants classic
    # minus the same with --play 0, divided by 1000: instructions per game (the fixed hash
    # seed keeps dict layouts, and so the count, the same from run to run); --checked plays
    # them through Game.apply instead
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_py.rules import ACTION1, ACTION2, Game, Mark, Pass, Roll, Start
from firmware_py.rules.rollout import play_out
from sheets import sheet_names


def new_game(variant: str, players: int, rng: random.Random) -> Game:
    names = tuple(f"P{i}" for i in range(players))
    lucky = None
    if variant == "longo":
        lucky = {name: tuple(rng.sample(range(2, 17), 2)) for name in names}
    return Game.start(Start(variant, names, lucky))


def random_roll(game: Game, rng: random.Random) -> Roll:
    faces = game.sheet.dice_faces
    draw = rng.random
    white = (int(draw() * faces) + 1, int(draw() * faces) + 1)
    return Roll(white, {colour: int(draw() * faces) + 1 for colour in game.dice_in_play()})


def random_decision(game: Game, name: str, rng: random.Random) -> Mark | Pass:
    marks = game.legal_marks(name)
    pick = int(rng.random() * (len(marks) + 1))
    return marks[pick] if pick < len(marks) else Pass(name)


def play_to_the_end(game: Game, rng: random.Random, decide: Callable[[str], Mark | Pass]) -> int:
    """Roll with `rng` and apply `decide(name)` for each decision until the game is over;
    return the number of rolls."""
    rolls = 0
    while not game.over:
        game.apply(random_roll(game, rng))
        rolls += 1
        while game.phase == ACTION1:
            for name in game.waiting_for():
                game.apply(decide(name))
        if game.phase == ACTION2:
            game.apply(decide(game.active_name))
    return rolls


def play_random_game(variant: str, players: int, rng: random.Random) -> int:
    """Play one game to its end; return the number of rolls."""
    game = new_game(variant, players, rng)
    return play_to_the_end(game, rng, lambda name: random_decision(game, name, rng))


def play_checked(variant: str, players: int, rng: random.Random) -> int:
    return play_random_game(variant, players, rng)


def play_fast(variant: str, players: int, rng: random.Random) -> int:
    return play_out(new_game(variant, players, rng), rng)


def games_per_second(
    play: Callable[[str, int, random.Random], int],
    variant: str,
    players: int,
    seconds: float,
    seed: int,
) -> tuple[float, float]:
    """Best of three timed rounds: (games per second, rolls per second)."""
    rng = random.Random(seed)
    rates = []
    for _ in range(3):
        games = rolls = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / 3:
            rolls += play(variant, players, rng)
            games += 1
        rates.append((games / elapsed, rolls / elapsed))
    return max(rates)


def legal_queries_per_second(seconds: float, seed: int) -> float:
    """Legal-move queries on positions taken from random 4-player classic games."""
    rng = random.Random(seed)
    positions = list(_positions(rng, 400))
    queries = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for game, name in positions:
            game.legal_marks(name)
        queries += len(positions)
    return queries / elapsed


def _positions(rng: random.Random, count: int) -> Iterator[tuple[Game, str]]:
    """Mid-game moments where `name` has a decision to make (snapshots by replaying)."""
    while count > 0:
        game = new_game("classic", 4, rng)
        for _ in range(rng.randrange(1, 20)):
            if game.over:
                break
            game.apply(random_roll(game, rng))
            while game.phase == ACTION1:
                for name in game.waiting_for():
                    game.apply(random_decision(game, name, rng))
            if game.phase == ACTION2:
                game.apply(random_decision(game, game.active_name, rng))
        if not game.over:
            game.apply(random_roll(game, rng))
            count -= 1
            yield game, game.waiting_for()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--variants", nargs="*", default=sheet_names())
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--play", type=int, metavar="N", help="play N games untimed and stop")
    parser.add_argument(
        "--checked", action="store_true", help="--play: through Game.apply, not playouts"
    )
    args = parser.parse_args()
    if args.play is not None:
        rng = random.Random(args.seed)
        play = play_checked if args.checked else play_fast
        for variant in args.variants:
            for _ in range(args.play):
                play(variant, 4, rng)
        return
    print(
        f"Python {sys.version.split()[0]}, one core, best of 3 rounds of {args.seconds / 3:.1f} s"
    )
    print(f"{'':<17} {'checked (Game.apply)':>20}   {'playout (computer players)':>26}")
    print(
        f"{'variant':<9} {'players':>7} {'games/s':>9} {'rolls/s':>9}   "
        f"{'games/s':>9} {'rolls/s':>9} {'rolls/game':>10}"
    )
    for variant in args.variants:
        for players in (2, 4):
            timing = (variant, players, args.seconds, args.seed)
            checked, checked_rolls = games_per_second(play_checked, *timing)
            fast, rolls = games_per_second(play_fast, *timing)
            print(
                f"{variant:<9} {players:>7} {checked:>9.0f} {checked_rolls:>9.0f}   "
                f"{fast:>9.0f} {rolls:>9.0f} {rolls / fast:>10.1f}"
            )
    queries = legal_queries_per_second(args.seconds, args.seed)
    print(f"legal-move queries/s (4-player classic, mid-game): {queries:,.0f}")


if __name__ == "__main__":
    main()
