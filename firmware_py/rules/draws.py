"""How a playout turns random bits into its choices and its dice.

Randomness comes as 30-bit numbers (`rng.getrandbits(30)`: one digit of a Python int, so the
arithmetic stays on its fast path), each turned into a choice among n by `bits * n >> 30`
(uniform to within n / 2**30). One number picks a decision, one both white dice and one all the
colour dice in play. Both ways of playing out (rollout.py through the referee's own steps,
plain.py on integers) draw this way, so the same numbers make the same game.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import cast

from sheets import COLOURS

RANDOM_BITS = 30
Bits = Callable[[int], int]  # `rng.getrandbits`


def pick(bits: Bits, count: int) -> int:
    """A number from 0 to count - 1, each (to within count / 2**30) equally likely."""
    return bits(RANDOM_BITS) * count >> RANDOM_BITS


class Dice:
    """Every roll of the white pair and of k colour dice, by pick, for dice of one size."""

    __slots__ = ("colours", "faces", "pairs")

    def __init__(self, faces: int) -> None:
        self.faces = faces
        self.pairs = cast(list[tuple[int, int]], _digit_tuples(faces, 2))
        self.colours = [_digit_tuples(faces, k) for k in range(len(COLOURS) + 1)]

    def roll(self, bits: Bits, colours: int) -> tuple[tuple[int, int], tuple[int, ...]]:
        """White dice and `colours` colour dice: the faces are the base-`faces` digits of one
        pick for the whites and one for the colours, most significant first."""
        white = self.pairs[pick(bits, len(self.pairs))]
        rolls = self.colours[colours]
        return white, rolls[pick(bits, len(rolls))]


@functools.cache
def dice(faces: int) -> Dice:
    """The rolls of dice with `faces` faces, built once."""
    return Dice(faces)


def _digit_tuples(faces: int, digits: int) -> list[tuple[int, ...]]:
    rolls: list[tuple[int, ...]] = [()]
    for _ in range(digits):
        rolls = [(*roll, face) for roll in rolls for face in range(1, faces + 1)]
    return rolls
