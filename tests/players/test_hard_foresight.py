"""The hard level reads the dice on the table: a row another player is about to lock this turn
is crossed now or never.

Classic rulebook (shared/seeds/001): "If you cross out the number at the extreme right end of a
color-row (red 12, ...) you must have first crossed out at least five numbers in that row. ...
This indicates that the color cannot be crossed out in future rounds." and "The game ends
immediately ... as soon as two dice have been removed from the game (two color-rows have been
locked)."
"""

from __future__ import annotations

from firmware_py.players import hard
from firmware_py.rules import Game, Mark, Pass, Roll, Start

RED_2_TO_6 = 0b11111  # five crosses: red 12 may be crossed, and the row locked
RED_2_TO_4 = 0b111


def ann_could_lock_red(red_die: int) -> Game:
    """Ann is active with red 2 to 6 crossed, Ben has red 2 to 4; the white dice show 2 and 6
    (Ben's white sum 8 would skip his red 5, 6 and 7). With the red die at 6, Ann's action 2
    may cross red 12 (white 6 + red 6) and lock the row."""
    game = Game.start(Start("classic", ("Ann", "Ben")))
    game.player("Ann").rows[0] = RED_2_TO_6
    game.player("Ben").rows[0] = RED_2_TO_4
    game.apply(Roll((2, 6), {"red": red_die, "yellow": 1, "green": 1, "blue": 1}))
    return game


def test_a_red_cross_that_skips_three_numbers_is_taken_when_red_is_about_to_close():
    assert hard.choose(ann_could_lock_red(red_die=6), "Ben") == Mark("Ben", "red", 8)


def test_the_same_cross_is_passed_up_when_the_red_row_stays_open():
    assert hard.choose(ann_could_lock_red(red_die=1), "Ben") == Pass("Ben")


def blue_locked_by(locker: str) -> Game:
    """As `ann_could_lock_red(6)`, but blue is already locked by `locker` with nine crosses:
    Ann's red lock would end the game, with the one who locked blue far ahead."""
    game = Game.start(Start("classic", ("Ann", "Ben")))
    game.player("Ann").rows[0] = RED_2_TO_6
    game.player("Ben").rows[0] = RED_2_TO_4
    sheet = game.player(locker)
    sheet.rows[3] = 0b11111111 | 1 << 10 | sheet.lock_bits[3]  # blue 12..5, 2, and the lock
    locked = game.state()._replace(locked=(3,), closed=1 << 3, in_play=("red", "yellow", "green"))
    game.restore(locked)
    game.apply(Roll((2, 6), {"red": 6, "yellow": 1, "green": 1}))
    return game


def test_a_lock_that_would_end_the_game_is_expected_only_from_a_player_not_behind():
    """Ann ahead: she ends the game with the lock, so Ben takes what he can now. Ann far
    behind: she would not lock into a loss, so Ben keeps his red row's prospects."""
    assert hard.choose(blue_locked_by("Ann"), "Ben") == Mark("Ben", "red", 8)
    assert hard.choose(blue_locked_by("Ben"), "Ben") == Pass("Ben")
