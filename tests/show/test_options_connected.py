"""Qwixx Connected on the options display: under the active player's white+colour sums, the
crosses they reach that set off the chain ("chain R11+Y11 B9+G9": red 11 crosses yellow 11 on
pad A) or lie on the stair ("stair Y6"), as the golden pictures action2-chain and action2-stair
show them; readable at 1 m as the other bottom lines are (the same font and place)."""

from __future__ import annotations

from support.views import VIEWS

from firmware_py.rules import Game, Mark, Pass, Roll, Start
from firmware_py.view import table_view

DICE = {"red": 6, "yellow": 2, "green": 1, "blue": 6}


def game_after(variant: str, white: tuple[int, int], *before: Mark) -> Game:
    game = Game.start(Start(variant, ("Ann", "Ben")))
    game.apply(Roll(white, DICE))
    for event in before:
        game.apply(event)
    return game


def test_the_chain_line_lists_the_crosses_that_set_off_another():
    view = table_view(game_after("connected-chain", (3, 5)))
    # green is locked in the golden picture; here its die (1) reaches green 6 and 4 as well
    assert view.connected == "chain"
    assert view.connections == ("R11+Y11", "G6+Y8", "G4+B4", "B9+G9")
    golden = VIEWS["action2-chain"]
    assert set(golden.connections) <= set(view.connections)


def test_a_pair_crossed_at_both_ends_is_no_longer_listed():
    game = game_after("connected-chain", (3, 5), Mark("Ann", "yellow", 8), Pass("Ben"))
    assert "G6+Y8" not in table_view(game).connections


def test_the_stair_line_lists_the_stair_cells_the_sums_reach():
    view = table_view(game_after("connected-steps", (1, 4)))
    assert (view.connected, view.connections) == ("stair", ("Y6", "G5"))  # green 1 + 4: 5


def test_other_sheets_have_no_such_line():
    view = table_view(game_after("classic", (3, 5)))
    assert (view.connected, view.connections) == ("", ())
