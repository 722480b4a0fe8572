"""Qwixx X-Change on the real pad firmware, under the MicroPython unix port, at a real tower
(the rig of tests/pad/test_pad_firmware.py): a swapped cross is reached by the row's colour
button after the white sum's own cell, shows as "R 3 X3" (red 3 with X-Change field 3), and is
sent with its field (move and request flags, bits 4 to 7) and crossed."""

from __future__ import annotations

from support import sheet_pads


def test_a_swapped_cross_is_chosen_with_the_red_button_and_crossed(table):
    sheet_pads.a_swapped_cross_is_chosen_with_the_red_button_and_crossed(table)
