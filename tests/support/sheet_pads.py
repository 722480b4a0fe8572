"""Each sheet's own pad scenario, played with a pad's buttons at a real tower: `table` makes
the table (tests/pad/conftest.py's, the firmware on the MicroPython unix port; or the emulated
Pico's, tests/pad/test_pad_firmware_emulated_pico.py), so the same steps run on both boards.
What each checks, and the rule text it follows, is said in the test module that runs it on the
unix port (test_pad_big_points, test_pad_connected, test_pad_double, test_pad_x_change, and
test_pad_firmware for Longo and Bonus B)."""

from __future__ import annotations

from firmware_py.pad import robot
from firmware_py.rules import Mark, Pass
from firmware_py.rules.doubles import crosses_in


def a_bonus_box_is_chosen_with_the_red_button_and_crossed(table):
    t = table(bots=(), variant="big-points")
    screen = t.white_5_again_after_red_5()  # yellow, green, blue 5, or the red-yellow box 5
    assert screen[6] == "white 5: RYGB"  # red reaches the box: red 5 itself is crossed
    t.pad.press("tap red")
    selected = t.pad.wait_screen(lambda s: s[6] == "> RY 5", what="the box selected")
    assert selected[2] == "+...*.......   0"  # the red line shows the bonus row, box 5 chosen
    assert selected[7] == "P:send U:cancel"
    t.pad.press("tap pass")
    t.wait_for_tower(lambda: t.tower.table.game.player("Ann").crosses(4) == 1, "the red-yellow box")
    assert t.decisions()[-1] == Mark("Ann", "red-yellow", 5)
    # red counts 2 crosses (3 points), yellow the box alone (1 point)
    screen = t.pad.wait_screen(lambda s: s[0].startswith("Ann         4"), what="4 points")
    assert screen[2] == "R---x.......   1"  # the red row again, once nothing is selected


def a_chain_cross_chosen_on_the_pad_shows_both_crosses(table):
    t = table(bots=(), variant="connected-chain")
    t.start_game()
    t.roll((3, 3))  # white 6: red 6 is joined to yellow 6 on pad A
    screen = t.pad.wait_screen(lambda s: s[6].startswith("white"), what="the offer")
    assert screen[6] == "white 6: RYGB"
    # pad A's six pairs, lettered as met top to bottom: red 6-yellow 6 "a", red 11-yellow 11
    # "b", yellow 3-green 11 "c", yellow 8-green 6 "d", green 9-blue 9 "e", green 4-blue 4 "f"
    assert screen[2:6] == [
        "R....a....b.   0",
        "Y.c..a.d..b.   0",
        "G.c.e..d.f..   0",
        "B...e....f..   0",
    ]
    t.pad.press("tap red")
    t.pad.wait_screen(lambda s: s[6] == "> R 6 +Y6", what="red 6 selected, yellow 6 with it")
    t.pad.press("tap pass")
    t.wait_for_tower(lambda: t.tower.table.game.player("Ann").rows[1] == 1 << 4, "yellow 6")
    assert t.decisions()[-1] == Mark("Ann", "red", 6)
    screen = t.pad.wait_screen(lambda s: s[3].startswith("Y-c--x"), what="yellow 6 crossed")
    assert screen[2] == "R----x....b.   1"  # (left of a cross: passed, "-")
    # yellow 3 is passed, but its letter stays: crossing green 11 would still cross it
    assert screen[3] == "Y-c--x.d..b.   1"


def a_stair_game_is_played_from_the_pad(table):
    t = table(bots=(), variant="connected-steps")
    t.start_game()
    t.roll((1, 1))  # white 2: red 2 is on pad A's stair
    screen = t.pad.wait_screen(lambda s: s[6] == "white 2: RY--", what="the offer")  # 2 locks G, B
    # pad A's stair: red 2 3 4, yellow 5 6 7, green 6 5 4, blue 3 2
    assert screen[2:6] == [
        "R^^^........   0",
        "Y...^^^.....   0",
        "G......^^^..   0",
        "B.........^^   0",
    ]
    t.pad.press("tap red")
    t.pad.wait_screen(lambda s: s[6] == "> R 2 stair", what="red 2 selected, a stair cell")
    t.pad.press("tap pass")
    t.wait_for_tower(lambda: t.tower.table.game.total("Ann") == 2, "red 2 and the stair")
    t.pad.wait_screen(lambda s: s[2].startswith("Rx^^........"), what="red 2 crossed")


def the_latest_number_is_chosen_with_its_button_and_crossed_again(table):
    t = table(bots=(), variant="double-a")
    screen = t.white_5_again_after_red_5()  # red 5 a second time, or yellow, green, blue 5
    assert screen[6] == "white 5: RYGB"
    t.pad.press("tap red")
    selected = t.pad.wait_screen(lambda s: s[6] == "> R 5 x2", what="the second cross")
    assert selected[7] == "P:send U:cancel"
    t.pad.press("tap pass")
    game = t.tower.table
    t.wait_for_tower(lambda: crosses_in(game.game.player("Ann"), 0) == 2, "red 5 crossed twice")
    assert t.decisions()[-1] == Mark("Ann", "red", 5)
    screen = t.pad.wait_screen(lambda s: s[0].startswith("Ann         3"), what="3 points")
    assert screen[2] == "R---X.......   2"  # two crosses in red 5, counted two


def cells_printed_double_are_drawn_and_count_two(table):
    t = table(bots=(), variant="double-b")
    t.start_game()
    t.roll((4, 1))
    screen = t.pad.wait_screen(lambda s: s[6].startswith("white"), what="the offer")
    assert screen[2] == "R.:.:...:.:.   0"  # red 3, 5, 9, 11 printed double
    t.tower.submit(Mark("Ann", "red", 5))
    t.tower.submit(Pass("Ann"))
    screen = t.pad.wait_screen(lambda s: s[0].startswith("Ann         3"), what="3 points")
    assert screen[2] == "R---X...:.:.   2"


def a_swapped_cross_is_chosen_with_the_red_button_and_crossed(table):
    t = table(bots=(), variant="x-change")
    t.start_game()
    t.roll((5, 6))  # white 11: any row's 11, or field 3 (11 and 3) or field 8 (11 and 9)
    screen = t.pad.wait_screen(lambda s: s[6].startswith("white"), what="the offer")
    assert screen[6] == "white 11: RYGB"
    t.pad.press("tap red")
    t.pad.wait_screen(lambda s: s[6] == "> R 11", what="red 11 selected")
    t.pad.press("tap red")
    t.pad.wait_screen(lambda s: s[6] == "> R 3 X3", what="red 3 with field 3 selected")
    t.pad.press("tap red")
    selected = t.pad.wait_screen(lambda s: s[6] == "> R 9 X8", what="red 9 with field 8")
    assert selected[7] == "P:send U:cancel"
    t.pad.press("tap red")
    t.pad.press("tap red")  # round again: red 11, then red 3 with field 3
    t.pad.wait_screen(lambda s: s[6] == "> R 3 X3", what="red 3 with field 3 again")
    t.pad.press("tap pass")
    t.wait_for_tower(lambda: t.tower.table.game.player("Ann").swaps == 0b100, "field 3 used")
    assert t.decisions()[-1] == Mark("Ann", "red", 3, swap=3)
    screen = t.pad.wait_screen(lambda s: s[2].startswith("R-x"), what="red 3 crossed")
    assert screen[2].startswith("R-x........")


def longo_lucky_numbers_are_entered_on_the_pad_before_the_game(table):
    """Ann steps to 5 and 9 with the buttons; the game starts with them, and colour pressed
    again offers the lucky cross."""
    t = table(bots=(), variant="longo")
    assert t.tower.seated() == "Ann"
    t.pad.wait_screen(lambda s: s[0].startswith("Ann"), what="Ann's name")
    t.tower.call(t.tower.table.new_game)
    screen = t.pad.wait_screen(lambda s: s[1] == "choose 2 numbers", what="the question")
    assert screen[4].strip() == "> 2 <" and screen[2] == "yours: -"
    t.play(robot.lucky(5))
    screen = t.pad.wait_screen(lambda s: s[2] == "yours: 5", what="5 chosen")
    assert screen[3] == "U: take back" and screen[4].strip() == "> 2 <"
    assert t.tower.call(lambda: t.tower.table.game) is None, "not before both are chosen"
    t.play(robot.lucky(9))
    t.pad.wait_screen(lambda s: s[1] == "no roll yet", what="the game started")
    assert dict(t.tower.journal_events()[0].lucky) == {"Ann": [5, 9]}
    t.roll((4, 1))
    screen = t.pad.wait_screen(lambda s: s[6].startswith("white"), what="the offer")
    assert screen[6] == "white 5: RYGB"
    assert screen[2] == "R..............."  # 15 cells: no room for the lock after them
    t.pad.press("tap red")
    t.pad.wait_screen(lambda s: s[6] == "> R 5", what="red 5")
    t.pad.press("tap red")
    screen = t.pad.wait_screen(lambda s: s[6] == "> R 2 lucky", what="the lucky cross")
    assert screen[2] == "R*.............."
    t.pad.press("tap pass")
    t.pad.wait_screen(lambda s: s[2] == "Rx..............", what="red 2 crossed")
    assert t.decisions() == [Mark("Ann", "red", 2, lucky=True)]


def bonus_b_mark_that_needs_a_row_asks_which(table):
    """Yellow 11 is crossed; green 9 completes the circle (two crosses in the row with the fewest
    crosses), and red and blue tie with none: the pad asks which."""
    t = table(bots=(), variant="bonus-b")
    t.start_game()
    t.roll((5, 6))
    t.tower.submit(Mark("Ann", "yellow", 11))
    t.tower.submit(Pass("Ann"))
    t.roll((4, 5))
    t.pad.press("tap green")
    t.pad.wait_screen(lambda s: s[6] == "> G 9 +?", what="green 9, a row wanted")
    t.pad.press("tap pass")
    t.pad.wait_screen(lambda s: s[7] == "row? press one", what="the question")
    assert t.decisions() == [Mark("Ann", "yellow", 11), Pass("Ann")], "not sent yet"
    t.pad.press("tap blue")
    t.pad.wait_screen(lambda s: s[6] == "> G 9 +B", what="blue chosen")
    t.pad.press("tap pass")
    screen = t.pad.wait_screen(lambda s: s[5].startswith("Bxx"), what="two crosses in blue")
    assert screen[5] == "Bxx.........   2"
    assert t.decisions()[-1] == Mark("Ann", "green", 9, choice="blue")
