"""`players.decide`, the contract of shared/spec/computer-players.md, at every level."""

from __future__ import annotations

import random

import pytest

from firmware_py.players import LEVELS, UnknownLevel, decide, hard
from firmware_py.players.evaluation import Weights
from firmware_py.players.thumb import choose
from firmware_py.rules import ACTION1, ACTION2, Game, Mark, Pass, Roll, Start
from sheets import sheet_names


def start(variant: str, players: int, rng: random.Random) -> Game:
    names = tuple(f"P{i}" for i in range(players))
    lucky = None
    if variant == "longo":
        lucky = {name: tuple(rng.sample(range(2, 17), 2)) for name in names}
    return Game.start(Start(variant, names, lucky))


def roll(game: Game, rng: random.Random) -> Roll:
    faces = game.sheet.dice_faces
    white = (rng.randint(1, faces), rng.randint(1, faces))
    return Roll(white, {colour: rng.randint(1, faces) for colour in game.dice_in_play()})


def moments(variant: str, seed: int, players: int = 3):
    """Every decision of a seeded game played by the rules of thumb: (game, name) as the
    table asks it, action 1 for each seat on the game as it stood at the roll."""
    rng = random.Random(seed)
    game = start(variant, players, rng)
    while not game.over:
        game.apply(roll(game, rng))
        waiting = game.waiting_for()
        for name in waiting:
            yield game, name
        for decision in [choose(game, name) for name in waiting]:
            game.apply(decision)
        if game.phase is ACTION2:
            yield game, game.active_name
            game.apply(choose(game, game.active_name))


@pytest.mark.parametrize("variant", sheet_names())
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_returns_a_legal_decision_and_leaves_the_game_alone(variant, level):
    phases = set()
    for game, name in moments(variant, seed=11):
        before = game.state()
        decision = decide(game, name, level, random.Random(5))
        assert game.state() == before
        assert decision == Pass(name) or decision in game.legal_marks(name)
        phases.add((game.phase, name == game.active_name))
    assert phases == {(ACTION1, True), (ACTION1, False), (ACTION2, True)}


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_seed_gives_the_same_decision(level):
    for game, name in moments("longo", seed=3):
        first = decide(game, name, level, random.Random(9))
        assert decide(game, name, level, random.Random(9)) == first


def test_an_unknown_level_is_refused_in_one_sentence():
    game = start("classic", 2, random.Random(1))
    game.apply(Roll((3, 4), {"red": 1, "yellow": 2, "green": 3, "blue": 4}))
    with pytest.raises(UnknownLevel, match=r"^'expert' is not a level; the levels are easy, "):
        decide(game, "P0", "expert", random.Random(1))


def beginner_mistakes(level: str, seed: int) -> tuple[float, float]:
    """(share of the chances to lock left unmade, numbers skipped per cross) over seeded
    2-player classic games of the level against itself."""
    rng = random.Random(seed)
    missed = chances = skipped = crosses = 0
    for _ in range(30):
        game = start("classic", 2, rng)
        while not game.over:
            game.apply(roll(game, rng))
            waiting = game.waiting_for()
            decisions = [decide(game, name, level, rng) for name in waiting]
            for name, decision in zip(waiting, decisions, strict=True):
                chances += _can_lock(game, name)
                missed += _can_lock(game, name) and not _locks(decision)
            for decision in decisions:
                skipped += _skips(game, decision)
                crosses += isinstance(decision, Mark)
                game.apply(decision)
            if game.phase is ACTION2:
                decision = decide(game, game.active_name, level, rng)
                chances += _can_lock(game, game.active_name)
                missed += _can_lock(game, game.active_name) and not _locks(decision)
                skipped += _skips(game, decision)
                crosses += isinstance(decision, Mark)
                game.apply(decision)
    return missed / chances, skipped / crosses


def _locks(decision: Mark | Pass) -> bool:
    """A classic lock cell: red or yellow 12, green or blue 2."""
    return isinstance(decision, Mark) and decision.number == LOCK_NUMBER[decision.row]


def _can_lock(game: Game, name: str) -> bool:
    return any(_locks(mark) for mark in game.legal_marks(name))


LOCK_NUMBER = {"red": 12, "yellow": 12, "green": 2, "blue": 2}


def _skips(game: Game, decision: Mark | Pass) -> int:
    if not isinstance(decision, Mark):
        return 0
    player = game.player(decision.player)
    row = game.sheet.row_index(decision.row)
    return game.sheet.positions[row][decision.number] - player.last_position(row) - 1


def test_easy_makes_the_mistakes_of_a_beginner_more_often_than_hard():
    """It skips more numbers per cross, and leaves more locks unmade."""
    easy_missed, easy_skips = beginner_mistakes("easy", seed=4)
    hard_missed, hard_skips = beginner_mistakes("hard", seed=4)
    assert easy_skips > 1.5 * hard_skips
    assert easy_missed > 2 * hard_missed


@pytest.mark.parametrize("variant", ["classic", "longo"])
def test_hard_judging_a_roll_ahead_still_chooses_legally_and_leaves_the_game_alone(variant):
    """The look a roll ahead (on in the shipped weights) plays the copy's sheet forward and
    back; the game asked about stays as it was."""
    weights = Weights(ahead=1.0)
    for game, name in moments(variant, seed=8):
        before = game.state()
        decision = hard.choose(game, name, weights)
        assert game.state() == before
        assert decision == Pass(name) or decision in game.legal_marks(name)


def sole_wins(first: str, second: str, games: int, seed: int) -> int:
    """How many of `games` seeded 2-player classic games `first` wins outright against
    `second`, seats swapped every game."""
    rng = random.Random(seed)
    wins = 0
    for number in range(games):
        game = start("classic", 2, rng)
        levels = {"P0": first, "P1": second} if number % 2 == 0 else {"P0": second, "P1": first}
        while not game.over:
            game.apply(roll(game, rng))
            waiting = game.waiting_for()
            for decision in [decide(game, name, levels[name], rng) for name in waiting]:
                game.apply(decision)
            if game.phase is ACTION2:
                game.apply(decide(game, game.active_name, levels[game.active_name], rng))
        mine = "P0" if number % 2 == 0 else "P1"
        wins += game.winners() == [mine]
    return wins


@pytest.mark.parametrize(("stronger", "weaker"), [("hard", "medium"), ("medium", "easy")])
def test_each_level_wins_most_games_against_the_level_below(stronger, weaker):
    """The levels are ordered by strength (bench/strength.py measures by how much: hard wins
    about 86 % against medium, medium about 97 % against easy)."""
    assert sole_wins(stronger, weaker, games=30, seed=2) >= 20
