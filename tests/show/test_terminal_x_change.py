"""Qwixx X-Change at the terminal, 80x24: a keyboard player is offered the swapped crosses as
choices of their own ("red 3 (swap field 3)"), picks one by its number, the news says the
field and the trade, and the sheet line lists the fields used ("X:3")."""

from __future__ import annotations

import re

from support.rules import recording_game
from support.terminal import carried_on_at_80x24

from firmware_py.rules import Roll


def test_at_80x24_a_keyboard_player_makes_a_swapped_cross(tmp_path):
    game = recording_game("x-change", players=("Ann",))
    game.apply(Roll((5, 6), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))  # white 11
    tower = carried_on_at_80x24(tmp_path, game)
    try:
        screen = tower.wait_for("[p] pass")
        assert all(len(line.rstrip()) <= 80 for line in screen.splitlines())
        question = " ".join(line.strip() for line in screen.splitlines())
        choice = re.search(r"\[(\d+)\] red 3 \(swap field 3\)", question)
        assert choice is not None, screen
        tower.type(choice.group(1) + "\n")
        screen = tower.wait_for("with X-Change field 3 (11 for 3)")
        assert "Ann crosses red 3 with X-Change field 3 (11 for 3)" in screen
        screen = tower.wait_for("X:3")
        (line,) = [line.rstrip() for line in screen.splitlines() if "penalties" in line]
        assert "R:3 Y:- G:- B:-  X:3  penalties 0" in line and len(line) <= 80
    finally:
        tower.stop()
