"""Qwixx Double at the terminal and in the table's words: a number crossed twice reads "5x2"
on the sheet line at 80x24, a second cross is offered and told as "red 5 again", a cell printed
double as "x2" (docs/rules.md, "Double A and Double B")."""

from __future__ import annotations

from support.rules import recording_game
from support.terminal import carried_on_at_80x24

from firmware_py.rules import Game, Mark, Pass, Roll, Start
from firmware_py.table.news_words import describe

DICE = {"red": 1, "yellow": 1, "green": 1, "blue": 1}


def test_at_80x24_a_second_cross_reads_5x2_and_a_cell_crossed_once_is_offered_again(tmp_path):
    """Ann at the keyboard carries on a Double A game: red 5 crossed twice, yellow 5 once. Her
    sheet line shows "R:5x2", and on a white 5 the keyboard offers yellow 5 "again", not red 5."""
    game = recording_game("double-a", players=("Ann",))
    for event in (
        Roll((4, 1), DICE),
        Mark("Ann", "red", 5),
        Mark("Ann", "yellow", 5),  # white 4 + yellow 1, action 2
        Roll((3, 2), DICE),
        Mark("Ann", "red", 5),  # the second cross
        Pass("Ann"),
        Roll((2, 3), DICE),
    ):
        game.apply(event)
    tower = carried_on_at_80x24(tmp_path, game)
    try:
        screen = tower.wait_for("[p] pass")
        (line,) = [line.rstrip() for line in screen.splitlines() if "penalties" in line]
        assert "R:5x2 Y:5 G:- B:-" in line and len(line) <= 80
        question = " ".join(screen.rsplit("action 1:", 1)[1].split())
        assert "red 5" not in question
        assert "yellow 5 again" in question and "green 5" in question
    finally:
        tower.stop()


def test_the_news_tells_a_second_cross_and_a_double_cell():
    game = Game.start(Start("double-a", ("Ann",)))
    game.apply(Roll((4, 1), DICE))
    mark = Mark("Ann", "red", 5)
    assert describe(mark, game) == "Ann crosses red 5"
    game.apply(mark)
    game.apply(Pass("Ann"))
    game.apply(Roll((4, 1), DICE))
    assert describe(mark, game) == "Ann crosses red 5 again"
    printed = Game.start(Start("double-b", ("Ann",)))
    printed.apply(Roll((4, 1), DICE))
    assert describe(mark, printed) == "Ann crosses red 5 x2"
    assert describe(Mark("Ann", "red", 5), Game.start(Start("classic", ("Ann",)))) == (
        "Ann crosses red 5"
    )
