"""An evening at the league as its page shows it: two towers on the bus, three games of
t1's played ("<i>Zoë", a name that is markup, beats Ann each time) and t2's game in progress;
and a café's league about to run a tournament; for the league's browser tests (chromium and
WebKit)."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path

from firmware_py.league.core import League
from firmware_py.league.organiser import Organisers
from firmware_py.league.store import Store
from firmware_py.league.web import Evening, LeaguePage
from support.organiser import PASSWORD

NOW = datetime.fromisoformat("2026-11-22T21:00:00+01:00")  # the evening's clock


def result(number: int, scores: dict[str, int]) -> bytes:
    """t1's game `number` as the tower publishes its result, every player on a phone."""
    players = [
        {"name": name, "seat": seat, "kind": "phone", "level": None, "score": score,
         "penalties": 0, "place": 1 + sum(other > score for other in scores.values())}
        for seat, (name, score) in enumerate(scores.items(), start=1)
    ]  # fmt: skip
    return json.dumps({
        "id": f"t1-{number:06d}", "tower": "t1", "game": number, "variant": "classic",
        "started": None, "finished": f"2026-11-22T19:{number:02d}:00+00:00", "reason": "locks",
        "players": players, "winners": [p["name"] for p in players if p["place"] == 1],
    }).encode()  # fmt: skip


def evening(tmp_path: Path) -> League:
    """The league (its file in `tmp_path`) after the evening's messages."""
    league = League(Store(tmp_path / "league.sqlite"), "qwixx")
    league.take("qwixx/t1/availability", b"online")
    league.take("qwixx/t2/availability", b"online")
    for number in range(1, 4):
        league.take("qwixx/t1/result", result(number, {"<i>Zoë": 60, "Ann": 40 + number}))
    state = {"state": "roll", "variant": "classic", "active": "Ben", "seats": [
        {"name": "Ben", "score": 12, "penalties": 0}, {"name": "Cleo", "score": 9,
                                                       "penalties": 0}]}  # fmt: skip
    league.take("qwixx/t2/state", json.dumps(state).encode())
    return league


def before_the_tournament(tmp_path: Path) -> tuple[League, LeaguePage]:
    """A league with towers t1 and t2 on the bus, its draws made by a known chance, and its
    page (not started) with the organiser's password PASSWORD."""
    league = League(Store(tmp_path / "league.sqlite"), "qwixx")
    league.tournament.chance = random.Random(3)
    for tower in ("t1", "t2"):
        league.take(f"qwixx/{tower}/availability", b"online")
    return league, LeaguePage(league, "127.0.0.1", 0, Evening(6), Organisers(PASSWORD))


@contextlib.asynccontextmanager
async def evening_served(tmp_path: Path) -> AsyncIterator[str]:
    """The evening's league and its page on a free port of 127.0.0.1, its clock at NOW (SQLite
    in the thread of the loop that serves it); the page's address while it is served."""
    server = LeaguePage(evening(tmp_path), "127.0.0.1", 0, Evening(6, clock=lambda: NOW))
    port = await server.start()
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        await server.stop()
