"""A tower taken off the bus (its [mqtt] section taken out, docs/home-assistant.md, "Removing
it") empties its retained topics: an empty availability and an empty state. That is the tower
leaving, not a guest's rubbish: the league shows it off the bus, drops its table's game, and
counts nothing as malformed (it warned "a state not JSON" in its log for the café's own
tower). An empty message for a tower the league never heard of adds no tower."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_py.league.core import League
from firmware_py.league.store import Store

STATE = json.dumps({"state": "roll", "variant": "classic", "seats": []}).encode()


@pytest.fixture
def league() -> League:
    league = League(Store(Path(":memory:")), "qwixx")
    league.take("qwixx/kitchen/availability", b"online")
    league.take("qwixx/kitchen/state", STATE)
    return league


def malformed(league: League) -> int:
    return league.store.counts().get("malformed", 0)


def test_a_tower_emptying_its_retained_topics_is_off_the_bus_and_nothing_is_malformed(league):
    league.take("qwixx/kitchen/availability", b"offline")
    league.take("qwixx/kitchen/state", b"", retained=True)
    league.take("qwixx/kitchen/availability", b"", retained=True)
    assert malformed(league) == 0
    assert league.store.towers() == {"kitchen": False}
    assert "kitchen" not in league.tables


def test_an_empty_availability_takes_a_tower_on_the_bus_off_it(league):
    """(as its broker forwards the emptied topics live, the state's first)"""
    league.take("qwixx/kitchen/state", b"")
    league.take("qwixx/kitchen/availability", b"")
    assert malformed(league) == 0
    assert league.store.towers() == {"kitchen": False}
    assert "kitchen" not in league.tables


def test_an_empty_availability_of_a_tower_never_heard_of_adds_no_tower(league):
    league.take("qwixx/bar/availability", b"")
    assert league.store.towers() == {"kitchen": True}
    assert malformed(league) == 0
