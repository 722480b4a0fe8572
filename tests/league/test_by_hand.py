"""A table's result typed by hand by the organiser (firmware_py/league/by_hand.py;
docs/league.md, "A result typed by hand"): only the players drawn there, whole numbers in a
sheet's range, counted once; anything else refused in words."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_py.league.by_hand import HandRefused, hand_scores
from firmware_py.league.round_points import BY_HAND, round_points
from firmware_py.league.tournament_store import RoundTable

BEGUN = RoundTable("t1", ("Ann", "Ben", "Cleo"), "2026-11-27T19:00:00+00:00",
                   "2026-11-27T19:05:00+00:00")  # fmt: skip


def test_the_scores_typed_give_the_tables_placement_points():
    scores = hand_scores([BEGUN], "t1", {"score-0": "41", "score-1": "-3", "score-2": ""})
    assert scores == {"Ann": 41, "Ben": -3}  # Cleo's blank: she did not play
    kept = RoundTable(BEGUN.tower, BEGUN.players, BEGUN.drawn, BEGUN.started, BY_HAND,
                      tuple(scores.items()))  # fmt: skip
    assert round_points(kept) == {"Ann": 5, "Ben": 1, "Cleo": 0}


@pytest.mark.parametrize(
    ("tower", "typed", "words"),
    [
        ("t2", {"score-0": "1"}, "'t2' has no table in this round"),
        ("t1", {"score-0": "4 1"}, "Ann's score '4 1' is not a sheet's total"),
        ("t1", {"score-1": "5000"}, "Ben's score '5000' is not a sheet's total"),
        ("t1", {"score-2": "--1"}, "Cleo's score '--1' is not a sheet's total"),
        ("t1", {}, "type the score of at least one player of t1"),
    ],
)
def test_what_is_not_a_tables_result_is_refused_in_words(tower, typed, words):
    with pytest.raises(HandRefused, match=words):
        hand_scores([BEGUN], tower, typed)


def test_a_table_that_reported_or_has_not_begun_takes_no_result_by_hand():
    reported = RoundTable("t1", BEGUN.players, BEGUN.drawn, BEGUN.started, "t1-000001")
    with pytest.raises(HandRefused, match="in already: it counts once"):
        hand_scores([reported], "t1", {"score-0": "3"})
    waiting = RoundTable("t1", BEGUN.players, BEGUN.drawn, None)
    with pytest.raises(HandRefused, match="has not begun"):
        hand_scores([waiting], "t1", {"score-0": "3"})


@given(st.dictionaries(st.sampled_from(["score-0", "score-1", "score-2", "score-9", "tower"]),
                       st.text(max_size=8)))  # fmt: skip
def test_a_forged_form_is_refused_or_gives_scores_of_the_tables_players(typed):
    try:
        scores = hand_scores([BEGUN], "t1", typed)
    except HandRefused:
        return
    assert set(scores) <= set(BEGUN.players) and all(-100 <= s < 1000 for s in scores.values())
