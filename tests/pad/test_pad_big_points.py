"""Qwixx Big Points on the real pad firmware, under the MicroPython unix port, at a real tower
(the rig of tests/pad/test_pad_firmware.py): a bonus box is reached by the colour button of the
row above its bonus row, after that row's cells, shows as "RY 5", turns that row's line into the
bonus row while it is selected, and is sent and crossed."""

from __future__ import annotations

from support import sheet_pads


def test_a_bonus_box_is_chosen_with_the_red_button_and_crossed(table):
    sheet_pads.a_bonus_box_is_chosen_with_the_red_button_and_crossed(table)
