"""Qwixx Connected on the real pad firmware, under the MicroPython unix port, at a real tower
(the rig of tests/pad/test_pad_firmware.py). The pad shows where its connections lie (row
records flagged ROW_LINKS, protocol version 6: docs/pad-protocol.md): on the Chain each circled
cell carries its pair's letter, both ends alike, and a cross chosen on one says the other is
crossed with it ("R 6 +Y6"); on the Steps the framed stair cells show "^" and a stair cell
chosen says "stair". Rule text (docs/rules.md): the Chain, "Wird eine Ziffer davon angekreuzt,
muss auch die andere angekreuzt werden" (brettspiele-magazin.de); the Steps, "11 Felder
schwarz eingekreist ... eine fünfte Wertungsreihe" (spieletest.at)."""

from __future__ import annotations

from firmware_py.rules import Mark


def test_a_chain_cross_chosen_on_the_pad_shows_both_crosses(table):
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


def test_a_stair_game_is_played_from_the_pad(table):
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
