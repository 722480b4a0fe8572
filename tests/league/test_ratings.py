"""The league's ratings (firmware_py/league/ratings.py): openskill's Plackett-Luce model over
every distinct game in the evening's order. Results arrive from many towers in any order and
some more than once (at least once delivery, a tower asked to publish again): the ratings are
those of one ordered pass over the distinct games all the same."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from firmware_py.league import ratings
from firmware_py.league.core import League
from firmware_py.league.incoming import read_result
from firmware_py.league.ratings import Ratings
from firmware_py.league.store import Store

NAMES = ("Ann", "Ben", "Cleo", "Dan", "Eve", "Fay")


@st.composite
def games(draw) -> list[tuple[str, bytes]]:
    """Finished games of three towers: (topic, payload) as each tower publishes it. Several
    end in the same minute, so their order also rests on the ids."""
    made = []
    for number in range(1, draw(st.integers(1, 20)) + 1):
        tower = draw(st.sampled_from(("t1", "t2", "t3")))
        names = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=5, unique=True))
        scores = draw(st.lists(st.integers(-10, 90), min_size=len(names), max_size=len(names)))
        minute = draw(st.integers(0, 5))
        players = [
            {"name": name, "seat": seat, "kind": "phone", "level": None, "score": score,
             "penalties": 0, "place": 1 + sum(other > score for other in scores)}
            for seat, (name, score) in enumerate(zip(names, scores, strict=True), start=1)
        ]  # fmt: skip
        payload = {
            "id": f"{tower}-{number:06d}", "tower": tower, "game": number, "variant": "classic",
            "started": None, "finished": f"2026-11-22T19:{minute:02d}:00+00:00",
            "reason": "locks", "players": players,
            "winners": [p["name"] for p in players if p["place"] == 1],
        }  # fmt: skip
        made.append((f"qwixx/{tower}/result", json.dumps(payload).encode()))
    return made


def standings(rated: Ratings) -> list[tuple]:
    return [(one.key, one.name, one.mu, one.sigma, one.games, one.wins)
            for one in rated.standings()]  # fmt: skip


@given(games(), st.randoms(use_true_random=False), st.data())
def test_any_order_with_duplicates_rates_as_one_ordered_pass(made, shuffler, data):
    """Results in any order, some of them two or three times, through the league as the
    broker hands them over (kept once, rated), give exactly the ratings of one pass over the
    distinct games in their order; also across checkpoints (every 2 of the last 5 games, and
    every 4 before them here)."""
    saved = ratings.CHECKPOINT, ratings.RECENT, ratings.SPARSE
    ratings.CHECKPOINT, ratings.RECENT, ratings.SPARSE = 2, 5, 4
    try:
        again = data.draw(st.lists(st.sampled_from(made), max_size=len(made) * 2))
        arriving = [*made, *again]
        shuffler.shuffle(arriving)
        league = League(Store(Path(":memory:")), "qwixx")
        for topic, payload in arriving:
            league.take(topic, payload)
        ordered = sorted((read_result(t.split("/")[1], p) for t, p in made), key=lambda r: r.order)
        one_pass = Ratings()
        one_pass.replay(ordered)
    finally:
        ratings.CHECKPOINT, ratings.RECENT, ratings.SPARSE = saved
    assert standings(league.ratings) == standings(one_pass)
    assert league.store.games() == len(made)
    assert league.store.counts().get("duplicate", 0) == len(again)


def test_a_win_raises_the_rating_and_uncertainty_shrinks():
    """Plackett-Luce: the winner of a three-player game gains, the last loses, and everyone's
    sigma (how unsure the rating is) is smaller after a game than before."""
    league = League(Store(Path(":memory:")), "qwixx")
    players = [
        {"name": name, "seat": seat, "kind": "pad", "level": None, "score": score,
         "penalties": 0, "place": place}
        for seat, (name, score, place) in enumerate((("Ann", 50, 1), ("Ben", 40, 2),
                                                     ("Cleo", 30, 3)), start=1)
    ]  # fmt: skip
    payload = {"id": "t1-000001", "tower": "t1", "game": 1, "variant": "classic",
               "started": None, "finished": "2026-11-22T19:00:00+00:00", "reason": "locks",
               "winners": ["Ann"], "players": players}  # fmt: skip
    league.take("qwixx/t1/result", json.dumps(payload).encode())
    by_name = {one.name: one for one in league.ratings.standings()}
    assert by_name["Ann"].mu > 25 > by_name["Cleo"].mu
    assert all(one.sigma < 25 / 3 for one in by_name.values())
    assert [one.name for one in league.ratings.standings()] == ["Ann", "Ben", "Cleo"]


@given(games(), st.randoms(use_true_random=False), st.data())
def test_a_league_started_again_from_its_file_rates_as_one_ordered_pass(made, shuffler, data):
    """A league stops (its ratings saved, or killed without saving) and starts again from its
    file, then takes the rest of the evening in any order and with copies, also games older
    than the last it had rated: the ratings are those of one ordered pass all the same."""
    arriving = [*made, *data.draw(st.lists(st.sampled_from(made), max_size=len(made)))]
    shuffler.shuffle(arriving)
    cut = data.draw(st.integers(0, len(arriving)))
    with tempfile.TemporaryDirectory() as folder:
        first = League(Store(Path(folder) / "league.sqlite"), "qwixx")
        for topic, payload in arriving[:cut]:
            first.take(topic, payload)
        if data.draw(st.booleans()):
            first.save_ratings()  # a clean stop; else as if killed: what was saved before
        first.store.close()
        again = League(Store(Path(folder) / "league.sqlite"), "qwixx")
        for topic, payload in arriving[cut:]:
            again.take(topic, payload)
        ordered = sorted((read_result(t.split("/")[1], p) for t, p in made), key=lambda r: r.order)
        one_pass = Ratings()
        one_pass.replay(ordered)
        assert standings(again.ratings) == standings(one_pass)
        again.store.close()
