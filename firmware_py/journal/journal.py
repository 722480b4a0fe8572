"""The journal: every accepted event on disk before anyone is told it happened.

One game log (docs/game-log.md) per game in the state directory, named by game number
(``game-000001.jsonl``). Each event is written, flushed and fsynced before `append` returns, so
an acknowledged mark survives a pulled plug. A power cut can tear only the last line; opening
the game again drops that torn line (the event was never acknowledged) and carries on.

A game given up before its end (a new game started from the menu) keeps its log unchanged (the
game-log format has no such event); an empty marker file beside it (``game-000001.abandoned``)
says so, and an abandoned game is never resumed. Likewise ``game-000001.seats.json`` says how
each player decides (pad, keyboard, computer), so a resumed game gives every seat back its kind.

Before a Longo game with pads starts, its players choose their lucky numbers; the game (and its
log) begins once all have them. Until then ``lucky-draft.json`` holds what is chosen so far, so a
restart in the middle of choosing loses none of it.

Nothing in the directory may keep the tower from starting. At start `tidy` removes a game file
left empty (the tower stopped between creating it and writing its start), and moves what cannot
be read (a log that does not replay, a directory where a file belongs) into ``quarantine/``
for inspection; what cannot be moved is left where it is and skipped. Game numbers count the
quarantined logs too, so a number is never given twice. A log moved or deleted while its game
is on is written again from what the game log holds (see `GameLog`).
"""

from __future__ import annotations

import json
import logging
import os
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

from firmware_py.errors import TowerError
from firmware_py.journal import disk
from firmware_py.journal.disk import QUARANTINE, SetAside, set_aside
from firmware_py.journal.lines import LogError, event_to_line, now, replay
from firmware_py.json_text import json_value
from firmware_py.rules import Event, Game, Start

log = logging.getLogger(__name__)

ABANDONED = ".abandoned"  # the suffix of the marker beside an abandoned game's log
SEATS = ".seats.json"  # the suffix of the note of how each player decides
DRAFT = "lucky-draft.json"  # lucky numbers chosen for a game that has not started yet
TABLE_SEATS = "table-seats.json"  # who sits at the table now, also between games
PHONE_TOKENS = "phone-tokens.json"  # which seat token opens which phone's seat (digests)
PROBE = ".write-test"  # a small file written (and removed) to see that saving works
PROBE_BYTES = 512  # about one event line
# A game's log is bounded but for undo: every turn its active player crosses a cell or takes
# a penalty, and both run out (the 4th penalty or the 2nd lock ends the game), so even five
# players on Longo write a few thousand lines, well under 1 MB. Undo may come back as often as
# a player likes; past UNDO_ROOM the game takes no more undo, so no log the tower writes
# outgrows GAME_LOG_MOST, the most a log may hold to be read back (a file of gigabytes, left
# by a damaged card, would fill the Pi's memory at every start).
UNDO_ROOM = 8_000_000  # bytes of log: some 60,000 marks taken back, hours of a phone's taps
GAME_LOG_MOST = 16_000_000  # bytes
NO_MORE_UNDO = "no more undo in this game: its log is full of marks taken back"
REWRITTEN = "the game log was moved or deleted: written again from the game so far"
REPLACED = "the game log was replaced or changed: kept in quarantine/ and written again"


class JournalError(TowerError):
    """The journal cannot be written or read (full disk, read-only, corrupt file)."""


class SeatLike(Protocol):
    """A seat as the notes beside a game log write it (the table's SeatSpec is one)."""

    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def pad(self) -> str: ...


@dataclass
class ResumedGame:
    """A game read back from its log: the state, and whether a torn last line was dropped."""

    path: Path
    game: Game
    events: int
    dropped_torn_line: bool
    requests: list[tuple[str, str]] = field(default_factory=list)  # answered, oldest first


class GameLog:
    """The open log of one game: appends are durable when they return.

    Before each append the log checks that its file is still the one it opened (device and
    inode) and as long as the log made it. If the file was deleted or moved away, the log
    writes it again at its path from the lines it holds (the whole game so far), then appends;
    a stranger file put in its place, or the file changed by something else, is first moved
    into quarantine/. So no event is written into a file nobody will read. A log
    that cannot be opened for writing (a read-only disk after a restart) is opened at the first
    append instead, which then fails with the reason."""

    def __init__(self, path: Path, *, new: bool = False) -> None:
        self.path = path
        self._fd = -1
        if new:  # a new game: never append to a file that is already there
            self._fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o644)
            self._lines = bytearray()
            self._identity = disk.identity(os.fstat(self._fd))
            self._size = 0
            return
        try:
            self._fd = os.open(path, os.O_RDWR | os.O_APPEND)
        except OSError as error:  # read-only for now: the first append tries again
            log.warning("%s cannot be opened for writing yet: %s", path.name, error.strerror)
            content = disk.read_regular(path, GAME_LOG_MOST)
            self._identity = disk.identity(os.stat(path))
        else:
            content = disk.read_all(self._fd, GAME_LOG_MOST)
            self._identity = disk.identity(os.fstat(self._fd))
        self._lines = bytearray(_without_torn_tail(content)[0])  # the game so far
        self._size = len(self._lines)
        self._cut_torn_tail()

    def append(
        self,
        event: Start | Event,
        requests: list[tuple[str, str]] | None = None,
        *,
        time: str | None = None,
    ) -> str | None:
        """Write one event (with the device requests it answers, and the moment it was
        recorded if `time` is given) and make it durable (fsync) before returning. A write
        that fails (a full disk) is cut back off, so the log never keeps half an event. Returns
        what the table should be told (the log was written again after it went missing), else
        None."""
        data = event_to_line(event, requests, time=time).encode("utf-8")
        try:
            notice = self._make_sure_of_the_file()
            disk.write_all(self._fd, data)
            os.fsync(self._fd)
        except OSError as error:
            self._cut_back()
            raise JournalError(
                f"cannot write the game log {self.path}: {error.strerror}"
            ) from error
        self._lines += data
        self._size = len(self._lines)
        return notice

    def room_for_undo(self) -> bool:
        """Whether an undo may still be written (UNDO_ROOM: the log stays readable)."""
        return self._size < UNDO_ROOM

    def lines(self) -> list[bytes]:
        """The game so far as the log holds it: its lines, each with its new line."""
        return bytes(self._lines).splitlines(keepends=True)

    def _make_sure_of_the_file(self) -> str | None:
        """The file at the path is the log's own, as the log left it, open for appending; else
        it is written again (a stranger in its place, or the file changed by something else,
        is set aside first). Returns the words for the table when it was written again."""
        here = disk.stat_of(self.path)
        if here is not None and disk.identity(here) == self._identity:
            if self._fd < 0:  # not opened yet (the disk was read-only)
                self._fd = os.open(self.path, os.O_RDWR | os.O_APPEND)
                self._cut_torn_tail()
                return None
            if here.st_size == self._size or not stat.S_ISREG(here.st_mode):
                return None
            why = "changed by something else while its game was on"
        else:
            why = "" if here is None else "replaced while its game was on"
        if why and set_aside(self.path, why).moved_to is None:
            raise JournalError("the game log was replaced and cannot be moved aside")
        words = REPLACED if why else REWRITTEN
        self._write_again()
        log.warning("%s: %s", self.path.name, words)
        return words

    def _write_again(self) -> None:
        """A fresh file at the path holding every line so far, durably (removed if it fails)."""
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o644)
        try:
            disk.write_all(fd, bytes(self._lines))
            os.fsync(fd)
            disk.fsync_directory(self.path.parent)
        except OSError:
            os.close(fd)
            disk.remove_quietly(self.path)
            raise
        self.close()
        self._fd = fd
        self._identity = disk.identity(os.fstat(fd))

    def _cut_torn_tail(self) -> None:
        """A last line torn by a power cut was never acknowledged: appends start after the
        last complete line (`read_game(repair=True)` does the same when it can write)."""
        if self._fd >= 0 and os.fstat(self._fd).st_size > self._size:
            self._cut_back()

    def _cut_back(self) -> None:
        if self._fd < 0:
            return
        try:
            os.ftruncate(self._fd, self._size)
        except OSError:
            log.warning("could not cut a failed write off %s", self.path)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> GameLog:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


class Journal:
    """The directory of game logs."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self._skipped: set[str] = set()  # unreadable files that could not be moved aside
        self._newest: int | None = None  # the highest game number used, once it is known
        self._current: Path | None = None  # the log of the game begun or carried on last
        self._names: list[str] | None = None  # the logs' names as last listed (`_log_list`)

    def begin(self, start: Start, requests: list[tuple[str, str]] | None = None) -> GameLog:
        """Create the next game's log and write its start event durably (with the requests of
        the lucky numbers chosen for it). A log whose start cannot be written is removed
        again: no empty game file is left behind."""
        self._names = None  # (a log is added)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            game_log = self._create_next()
            path = game_log.path
            disk.fsync_directory(self.directory)  # the new file's name survives a power cut too
        except OSError as error:
            raise JournalError(f"cannot create a game log in {self.directory}: {error}") from error
        try:
            game_log.append(start, requests, time=now())  # `history` shows when
        except JournalError:
            game_log.close()
            disk.remove_quietly(path)
            raise
        self._newest = number_of(path.name)
        self._current = path
        return game_log

    @property
    def current_game(self) -> Path | None:
        """The log of the game begun or carried on last (None before either): an output names
        the game on by it (the bus) without listing the directory."""
        return self._current

    def games(self) -> list[Path]:
        """Every game log, oldest first, readable or not. JournalError when the directory
        cannot be listed; none when it does not exist yet."""
        try:
            return _game_paths(self.directory)
        except OSError as error:
            raise JournalError(f"cannot read {self.directory}: {error.strerror}") from error

    def _newest_first(self) -> Iterator[Path]:
        """The game logs, newest first, as `games` but a path made only for those looked at
        (start-up looks at the newest of thousands). JournalError as `games`."""
        return (self.directory / name for name in reversed(self._log_list()))

    def _log_list(self) -> list[str]:
        """The game logs' names, oldest first: listed once, then kept until this journal
        changes the directory (the start asked for the newest log five times, and each
        listing of 10,000 logs cost it 10 ms here). JournalError as `games`."""
        if self._names is None:
            try:
                self._names = sorted(_log_names(self.directory))
            except OSError as error:
                raise JournalError(f"cannot read {self.directory}: {error.strerror}") from error
        return self._names

    def quarantined(self) -> list[Path]:
        """The game logs set aside in quarantine/, oldest first."""
        try:
            return _game_paths(self.directory / QUARANTINE)
        except OSError:
            return []

    def resume_latest(self) -> ResumedGame | None:
        """The newest game if it is unfinished and not abandoned, read back with a torn last
        line dropped. Older games are never resumed: a newer game superseded them, even one
        set aside in quarantine/. An empty file is no game (the tower stopped before its start
        was written)."""
        newest = next((path for path in self._newest_first() if not is_empty(path)), None)
        if newest is None or newest.name in self._skipped or is_abandoned(newest):
            return None
        if self._newest_number(self.quarantined()) > self._newest_number([newest]):
            return None
        resumed = read_game(newest, repair=True)
        if resumed.game.over:
            return None
        self._current = resumed.path
        return resumed

    def last_requests(self) -> list[tuple[str, str]]:
        """The device requests the newest game answered (finished or not), so that a request
        repeated after a restart is answered, not applied again; [] when there is none to read."""
        try:
            newest = next(self._newest_first(), None)
            return read_game(newest).requests if newest else []
        except (JournalError, OSError, ValueError):
            return []

    def tidy(self) -> list[SetAside]:
        """Make the directory safe to start from: remove the newest game files when left empty
        (only the newest can be: an older one that could not be removed is no game to history
        either, and looking at the size of every log cost start-up its time), and set aside
        what cannot be read: entries that are not files where files belong, and the newest
        game (the one a restart resumes) when it does not replay. Older logs are read only by
        `history`. Returns what was set aside."""
        self._newest = self._names = None  # the directory is looked at afresh, and its numbers
        try:
            entries = _our_entries(self.directory)
        except FileNotFoundError:  # a first start: nothing to tidy
            return []
        except OSError as error:  # unreadable: `probe` says so on the displays
            log.warning("nothing tidied in %s: %s", self.directory, error.strerror)
            return []
        found, logs = [], []
        for name, why in entries:
            if why:
                found.append(self._set_aside(self.directory / name, why))
            elif _is_log(name):
                logs.append(name)
        while logs and is_empty(self.directory / logs[-1]):  # no game: removed ...
            self._remove_empty(self.directory / logs[-1])
            if os.path.lexists(self.directory / logs[-1]):
                break  # (... and still a log if it cannot be)
            logs.pop()
        newest = next((n for n in reversed(logs) if n not in self._skipped), None)
        if newest is not None and not is_abandoned(self.directory / newest):
            try:
                read_game(self.directory / newest)
            except (JournalError, OSError) as error:
                reason = str(error).removeprefix(f"{newest}: ")
                found.append(self._set_aside(self.directory / newest, reason))
        self._names = None if found else logs  # (what it listed is the directory, if it moved none)
        return sorted(found, key=lambda entry: entry.name)

    def probe(self) -> None:
        """Raise JournalError unless saving works now: the directory exists (it is made if
        need be), can be listed, and takes a small file durably (written, fsynced, removed)."""
        path = self.directory / PROBE
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            with os.scandir(self.directory) as listing:
                next(listing, None)  # it can be listed (one entry read, not 10,000)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            try:
                disk.write_all(fd, b"\n" * PROBE_BYTES)
                os.fsync(fd)
            finally:
                os.close(fd)
                disk.remove_quietly(path)
        except OSError as error:
            raise JournalError(f"cannot save in {self.directory}: {error.strerror}") from error

    def _set_aside(self, path: Path, reason: str) -> SetAside:
        """`path` into quarantine/, with the notes beside it; skipped if it cannot be moved."""
        moved = set_aside(path, reason)
        self._names = None  # (the logs listed change)
        if moved.moved_to is None:
            self._skipped.add(path.name)
        elif number_of(path.name) is not None and path.suffix == ".jsonl":
            for note in (path.with_suffix(SEATS), path.with_suffix(ABANDONED)):
                if os.path.lexists(note):
                    set_aside(note, "the note of a game set aside")
        return moved

    def _remove_empty(self, path: Path) -> None:
        """A game file left empty: the tower stopped before writing its start. No game."""
        self._names = None  # (the logs listed change)
        try:
            path.unlink()
            disk.fsync_directory(self.directory)
        except OSError as error:
            log.warning("%s is empty and cannot be removed (%s): skipped", path.name, error)
            return
        log.info("removed %s: empty, the tower stopped before its game began", path.name)

    def abandon(self, path: Path) -> None:
        """Mark the game of `path` as given up, durably: it is never resumed."""
        marker = path.with_suffix(ABANDONED)
        try:
            fd = os.open(marker, os.O_WRONLY | os.O_CREAT, 0o644)
            os.fsync(fd)
            os.close(fd)
            disk.fsync_directory(path.parent)
        except OSError as error:
            raise JournalError(f"cannot mark {path.name} as abandoned: {error}") from error

    def note_seats(self, path: Path, seats: Iterable[SeatLike]) -> None:
        """Write down beside the game of `path` who sits where: each player's name, how they
        decide, and which pad holds their seat (SeatSpec-like: name, kind, pad), durably."""
        write_durably(path.with_suffix(SEATS), seat_records(seats))

    def note_table_seats(self, seats: Iterable[SeatLike]) -> None:
        """Write down, durably, who sits at the table now (as `note_seats`): between games too,
        so that a power cut between games keeps the seats that pads and phones joined."""
        self.directory.mkdir(parents=True, exist_ok=True)
        write_durably(self.directory / TABLE_SEATS, seat_records(seats))

    def noted_table_seats(self) -> list[dict[str, str]]:
        """The seats `note_table_seats` wrote last ([] without a note one can read)."""
        return _seat_list(self.directory / TABLE_SEATS)[0]

    def note_phone_tokens(self, tokens: dict[str, list[str]]) -> None:
        """Write down, durably, which seat tokens open which phone's seat: for each phone's
        device id, the digests of the token its phone holds and of the one just given to it
        (a power cut between the two keeps both good). JournalError if it cannot."""
        self.directory.mkdir(parents=True, exist_ok=True)
        write_durably(self.directory / PHONE_TOKENS, tokens)

    def noted_phone_tokens(self) -> dict[str, list[str]]:
        """What `note_phone_tokens` wrote last ({} without a note one can read)."""
        try:
            record = json_value(disk.read_regular(self.directory / PHONE_TOKENS))
        except (OSError, ValueError):
            return {}
        if not isinstance(record, dict) or not all(
            isinstance(digests, list) and all(isinstance(each, str) for each in digests)
            for digests in record.values()
        ):
            return {}
        return record

    def note_draft(
        self,
        variant: str,
        seats: Iterable[SeatLike],
        lucky: dict[str, list[int]],
        requests: list[tuple[str, str]] | None = None,
    ) -> None:
        """Write down, durably, the lucky numbers chosen so far for a game about to start: its
        variant, its seats (as `note_seats`), each player's numbers and the device requests
        that chose them. The note names the newest game log of the moment, so it can tell a
        later game has started since."""
        newest = next(self._newest_first(), None)
        record = {
            "variant": variant,
            "seats": seat_records(seats),
            "lucky": lucky,
            "after": newest.name if newest else None,
            "requests": [list(pair) for pair in requests or []],
        }
        self.directory.mkdir(parents=True, exist_ok=True)
        write_durably(self.directory / DRAFT, record)

    def noted_draft(self) -> dict[str, Any] | None:
        """The lucky numbers being chosen when the tower stopped, as `note_draft` wrote them;
        None if there is no such note, or a game has started since it was written."""
        try:
            record = json_value(disk.read_regular(self.directory / DRAFT))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as error:
            raise JournalError(f"cannot read {DRAFT}: {error}") from error
        if not isinstance(record, dict):
            raise JournalError(f"{DRAFT} holds no note of lucky numbers")
        newest = next(self._newest_first(), None)
        return record if record.get("after") == (newest.name if newest else None) else None

    def set_aside_draft(self, reason: str) -> None:
        """The note of lucky numbers does not add up: kept in quarantine/ for inspection."""
        path = self.directory / DRAFT
        if os.path.lexists(path) and set_aside(path, reason).moved_to is None:
            try:
                self.forget_draft()  # it cannot be kept: at least it is not read again
            except JournalError as error:
                log.warning("%s", error)

    def forget_draft(self) -> None:
        """The lucky numbers are in a game's start now (or given up): drop their note."""
        if not os.path.lexists(self.directory / DRAFT):
            return  # (a read-only disk refuses even to remove what is not there)
        try:
            (self.directory / DRAFT).unlink(missing_ok=True)
        except OSError as error:
            raise JournalError(f"cannot remove {DRAFT}: {error}") from error

    def _create_next(self) -> GameLog:
        """The next game's new, empty log. A file already there under its number (put there
        by someone else) is left alone: the numbers are counted again."""
        try:
            return GameLog(self._next_path(), new=True)
        except FileExistsError:
            self._newest = None
            return GameLog(self._next_path(), new=True)

    def _next_path(self) -> Path:
        return log_path(self.directory, self._next_number())

    def _next_number(self) -> int:
        """One more than any game number used, in the directory or in quarantine/. The
        directory is read once, then the journal counts on: listing thousands of logs at every
        new game costs time, and memory (pathlib interns every name it parses) that a kiosk
        running for years never gets back."""
        if self._newest is None:
            set_aside = self._newest_number(self.quarantined())  # (unreadable: none)
            self._newest = max(_newest_log_number(self.directory), set_aside)
        return self._newest + 1

    @staticmethod
    def _newest_number(paths: list[Path]) -> int:
        numbers = [number for number in (number_of(path.name) for path in paths) if number]
        return max(numbers, default=0)


def read_game(path: Path, *, repair: bool = False) -> ResumedGame:
    """Replay a game log. A last line cut short by a power cut is dropped (and, with `repair`,
    cut from the file so later appends start on a clean line); any other bad line (bytes that
    are not UTF-8 included) is a JournalError, and so is an entry that is not a file."""
    try:
        data = disk.read_regular(path, GAME_LOG_MOST)
    except OSError as error:
        raise JournalError(f"{path.name}: {error.strerror}") from error
    text, torn = _without_torn_tail(data)
    lines = text.splitlines(keepends=True)
    events: list[Start | Event] = []
    requests: list[tuple[str, str]] = []
    try:
        game = replay(lines, events, requests)
    except LogError as error:
        raise JournalError(f"{path.name}: {error}") from error
    if torn and repair:
        try:
            disk.truncate(path, len(text))
        except OSError as error:  # read-only: the game's GameLog cuts it when it can write
            log.warning("%s: cannot cut a torn last line off yet: %s", path.name, error)
        else:
            log.warning("%s: dropped a torn last line left by a power cut", path.name)
    return ResumedGame(path, game, len(events), torn, requests)


def noted_seats(path: Path) -> list[dict[str, str]]:
    """Who sat where in the game of `path`, as noted at its start: a list of {"name", "kind",
    "pad"}, and "level" for a computer seat with one ([] if there is no note, or it cannot be
    read)."""
    return read_noted_seats(path)[0]


def read_noted_seats(path: Path) -> tuple[list[dict[str, str]], str]:
    """`noted_seats`, and what is wrong with the note: "" when nothing, "is missing" or
    "cannot be read"."""
    return _seat_list(path.with_suffix(SEATS))


def _seat_list(path: Path) -> tuple[list[dict[str, str]], str]:
    """A note of seats read back ({"name", "kind", "pad"} each, and "level" where noted), and
    what is wrong with it: "" when nothing, "is missing" or "cannot be read"."""
    try:
        record = json_value(disk.read_regular(path))
    except FileNotFoundError:
        return [], "is missing"
    except (OSError, ValueError):
        return [], "cannot be read"
    keys = {"name", "kind", "pad"}
    if not isinstance(record, list) or not all(
        isinstance(seat, dict)
        and set(seat) in (keys, keys | {"level"})
        and all(isinstance(value, str) for value in seat.values())
        for seat in record
    ):
        return [], "cannot be read"
    return record, ""


def seat_records(seats: Iterable[SeatLike]) -> list[dict[str, str]]:
    """Seats (SeatSpec-like) as the notes write them; a level only where a seat has one."""
    records = []
    for seat in seats:
        record = {"name": seat.name, "kind": seat.kind, "pad": seat.pad}
        level = getattr(seat, "level", "")
        if level:
            record["level"] = level
        records.append(record)
    return records


def write_durably(path: Path, record: object) -> None:
    """Replace the JSON file `path` by `record` so that a power cut leaves the old or the new
    (the journal's notes, and the notes other stages keep beside them)."""
    fresh = path.with_suffix(".tmp")
    try:
        with open(fresh, "w") as file:
            json.dump(record, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(fresh, path)
        disk.fsync_directory(path.parent)
    except OSError as error:
        raise JournalError(f"cannot write {path.name}: {error}") from error


def is_abandoned(path: Path) -> bool:
    """True when the game of log `path` was given up before its end."""
    return path.with_suffix(ABANDONED).exists()


def _without_torn_tail(data: bytes) -> tuple[bytes, bool]:
    """The log up to its last complete line; a tail without a newline was never acknowledged.
    Lines stay bytes: `replay` names a line that is not UTF-8."""
    end = data.rfind(b"\n") + 1
    return data[:end], end < len(data)


def _game_paths(directory: Path) -> list[Path]:
    """The game logs in `directory` by name, oldest first (none if it does not exist). The
    names are sorted as strings (zero-padded numbers): sorting 10,000 Paths took seconds."""
    return [directory / name for name in sorted(_log_names(directory))]


def _newest_log_number(directory: Path) -> int:
    """The highest number of a game log in `directory` (0 if none, or if it does not exist),
    read from the names alone."""
    return max((number_of(name) or 0 for name in _log_names(directory)), default=0)


def _log_names(directory: Path) -> list[str]:
    """The names of the game logs in `directory` (none if it does not exist)."""
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        return []
    return [name for name in names if _is_log(name)]


def _our_entries(directory: Path) -> list[tuple[str, str]]:
    """The journal's entries in `directory` by name, each with why it cannot be one of its
    files ("" for a regular file). A regular file is told by the directory's listing alone: a
    tower keeps thousands of logs, and a look at each cost start-up 45 ms here (far more on a
    Pi's SD card before its cache is warm); only what is not one is looked at."""
    with os.scandir(directory) as listing:
        ours = sorted(
            (entry.name, "" if entry.is_file() else disk.not_a_file(entry.path))
            for entry in listing
            if _ours(entry.name)
        )
    return ours


def _ours(name: str) -> bool:
    """A name the journal writes: a game log, a game's note, the lucky numbers' note."""
    return name in (DRAFT, TABLE_SEATS, PHONE_TOKENS) or _NUMBERED.match(name) is not None


def _is_log(name: str) -> bool:
    """A game log's name (game-000012.jsonl), told without reading its number: start-up tells
    thousands of them."""
    return name.endswith(".jsonl") and _NUMBERED.match(name) is not None


def is_empty(path: Path) -> bool:
    """True for a game file the tower created but stopped before writing into: no game."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size == 0


_NUMBERED = re.compile(r"game-(\d+)(\.|$)")


def log_path(directory: Path, number: int) -> Path:
    """Where game `number`'s log is (game-000012.jsonl)."""
    return directory / f"game-{number:06d}.jsonl"


def number_of(name: str) -> int | None:
    """The game number a journal name carries (game-000012.jsonl, game-000012.seats.json)."""
    match = _NUMBERED.match(name)
    return int(match.group(1)) if match else None
