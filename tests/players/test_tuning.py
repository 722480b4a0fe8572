"""The tuner (tools/tune_players.py) splits each candidate's games among processes to meet its
time; the games, and so the weights it writes from a seed, must not depend on how many."""

from __future__ import annotations

import sys
from multiprocessing import Pool

from support.paths import ROOT

sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tools"))
import tune_players
from arena import Tally, series
from opponents.qwixxer_ga import QwixxerGA

from firmware_py.players import hard
from firmware_py.players.thumb import choose as thumb


def lineup():
    return [lambda: lambda game, name: hard.choose(game, name), lambda: QwixxerGA().decide]


def test_a_series_played_in_pieces_is_the_series_played_whole():
    whole = series("classic", lineup(), 6, seed=4)
    pieces = [series("classic", lineup(), 2, seed=4, first=first) for first in (0, 2, 4)]
    for bot, tally in enumerate(whole):
        joined = Tally()
        for piece in pieces:
            joined.add(piece[bot])
        assert (joined.games, joined.sole_wins, joined.points) == (
            tally.games,
            tally.sole_wins,
            tally.points,
        )


def test_the_seats_rotate_across_pieces_as_in_one_series():
    """Game 1 of a series seats the second bot first, whether or not the series starts there."""
    seats = []

    def first_seat(game, name):
        seats.append(name)
        return thumb(game, name)

    series("classic", [lambda: first_seat, lambda: thumb], 1, seed=4, first=1)
    assert seats[0] == "P1"


def test_the_tuners_score_is_the_same_in_one_process_or_two():
    weights = hard.shipped_weights()
    with Pool(1) as one, Pool(2) as two:
        assert tune_players.score(weights, 4, 3, one) == tune_players.score(weights, 4, 3, two)
