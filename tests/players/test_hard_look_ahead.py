"""The hard level's look a roll ahead works out the positions it reaches from what they share
(the rows left as they were, the others' worth), for speed; it must value each exactly as the
evaluation values that position whole, or the hard level's decisions would change with it."""

from __future__ import annotations

import random

import pytest

from firmware_py.players import hard
from firmware_py.players.hard import ending, judge, judge_closed
from firmware_py.players.thumb import choose
from firmware_py.rules import ACTION2, Game, Pass, Roll, Start


def whole(game: Game, name: str, now: float) -> float:
    """The look a roll ahead done plainly: each position reached judged whole."""
    closed = game.closed | game.locking
    if not game.plain or ending(game, closed):
        return now
    weights = hard.shipped_weights()
    me = game.player(name)
    faces, threshold = game.sheet.dice_faces, game.sheet.lock_threshold
    expected = 0.0
    for total in range(2, 2 * faces + 1):
        best = now
        for _, row, _, bit, locks in game.tables.by_sum[total]:
            mask = me.rows[row]
            if mask >= bit or closed >> row & 1 or (locks and mask.bit_count() < threshold):
                continue
            me.rows[row] = mask | bit | (me.lock_bits[row] if locks else 0)
            best = max(best, judge_closed(game, name, weights, closed | (locks << row)))
            me.rows[row] = mask
        expected += (faces - abs(total - faces - 1)) / faces**2 * best
    return expected


def positions(players: int, seed: int):
    """Every position a seeded game of the rules of thumb leaves after one of its decisions:
    (game, name of the player who decided)."""
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(players))
    game = Game.start(Start("classic", names))
    while not game.over:
        white = (rng.randint(1, 6), rng.randint(1, 6))
        game.apply(Roll(white, {colour: rng.randint(1, 6) for colour in game.dice_in_play()}))
        waiting = game.waiting_for()
        for decision in [choose(game, name) for name in waiting]:
            yield from after_each_option(game, decision.player)
            game.apply(decision)
        if game.phase is ACTION2:
            yield from after_each_option(game, game.active_name)
            game.apply(choose(game, game.active_name))


def after_each_option(game: Game, name: str):
    for option in [*game.legal_marks(name), Pass(name)]:
        after = game.copy()
        after.apply(option)
        yield after, name


@pytest.mark.parametrize("players", [1, 2, 3])
def test_the_look_a_roll_ahead_values_each_position_as_judging_it_whole(players):
    looked = 0
    for game, name in positions(players, seed=players):
        now = judge(game, name, hard.shipped_weights())
        assert hard.ahead(game, name, hard.shipped_weights(), now) == whole(game, name, now)
        looked += 1
    assert looked > 50


def test_a_lock_among_the_crosses_looked_at_is_valued_as_the_row_closed():
    """Ann has red 2 to 6: the next white 12 would lock red, and the evaluation then counts red
    as closed for both players (Ben's red 2 to 4 loses its prospects)."""
    game = Game.start(Start("classic", ("Ann", "Ben")))
    game.player("Ann").rows[0] = 0b11111
    game.player("Ben").rows[0] = 0b111
    now = judge(game, "Ann", hard.shipped_weights())
    assert hard.ahead(game, "Ann", hard.shipped_weights(), now) == whole(game, "Ann", now)
