"""Qwixx Connected on the real pad firmware, under the MicroPython unix port, at a real tower
(the rig of tests/pad/test_pad_firmware.py). The pad shows where its connections lie (row
records flagged ROW_LINKS, protocol version 6: docs/pad-protocol.md): on the Chain each circled
cell carries its pair's letter, both ends alike, and a cross chosen on one says the other is
crossed with it ("R 6 +Y6"); on the Steps the framed stair cells show "^" and a stair cell
chosen says "stair". Rule text (docs/rules.md): the Chain, "Wird eine Ziffer davon angekreuzt,
muss auch die andere angekreuzt werden" (brettspiele-magazin.de); the Steps, "11 Felder
schwarz eingekreist ... eine fünfte Wertungsreihe" (spieletest.at)."""

from __future__ import annotations

from support import sheet_pads


def test_a_chain_cross_chosen_on_the_pad_shows_both_crosses(table):
    sheet_pads.a_chain_cross_chosen_on_the_pad_shows_both_crosses(table)


def test_a_stair_game_is_played_from_the_pad(table):
    sheet_pads.a_stair_game_is_played_from_the_pad(table)
