"""Computer players decide through the same legal-move list as everyone, and play sensibly."""

from __future__ import annotations

import random
import sys

import pytest
from support.paths import ROOT

from firmware_py.players.thumb import choose
from firmware_py.rules import ACTION1, ACTION2, Game, Mark, Pass, Roll, Start
from sheets import sheet_names

sys.path.insert(0, str(ROOT / "bench"))
from engine import new_game, random_decision, random_roll


def play(variant: str, seed: int, computers: set[str]) -> Game:
    rng = random.Random(seed)
    game = new_game(variant, 2, rng)
    while not game.over:
        game.apply(random_roll(game, rng))
        while game.phase == ACTION1:
            for name in game.waiting_for():
                decide = choose if name in computers else lambda g, n: random_decision(g, n, rng)
                game.apply(decide(game, name))
        if game.phase == ACTION2:
            name = game.active_name
            game.apply(
                choose(game, name) if name in computers else random_decision(game, name, rng)
            )
    return game


@pytest.mark.parametrize("variant", sheet_names())
def test_a_computer_player_beats_a_random_player_in_most_games(variant):
    """Seeded games, so the figure is the same every run; a strategy that decays fails it."""
    games = [play(variant, seed, {"P0"}) for seed in range(30)]
    wins = sum(game.total("P0") > game.total("P1") for game in games)
    assert wins >= 24, f"won only {wins} of 30"


def test_the_active_player_takes_a_poor_cross_rather_than_a_penalty():
    """Action 2 with nothing crossed: a cross that skips four numbers beats -5 points."""
    game = Game.start(Start("classic", ("Ann", "Ben")))
    game.apply(Roll((1, 1), {"red": 5, "yellow": 5, "green": 6, "blue": 6}))
    game.apply(Pass("Ann"))
    game.apply(Pass("Ben"))
    assert choose(game, "Ann") == Mark("Ann", "red", 6)  # white 1 + red 5: skips 2, 3, 4, 5


def test_a_player_passes_a_white_sum_that_would_skip_most_of_a_row():
    """Ben is not active and his sheet is empty: a 10 skips eight numbers of red or yellow and
    two of green or blue, more than one cross is worth."""
    game = Game.start(Start("classic", ("Ann", "Ben")))
    game.apply(Roll((5, 5), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
    assert game.legal_marks("Ben")  # crossing would be allowed...
    assert choose(game, "Ben") == Pass("Ben")  # ...but is not worth it
