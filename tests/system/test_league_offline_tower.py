"""A tower off the bus for a while catches up (issue 42: "a tower offline for an hour catches
up"): Debian's mosquitto, the real league and real `qwixx-tower run` towers. Tower t2 plays its
games with the broker out of its reach (its [mqtt] names a port nobody listens on); t1 plays
after them, on the bus, and the league rates t1's games. Back on the bus, t2 publishes what its
journal holds: the league keeps every game once, and its ratings (saved at its stop) are those
of one pass over the games in the order they ended, t2's first, not in the order they came."""

from __future__ import annotations

import re

import pytest
from support import HANG
from support.league import League
from support.mosquitto import free_port
from support.tower import Tower

from firmware_py.league.ratings import Ratings
from firmware_py.league.store import SavedRatings, Store

PLAYERS = "Ann,Ben,Cleo"


def tower(tmp_path, section: str, name: str, games: int) -> Tower:
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    return Tower("--players", PLAYERS, folder=folder, pace=0, games=games, sections=section)


def test_a_tower_off_the_bus_catches_up_and_is_rated_in_the_order_its_games_ended(tmp_path, broker):
    away = re.sub(r"port = \d+", f"port = {free_port()}", broker.mqtt_section(tower_id="t2"))
    with tower(tmp_path, away, "t2", games=3) as t2:  # off the bus: nothing reaches the league
        assert t2.wait_for_exit() == 0
    with League(tmp_path / "league", broker) as league:
        league.wait_on_the_bus()
        with tower(tmp_path, broker.mqtt_section(tower_id="t1"), "t1", games=3) as t1:
            assert t1.wait_for_exit() == 0
        league.output.wait_until(lambda _: len(league.games()) == 3 or None, HANG, every=0.1)
        with tower(tmp_path, broker.mqtt_section(tower_id="t2"), "t2", games=1) as back:
            assert back.wait_for_exit() == 0
        every = [f"t1-{n:06d}" for n in (1, 2, 3)] + [f"t2-{n:06d}" for n in (1, 2, 3, 4)]
        caught_up = league.output.wait_until(
            lambda _: sorted(gid[:9] for gid in league.games()) == every or None, HANG, 0.1
        )
        assert caught_up, league.games()
        assert league.stop() == 0  # (its ratings saved in its file)
    store = Store(league.database)
    try:
        saved = SavedRatings(store).load()
        assert saved is not None and saved[2] == 7
        ordered = Ratings()
        ordered.replay(store.since(None))  # one pass in the order the games ended
        first = next(store.since(None))
        assert first.tower == "t2"  # t2's games ended first, and came last
    finally:
        store.close()
    assert set(saved[0]) == set(ordered.players)
    for key, one in ordered.players.items():
        kept = saved[0][key]
        assert (kept.mu, kept.sigma, kept.games) == (
            pytest.approx(one.mu), pytest.approx(one.sigma), one.games)  # fmt: skip
