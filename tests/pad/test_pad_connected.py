"""Qwixx Connected on the real pad firmware, under the MicroPython unix port, at a real tower
(the rig of tests/pad/test_pad_firmware.py): on the Chain a cross chosen on the pad crosses the
cell joined to it, and the pad's sheet shows both (the tower sends the sheet as it is, so the
wire needs nothing new: docs/pad-protocol.md); on the Steps the pad plays as on classic."""

from __future__ import annotations

from firmware_py.rules import Mark


def test_a_chain_cross_chosen_on_the_pad_shows_both_crosses(table):
    t = table(bots=(), variant="connected-chain")
    t.start_game()
    t.roll((3, 3))  # white 6: red 6 is joined to yellow 6 on pad A
    screen = t.pad.wait_screen(lambda s: s[6].startswith("white"), what="the offer")
    assert screen[6] == "white 6: RYGB"
    t.pad.press("tap red")
    t.pad.wait_screen(lambda s: s[6] == "> R 6", what="red 6 selected")
    t.pad.press("tap pass")
    t.wait_for_tower(lambda: t.tower.table.game.player("Ann").rows[1] == 1 << 4, "yellow 6")
    assert t.decisions()[-1] == Mark("Ann", "red", 6)
    screen = t.pad.wait_screen(lambda s: s[3].startswith("Y----x"), what="yellow 6 crossed")
    assert screen[2].startswith("R----x......   1")  # (left of a cross: passed, "-")
    assert screen[3].startswith("Y----x......   1")


def test_a_stair_game_is_played_from_the_pad(table):
    t = table(bots=(), variant="connected-steps")
    t.start_game()
    t.roll((1, 1))  # white 2: red 2 is on pad A's stair
    t.pad.wait_screen(lambda s: s[6] == "white 2: RY--", what="the offer")  # 2 locks G, B
    t.pad.press("tap red")
    t.pad.wait_screen(lambda s: s[6] == "> R 2", what="red 2 selected")
    t.pad.press("tap pass")
    t.wait_for_tower(lambda: t.tower.table.game.total("Ann") == 2, "red 2 and the stair")
    t.pad.wait_screen(lambda s: s[2].startswith("Rx.........."), what="red 2 crossed")
