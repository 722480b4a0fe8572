"""Qwixx Double on the real pad firmware, under the MicroPython unix port, at a real tower (the
rig of tests/pad/test_pad_firmware.py): the number crossed last is offered again with its colour
button, shows as "R 5 x2", is sent as a plain mark and crossed; a cell holding two crosses is
drawn "X" and counts two; a cell printed double (Double B) is drawn ":" until crossed."""

from __future__ import annotations

from support import sheet_pads


def test_the_latest_number_is_chosen_with_its_button_and_crossed_again(table):
    sheet_pads.the_latest_number_is_chosen_with_its_button_and_crossed_again(table)


def test_cells_printed_double_are_drawn_and_count_two(table):
    sheet_pads.cells_printed_double_are_drawn_and_count_two(table)
