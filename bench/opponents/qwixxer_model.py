"""qwixxer's own rule model (github.com/vibelyova/qwixxer, src/game.rs), to check the
benchmark opponents against the figures qwixxer publishes, in the model they were made in.

Each roll the active player makes its whole turn at once (one move: a white mark, a colour
mark, both, or a strike); then each other player in turn order may cross the white sum, seeing
the rows the active player (and the players before it) locked this roll. Locks reach everybody
at the end of the roll. The game ends when a player has four strikes or two rows are locked.
Seats rotate as in qwixxer's benchmark: in game i, seat j is played by bot (j - i) mod n.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from .qwixxer_ga import QwixxerSeat, State

FRESH = State((0, 0, 0, 0), (2, 2, 12, 12), 0)


def locked_bits(state: State) -> int:
    return sum(1 << row for row, free in enumerate(state.frees) if free is None)


def gap(states: Sequence[State], seat: int) -> int:
    """The seat's points less the best of the others' (qwixxer's observe_opponents)."""
    others = [s.points() for i, s in enumerate(states) if i != seat]
    return states[seat].points() - max(others, default=0)


def over(states: Sequence[State]) -> bool:
    return any(s.strikes >= 4 for s in states) or max(s.locked_count() for s in states) >= 2


def play(bots: Sequence[QwixxerSeat], rng: random.Random) -> list[int]:
    """One game in qwixxer's model; the points of each seat."""
    states = [FRESH] * len(bots)
    active = 0
    while not over(states):
        dice = [rng.randint(1, 6) for _ in range(6)]
        white, colours = (dice[0], dice[1]), dict(enumerate(dice[2:]))
        move = bots[active].your_move(states[active], white, colours, gap(states, active))
        states[active] = states[active].apply(move)
        locked = locked_bits(states[active])
        for step in range(1, len(bots)):
            seat = (active + step) % len(bots)
            number = white[0] + white[1]
            mark = bots[seat].opponents_move(states[seat], number, locked, gap(states, seat))
            if mark is not None:
                states[seat] = states[seat].apply(mark)
            states[seat] = states[seat].lock(locked)
            locked |= locked_bits(states[seat])
        states = [s.lock(locked) for s in states]
        active = (active + 1) % len(bots)
    return [s.points() for s in states]


@dataclass
class Result:
    """One bot's sole wins and points over a series."""

    games: int = 0
    sole_wins: int = 0
    points: list[int] = field(default_factory=list)


def series(kinds: Sequence[type[QwixxerSeat]], games: int, seed: int) -> list[Result]:
    """`games` games of the bots (one per kind) in qwixxer's model, seats rotated."""
    rng = random.Random(seed)
    results = [Result() for _ in kinds]
    count = len(kinds)
    for number in range(games):
        order = [(seat - number) % count for seat in range(count)]  # order[seat] = bot
        points = play([kinds[bot]() for bot in order], rng)
        best = max(points)
        for seat, bot in enumerate(order):
            results[bot].games += 1
            results[bot].points.append(points[seat])
            if points[seat] == best and points.count(best) == 1:
                results[bot].sole_wins += 1
    return results
