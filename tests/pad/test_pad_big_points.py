"""Qwixx Big Points on the real pad firmware, under the MicroPython unix port, at a real tower
(the rig of tests/pad/test_pad_firmware.py): a bonus box is reached by the colour button of the
row above its bonus row, after that row's cells, shows as "RY 5", turns that row's line into the
bonus row while it is selected, and is sent and crossed."""

from __future__ import annotations

from firmware_py.rules import Mark


def test_a_bonus_box_is_chosen_with_the_red_button_and_crossed(table):
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
