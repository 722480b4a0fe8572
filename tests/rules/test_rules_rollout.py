"""Random playouts (`play_out`) are games the referee accepts, move for move.

Computer players simulate games with `play_out`, which skips the referee's checks for speed. These
tests replay every playout through the checked path, `Game.apply`, and require three things: each
event is accepted; each decision is the one a player picking uniformly from `legal_marks(name)`
plus a pass would make with the same random number (so the playout offers exactly the legal
choices, in the same order); and the playout ends in the same state, with the same scores, as the
replay. Dice, too, must be the ones the random numbers say.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from support.rules import PROPERTY_SETTINGS, starts

from firmware_py.rules import ACTION1, OVER, Game, Pass, Roll, Start, game_report
from firmware_py.rules.rollout import play_out
from sheets import sheet_names


class RecordedDraws(random.Random):
    """Random bits that remember themselves, for checking what they decided."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.values: list[int] = []

    def getrandbits(self, k: int) -> int:
        assert k == 30, "playouts draw 30 bits at a time (one digit of a Python int)"
        value = super().getrandbits(k)
        self.values.append(value)
        return value


def choice_of(number: int, count: int) -> int:
    """The one of `count` choices a 30-bit random number picks: the spec of the playouts'
    draws, written out here independently of rules/rollout.py."""
    return number * count // 2**30


def check_against_the_referee(game: Game, events: list, draws: list[int]) -> Game:
    """Replay a playout's events on `game` through `Game.apply`, checking each one against
    what the same random numbers choose from the legal moves; return the replayed game."""
    numbers = iter(draws)
    for event in events:
        if isinstance(event, Roll):
            assert event == expected_roll(game, numbers)
        else:
            assert event == expected_decision(game, event.player, numbers)
        game.apply(event)  # raises Refused if the referee would not accept it
    assert next(numbers, None) is None, "the playout drew numbers it did not use"
    return game


def expected_roll(game: Game, numbers) -> Roll:
    """One number picks both white dice, one every colour die in play: a roll of n dice is an
    n-digit number in base `faces`, the first die the most significant digit."""
    white = digits(choice_of(next(numbers), game.sheet.dice_faces**2), game.sheet.dice_faces, 2)
    in_play = game.dice_in_play()
    count = game.sheet.dice_faces ** len(in_play)
    colours = digits(choice_of(next(numbers), count), game.sheet.dice_faces, len(in_play))
    return Roll(white, dict(zip(in_play, colours, strict=True)))


def digits(number: int, faces: int, dice: int) -> tuple[int, ...]:
    return tuple(number // faces ** (dice - 1 - die) % faces + 1 for die in range(dice))


def expected_decision(game: Game, name: str, numbers):
    """A player with a mark to choose draws one number; one who can only pass draws none."""
    options = [*game.legal_marks(name), Pass(name)]
    if len(options) == 1:
        return options[0]
    return options[choice_of(next(numbers), len(options))]


def table_state(game: Game) -> tuple:
    """Everything that changes as a game is played (`Game.state`), but the last turn's action-1
    decisions, which nothing reads once the game is over: a field a playout forgets to write
    back from its own copies shows here."""
    return game.state()._replace(decisions=())


def play_with_record(game: Game, seed: int) -> tuple[list, list[int]]:
    draws = RecordedDraws(seed)
    events: list = []
    play_out(game, draws, events)
    return events, draws.values


@settings(PROPERTY_SETTINGS, max_examples=60)
@given(variant=st.sampled_from(sheet_names()), data=st.data(), seed=st.integers(0, 2**32))
def test_a_playout_is_a_game_the_referee_accepts_decision_for_decision(variant, data, seed):
    start = data.draw(starts(variant))
    played = Game.start(start)
    events, draws = play_with_record(played, seed)
    replayed = check_against_the_referee(Game.start(start), events, draws)
    assert played.phase == OVER == replayed.phase
    assert table_state(played) == table_state(replayed)


@settings(PROPERTY_SETTINGS, max_examples=40)
@given(
    variant=st.sampled_from(sheet_names()),
    data=st.data(),
    seed=st.integers(0, 2**32),
    events_first=st.integers(0, 60),
)
def test_a_playout_from_the_middle_of_a_turn_finishes_that_turn_by_the_rules(
    variant, data, seed, events_first
):
    """A computer player simulates from where the table is: mid action 1, some players decided."""
    start = data.draw(starts(variant))
    table = Game.start(start)
    events, _ = play_with_record(Game.start(start), seed)
    for event in events[:events_first]:
        table.apply(event)
    position = table.copy()
    events, draws = play_with_record(position, seed + 1)
    replayed = check_against_the_referee(table, events, draws)
    assert table_state(position) == table_state(replayed)


def test_a_playout_leaves_other_copies_of_the_game_alone():
    """Simulating ahead on a copy must not touch the game the table is playing."""
    table = Game.start(Start("bonus-b", ("Ann", "Ben", "Cat")))
    table.apply(Roll((3, 4), {"red": 1, "yellow": 2, "green": 3, "blue": 4}))
    table.apply(Pass("Ann"))
    before = game_report(table)
    for seed in range(20):
        play_out(table.copy(), random.Random(seed))
    assert game_report(table) == before
    assert table.phase == ACTION1 and table.waiting_for() == ["Ben", "Cat"]
