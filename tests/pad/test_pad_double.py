"""Qwixx Double on the real pad firmware, under the MicroPython unix port, at a real tower (the
rig of tests/pad/test_pad_firmware.py): the number crossed last is offered again with its colour
button, shows as "R 5 x2", is sent as a plain mark and crossed; a cell holding two crosses is
drawn "X" and counts two; a cell printed double (Double B) is drawn ":" until crossed."""

from __future__ import annotations

import pytest
from support.firmware import PadTable

from firmware_py.rules import Mark, Pass
from firmware_py.rules.doubles import crosses_in


@pytest.fixture
def table(tmp_path, request):
    made = PadTable(tmp_path, bots=(), variant=request.param, beat_ms=None, heap="")
    yield made
    made.close()


@pytest.mark.parametrize("table", ["double-a"], indirect=True)
def test_the_latest_number_is_chosen_with_its_button_and_crossed_again(table):
    t = table
    t.start_game()
    t.roll((4, 1))
    t.tower.submit(Mark("Ann", "red", 5))
    t.tower.submit(Pass("Ann"))
    t.roll((2, 3))  # white 5 again: red 5 a second time, or yellow, green, blue 5
    screen = t.pad.wait_screen(lambda s: s[6].startswith("white"), what="the offer")
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


@pytest.mark.parametrize("table", ["double-b"], indirect=True)
def test_cells_printed_double_are_drawn_and_count_two(table):
    t = table
    t.start_game()
    t.roll((4, 1))
    screen = t.pad.wait_screen(lambda s: s[6].startswith("white"), what="the offer")
    assert screen[2] == "R.:.:...:.:.   0"  # red 3, 5, 9, 11 printed double
    t.tower.submit(Mark("Ann", "red", 5))
    t.tower.submit(Pass("Ann"))
    screen = t.pad.wait_screen(lambda s: s[0].startswith("Ann         3"), what="3 points")
    assert screen[2] == "R---X...:.:.   2"
