"""A tower whose journal was emptied (a new SD card, a state directory wiped) numbers its games
from 1 again: the league keeps its new games beside the old ones (their ids carry when each
began, docs/home-assistant.md "result"), counts none of them as a copy, and asks the tower for
what it may lack from the new numbers on, not from the old card's (docs/league.md)."""

from __future__ import annotations

import json
from pathlib import Path

from firmware_py.league.core import League
from firmware_py.league.store import Store


def result(number: int, day: int) -> bytes:
    """Game `number` of tower t1, begun at 19:0N on November `day` (the id says when)."""
    began = f"2026-11-{day}T19:{number:02d}:00+00:00"
    players = [
        {"name": name, "seat": seat, "kind": "pad", "level": None, "score": 40 - seat,
         "penalties": 0, "place": seat}
        for seat, name in enumerate(("Ann", "Ben"), start=1)
    ]  # fmt: skip
    game = {
        "id": f"t1-{number:06d}-202611{day}T19{number:02d}00Z", "tower": "t1", "game": number,
        "variant": "classic", "started": began, "finished": began.replace(":00+", ":30+"),
        "reason": "locks", "winners": ["Ann"], "players": players,
    }  # fmt: skip
    return json.dumps(game).encode()


def test_a_new_card_s_games_are_new_games_and_catch_up_asks_from_its_numbers():
    league = League(Store(Path(":memory:")), "qwixx")
    league.take("qwixx/t1/availability", b"online")
    for number in (1, 2, 3, 4, 5):  # the old card, on the 20th
        league.take("qwixx/t1/result", result(number, 20))
    assert league.resend_from() == {"t1": 6}
    for number in (1, 2):  # the new card, on the 22nd
        league.take("qwixx/t1/result", result(number, 22))
    assert league.store.games() == 7
    assert league.store.counts().get("duplicate", 0) == 0
    ann = next(one for one in league.ratings.standings() if one.name == "Ann")
    assert ann.games == 7
    assert league.resend_from() == {"t1": 3}  # the new card's next game, not the old card's 6
    league.take("qwixx/t1/result", result(2, 22))  # a copy is still a copy
    assert league.store.counts()["duplicate"] == 1
