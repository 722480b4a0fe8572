"""Qwixx Connected at the terminal, 80x24: a keyboard player is told, with each choice, what
the pad's connection makes of it ("red 6 (chain: yellow 6)", "red 2 (stair)"); the news says
the chain's cross, and the sheet line counts the stair's crossed cells ("stair 1")."""

from __future__ import annotations

import re

from support.rules import recording_game
from support.terminal import carried_on_at_80x24

from firmware_py.rules import Roll

DICE = {"red": 1, "yellow": 1, "green": 1, "blue": 1}


def choose(tower, words: str) -> str:
    """Type the number of the choice `words`; the screen it was read from."""
    screen = tower.wait_for("[p] pass")
    assert all(len(line.rstrip()) <= 80 for line in screen.splitlines())
    question = " ".join(line.strip() for line in screen.splitlines())
    choice = re.search(r"\[(\d+)\] " + re.escape(words), question)
    assert choice is not None, screen
    tower.type(choice.group(1) + "\n")
    return screen


def test_at_80x24_a_chain_cross_is_offered_with_its_partner_and_told(tmp_path):
    game = recording_game("connected-chain", players=("Ann",))
    game.apply(Roll((3, 3), DICE))  # white 6: red 6 is joined to yellow 6 on pad A
    tower = carried_on_at_80x24(tmp_path, game)
    try:
        choose(tower, "red 6 (chain: yellow 6)")
        screen = tower.wait_for("and the chain crosses yellow 6")
        assert "Ann crosses red 6 and the chain crosses yellow 6" in screen
        screen = tower.wait_for("Y:6")
        (line,) = [line.rstrip() for line in screen.splitlines() if "penalties" in line]
        assert "R:6 Y:6 G:- B:-  penalties 0" in line and len(line) <= 80
    finally:
        tower.stop()


def test_at_80x24_a_stair_cell_is_offered_as_such_and_counted(tmp_path):
    game = recording_game("connected-steps", players=("Ann",))
    game.apply(Roll((1, 1), DICE))  # white 2: red 2 is on pad A's stair, green 2 is not
    tower = carried_on_at_80x24(tmp_path, game)
    try:
        screen = choose(tower, "red 2 (stair)")
        assert "[3] green 2 (" not in " ".join(screen.split())
        screen = tower.wait_for("stair 1")
        (line,) = [line.rstrip() for line in screen.splitlines() if "penalties" in line]
        assert "R:2 Y:- G:- B:-  stair 1  penalties 0" in line and len(line) <= 80
        assert "   2  " in line  # a cross in red (1) and one in the stair (1)
    finally:
        tower.stop()
