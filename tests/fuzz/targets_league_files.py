"""Fuzz targets for what the league reads back from its disk at its start (tools/fuzz.py): its
one SQLite file (docs/league.md: the results, the towers heard of, the saved ratings, the
tournament's rounds, seatings and games). A power cut, a full disk or an organiser editing the
file with `sqlite3` can leave anything there; the league must then start (a damaged file set
aside and a new one begun: the file is a cache the towers fill again), never end in a
traceback.

- `league_file`: the whole file is the fuzzer's bytes (seeded with a real league's file, so
  that mutation reaches the pages inside it): the league starts, always, and its pages draw
  (a file whose tables are not the league's, yet passes SQLite's integrity_check, a column
  renamed, is damaged too: league.schema).
- `league_rows`: a real league's file with one value of one row changed to anything SQLite
  holds (text, a number, NULL, bytes), or one row removed, as an organiser's `UPDATE` would;
  the league starts and its pages draw, and every game whose row is as the league wrote it is
  still counted. A value of another kind in the tournament's tables (the organiser's
  decisions, which the league's signed record on the broker restores) sets the file aside
  whole in quarantine/, as damage does: the towers fill the new file again.

Kept inputs: tests/fuzz/seeds/TARGET/ and tests/fuzz/found/TARGET/.
"""

from __future__ import annotations

import contextlib
import functools
import shutil
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from support.fuzz_doors import league_pages, league_with_a_tournament
from support.fuzz_input import FuzzInput
from support.tournament_results import result

from firmware_py.league.core import League, open_league
from firmware_py.league.store import StoreError
from firmware_py.league.tournament_store import KINDS

_FOLDER = tempfile.TemporaryDirectory(prefix="qwixx-fuzz-league-")  # removed when the process ends
FOLDER = Path(_FOLDER.name)
FILE = FOLDER / "league.sqlite"
GAMES = (("t1", 5), ("t2", 6), ("t3", 9))  # games outside the tournament: (tower, number)

# What an organiser may change: (table, column), every column the league reads back.
CELLS = (("games", "id"), ("games", "tower"), ("games", "number"), ("games", "variant"),
         ("games", "started"), ("games", "finished"), ("games", "reason"), ("games", "players"),
         ("placings", "player"), ("placings", "score"), ("placings", "place"),
         ("towers", "tower"), ("towers", "online"), ("counts", "what"), ("counts", "count"),
         ("ratings", "key"), ("ratings", "name"), ("ratings", "kind"), ("ratings", "mu"),
         ("ratings", "sigma"), ("ratings", "games"), ("ratings", "wins"), ("rated", "last"),
         ("rated", "games"), ("tournaments", "id"), ("tournaments", "name"),
         ("tournaments", "rounds"), ("tournaments", "created"), ("tournaments", "ended"),
         ("tournaments", "towers"), ("entrants", "name"), ("entrants", "computer"),
         ("entrants", "left_after"), ("seatings", "round"), ("seatings", "tower"),
         ("seatings", "players"), ("seatings", "drawn"), ("seatings", "started"),
         ("round_games", "round"), ("round_games", "tower"), ("round_games", "game"),
         ("round_games", "scores"))  # fmt: skip


@functools.cache
def good_file() -> bytes:
    """A league's file as the league leaves it at its stop: three towers, a tournament's
    first round begun and its table's game in, three games outside it, ratings saved."""
    path = FOLDER / "good.sqlite"
    league = league_with_a_tournament(3, path)
    table = league.tournament.round_now()[1][0]
    scores = {name: 10 + seat for seat, name in enumerate(table.players)}
    league.take(f"qwixx/{table.tower}/result", result(table.tower, 1, scores, (1, 1)))
    for tower, number in GAMES:
        names = {"Dee": 40, "Eve": 12, "Ann": number}
        league.take(f"qwixx/{tower}/result", result(tower, number, names, None))
    league.save_ratings()
    league.store.close()
    return path.read_bytes()


@contextlib.contextmanager
def _started() -> Iterator[League | None]:
    """The league over FILE, as `qwixx-tower league` starts it, its pages drawn;
    None when the file is refused (in words)."""
    for extra in ("-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{FILE}{extra}").unlink()
    shutil.rmtree(FILE.parent / "quarantine", ignore_errors=True)  # (a damaged file goes there)
    try:
        league = open_league(FILE, "qwixx")
    except StoreError as error:
        assert str(error), "the league's file refused without words"
        yield None
        return
    try:
        league_pages(league)
        yield league
    finally:
        league.store.close()


def league_file(data: bytes) -> None:
    FILE.write_bytes(data)
    with _started() as league:
        assert league is not None, "the league did not start: its file is a cache, begun anew"


def _value(fuzz: FuzzInput) -> object:
    how = fuzz.number(0, 3)
    if how == 0:
        return fuzz.text()
    if how == 1:
        return fuzz.whole()
    if how == 2:
        return fuzz.raw(32)
    return None


def _changed(fuzz: FuzzInput) -> tuple[str, set[str]]:
    """One cell changed, or one row removed, in FILE: its table, the ids of the games it
    touched."""
    table, column = fuzz.pick(CELLS)
    row, value, remove = fuzz.number(0, 3), _value(fuzz), fuzz.number(0, 7) == 0
    db = sqlite3.connect(FILE, isolation_level=None)
    try:
        where = f"rowid = (SELECT rowid FROM {table} ORDER BY rowid LIMIT 1 OFFSET ?)"
        games = {"games": "id", "placings": "game"}.get(table)  # (other tables touch no game)
        looked_up = f"SELECT {games or 'NULL'} FROM {table} WHERE {where}"
        touched = db.execute(looked_up, (row,)).fetchall()
        if remove:
            db.execute(f"DELETE FROM {table} WHERE {where}", (row,))
        else:
            db.execute(f"UPDATE {table} SET {column} = ? WHERE {where}", (value, row))
    except (sqlite3.Error, OverflowError):  # refused by its column (NOT NULL, a key twice)
        return table, set()
    finally:
        db.close()
    return table, {str(game) for (game,) in touched} if games else set()


def league_rows(data: bytes) -> None:
    FILE.write_bytes(good_file())
    table, touched = _changed(FuzzInput(data))
    changed = FILE.read_bytes()
    with _started() as league:
        assert league is not None, "a league's file with one value changed was refused"
        kept = {one.id for one in league.store.latest(50)}
    aside = [path.read_bytes() for path in (FOLDER / "quarantine").glob("league.sqlite*")]
    if aside:
        assert table in KINDS, f"the league's file set aside for a value in {table}"
        assert aside == [changed], "the file set aside is not the file as it was"
        return
    written = {f"{tower}-{number:06d}" for tower, number in GAMES}
    assert written - touched <= kept, f"games lost beside a changed row: {written - kept}"


TARGETS: dict[str, Callable[[bytes], None]] = {
    "league_file": league_file,
    "league_rows": league_rows,
}
