"""A tournament on disk, in the league's own SQLite file (`store.Store`'s connection): the
tournament, its entrants (and the round after which one left), each round's seating at each
tower (when drawn, when started) and each table's game for the round. Unlike the games, this is
not a cache the towers can fill again: the organiser's draw and start are kept only here.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from dataclasses import dataclass

from firmware_py.json_text import json_value
from firmware_py.words import moment

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, rounds INTEGER NOT NULL, created TEXT NOT NULL,
    ended TEXT, towers TEXT NOT NULL DEFAULT '[]'
);
CREATE TABLE IF NOT EXISTS entrants (
    tournament INTEGER NOT NULL, name TEXT NOT NULL, computer TEXT, left_after INTEGER,
    PRIMARY KEY (tournament, name)
);
CREATE TABLE IF NOT EXISTS seatings (
    tournament INTEGER NOT NULL, round INTEGER NOT NULL, tower TEXT NOT NULL,
    players TEXT NOT NULL, drawn TEXT NOT NULL, started TEXT,
    PRIMARY KEY (tournament, round, tower)
);
CREATE TABLE IF NOT EXISTS round_games (
    tournament INTEGER NOT NULL, round INTEGER NOT NULL, tower TEXT NOT NULL, game TEXT NOT NULL,
    scores TEXT NOT NULL, PRIMARY KEY (tournament, round, tower)
);
"""


MAX_ROUNDS = 10  # a tournament's rounds, at most
ROUNDS = range(1, MAX_ROUNDS + 1)  # a round's number, or a tournament's rounds
TIME = "a time"  # a column's kind: a time as the league writes it (ISO 8601)
# What the league writes in the tournament's tables, column by column (None: NULL); players,
# scores and towers, JSON texts, are read as far as they can be where they are used, not here
KINDS: dict[str, dict[str, tuple[object, ...]]] = {
    "tournaments": {"id": (int,), "name": (str,), "rounds": (ROUNDS,), "created": (TIME,),
                    "ended": (TIME, None)},
    "entrants": {"tournament": (int,), "name": (str,), "computer": (str, None),
                 "left_after": (int, None)},
    "seatings": {"tournament": (int,), "round": (ROUNDS,), "tower": (str,), "drawn": (TIME,),
                 "started": (TIME, None)},
    "round_games": {"tournament": (int,), "round": (ROUNDS,), "tower": (str,), "game": (str,)},
}  # fmt: skip


@dataclass(frozen=True)
class Entrant:
    """A player entered: their name, the level a computer plays at (None: a person), and
    the last round they play when they left (None: still in)."""

    name: str
    computer: str | None = None
    left_after: int | None = None


@dataclass(frozen=True)
class RoundTable:
    """One tower's table in one round: who was drawn there, when, when it was started, and
    the scores of its game once reported (name: score, only of those drawn who played)."""

    tower: str
    players: tuple[str, ...]
    drawn: str
    started: str | None
    game: str | None = None
    scores: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Header:
    """A tournament: its name, rounds, when it was created and ended, and the towers its
    tables are drawn at (none named: every tower on the bus)."""

    id: int
    name: str
    rounds: int
    created: str
    ended: str | None
    towers_named: str = "[]"  # JSON

    @property
    def towers(self) -> list[str]:
        """(Names changed in the file into something else: none, every tower on the bus, as
        the page then says.)"""
        return list(_names(self.towers_named) or ())


class TournamentStore:
    """The tournaments' tables in the league's file (`db`: its connection)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db  # (its tables made, with the league's others, by store.Store)

    def unreadable(self) -> str | None:
        """The first value in the tournament's tables of a kind the league does not write
        there (a file edited by hand, or damaged on the card past SQLite's own checks), in a
        few words; None when every one is as written. Read at the start: such a file is set
        aside as damaged, and the tournament restored from its signed record on the broker."""
        for table, kinds in KINDS.items():
            for row in self.db.execute(f"SELECT {', '.join(kinds)} FROM {table}"):  # (our names)
                for (column, allowed), value in zip(kinds.items(), row, strict=True):
                    if not any(_is(value, kind) for kind in allowed):
                        return f"the {column} of a row of {table} is {_shown(value)}"
        return None

    def current(self) -> Header | None:
        """The latest tournament (ended or not), None before the first."""
        row = self.db.execute("SELECT * FROM tournaments ORDER BY id DESC LIMIT 1").fetchone()
        return Header(*row) if row else None

    def create(self, name: str, rounds: int, created: str, entrants: list[Entrant],
               towers: list[str]) -> int:  # fmt: skip
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            cursor = self.db.execute(
                "INSERT INTO tournaments (name, rounds, created, towers) VALUES (?, ?, ?, ?)",
                (name, rounds, created, json.dumps(towers)),
            )
            number = int(cursor.lastrowid or 0)
            self.db.executemany(
                "INSERT INTO entrants VALUES (?, ?, ?, NULL)",
                [(number, one.name, one.computer) for one in entrants],
            )
        return number

    def end(self, tournament: int, when: str) -> None:
        self.db.execute("UPDATE tournaments SET ended = ? WHERE id = ?", (when, tournament))

    def entrants(self, tournament: int) -> list[Entrant]:
        rows = self.db.execute(
            "SELECT name, computer, left_after FROM entrants WHERE tournament = ? ORDER BY name",
            (tournament,),
        )
        return [Entrant(*row) for row in rows]

    def leave(self, tournament: int, name: str, after: int) -> bool:
        cursor = self.db.execute(
            "UPDATE entrants SET left_after = ? WHERE tournament = ? AND name = ? "
            "AND left_after IS NULL",
            (after, tournament, name),
        )
        return cursor.rowcount == 1

    def seat(self, tournament: int, round_: int, seating: dict[str, tuple[str, ...]],
             drawn: str) -> None:  # fmt: skip
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany(
                "INSERT INTO seatings VALUES (?, ?, ?, ?, ?, NULL)",
                [(tournament, round_, tower, json.dumps(players), drawn)
                 for tower, players in seating.items()],
            )  # fmt: skip

    def start(self, tournament: int, round_: int, when: str) -> None:
        self.db.execute(
            "UPDATE seatings SET started = ? WHERE tournament = ? AND round = ? "
            "AND started IS NULL",
            (when, tournament, round_),
        )

    def keep_game(self, tournament: int, round_: int, tower: str, game: str,
                  scores: dict[str, int]) -> bool:  # fmt: skip
        """The table's game for the round; False when one is kept already (the first counts)."""
        cursor = self.db.execute(
            "INSERT OR IGNORE INTO round_games VALUES (?, ?, ?, ?, ?)",
            (tournament, round_, tower, game, json.dumps(scores)),
        )
        return cursor.rowcount == 1

    def tables(self, tournament: int, only: int | None = None) -> dict[int, list[RoundTable]]:
        """Every round's tables (or round `only`'s), by round."""
        rows = self.db.execute(
            "SELECT s.round, s.tower, s.players, s.drawn, s.started, g.game, g.scores "
            "FROM seatings s LEFT JOIN round_games g ON g.tournament = s.tournament "
            "AND g.round = s.round AND g.tower = s.tower WHERE s.tournament = ? "
            "AND (? IS NULL OR s.round = ?) ORDER BY s.round, s.tower",
            (tournament, only, only),
        )
        rounds: dict[int, list[RoundTable]] = {}
        for round_, tower, players, drawn, started, game, scores in rows:
            seated, kept = _names(players), _scores(scores) if scores is not None else ()
            if seated is None or kept is None:
                log.warning("round %r at tower %r in the league's file cannot be read: shown "
                            "without its %s", round_, tower,
                            "players" if seated is None else "scores")  # fmt: skip
            table = RoundTable(tower, seated or (), drawn, started, game, kept or ())
            rounds.setdefault(round_, []).append(table)
        return rounds


def _is(value: object, kind: object) -> bool:
    if kind is TIME:
        return moment(value) is not None
    if isinstance(kind, range):
        return type(value) is int and value in kind
    return value is None if kind is None else type(value) is kind


def _shown(value: object) -> str:
    """A value as the log says it: its kind, and a few of its characters."""
    return f"{type(value).__name__} {str(value)[:20]!r}"


def _json(text: object) -> object:
    """A JSON column's value as the league wrote it; None for a value changed (by hand, or
    damaged on the card) into one that is no JSON text."""
    if not isinstance(text, str):
        return None
    try:
        return json_value(text)
    except ValueError:
        return None


def _names(text: object) -> tuple[str, ...] | None:
    value = _json(text)
    if isinstance(value, list) and all(isinstance(name, str) for name in value):
        return tuple(value)
    return None


def _scores(text: object) -> tuple[tuple[str, int], ...] | None:
    value = _json(text)
    if isinstance(value, dict) and all(type(score) is int for score in value.values()):
        return tuple(value.items())
    return None
