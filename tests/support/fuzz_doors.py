"""What the door fuzz targets (tests/fuzz/targets_doors.py) build each input on: a real table in
a folder of its own, the pad link without its thread, a league running a tournament, and the
messages a fuzzer mangles."""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import random
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from drivers.padlink import PadLink
from firmware_py.app.web import history_pages
from firmware_py.journal.journal import Journal
from firmware_py.league.core import League
from firmware_py.league.pages import league_page
from firmware_py.league.store import Store
from firmware_py.league.tournament import read_entrants
from firmware_py.league.tournament_pages import organiser_forms, tournament_page
from firmware_py.rules import Roll
from firmware_py.seating import COMPUTER, SeatSpec
from firmware_py.seats.pads import PadHub
from firmware_py.seats.phones.history_pages import HistoryPages
from firmware_py.table import Table
from support.fakes import FakeClock
from support.fuzz_input import FuzzInput
from support.history import HOSTILE, KNOWN, renamed_game
from support.table import make_table
from support.tournament_results import result

CODE = "4821"
BOT = SeatSpec("Bot", COMPUTER)
ROLL = Roll((4, 1), {"red": 6, "yellow": 2, "green": 3, "blue": 6})
KEY = b"the organiser's password"
# A folder in memory where there is one: each accepted decision is fsynced to the game's log
SCRATCH = "/dev/shm" if Path("/dev/shm").is_dir() else None
# The history's two games, read once a process: removed when it ends (in memory, it would
# outlive the process and every test worker that replays a history input)
_HISTORY = tempfile.TemporaryDirectory(prefix="qwixx-fuzz-history-", dir=SCRATCH)


@functools.cache
def history_pages_of_two_games() -> HistoryPages:
    """The phones' history pages over a journal of two finished games (one with a player whose
    name is markup), read once; their clock moves a minute a page, so no budget runs out."""
    games = Path(_HISTORY.name)
    shutil.copyfile(KNOWN, games / "game-000001.jsonl")
    renamed_game(games / "game-000002.jsonl", "Ann", HOSTILE)
    pages = history_pages(Journal(games))
    pages.standings.index.refresh()
    pages.standings.update()
    clock = FakeClock(time.monotonic())
    pages.clock = lambda: clock.advance(60) or clock()
    return pages


@contextmanager
def table_for_fuzzing(variant: str, seats: list[SeatSpec]) -> Iterator[Table]:
    """A table on simulated hardware whose computer players wait (the test moves the game),
    its journal in a folder removed afterwards, its hardware closed."""
    folder = Path(tempfile.mkdtemp(prefix="qwixx-fuzz-", dir=SCRATCH))
    table = make_table(folder, seats, variant=variant)
    table.settings = replace(table.settings, pace=60)
    try:
        yield table
    finally:
        table.hardware.close()
        shutil.rmtree(folder, ignore_errors=True)


def game_log(table: Table) -> bytes:
    """The current game's log as it is on disk (b"" before the first game)."""
    path = table.journal.current_game
    return path.read_bytes() if path is not None and path.exists() else b""


def quiet_link(hub: PadHub) -> PadLink:
    """A pad link wired to `hub` as the hub wires its own, its reading thread already ended on
    a port that cannot open: the target calls the link's reading itself."""
    link = PadLink("/dev/null/no-pad", when_message=hub._on_message, when_gone=hub._on_gone,
                   when_back=hub._on_back, admit=hub._admit, retry=(0.001, 0.001))  # fmt: skip
    link.close()
    link._stop.clear()  # (sending works again; the thread stays ended)
    return link


def mutated(fuzz: FuzzInput, message: Any) -> bytes:
    """`message` as JSON, with a few of its values (anywhere inside it) replaced by anything
    JSON carries, or removed."""
    for _ in range(fuzz.number(0, 3)):
        _mutate_one(fuzz, message)
    return json.dumps(message, ensure_ascii=fuzz.flag()).encode()


def _mutate_one(fuzz: FuzzInput, value: Any) -> None:
    while isinstance(value, dict | list) and value:
        key = fuzz.pick(list(value)) if isinstance(value, dict) else fuzz.number(0, len(value) - 1)
        if fuzz.number(0, 2) == 0 or not isinstance(value[key], dict | list):
            if isinstance(value, dict) and fuzz.number(0, 3) == 0:
                del value[key]
            else:
                value[key] = fuzz.json()
            return
        value = value[key]


def seating_message(fuzz: FuzzInput) -> dict[str, Any]:
    """A league's seating for a round, or its tournament's end, as the league sends it."""
    if fuzz.number(0, 3) == 0:
        return {"tournament": 1, "name": "Cup", "ended": "2026-11-27T22:00:00+00:00",
                "final": [{"place": 1, "name": "Ann", "points": "9"},
                          {"place": 2, "name": "Ben", "points": "8.5"}]}  # fmt: skip
    return {"tournament": 1, "name": "Cup", "round": fuzz.number(1, 3), "rounds": 3,
            "players": [{"name": "Ann", "computer": None}, {"name": "Robo", "computer": "hard"}],
            "drawn": "2026-11-27T19:00:00+00:00",
            "started": fuzz.pick((None, "2026-11-27T19:05:00+00:00"))}  # fmt: skip


def result_message(fuzz: FuzzInput, tower: str) -> bytes:
    """A tower's result as towers publish it, for the round now (or none), mangled a little."""
    scores = {name: fuzz.number(-20, 120) for name in ("Ann", "Ben", "Robo")[: fuzz.number(1, 3)]}
    tag = fuzz.pick(((1, 1), (1, 2), None))
    return mutated(fuzz, json.loads(result(tower, fuzz.number(1, 30), scores, tag)))


LEAGUE_NOW = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)  # the fuzzed league's own time


def state_message(fuzz: FuzzInput) -> bytes:
    """A tower's state saying its clock: a time some way from the league's (a little, hours,
    centuries), cut short, another's text, or anything JSON carries; mangled a little."""
    moved = LEAGUE_NOW + timedelta(seconds=fuzz.number(-(6 * 10**10), 6 * 10**10))  # 1,900 years
    written = moved.isoformat(timespec=fuzz.pick(("auto", "seconds", "milliseconds")))
    clock = fuzz.pick((written, written[: fuzz.number(0, 32)], written[:19], fuzz.text(40)))
    players = [{"name": name, "score": fuzz.number(-5, 80)} for name in ("Ann", "Ben")]
    state = {"state": fuzz.pick(("attract", "roll", "action1")), "variant": "classic",
             "active": "Ann", "seats": players, "clock": clock}  # fmt: skip
    if fuzz.number(0, 5) == 0:
        state["clock"] = fuzz.json()
    return mutated(fuzz, state)


def league_with_a_tournament(stage: int, file: Path = Path(":memory:")) -> League:
    """A league (in memory, or in `file`) whose tournament is (0) not made, (1) made, (2) drawn
    at three towers, (3) begun; its record signed with KEY."""
    league = League(Store(file), "qwixx", wall=lambda: LEAGUE_NOW)
    league.tournament.clock = lambda: datetime(2026, 11, 27, 19, 0, tzinfo=UTC)
    league.tournament.chance = random.Random(7)
    league.tournament.key = KEY
    for tower in ("t1", "t2", "t3"):
        league.take(f"qwixx/{tower}/availability", b"online")
    if stage >= 1:
        league.tournament.create("Cup", 2, read_entrants("Ann\nBen\nCleo\nRobo (hard)"))
    if stage >= 2:
        league.tournament.draw(["t1", "t2", "t3"])
    if stage >= 3:
        league.tournament.start()
    return league


def record_payload(fuzz: FuzzInput, league: League) -> bytes:
    """A tournament's record on the broker: rubbish, unsigned, or signed with the league's own
    key (a record of an older league, or damaged) around a mangled body."""
    how = fuzz.number(0, 3)
    if how == 0:
        return fuzz.raw()
    if how == 1:
        return mutated(fuzz, {"record": fuzz.text(), "signature": fuzz.text()})
    kept = league.tournament.record()
    body = json.loads(json.loads(kept)["record"]) if kept else {"tournament": [2, "Cup", 2]}
    text = mutated(fuzz, body).decode() if how == 2 else fuzz.text(200)
    signature = hmac.new(KEY, text.encode(), hashlib.sha256).hexdigest()
    return json.dumps({"record": text, "signature": signature}).encode()


def league_pages(league: League) -> None:
    """The league's front page and the tournament's page (with the organiser's forms) drawn
    from what the league now holds, as its web server draws them."""
    league_page(league.ratings.standings(), league.store.towers(), league.tables,
                league.clocks_ahead, league.store.latest(50), 100)  # fmt: skip
    tournament = league.tournament
    header = tournament.header
    round_, tables = tournament.round_now()
    entrants = tournament.store.entrants(header.id) if header else []
    forms = organiser_forms(header, entrants, can_draw=True, can_start=True, can_close=True)
    tournament_page(header, round_, tables, tournament.totals(), forms, "said")
    for tower in ("t1", "t2", "t3"):
        tournament.seating_message(tower)
    tournament.record()
