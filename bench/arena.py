"""Games between computer players through our referee: seeded dice, seats rotated.

A player is a function `(game, name) -> Mark | Pass`. Every decision goes through `Game.apply`,
so a bot that returns an illegal event fails loudly. Action 1 asks each player on the game as
it stood at the roll (the contract of shared/spec/computer-players.md), then applies them all.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass, field

from firmware_py.rules import ACTION1, ACTION2, Game, Mark, Pass, Roll, Start

Player = Callable[[Game, str], Mark | Pass]


@dataclass
class Tally:
    """Results of one player (a bot, over all its seats) in a series of games."""

    games: int = 0
    sole_wins: int = 0
    shared_wins: int = 0
    points: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)  # CPU time of each decision

    def share(self) -> float:
        return self.sole_wins / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.sole_wins, self.games)

    def mean(self) -> float:
        return sum(self.points) / len(self.points) if self.points else 0.0

    def add(self, other: Tally) -> None:
        """Count another piece of the same series in."""
        self.games += other.games
        self.sole_wins += other.sole_wins
        self.shared_wins += other.shared_wins
        self.points.extend(other.points)
        self.seconds.extend(other.seconds)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score 95 % interval of a proportion."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def roll(game: Game, rng: random.Random) -> Roll:
    faces = game.sheet.dice_faces
    white = (rng.randint(1, faces), rng.randint(1, faces))
    return Roll(white, {colour: rng.randint(1, faces) for colour in game.dice_in_play()})


def new_game(variant: str, names: Sequence[str], rng: random.Random) -> Game:
    lucky = None
    if variant == "longo":
        lucky = {name: tuple(rng.sample(range(2, 17), 2)) for name in names}
    return Game.start(Start(variant, tuple(names), lucky))


def play(
    variant: str, players: Sequence[Player], seed: int, timed: Set[int] = frozenset()
) -> tuple[Game, list[list[float]]]:
    """One game, seat i played by players[i] (named P0, P1, ...); dice from `seed`. Returns
    the finished game and, for the seats in `timed`, the CPU time of each decision."""
    rng = random.Random(seed)
    names = [f"P{i}" for i in range(len(players))]
    game = new_game(variant, names, rng)
    seconds: list[list[float]] = [[] for _ in players]

    def ask(seat: int, state: Game) -> Mark | Pass:
        if seat not in timed:
            return players[seat](state, names[seat])
        start = time.process_time()
        decision = players[seat](state, names[seat])
        seconds[seat].append(time.process_time() - start)
        return decision

    while not game.over:
        game.apply(roll(game, rng))
        decisions = [ask(seat, game) for seat in range(len(players))]
        for decision in decisions:
            game.apply(decision)
        if game.phase is ACTION2:
            game.apply(ask(game.active, game))
        assert game.phase is not ACTION1
    return game, seconds


def pieces(games: int, size: int) -> list[tuple[int, int]]:
    """`games` games as pieces of at most `size`: (first game's number, games) for `series`."""
    return [(first, min(size, games - first)) for first in range(0, games, size)]


def series(
    variant: str,
    lineup: Sequence[Callable[[], Player]],
    games: int,
    seed: int = 0,
    timed: Set[int] = frozenset(),
    first: int = 0,
) -> list[Tally]:
    """`games` games of the bots in `lineup` (each a factory, called once per game), seats
    rotated each game; one Tally per bot. Games are numbered from `first`, so a long series
    split into pieces (one a process) plays the very games it plays whole."""
    tallies = [Tally() for _ in lineup]
    count = len(lineup)
    for number in range(first, first + games):
        order = [(number + k) % count for k in range(count)]  # order[seat] = bot
        players = [lineup[bot]() for bot in order]
        game, seconds = play(
            variant,
            players,
            seed * 1_000_003 + number,
            {s for s in range(count) if order[s] in timed},
        )
        totals = [game.total(p.name) for p in game.players]
        best = max(totals)
        for seat, bot in enumerate(order):
            tally = tallies[bot]
            tally.games += 1
            tally.points.append(totals[seat])
            tally.seconds.extend(seconds[seat])
            if totals[seat] == best:
                if totals.count(best) == 1:
                    tally.sole_wins += 1
                else:
                    tally.shared_wins += 1
    return tallies
