"""The café's league on a real broker (issue 42): Debian's mosquitto started here (TLS, a
password file), several real `qwixx-tower run` processes as towers (computer players, pace
0), and the real `qwixx-tower league` process reading their results, killed and started again
in the middle of the evening: it loses nothing and counts nothing twice."""

from __future__ import annotations

import pytest
from support.bus_listener import BusListener
from support.league import League
from support.mosquitto import Broker, Pki
from support.mosquitto import need_mosquitto as needs_mosquitto
from support.tower import Tower


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    needs_mosquitto()
    return Pki.make(tmp_path_factory.mktemp("pki"))


@pytest.fixture
def broker(tmp_path, pki):
    with Broker(tmp_path / "broker", pki) as running:
        yield running


def tower(tmp_path, broker, name, games, players="Ann,Ben,Cleo"):
    folder = tmp_path / name
    folder.mkdir()
    return Tower("--players", players, folder=folder, pace=0.01, games=games,
                 sections=broker.mqtt_section(tower_id=name))  # fmt: skip


def result_ids(listener: BusListener) -> set[str]:
    return {m.json()["id"] for m in listener.heard if m.topic.endswith("/result")}


def test_two_towers_games_reach_the_league_once_each(tmp_path, broker):
    heard = BusListener(broker, "qwixx/+/result")
    with heard, League(tmp_path / "league", broker) as league:
        league.wait_on_the_bus()
        with tower(tmp_path, broker, "t1", 2) as one, tower(tmp_path, broker, "t2", 2) as two:
            assert one.wait_for_exit() == 0 and two.wait_for_exit() == 0
        heard.wait_until(lambda: len(result_ids(heard)) == 4)
        league.output.wait_until(lambda lines: len(league.games()) == 4, 60)
        assert set(league.games()) == result_ids(heard)
        status, page = league.get("/")
        assert status == 200 and "Ann" in page
