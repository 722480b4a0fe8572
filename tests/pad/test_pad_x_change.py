"""Qwixx X-Change on the real pad firmware, under the MicroPython unix port, at a real tower
(the rig of tests/pad/test_pad_firmware.py): a swapped cross is reached by the row's colour
button after the white sum's own cell, shows as "R 3 X3" (red 3 with X-Change field 3), and is
sent with its field (move and request flags, bits 4 to 7) and crossed."""

from __future__ import annotations

from firmware_py.rules import Mark


def test_a_swapped_cross_is_chosen_with_the_red_button_and_crossed(table):
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
