"""The hard level plays to win, not for points, when the game can end on its decision.

Classic rulebook (shared/seeds/001): "If, after the two actions, the active player doesn't
cross out at least one number, he must cross out one of the penalty boxes. Each penalty box is
worth -5 points" and "The game ends immediately as soon as either someone has marked a cross in
his fourth penalty box or as soon as two dice have been removed from the game (two color-rows
have been locked)." "The player with the highest total score is the winner."
"""

from __future__ import annotations

import dataclasses

from firmware_py.players import hard
from firmware_py.rules import Game, Mark, Pass, Roll, Start

RED_2_TO_6 = 0b11111  # five crosses, 15 points: red 12 may be crossed, and the row locked
YELLOW_2_TO_6 = 0b11111
BLUE_LOCKED_NINE = 0b11111111 | 1 << 10  # blue 12 to 5, and 2 (the lock cell): 10 crosses


def ann_with_three_penalties(ben_red: int, ben_yellow: int) -> Game:
    """Ann is active with red and yellow 2 to 6 crossed (30 points) and three penalties (-15);
    both passed the white 2 (nobody could cross it). Her action 2 may cross red 7 (white 1 and
    red 6), a cross that skips nothing; passing instead is her fourth penalty."""
    game = Game.start(Start("classic", ("Ann", "Ben")))
    ann, ben = game.player("Ann"), game.player("Ben")
    ann.rows[0], ann.rows[1], ann.penalties = RED_2_TO_6, YELLOW_2_TO_6, 3
    ben.rows[0], ben.rows[1] = ben_red, ben_yellow
    game.apply(Roll((1, 1), {"red": 6, "yellow": 1, "green": 1, "blue": 1}))
    game.apply(Pass("Ann"))
    game.apply(Pass("Ben"))
    assert game.legal_marks("Ann") == [Mark("Ann", "red", 7)]
    return game


def test_ahead_by_more_than_a_penalty_it_takes_the_fourth_penalty_and_wins():
    """Ann 15 to Ben's 9: the fourth penalty ends the game 10 to 9, a win for certain, where the
    good red 7 would play on with Ben still in it."""
    game = ann_with_three_penalties(ben_red=0b111, ben_yellow=0b11)  # 6 + 3 points
    assert hard.choose(game, "Ann") == Pass("Ann")


def test_a_win_for_certain_counts_only_with_the_bonus_for_winning():
    """The same position judged by margin of points alone (no bonus for a win) plays on: the
    bonus is what makes the decision, so the test above can fail."""
    margin_only = dataclasses.replace(hard.shipped_weights(), win=0.0)
    game = ann_with_three_penalties(ben_red=0b111, ben_yellow=0b11)
    assert hard.choose(game, "Ann", margin_only) == Mark("Ann", "red", 7)


def test_behind_it_crosses_rather_than_end_the_game_with_a_penalty():
    """Ann 15 to Ben's 21: the fourth penalty would end the game 10 to 21; she crosses red 7."""
    game = ann_with_three_penalties(ben_red=0b111111, ben_yellow=0)  # red 2 to 7: 21 points
    assert hard.choose(game, "Ann") == Mark("Ann", "red", 7)


def ann_could_make_the_second_lock(blue_owner: str) -> Game:
    """Blue is locked, by `blue_owner` with ten crosses (55 points); Ann is active with red 2
    to 6 and white 6 + red 6 lets her action 2 cross red 12: the second lock, which ends the
    game at once."""
    game = Game.start(Start("classic", ("Ann", "Ben")))
    game.player("Ann").rows[0] = RED_2_TO_6
    owner = game.player(blue_owner)
    owner.rows[3] = BLUE_LOCKED_NINE | owner.lock_bits[3]
    locked = game.state()._replace(locked=(3,), closed=1 << 3, in_play=("red", "yellow", "green"))
    game.restore(locked)
    game.apply(Roll((1, 6), {"red": 6, "yellow": 1, "green": 1}))
    game.apply(Pass("Ann"))
    game.apply(Pass("Ben"))
    assert Mark("Ann", "red", 12) in game.legal_marks("Ann")
    return game


def test_ahead_it_makes_the_lock_that_ends_the_game():
    assert hard.choose(ann_could_make_the_second_lock("Ann"), "Ann") == Mark("Ann", "red", 12)


def test_behind_it_does_not_make_the_lock_that_ends_the_game():
    assert hard.choose(ann_could_make_the_second_lock("Ben"), "Ann") != Mark("Ann", "red", 12)
