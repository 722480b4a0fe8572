"""The league: what each message from the towers changes. Results are kept (once) and rated,
availability says which towers are on the bus and which the league has not heard from yet,
and each table's state shows the game in progress. What is not a tower's message is counted
and ignored, never raised, and said in the log at most once a minute.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from firmware_py.journal.disk import set_aside
from firmware_py.league.clocks import offset
from firmware_py.league.incoming import TOWER, NotAResult, Result, number_in, read_result
from firmware_py.league.ratings import Ratings
from firmware_py.league.store import (
    WRITE_WAIT,
    DamagedFile,
    SavedRatings,
    Store,
    StoreError,
    is_damage,
)
from firmware_py.league.tables import TableNow, read_state
from firmware_py.league.tournament import Tournament
from firmware_py.league.tournament_record import RecordRefused
from firmware_py.league.tournament_store import TournamentStore

log = logging.getLogger(__name__)

REPORT_EVERY = 60.0  # seconds between two log lines of what was ignored
AVAILABILITY = ("online", "offline")
SAVE_EVERY = 500  # games rated between two saves of the ratings in the file
FILE_TROUBLE_AFTER = "the towers' games wait, and are asked for again every round"


@dataclass(frozen=True)
class Heard:
    """What a message asks of the bus part: the tower to ask for its journal (from a game
    number, 0 for all), if any. A tower that says "online" is asked for what the league may
    lack (all of it, the first time: a new tower, or a league file being rebuilt)."""

    resend_to: str | None = None
    resend_from: int = 0


NOTHING = Heard()


class League:
    """The store, the ratings over it, and the tables now."""

    def __init__(
        self,
        store: Store,
        prefix: str,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], datetime] = lambda: datetime.now(UTC),
    ):
        self.store = store
        self.levels = prefix.count("/") + 1  # of the prefix; then the tower, then the kind
        self.ratings = Ratings()
        self.saved = SavedRatings(store)
        self._rated_since_saved = 0
        self._start_ratings()
        self.tables: dict[str, TableNow] = {}
        self.wall = wall  # the league's own time, which the towers' clocks are held to
        self.clocks_ahead: dict[str, timedelta] = {}  # tower: its clock ahead of the league's
        self.tournament = Tournament(TournamentStore(store.db))
        self.players_changed = asyncio.Event()  # the towers' menus told again (players_bus)
        self.clock = clock
        self._last_ignored = ""
        self._reported = -REPORT_EVERY
        self._unreported = 0
        self.gaps: dict[str, int] = {}  # tower: the first game number of a gap results showed
        self.file_trouble = ""  # why the league's file cannot be written now, in words

    def _start_ratings(self) -> None:
        """From the ratings saved in the file and the games since, when they are still true;
        else every game rated again (100,000 games: most of a minute)."""
        saved = self.saved.load()
        if saved is None:
            self.ratings.replay(self.store.since(None))
            return
        self.ratings.restore(*saved)
        for game in self.store.since(saved[1]):
            self.ratings.add(game, self.store.since)

    def save_ratings(self) -> None:
        """Keep the ratings in the file (at the league's stop, and every SAVE_EVERY games)."""
        if self.ratings.last is not None:
            self.saved.save(self.ratings.players, self.ratings.last, self.ratings.rated)
        self._rated_since_saved = 0

    def take(self, topic: str, payload: bytes, *, retained: bool = False) -> Heard:
        """One message from the broker; what to ask of the towers because of it."""
        levels = topic.split("/")
        tower, kind = (levels[-2], levels[-1]) if len(levels) == self.levels + 2 else ("", "")
        try:
            if not TOWER.fullmatch(tower):
                raise NotAResult(f"{topic[:80]!r} is not a tower's topic")
            if kind == "result":
                return self._result(tower, payload)
            if kind == "availability":
                return self._availability(tower, payload)
            if kind == "state":
                return self._state(tower, payload, retained)
            raise NotAResult(f"{topic[:80]!r} is not a topic the league reads")
        except NotAResult as why:
            self._ignored(tower, why)
            return NOTHING
        except sqlite3.Error as error:  # another program holds the file, the disk is full
            self._not_written(error)
            return NOTHING

    def _not_written(self, error: sqlite3.Error) -> None:
        """A message the league's file could not take: an organiser's `sqlite3` mid-edit
        holds it past the second a write waits (WRITE_WAIT), or the disk is full. Nothing of
        it is kept (a write is one transaction); every `catch_up` round asks each tower again
        from its newest game kept, so the game comes again once the file can be written. Said
        once a spell in the log, and on the page (`file_trouble`). Until a write succeeds, the
        next ones do not wait: the towers' messages waiting a second each, in the one thread
        the page shares, kept the page from answering for as long as the file was held."""
        words = f"the league's file cannot be written now ({error}): {FILE_TROUBLE_AFTER}"
        if not self.file_trouble:
            log.warning("%s", words)
            self.store.wait_for_others(0)
        self.file_trouble = words

    def _written(self) -> None:
        if self.file_trouble:
            log.warning("the league's file is written again")
            self.store.wait_for_others(WRITE_WAIT)
        self.file_trouble = ""

    def _result(self, tower: str, payload: bytes) -> Heard:
        result = read_result(tower, payload)
        if not self.store.tower_seen(tower, online=self.store.towers().get(tower, True)):
            raise NotAResult(f"tower {tower!r} is one too many: the league keeps 256")
        self.tournament.take(result, payload)  # (again for a copy: the first one counts)
        self._note_gap(result)
        added = self.store.add(result)
        self._written()
        if not added:
            self.store.count("duplicate")
            return NOTHING
        self.ratings.add(result, self.store.since)
        self.players_changed.set()
        self._rated_since_saved += 1
        if self._rated_since_saved >= SAVE_EVERY:
            self.save_ratings()
        return NOTHING

    def _availability(self, tower: str, payload: bytes) -> Heard:
        if not payload:  # its retained topics emptied: the tower left the bus (no [mqtt])
            if tower in self.store.towers():
                self.store.tower_seen(tower, online=False)
            return self._off_the_bus(tower)
        words = payload.decode("utf-8", "replace")
        if words not in AVAILABILITY:
            raise NotAResult(f"availability {words[:20]!r} is neither online nor offline")
        if not self.store.tower_seen(tower, online=words == "online"):
            raise NotAResult(f"tower {tower!r} is one too many: the league keeps 256")
        if words == "offline":
            return self._off_the_bus(tower)
        self.players_changed.set()  # (a tower new to the league is told the players)
        return Heard(resend_to=tower, resend_from=self.resend_from().get(tower, 0))

    def _off_the_bus(self, tower: str) -> Heard:
        """A tower gone from the bus has no game in progress on the page, nor a clock."""
        self.tables.pop(tower, None)
        self.clocks_ahead.pop(tower, None)
        return NOTHING

    def _state(self, tower: str, payload: bytes, retained: bool) -> Heard:
        if not payload:  # its retained state emptied (the tower left the bus): no game shown
            self.tables.pop(tower, None)
            return NOTHING
        if tower not in self.store.towers():
            if retained:
                return NOTHING  # an old tower's last words, or one not heard from yet
            raise NotAResult(f"state of tower {tower!r}, which never said it is online")
        state = read_state(payload)
        if not retained:  # as the tower sent it now: its time against the league's
            self._clock_heard(tower, state)
        self.tables[tower] = state
        return NOTHING

    def _clock_heard(self, tower: str, state: TableNow) -> None:
        """How far the tower's clock is from the league's, from a state it sent just now (one
        the broker kept may be hours old); NotAResult for a time that is no time."""
        if state.clock is None:
            self.clocks_ahead.pop(tower, None)
        else:
            self.clocks_ahead[tower] = offset(state.clock, self.wall())

    def take_record(self, payload: bytes) -> None:
        """The tournament's record, retained on the broker: read back into an emptied file."""
        if not payload:
            return  # (none kept there)
        try:
            if self.tournament.read_back(payload):
                log.info("the tournament was read back from its record on the broker")
        except sqlite3.Error as error:  # read back at the next connection, when it is heard again
            self._not_written(error)
        except RecordRefused as why:
            self.store.count("malformed")
            log.warning("the tournament's record on the broker is refused: %s", why)
            self.tournament.record_sent = None  # (a forged one took its place: sent again)
            self.tournament.changed.set()

    def _ignored(self, tower: str, why: NotAResult) -> None:
        self.store.count("malformed")
        self._unreported += 1
        self._last_ignored = f"{tower[:32] or '?'}: {why}"[:200]
        now = self.clock()
        if now - self._reported >= REPORT_EVERY:
            log.warning("messages from the bus ignored: %d since the last such line (the last "
                        "from %s)", self._unreported, self._last_ignored)  # fmt: skip
            self._reported, self._unreported = now, 0

    def resend_from(self) -> dict[str, int]:
        """For each tower heard of, the first game number the league may lack: after the
        newest it keeps (a result acknowledged by the broker but never delivered, when the
        broker restarted, comes after it), or a gap before it that a result showed."""
        newest = self.store.newest_numbers()
        asks = {tower: number + 1 if number else 0 for tower, number in newest.items()}
        return asks | {tower: first for tower, first in self.gaps.items() if tower in asks}

    def asked_again(self) -> dict[str, int]:
        """`resend_from`, for a round of asking every tower: each gap is asked for once (a
        result after it that comes again shows it again if it is still open)."""
        asks = self.resend_from()
        self.gaps.clear()
        return asks

    def _note_gap(self, result: Result) -> None:
        """A result whose previous game the league does not keep: a result dropped on the
        way (a broker whose queue for the league overflowed drops the newest of a burst, and
        the next game's result may come before the league asks again). Asked for at the next
        round, from the game after the newest kept before it."""
        if result.previous is None or self.store.has(result.previous):
            return
        first = self.store.newest_number_below(result.tower, number_in(result.previous)) + 1
        self.gaps[result.tower] = min(first, self.gaps.get(result.tower, first))


def open_league(database: Path, prefix: str) -> League:
    """The league over its file, read whole at its start (the ratings, every game, the
    tournament). A damaged file (a power cut on the card, a file edited by hand) is set aside
    in quarantine/ beside it and a new one begun, which the towers fill again from their
    journals as after --rebuild: the file is a cache, and nobody at a café should have to
    delete it for the league to start. StoreError, in words, when no file can be had there."""
    try:
        return _league_over(database, prefix)
    except DamagedFile as damage:
        for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
            if path.exists():
                set_aside(path, str(damage))
        log.warning("%s: a new file is begun; every tower heard of fills it again", damage)
        return _league_over(database, prefix)  # (a file that could not be moved: said)


def _league_over(database: Path, prefix: str) -> League:
    """The league over the file as it is; DamagedFile when SQLite finds it damaged (checked
    now, not by a page drawn later in the evening)."""
    store = Store(database)
    try:
        damage = store.db.execute("PRAGMA integrity_check").fetchone()[0]
        if damage != "ok":
            raise sqlite3.DatabaseError(damage.splitlines()[-1])  # one problem, one line
        unreadable = TournamentStore(store.db).unreadable()
        if unreadable is not None:
            raise sqlite3.DatabaseError(unreadable)
        return League(store, prefix)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as error:
        store.close()
        if not is_damage(error):  # (another league holding the file is no damage to it)
            raise StoreError(f"the league's file {database} cannot be used: {error}") from error
        raise DamagedFile.of(database, error) from error
