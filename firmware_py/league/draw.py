"""A tournament's arithmetic, as the German Qwixx championship's qualifiers play it (docs/league.md,
"Tournaments"): the tables drawn again before each round across every table, and each table's
places turned into placement points that are summed over the rounds. Pure: no I/O, and the
randomness is handed in.

Table sizes: Qwixx is played by two to five; a round's tables seat three to five (a table of two
is a duel, not a round of a tournament), as few tables as five a table allows, their sizes at most
one apart. Placement points: first place earns FIRST, last place LAST, the places between evenly
spaced (thirds at a table of four), so every table's points average MEAN a player whatever its
size (a winner at a table of three earns what a winner at a table of five does); players tied
share the points of the places they cover.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from firmware_py.errors import TowerError

SMALLEST, LARGEST = 3, 5  # players at a round's table
FIRST, LAST = 5, 1  # placement points of a table's first and last place
MEAN = Fraction(FIRST + LAST, 2)  # every table's points, a player on average


class TooFewTables(TowerError):
    """The players need more tables than there are towers (or are too few for one table)."""


def tables_needed(players: int) -> int:
    """How many tables seat `players` within SMALLEST..LARGEST each (0 for none)."""
    if players == 0:
        return 0
    if players < SMALLEST:
        raise TooFewTables(f"a round needs at least {SMALLEST} players, not {players}")
    return -(-players // LARGEST)


def table_sizes(players: int) -> list[int]:
    """The sizes of the round's tables, largest first, at most one apart."""
    tables = tables_needed(players)
    if tables == 0:
        return []
    small, larger = divmod(players, tables)
    return [small + 1] * larger + [small] * (tables - larger)


def draw_round(
    players: Sequence[str], towers: Sequence[str], chance: random.Random
) -> dict[str, tuple[str, ...]]:
    """The round's seating: each player at one tower's table, drawn by `chance`; the towers
    used are drawn too (so no table is everyone's first). TooFewTables when it cannot be."""
    sizes = table_sizes(len(players))
    if len(sizes) > len(towers):
        raise TooFewTables(
            f"{len(players)} players need {len(sizes)} tables of {SMALLEST} to {LARGEST}; "
            f"{len(towers)} towers are on the bus"
        )
    shuffled = list(players)
    chance.shuffle(shuffled)
    chosen = sorted(chance.sample(list(towers), len(sizes)))
    seating, first = {}, 0
    for tower, size in zip(chosen, sizes, strict=True):
        seating[tower] = tuple(shuffled[first : first + size])
        first += size
    return seating


def place_points(size: int) -> list[Fraction]:
    """The points of places 1..size at a table of `size`: FIRST down to LAST, evenly (a
    player alone, the others drawn there absent, beat nobody: MEAN)."""
    if size == 1:
        return [MEAN]
    step = Fraction(FIRST - LAST, size - 1)
    return [FIRST - step * place for place in range(size)]


def placement_points(places: Sequence[int]) -> list[Fraction]:
    """Each player's points from their place at the table (1 = best; tied players share a
    place, as the towers' results say): the mean of the places' points they cover."""
    table = place_points(len(places))
    points = []
    for place in places:
        tied = sum(1 for other in places if other == place)
        points.append(sum(table[place - 1 : place - 1 + tied], Fraction(0)) / tied)
    return points
