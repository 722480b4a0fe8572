"""A tournament's draw and placement points (firmware_py/league/draw.py), the format of the
German Qwixx championship's qualifying tournaments: "Gespielt werden fünf Runden mit allen
Teilnehmern, deren Tischzusammensetzung vor jeder Runde neu ausgelost wird" (five rounds with
every entrant, the tables drawn again before each round; the announcements of the Detmold
qualifiers, owl-journal.de 2018 and 2020), the players with the most points qualifying. The
points a place earns are not in the texts found: docs/league.md says which this league uses."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_py.league.draw import (
    FIRST,
    LARGEST,
    LAST,
    MEAN,
    SMALLEST,
    TooFewTables,
    draw_round,
    placement_points,
    table_sizes,
)

TOWERS = [f"t{n}" for n in range(1, 25)]


@given(st.integers(SMALLEST, 100), st.integers(1, 24), st.randoms(use_true_random=False))
def test_every_player_is_seated_once_at_tables_of_three_to_five(players, towers, chance):
    """Each round every player entered sits at exactly one table; a table seats three to five
    (Qwixx's two to five, less the duel), tables at most one apart in size, as few as can be;
    each table is a different tower. Too many players for the towers: said, not drawn."""
    names = [f"P{n}" for n in range(players)]
    try:
        seating = draw_round(names, TOWERS[:towers], chance)
    except TooFewTables as why:
        assert -(-players // LARGEST) > towers, why
        return
    seated = [name for table in seating.values() for name in table]
    assert sorted(seated) == sorted(names)
    sizes = [len(table) for table in seating.values()]
    assert all(SMALLEST <= size <= LARGEST for size in sizes)
    assert max(sizes) - min(sizes) <= 1
    assert len(sizes) == -(-players // LARGEST)
    assert set(seating) <= set(TOWERS[:towers])


def test_two_players_are_no_round_and_none_need_no_table():
    with pytest.raises(TooFewTables):
        table_sizes(2)
    assert table_sizes(0) == []
    assert table_sizes(9) == [5, 4] and table_sizes(11) == [4, 4, 3] and table_sizes(6) == [3, 3]


@given(st.lists(st.integers(-20, 120), min_size=1, max_size=LARGEST))
def test_placement_points_average_the_same_at_every_table(scores):
    """Places from the scores (ties share a place, as the towers' results say): every table's
    points sum to MEAN a player whatever its size, a better place never earns less, a tie
    earns alike, and a lone winner earns FIRST, a lone last LAST."""
    places = [1 + sum(other > score for other in scores) for score in scores]
    points = placement_points(places)
    assert sum(points) == MEAN * len(scores)
    for mine, my_points in zip(places, points, strict=True):
        for theirs, their_points in zip(places, points, strict=True):
            if mine < theirs:
                assert my_points > their_points
            if mine == theirs:
                assert my_points == their_points
    if len(scores) > 1 and places.count(1) == 1:
        assert points[places.index(1)] == FIRST
    if len(scores) > 1 and places.count(max(places)) == 1:
        assert points[places.index(max(places))] == LAST


def test_the_points_of_each_table_size():
    assert placement_points([1, 2, 3, 4, 5]) == [5, 4, 3, 2, 1]
    assert placement_points([1, 2, 3]) == [5, 3, 1]
    assert placement_points([1, 2, 3, 4]) == [5, Fraction(11, 3), Fraction(7, 3), 1]
    assert placement_points([1, 1, 3]) == [4, 4, 1]  # two winners share first and second
