"""The look-ahead computer player: tries each decision, plays the game out, takes the best."""

from __future__ import annotations

import random

from support.rules import build, new_game, roll_sum

from firmware_py.players.lookahead import look_ahead
from firmware_py.players.thumb import choose
from firmware_py.rules import Mark, Pass, game_report


def test_it_takes_the_lock_that_ends_the_game_with_it_ahead():
    """Ben has locked green. Ann, 21 to 28 behind, rolls a 12: crossing red 12 locks red, the
    second lock, and the game ends after this action with Ann ahead (34 to at most 29), a sure
    win. Crossing blue 12 instead plays on for a bigger margin on average, and may lose."""
    game = new_game("classic", ("Ann", "Ben"))
    build(game, {"Ann": [("red", n) for n in (2, 3, 4, 5, 6)] + [("yellow", n) for n in (2, 3, 4)],
                 "Ben": [("green", n) for n in (12, 11, 10, 9, 8, 2)]})  # fmt: skip
    assert game_report(game)["locked"] == ["green"]
    game.apply(roll_sum(game, 12))
    assert {Mark("Ann", "red", 12), Mark("Ann", "blue", 12)} <= set(game.legal_marks("Ann"))
    for seed in range(3):
        decision = look_ahead(game, "Ann", random.Random(seed), playouts=60)
        assert decision == Mark("Ann", "red", 12)


def test_it_only_ever_chooses_a_legal_decision_and_leaves_the_game_alone():
    rng = random.Random(2026)
    for variant, turns in (("mixx-a", 4), ("longo", 6), ("bonus-b", 3)):
        game = new_game(variant, ("Ann", "Ben", "Cleo"))
        for _ in range(turns):  # some turns in, played by the rule-of-thumb player
            game.apply(roll_sum(game, 2 + rng.randrange(11)))
            for name in game.waiting_for():
                game.apply(choose(game, name))
            if not game.over:
                game.apply(choose(game, game.active_name))
        assert not game.over
        game.apply(roll_sum(game, 7))
        before = game_report(game)
        for name in game.waiting_for():
            decision = look_ahead(game, name, rng, playouts=8)
            assert decision in [*game.legal_marks(name), Pass(name)]
        assert game_report(game) == before


def test_the_same_random_numbers_make_the_same_decision():
    game = new_game("classic", ("Ann", "Ben"))
    game.apply(roll_sum(game, 6))
    first = look_ahead(game, "Ann", random.Random(5), playouts=30)
    assert all(look_ahead(game, "Ann", random.Random(5), playouts=30) == first for _ in range(3))
