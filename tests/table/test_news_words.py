"""The news: what the table says happened, in words (the terminal, the journal's readers)."""

from __future__ import annotations

from support.rules import cross, new_game, roll, roll_sum

from firmware_py.rules import Mark
from firmware_py.table.news_words import describe, mark_words


def test_a_bonus_a_cross_says_which_bonus_cross_it_set_off():
    """Bonus A (seeds 000, 002): "Now Tim crosses the green 11 ... Since this is a bonus box,
    Tim immediately crosses out the first box in the bonus bar: it is red. Tim immediately puts
    a cross in the red row ..." The news says so, not only "Tim crosses green 11"."""
    game = new_game("bonus-a", ["Tim"])
    cross(game, "Tim", ("red", 2), ("red", 4))
    game.apply(roll_sum(game, 11))
    words = describe(Mark("Tim", "green", 11), game)
    assert words == "Tim crosses green 11 and earns 1 bonus cross in red"


def test_a_chain_of_bonus_crosses_is_told_row_by_row():
    """Bonus A (seeds 000, 002), Sarah's chain: red 9 sets off blue 5, which sets off yellow 10."""
    game = new_game("bonus-a", ["Sarah"])
    steps = [("yellow", 5), ("yellow", 8), ("green", 11), ("blue", 10), ("blue", 8), ("red", 3)]
    cross(game, "Sarah", *steps, ("blue", 6))
    game.apply(roll_sum(game, 9))
    words = describe(Mark("Sarah", "red", 9), game)
    assert words == "Sarah crosses red 9 and earns 2 bonus crosses: 1 in yellow, 1 in blue"


def test_bonus_b_choices_of_one_cell_are_told_apart_and_the_news_says_where_they_went():
    """Bonus B (seeds 000, 002), circle: with red and blue tied for the fewest crosses, green 9
    is offered twice; each offer says where its two bonus crosses go."""
    game = new_game("bonus-b", ["Ann"])
    cross(game, "Ann", ("yellow", 11))
    game.apply(roll(game, (5, 4)))
    offers = sorted(mark_words(m) for m in game.legal_marks("Ann") if m.number == 9)
    assert "green 9 → 2 in blue" in offers and "green 9 → 2 in red" in offers
    assert len(offers) == len(set(offers))  # no two offers look the same
    chosen = Mark("Ann", "green", 9, choice="red")
    assert describe(chosen, game) == "Ann crosses green 9 and earns 2 bonus crosses in red"


def test_a_lucky_cross_is_offered_as_lucky_and_a_plain_cross_earns_no_bonus_words():
    assert mark_words(Mark("Ann", "red", 7, lucky=True)) == "red 7 (lucky)"
    game = new_game("classic", ["Ann"])
    game.apply(roll_sum(game, 7))
    assert describe(Mark("Ann", "red", 7), game) == "Ann crosses red 7"
