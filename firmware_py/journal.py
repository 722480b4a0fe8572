"""The journal: every accepted event on disk before anyone is told it happened.

One game log (shared/spec/game-log.md) per game in the state directory, named by game number
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
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from firmware_py.gamelog import LogError, event_to_line, now, replay
from firmware_py.rules import Game, Mark, Pass, Start, Undo

log = logging.getLogger(__name__)

GAME_GLOB = "game-*.jsonl"
ABANDONED = ".abandoned"  # the suffix of the marker beside an abandoned game's log
SEATS = ".seats.json"  # the suffix of the note of how each player decides
DRAFT = "lucky-draft.json"  # lucky numbers chosen for a game that has not started yet


class JournalError(Exception):
    """The journal cannot be written or read (full disk, read-only, corrupt file)."""


@dataclass
class ResumedGame:
    """A game read back from its log: the state, and whether a torn last line was dropped."""

    path: Path
    game: Game
    events: int
    dropped_torn_line: bool
    last_decisions: dict = field(default_factory=dict)  # player -> their last Mark/Pass/Undo


class GameLog:
    """The open log of one game: appends are durable when they return."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self._size = os.fstat(self._fd).st_size

    def append(self, event, *, time: str | None = None) -> None:
        """Write one event (with the moment it was recorded, if `time` is given) and make it
        durable (fsync) before returning. A write that fails (a full disk) is cut back off,
        so the log never keeps half an event."""
        data = event_to_line(event, time=time).encode("utf-8")
        try:
            _write_all(self._fd, data)
            os.fsync(self._fd)
        except OSError as error:
            self._cut_back()
            raise JournalError(
                f"cannot write the game log {self.path}: {error.strerror}"
            ) from error
        self._size += len(data)

    def _cut_back(self) -> None:
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

    def __exit__(self, *exc) -> None:
        self.close()


class Journal:
    """The directory of game logs."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)

    def begin(self, start: Start) -> GameLog:
        """Create the next game's log and write its start event durably."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            path = self.directory / f"game-{self._next_number():06d}.jsonl"
            game_log = GameLog(path)
            _fsync_directory(self.directory)  # the new file's name survives a power cut too
        except OSError as error:
            raise JournalError(f"cannot create a game log in {self.directory}: {error}") from error
        game_log.append(start, time=now())  # when the game began: `history` shows it
        return game_log

    def games(self) -> list[Path]:
        """Every game log, oldest first."""
        return sorted(self.directory.glob(GAME_GLOB))

    def resume_latest(self) -> ResumedGame | None:
        """The newest game if it is unfinished and not abandoned, read back with a torn last
        line dropped. Older games are never resumed: a newer game superseded them."""
        games = self.games()
        if not games or is_abandoned(games[-1]):
            return None
        resumed = read_game(games[-1], repair=True)
        return None if resumed.game.over else resumed

    def abandon(self, path: Path) -> None:
        """Mark the game of `path` as given up, durably: it is never resumed."""
        marker = path.with_suffix(ABANDONED)
        try:
            fd = os.open(marker, os.O_WRONLY | os.O_CREAT, 0o644)
            os.fsync(fd)
            os.close(fd)
            _fsync_directory(path.parent)
        except OSError as error:
            raise JournalError(f"cannot mark {path.name} as abandoned: {error}") from error

    def note_seats(self, path: Path, seats) -> None:
        """Write down beside the game of `path` who sits where: each player's name, how they
        decide, and which pad holds their seat (SeatSpec-like: name, kind, pad), durably."""
        _write_durably(path.with_suffix(SEATS), seat_records(seats))

    def note_draft(self, variant: str, seats, lucky: dict[str, list[int]]) -> None:
        """Write down, durably, the lucky numbers chosen so far for a game about to start: its
        variant, its seats (as `note_seats`) and each player's numbers. The note names the
        newest game log of the moment, so it can tell a later game has started since."""
        games = self.games()
        record = {
            "variant": variant,
            "seats": seat_records(seats),
            "lucky": lucky,
            "after": games[-1].name if games else None,
        }
        self.directory.mkdir(parents=True, exist_ok=True)
        _write_durably(self.directory / DRAFT, record)

    def noted_draft(self) -> dict | None:
        """The lucky numbers being chosen when the tower stopped, as `note_draft` wrote them;
        None if there is no such note, or a game has started since it was written."""
        try:
            record = json.loads((self.directory / DRAFT).read_text())
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as error:
            raise JournalError(f"cannot read {DRAFT}: {error}") from error
        if not isinstance(record, dict):
            raise JournalError(f"{DRAFT} holds no note of lucky numbers")
        games = self.games()
        return record if record.get("after") == (games[-1].name if games else None) else None

    def forget_draft(self) -> None:
        """The lucky numbers are in a game's start now (or given up): drop their note."""
        try:
            (self.directory / DRAFT).unlink(missing_ok=True)
        except OSError as error:
            raise JournalError(f"cannot remove {DRAFT}: {error}") from error

    def _next_number(self) -> int:
        numbers = [int(path.stem.split("-")[1]) for path in self.games() if _numbered(path)]
        return max(numbers, default=0) + 1


def read_game(path: Path, *, repair: bool = False) -> ResumedGame:
    """Replay a game log. A last line cut short by a power cut is dropped (and, with `repair`,
    cut from the file so later appends start on a clean line); any other bad line is an error."""
    data = path.read_bytes()
    text, torn = _without_torn_tail(data)
    lines = text.splitlines(keepends=True)
    events: list = []
    try:
        game = replay(lines, events)
    except LogError as error:
        raise JournalError(f"{path.name}: {error}") from error
    if torn and repair:
        _truncate(path, len(text.encode("utf-8")))
        log.warning("%s: dropped a torn last line left by a power cut", path.name)
    last = {event.player: event for event in events if type(event) in (Mark, Pass, Undo)}
    return ResumedGame(path, game, len(events), torn, last)


def noted_seats(path: Path) -> list[dict]:
    """Who sat where in the game of `path`, as noted at its start: a list of {"name", "kind",
    "pad"} ([] if there is no note, or it cannot be read)."""
    try:
        record = json.loads(path.with_suffix(SEATS).read_text())
    except (OSError, ValueError):
        return []
    keys = {"name", "kind", "pad"}
    if not isinstance(record, list) or not all(
        isinstance(seat, dict) and set(seat) == keys and all(isinstance(seat[k], str) for k in keys)
        for seat in record
    ):
        return []
    return record


def seat_records(seats) -> list[dict]:
    """Seats (SeatSpec-like) as the notes write them."""
    return [{"name": seat.name, "kind": seat.kind, "pad": seat.pad} for seat in seats]


def _write_durably(path: Path, record) -> None:
    """Replace the JSON file `path` by `record` so that a power cut leaves the old or the new."""
    fresh = path.with_suffix(".tmp")
    try:
        with open(fresh, "w") as file:
            json.dump(record, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(fresh, path)
        _fsync_directory(path.parent)
    except OSError as error:
        raise JournalError(f"cannot write {path.name}: {error}") from error


def is_abandoned(path: Path) -> bool:
    """True when the game of log `path` was given up before its end."""
    return path.with_suffix(ABANDONED).exists()


def _without_torn_tail(data: bytes) -> tuple[str, bool]:
    """The log up to its last complete line; a tail without a newline was never acknowledged."""
    end = data.rfind(b"\n") + 1
    return data[:end].decode("utf-8"), end < len(data)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _truncate(path: Path, size: int) -> None:
    with open(path, "r+b") as file:
        file.truncate(size)
        file.flush()
        os.fsync(file.fileno())


def _fsync_directory(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _numbered(path: Path) -> bool:
    parts = path.stem.split("-")
    return len(parts) == 2 and parts[1].isdigit()
