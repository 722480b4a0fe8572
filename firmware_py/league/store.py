"""The league on disk: one SQLite file holding every distinct result the towers published, the
towers heard of, and what was ignored. It is a cache: deleted, it is filled again by asking
each tower for its journal (`qwixx-tower league --rebuild`, docs/league.md).

A result is kept once, by its game's id (`INSERT OR IGNORE`): a second copy, from at-least-once
delivery or a tower asked to publish again, changes nothing and is counted as a duplicate. Each
result is committed before the broker is told the league has it, so a league killed at any
moment loses nothing: the broker delivers again what was not acknowledged.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path

from firmware_py.errors import TowerError
from firmware_py.json_text import json_value
from firmware_py.league import tournament_store
from firmware_py.league.identity import KEYS, named, player_key
from firmware_py.league.incoming import Placing, Result
from firmware_py.league.ratings import Order, Standing
from firmware_py.league.schema import make_tables

log = logging.getLogger(__name__)

WRITE_WAIT = 1.0  # seconds a write waits for another program's (an organiser's sqlite3) to end
MAX_TOWERS = 256  # towers the league keeps: a device inventing towers cannot fill the disk
NAMED = "WHERE typeof(tower) = 'text'"  # (a tower's name edited into bytes or NULL: left out)

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, tower TEXT NOT NULL, number INTEGER NOT NULL, variant TEXT NOT NULL,
    started TEXT NOT NULL, finished TEXT NOT NULL, reason TEXT NOT NULL, players TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_in_order ON games (finished, started, id);
CREATE INDEX IF NOT EXISTS games_of_tower ON games (tower, number);
CREATE INDEX IF NOT EXISTS games_of_tower_begun ON games (tower, started, finished, number);
CREATE TABLE IF NOT EXISTS placings (
    game TEXT NOT NULL REFERENCES games (id), player TEXT NOT NULL, name TEXT NOT NULL,
    score INTEGER NOT NULL, place INTEGER NOT NULL, PRIMARY KEY (game, player)
);
CREATE INDEX IF NOT EXISTS placings_of_player ON placings (player);
CREATE TABLE IF NOT EXISTS towers (tower TEXT PRIMARY KEY, online INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS counts (what TEXT PRIMARY KEY, count INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ratings (
    key TEXT PRIMARY KEY, name TEXT NOT NULL, kind TEXT, mu REAL NOT NULL, sigma REAL NOT NULL,
    games INTEGER NOT NULL, wins INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS rated (one INTEGER PRIMARY KEY CHECK (one = 1), last TEXT NOT NULL,
                                  games INTEGER NOT NULL);
"""
TABLES = (SCHEMA, tournament_store.SCHEMA)  # every table in the league's file, made here


class StoreError(TowerError):
    """The league's file cannot be opened or written (said with the file and why)."""


class DamagedFile(StoreError):
    """The league's file is there but damaged, not merely out of reach just now."""

    @classmethod
    def of(cls, path: Path, why: object) -> DamagedFile:
        return cls(f"the league's file {path} is damaged ({why})")


# SQLite's result codes of a file that cannot be had just now or here, not one that is damaged
NOT_DAMAGE = {sqlite3.SQLITE_PERM, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED,
              sqlite3.SQLITE_NOMEM, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_IOERR,
              sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_AUTH}  # fmt: skip


def is_damage(error: BaseException) -> bool:
    """`error` says the file itself is damaged: bytes that are no SQLite file, a page or an
    index broken, a schema edited past reading, text that is no text."""
    if isinstance(error, UnicodeDecodeError):
        return True
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.DatabaseError) and (
        code is None or code & 0xFF not in NOT_DAMAGE
    )


class Store:
    """The SQLite file at `path` (made when missing)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._towers: dict[str, bool] | None = None  # read once, then kept up to date
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(path, isolation_level=None, timeout=WRITE_WAIT)
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"the league's file {path} cannot be used: {error}") from error
        try:
            self._prepared()
        except (sqlite3.Error, UnicodeDecodeError) as error:  # (the last: a damaged file)
            self.db.close()  # (not left holding the file's locks)
            if is_damage(error):
                raise DamagedFile.of(path, error) from error
            raise StoreError(f"the league's file {path} cannot be used: {error}") from error

    def _prepared(self) -> None:
        self.db.text_factory = _text  # a name damaged on the card is read, not a page lost
        self.db.execute("PRAGMA journal_mode=WAL")
        # A commit survives the league's process killed at any moment (the write-ahead log is
        # in the system's cache); a power cut may take the last ones, which the league asks the
        # towers for again at its next connection (newest game number kept + 1).
        self.db.execute("PRAGMA synchronous=NORMAL")
        make_tables(self.db, TABLES)  # (a file whose tables are not as these make them: damaged)
        self._keys_made_anew()

    def close(self) -> None:
        self.db.close()

    def wait_for_others(self, seconds: float) -> None:
        """How long the next writes wait for another program's write to end (SQLite's busy
        timeout): the page and the bus share the league's one thread, which waits with it."""
        self.db.execute(f"PRAGMA busy_timeout = {round(seconds * 1000)}")

    def _keys_made_anew(self) -> None:
        """A file whose players' keys were made another way (`identity.KEYS`, kept as the
        file's user_version) gets them made again from its games, and its saved ratings are
        dropped (the league rates every game again once, at this start)."""
        if self.db.execute("PRAGMA user_version").fetchone()[0] == KEYS:
            return
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("DELETE FROM placings")
            for result in _readable(self.db.execute("SELECT * FROM games").fetchall()):
                self._place(result)
            self.db.execute("DELETE FROM ratings")
            self.db.execute("DELETE FROM rated")
            self.db.execute(f"PRAGMA user_version = {KEYS}")

    def add(self, result: Result) -> bool:
        """Keep a result; False (nothing changed) when its game is already kept."""
        players = json.dumps([vars(player) for player in result.players])
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            cursor = self.db.execute(
                "INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (result.id, result.tower, result.number, result.variant, result.started or "",
                 result.finished or "", result.reason, players),
            )  # fmt: skip
            if cursor.rowcount == 0:
                return False
            self._place(result)
        return True

    def _place(self, result: Result) -> None:
        """Each player's placing in a game kept, by their key (their page's games)."""
        self.db.executemany(
            "INSERT OR IGNORE INTO placings VALUES (?, ?, ?, ?, ?)",
            [(result.id, player_key(one), one.name, one.score, one.place)
             for one in result.players if named(one)],
        )  # fmt: skip

    def since(self, after: Order | None) -> Iterator[Result]:
        """Every game after `after` (all for None) in the evening's order."""
        query = "SELECT * FROM games"
        if after is None:
            rows = self.db.execute(f"{query} ORDER BY finished, started, id")
        else:
            rows = self.db.execute(
                f"{query} WHERE (finished, started, id) > (?, ?, ?) ORDER BY finished, started, id",
                after,
            )
        yield from _readable(rows)

    def count(self, what: str, by: int = 1) -> None:
        """Add to a count of what the league ignored or dropped ("malformed", "duplicate")."""
        self.db.execute(
            "INSERT INTO counts VALUES (?, ?) ON CONFLICT (what) DO UPDATE SET count = count + ?",
            (what, by, by),
        )

    def counts(self) -> dict[str, int]:
        return dict(self.db.execute("SELECT what, count FROM counts").fetchall())

    def games(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM games").fetchone()[0])

    def tower_seen(self, tower: str, online: bool) -> bool:
        """Note a tower (and whether it is on the bus); False when it is new but the league
        already keeps MAX_TOWERS."""
        towers = self.towers()
        if towers.get(tower) == online:
            return True
        if tower not in towers and len(towers) >= MAX_TOWERS:
            return False
        towers[tower] = online
        self.db.execute(
            "INSERT INTO towers VALUES (?, ?) ON CONFLICT (tower) DO UPDATE SET online = ?",
            (tower, online, online),
        )
        return True

    def towers(self) -> dict[str, bool]:
        """Every tower heard of, and whether it is on the bus (by name)."""
        if self._towers is None:
            rows = self.db.execute(f"SELECT tower, online FROM towers {NAMED} ORDER BY tower")
            self._towers = {tower: bool(online) for tower, online in rows}
        return self._towers

    def has(self, game_id: str) -> bool:
        """The game of `game_id` is kept."""
        found = self.db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone()
        return found is not None

    def newest_number_below(self, tower: str, number: int) -> int:
        """The highest number below `number` of a game of `tower` kept (0: none)."""
        found = self.db.execute(
            "SELECT max(number) FROM games WHERE tower = ? AND number < ?", (tower, number)
        ).fetchone()
        return int(found[0] or 0)

    def newest_numbers(self) -> dict[str, int]:
        """Each tower's newest game kept, by when it began: its number (towers without a
        game: 0). Not the highest number: a tower whose journal was emptied (a new SD card)
        numbers from 1 again, and its newest games are those of the new card."""
        rows = self.db.execute(
            "SELECT tower, coalesce((SELECT number FROM games WHERE games.tower = towers.tower "
            "AND typeof(number) = 'integer' "  # (a number edited into text counts from nothing)
            f"ORDER BY started DESC, finished DESC, number DESC LIMIT 1), 0) FROM towers {NAMED}"
        )
        return dict(rows.fetchall())

    def latest(self, limit: int, player: str | None = None, since: str = "") -> list[Result]:
        """The games that ended last (after `since`, an ISO time), the latest first; only
        `player`'s with a key."""
        if player is None:
            rows = self.db.execute(
                "SELECT * FROM games WHERE finished >= ? "
                "ORDER BY finished DESC, started DESC, id DESC LIMIT ?",
                (since, limit),
            )
        else:
            rows = self.db.execute(
                "SELECT games.* FROM placings JOIN games ON games.id = placings.game "
                "WHERE placings.player = ? AND finished >= ? "
                "ORDER BY finished DESC, started DESC, id DESC LIMIT ?",
                (player, since, limit),
            )
        return list(_readable(rows))


class SavedRatings:
    """The ratings as last saved in the file (`Store.save_ratings`), to start from rather than
    rate every game again: worth it only while every game up to `last` is one they counted."""

    def __init__(self, store: Store) -> None:
        self.db = store.db

    def save(self, players: dict[str, Standing], last: Order, rated: int) -> None:
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("DELETE FROM ratings")
            self.db.executemany(
                "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(one.key, one.name, one.kind, one.mu, one.sigma, one.games, one.wins)
                 for one in players.values()],
            )  # fmt: skip
            noted = (json.dumps(last), rated)
            self.db.execute("INSERT OR REPLACE INTO rated VALUES (1, ?, ?)", noted)

    def load(self) -> tuple[dict[str, Standing], Order, int] | None:
        """The saved ratings, their last game's order and how many games they counted; None
        when none were saved, or when a game has come since that ends before their last."""
        row = self.db.execute("SELECT last, games FROM rated").fetchone()
        if row is None:
            return None
        try:  # (a row changed by hand: the ratings are made again from the games)
            last, rated = tuple(json_value(row[0])), int(row[1])
            counted = self.db.execute(
                "SELECT count(*) FROM games WHERE (finished, started, id) <= (?, ?, ?)", last
            ).fetchone()[0]
        except (ValueError, TypeError, sqlite3.ProgrammingError):
            return None
        if counted != rated:
            return None
        rows = self.db.execute("SELECT key, name, kind, mu, sigma, games, wins FROM ratings")
        players = {row[0]: Standing(*row) for row in rows}
        if not all(map(_as_saved, players.values())):
            return None  # (likewise)
        return players, (last[0], last[1], last[2]), rated


def _as_saved(one: Standing) -> bool:
    """Each value of the standing is of the kind the league saved (not text where a number
    goes, bytes where a name goes, NULL where a key goes)."""
    named = all(isinstance(text, str) for text in (one.key, one.name, one.kind or ""))
    rated = isinstance(one.mu, float) and isinstance(one.sigma, float)
    return named and rated and type(one.games) is int and type(one.wins) is int


def _text(data: bytes) -> str:
    """A text value as SQLite hands it over: UTF-8, bytes that are not read as U+FFFD."""
    return data.decode("utf-8", "replace")


def _readable(rows: Iterable[tuple[str, str, int, str, str, str, str, str]]) -> Iterator[Result]:
    """The games of `rows`; one whose row was changed (by hand, or damaged) into one the league
    cannot read is left out and said in the log, not the games beside it."""
    for row in rows:
        try:
            yield _result(row)
        except (ValueError, TypeError) as error:
            log.warning("game %r in the league's file cannot be read (%s): left out", row[0], error)


def _result(row: tuple[str, str, int, str, str, str, str, str]) -> Result:
    game_id, tower, number, variant, started, finished, reason, players = row
    if type(number) is not int or not all(
        isinstance(text, str) for text in (game_id, tower, variant, started, finished, reason)
    ):
        raise TypeError("a value is not of its column's kind")
    return Result(
        id=game_id,
        tower=tower,
        number=number,
        variant=variant,
        started=started or None,
        finished=finished or None,
        reason=reason,
        players=tuple(Placing(**player) for player in json_value(players)),
    )
