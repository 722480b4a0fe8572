"""Refusals: every kind of event the referee must turn down.

Each test checks that the reason names the broken rule in plain words and (through
`support.rules.refused`) that the game is exactly as before: the same replay report, legal marks,
passes, undos and waiting list.
"""

import pytest
from support.rules import (
    build,
    cross,
    new_game,
    play_turn,
    refused,
    roll,
    row_numbers,
)

from firmware_py.rules import Game, Mark, Pass, Refused, Roll, Start, Undo

DICE = {"red": 1, "yellow": 1, "green": 1, "blue": 1}


def rolled(white=(2, 3), players=("Ann", "Ben"), **faces):
    """A classic game in action 1 of its first turn (Ann active)."""
    game = new_game("classic", players)
    game.apply(Roll(white, {**DICE, **faces}))
    return game


def in_action_2(white=(2, 3), **faces):
    game = rolled(white, **faces)
    game.apply(Pass("Ann"))
    game.apply(Pass("Ben"))
    assert game.phase == "action2"
    return game


# ---- timing and whose turn ---------------------------------------------------------------------


def test_roll_while_action_1_is_open():
    """Spec: a roll "opens the next turn of the active player"; action 1 must end first."""
    game = rolled()
    game.apply(Pass("Ben"))
    refused(game, Roll((1, 1), DICE), "action 1")


def test_roll_while_action_2_is_open():
    """Spec: action 2 ends when the active player marks or passes; no roll before that."""
    game = in_action_2()
    refused(game, Roll((1, 1), DICE), "action 2")


def test_mark_and_pass_before_the_roll():
    """Spec: action 1 comes "after a roll"."""
    game = new_game("classic", ["Ann", "Ben"])
    refused(game, Mark("Ann", "red", 5), "roll")
    refused(game, Pass("Ben"), "roll")


def test_a_second_decision_in_action_1():
    """Spec: action 1, "any player, at most once per turn"; Classic (seed 001): "in any (but only
    one) of the color-rows"."""
    game = rolled()
    game.apply(Mark("Ben", "red", 5))
    refused(game, Mark("Ben", "yellow", 5), "already")
    refused(game, Pass("Ben"), "already")
    game.apply(Pass("Ann"))
    assert game.phase == "action2"


def test_a_pass_and_then_a_mark_in_action_1():
    """Spec: each player marks or passes once in action 1."""
    game = rolled()
    game.apply(Pass("Ben"))
    refused(game, Mark("Ben", "red", 5), "already")


def test_others_may_not_act_in_action_2():
    """Classic (seed 000): "The active player (but not the others!) may then ..." """
    game = in_action_2(red=3)
    refused(game, Mark("Ben", "red", 5), "active")
    refused(game, Pass("Ben"), "active")


def test_unknown_player():
    """Spec: a mark names a player of the game."""
    game = rolled()
    refused(game, Mark("Zoe", "red", 5), "Zoe")
    refused(game, Pass("Zoe"), "Zoe")
    refused(game, Undo("Zoe"), "Zoe")


def test_unknown_row_and_a_number_the_row_lacks():
    """Spec: "row names a row by its colour: red, yellow, green, blue", and (row, number) names
    exactly one cell."""
    game = rolled()
    refused(game, Mark("Ann", "purple", 5), "purple")
    game = in_action_2(white=(6, 6), red=6)
    refused(game, Mark("Ann", "red", 13), "13")
    refused(game, Mark("Ann", "red", 1), "1")


# ---- the numbers the dice allow -----------------------------------------------------------------


def test_action_1_mark_must_be_the_white_sum():
    """Classic (seed 000), "1. Action": each player may "cross out the number that the active
    player has spoken out" - the sum of the two white dice."""
    game = rolled(white=(2, 3))
    reason = refused(game, Mark("Ben", "red", 6))
    assert "5" in reason


def test_action_2_mark_must_be_a_white_die_plus_a_colour_die():
    """Classic (seed 000), "2. Action": "the pips shown on just one white dice together with the
    pips shown on just one coloured dice" - white 2 or 3 with red 4 makes 6 or 7, not 5 or 8."""
    game = in_action_2(white=(2, 3), red=4)
    for number in (5, 8, 9):
        reason = refused(game, Mark("Ann", "red", number), "red")
        assert "6" in reason and "7" in reason
    game.apply(Mark("Ann", "red", 7))


def test_action_2_crosses_only_in_the_row_of_the_chosen_colour():
    """Classic (seed 000): "cross out the number corresponding to this sum in the colour-row
    corresponding to the colour of the dice chosen." White 4 + blue 6 is 10 in blue, not red."""
    game = in_action_2(white=(4, 1), red=1, blue=6)
    refused(game, Mark("Ann", "red", 10), "red")
    game.apply(Mark("Ann", "blue", 10))


def test_left_to_right():
    """Classic (seed 000): "Numbers that have been left out may not, however, be crossed out
    afterward." """
    game = new_game("classic", ["Ann"])
    cross(game, "Ann", ("red", 5), ("red", 7))
    game.apply(roll(game, (3, 3)))
    refused(game, Mark("Ann", "red", 6), "left to right")


def test_the_same_cell_twice():
    """Classic (seed 000): a crossed number cannot be crossed again."""
    game = new_game("classic", ["Ann"])
    cross(game, "Ann", ("red", 5))
    game.apply(roll(game, (2, 3)))
    refused(game, Mark("Ann", "red", 5), "already")


def test_lock_with_four_crosses_spec_wording():
    """Classic (seed 000): "he must first have made at least five crosses in the colour-row in
    question." Spec, replay: "line 9: Ben cannot lock red: needs 5 crosses in red first, has 4"."""
    game = new_game("classic", ["Ann", "Ben"])
    build(game, {"Ann": [("blue", 12), ("blue", 11)], "Ben": [("red", n) for n in (2, 3, 4, 5)]})
    game.apply(roll(game, (6, 6)))
    reason = refused(game, Mark("Ben", "red", 12))
    assert reason == "Ben cannot lock red: needs 5 crosses in red first, has 4"


def test_green_and_blue_lock_numbers_need_five_crosses_too():
    """Classic (seed 000): "(red 12, yellow 12, green 2, blue 2) he must first have made at least
    five crosses"."""
    game = new_game("classic", ["Ann"])
    cross(game, "Ann", *[("green", n) for n in (12, 11, 10, 9)])
    game.apply(roll(game, (1, 1)))
    refused(game, Mark("Ann", "green", 2), "lock", "5", "4")
    refused(game, Mark("Ann", "blue", 2), "lock", "5", "0")


def test_longo_lock_numbers_need_six_crosses():
    """Longo (seed 000): "Before you can cross off one of the rightmost numbers of a colored row
    (red 15/16, yellow 15/16, green 2/3, blue 2/3), you must first have crossed off at least six
    numbers in that colored row." """
    game = new_game("longo", ["Ann"], lucky={"Ann": (2, 3)})
    cross(game, "Ann", *[("red", n) for n in range(2, 7)])
    game.apply(roll(game, (8, 7)))
    refused(game, Mark("Ann", "red", 15), "lock", "6", "5")
    game.apply(Pass("Ann"))
    game.apply(Pass("Ann"))
    game.apply(roll(game, (8, 8)))
    refused(game, Mark("Ann", "red", 16), "lock", "6", "5")


def test_mixx_rows_need_five_crosses_before_their_last_number():
    """Mixx A (seed 002): the top row is closed "mit seinem mindestens 6. Kreuz" (with at least
    the 6th cross); Mixx B (seed 000): "in red with an 11"."""
    game = new_game("mixx-a", ["Ann"])
    cross(game, "Ann", *[("red", n) for n in (2, 3, 4, 5)])
    game.apply(roll(game, (6, 6)))
    refused(game, Mark("Ann", "red", 12), "lock", "5", "4")
    game = new_game("mixx-b", ["Ann"])
    cross(game, "Ann", *[("red", n) for n in row_numbers("mixx-b", "red")[:4]])
    game.apply(roll(game, (6, 5)))
    refused(game, Mark("Ann", "red", 11), "lock", "5", "4")


def test_a_locked_row_takes_no_more_crosses():
    """Classic (seed 000): "This colour-row is now finished and closed off for all the players and
    no more crosses can be made in this colour in any of the subsequent rounds." """
    game = new_game("classic", ["Ann", "Ben"])
    build(
        game,
        {"Ann": [("red", n) for n in (2, 3, 4, 5, 6, 12)], "Ben": [("blue", 12), ("blue", 11)]},
    )
    game.apply(roll(game, (5, 6)))
    refused(game, Mark("Ben", "red", 11), "locked")
    refused(game, Mark("Ann", "red", 11), "locked")


def test_action_2_with_the_die_of_a_locked_row():
    """Classic (seed 000): "The dice of the colour corresponding to it is immediately removed from
    the game and is no longer needed." A row locked in action 1 gives no action-2 cross."""
    game = new_game("classic", ["Ann", "Ben"])
    build(
        game,
        {"Ann": [("blue", n) for n in (12, 11, 10, 9)], "Ben": [("red", n) for n in range(2, 7)]},
    )
    player = game.waiting_for()[0]
    game.apply(roll(game, (6, 6), red=5))
    game.apply(Mark("Ben", "red", 12))
    game.apply(Pass("Ann"))
    assert game.phase == "action2"
    refused(game, Mark(player, "red", 11), "red")


# ---- rolls --------------------------------------------------------------------------------------


def test_a_roll_must_hold_every_die_still_in_play():
    """Spec, roll: "dice holds exactly the dice still in play: both white dice and each colour
    die whose colour is not locked"."""
    game = new_game("classic", ["Ann"])
    refused(game, Roll((1, 2), {"red": 1, "yellow": 1, "green": 1}), "blue")
    refused(game, Roll((1,), DICE), "white")
    refused(game, Roll((1, 2, 3), DICE), "white")
    refused(game, Roll((1, 2), {**DICE, "purple": 3}), "purple")


def test_a_roll_must_not_hold_the_die_of_a_locked_row():
    """Classic (seed 000): the die of a locked row "is immediately removed from the game"."""
    game = new_game("classic", ["Ann"])
    cross(game, "Ann", *[("yellow", n) for n in (2, 3, 4, 5, 6, 12)])
    refused(game, Roll((1, 2), DICE), "yellow", "locked")
    game.apply(Roll((1, 2), {"red": 1, "green": 1, "blue": 1}))


@pytest.mark.parametrize(("variant", "face"), [("classic", 7), ("classic", 0), ("longo", 9)])
def test_faces_out_of_range(variant, face):
    """Spec, roll: "Faces are 1..6 (1..8 for longo)"; Longo: eight-sided dice."""
    game = new_game(variant, ["Ann"])
    top = 8 if variant == "longo" else 6
    refused(game, Roll((1, 2), {**DICE, "green": face}), str(face), str(top))
    refused(game, Roll((face, 2), DICE), str(face), str(top))


def test_faces_that_are_not_whole_numbers():
    """Spec, roll: faces are numbers 1..6."""
    game = new_game("classic", ["Ann"])
    refused(game, Roll((1, 2), {**DICE, "red": "3"}))
    refused(game, Roll((1, 2.5), DICE))


def test_longo_accepts_seven_and_eight():
    """Spec: "Faces are 1..6 (1..8 for longo)"."""
    game = new_game("longo", ["Ann"])
    game.apply(Roll((8, 7), {"red": 8, "yellow": 7, "green": 8, "blue": 7}))
    assert game.phase == "action1"


# ---- lucky numbers ------------------------------------------------------------------------------


def longo(lucky=(6, 11)):
    return new_game("longo", ["Laura", "Max"], lucky={"Laura": lucky, "Max": (2, 3)})


def test_lucky_cross_needs_a_lucky_white_sum():
    """Longo (seed 000): "If during action 1 the sum of both white dice is one of the lucky
    numbers on your score sheet ..." """
    game = longo()
    game.apply(roll(game, (4, 3)))
    refused(game, Mark("Laura", "green", 16, lucky=True), "lucky", "7")


def test_lucky_cross_goes_in_a_row_with_the_fewest_crosses():
    """Longo (seed 000): "... cross off the next available number in the colored row where you
    currently have the fewest crosses." """
    game = longo()
    play_turn(game, {"Laura": ("green", 16)}, white=(8, 8))
    game.apply(roll(game, (5, 1)))
    refused(game, Mark("Laura", "green", 15, lucky=True), "fewest")
    game.apply(Mark("Laura", "red", 2, lucky=True))


def test_lucky_cross_is_the_next_available_number():
    """Longo (seed 000): "the next available number"; spec: "the cell right after the player's
    last cross in that row, or its first cell if the row has none"."""
    game = longo()
    game.apply(roll(game, (5, 1)))
    refused(game, Mark("Laura", "red", 3, lucky=True), "2")
    refused(game, Mark("Laura", "green", 15, lucky=True), "16")


def test_lucky_cross_only_in_action_1():
    """Longo (seed 000): "If during action 1 the sum of both white dice is one of the lucky
    numbers"; spec: "lucky: true marks an action-1 lucky cross"."""
    game = longo()
    game.apply(roll(game, (5, 1), red=5))
    game.apply(Pass("Laura"))
    game.apply(Pass("Max"))
    assert game.phase == "action2"
    refused(game, Mark("Laura", "red", 2, lucky=True), "action 1")


def test_lucky_cross_on_a_sheet_without_lucky_numbers():
    """Only the Longo sheets print lucky numbers (seed 000)."""
    game = rolled(white=(5, 1))
    refused(game, Mark("Ann", "red", 2, lucky=True), "lucky")


def test_lucky_cross_refused_where_the_next_number_locks_without_six_crosses():
    """Longo (seed 000): locking needs "at least six numbers in that colored row"; spec: "If that
    cell cannot be crossed under the rules (it is a lock cell and the player lacks the crosses to
    lock ...), there is no available cell: a lucky cross there is refused"."""
    game = new_game("longo", ["Laura"], lucky={"Laura": (6, 11)})
    cross(game, "Laura", ("red", 14), ("yellow", 2), ("yellow", 3), ("green", 16))
    cross(game, "Laura", ("green", 15), ("blue", 16), ("blue", 15))
    game.apply(roll(game, (5, 1)))
    assert not [m for m in game.legal_marks("Laura") if m.lucky]
    refused(game, Mark("Laura", "red", 15, lucky=True), "lock")


def test_lucky_cross_refused_in_a_locked_row():
    """Longo (seed 000): a locked row takes no crosses ("It's no longer possible to cross off
    numbers of this color"); spec: "or the row is locked ... a lucky cross there is refused"."""
    game = new_game("longo", ["Laura", "Max"], lucky={"Laura": (6, 11), "Max": (2, 3)})
    build(
        game,
        {
            "Max": [("red", n) for n in (2, 3, 4, 5, 6, 7, 16)],
            "Laura": [("yellow", 2), ("yellow", 3), ("green", 16), ("green", 15), ("blue", 16)],
        },
    )
    game.apply(roll(game, (5, 1)))
    assert not [m for m in game.legal_marks("Laura") if m.lucky]
    refused(game, Mark("Laura", "red", 2, lucky=True), "locked")


# ---- bonus-b choices ----------------------------------------------------------------------------


def test_circle_reward_with_tied_rows_needs_a_choice_of_one_of_them():
    """Bonus B (seed 000), circle: "If you have several rows with equally few crosses, you choose
    one of them." Spec: the choice rides on the mark that earns it as {"row": ...}."""
    game = new_game("bonus-b", ["Ann"])
    cross(game, "Ann", ("yellow", 11))
    game.apply(roll(game, (5, 4)))
    refused(game, Mark("Ann", "green", 9), "choice", "red", "blue")
    refused(game, Mark("Ann", "green", 9, choice="green"), "fewest")
    refused(game, Mark("Ann", "green", 9, choice="purple"), "purple")
    game.apply(Mark("Ann", "green", 9, choice="blue"))


def test_circle_reward_with_one_fewest_row_refuses_a_choice():
    """Bonus B (seed 000), circle: the crosses go in "the coloured row in which you have currently
    made the fewest crosses"; only "If you have several rows with equally few crosses, you choose
    one of them." README, Bonus B: "A choice on a mark that earns no such reward is refused."
    Blue is Ann's only row without a cross when the green 9 earns the circle, so there is nothing
    to choose: a choice on the mark, even of blue, is refused, and legal_marks offers none."""
    game = new_game("bonus-b", ["Ann"])
    cross(game, "Ann", ("red", 2), ("yellow", 11))
    game.apply(roll(game, (5, 4)))
    offered = [m for m in game.legal_marks("Ann") if (m.row, m.number) == ("green", 9)]
    assert offered == [Mark("Ann", "green", 9)]
    for row in ("blue", "red"):
        refused(game, Mark("Ann", "green", 9, choice=row), "choice")
    game.apply(Mark("Ann", "green", 9))


# ---- starting a game ----------------------------------------------------------------------------


def start_refused(*words, **start) -> str:
    with pytest.raises(Refused) as info:
        Game.start(Start(**start))
    reason = info.value.reason
    for word in words:
        assert word.lower() in reason.lower(), f"{word!r} not in {reason!r}"
    return reason


def test_unknown_variant():
    """Spec, start: "variant: a sheet name"."""
    start_refused("qwinto", variant="qwinto", players=("Ann", "Ben"))


@pytest.mark.parametrize("count", [0, 6])
def test_player_count(count):
    """Spec, start: "players: 1 to 5 distinct non-empty names"."""
    players = tuple(f"P{n}" for n in range(count))
    start_refused("player", variant="classic", players=players)


@pytest.mark.parametrize("count", [1, 5])
def test_one_to_five_players_are_fine(count):
    """Spec, start: "1 to 5 ... names"."""
    game = Game.start(Start("classic", tuple(f"P{n}" for n in range(count))))
    assert game.waiting_for() == ["P0"]


def test_duplicate_and_empty_player_names():
    """Spec, start: "distinct non-empty names"."""
    start_refused("Ann", variant="classic", players=("Ann", "Ben", "Ann"))
    start_refused(variant="classic", players=("Ann", ""))


@pytest.mark.parametrize(
    "lucky",
    [
        None,
        {"Ann": (5, 10)},  # Ben has none
        {"Ann": (5, 10), "Ben": (7, 7)},  # not distinct
        {"Ann": (5, 10), "Ben": (1, 7)},  # below 2
        {"Ann": (5, 10), "Ben": (7, 17)},  # above 16
        {"Ann": (5, 10), "Ben": (7,)},  # one number
        {"Ann": (5, 10), "Ben": (7, 8, 9)},  # three numbers
    ],
)
def test_longo_needs_each_players_two_distinct_lucky_numbers(lucky):
    """Spec, start: "longo also needs "lucky": ... each player's two distinct lucky numbers
    (2..16), as printed on that player's sheet." Longo (seed 000): "Each score sheet also shows
    two lucky numbers." """
    start_refused("lucky", variant="longo", players=("Ann", "Ben"), lucky=lucky)
