"""The history's index: every game log summed up once, kept beside the logs as a cache.

Replaying a log takes a few milliseconds; a tower that has kept 10,000 games would replay for
half a minute (minutes on a Pi) before it could show anyone's figures. So each log is read
once into a `GameSummary`, and the summaries are kept in ``history-index.jsonl`` in the state
directory, a line per log with the size and time of the log it was read from. The logs stay
the one source of truth: the index is only ever written from them, and read back only for
logs whose size, time and abandoned mark it still matches; a missing, older-format or broken
index is read afresh from the logs (`refresh`), never the other way round.

The first `refresh` compares every log with the index (start-up runs it in the background, so
the tower is ready before it ends); later ones read only the logs that are new since, and the
unfinished ones, which grow. Lines are appended as logs are read; the file is written whole
again only when it holds many lines no log needs any more.
"""

from __future__ import annotations

import json
import logging
import os
import stat
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_py.journal import disk
from firmware_py.journal.disk import QUARANTINE
from firmware_py.journal.figures import (
    ABANDONED,
    QUARANTINED,
    UNFINISHED,
    UNREADABLE,
    GameSummary,
    SeatSummary,
    read_summary,
    unreadable,
)
from firmware_py.journal.journal import ABANDONED as ABANDONED_SUFFIX
from firmware_py.journal.journal import GAME_LOG_MOST, number_of
from firmware_py.json_text import json_value

log = logging.getLogger(__name__)

INDEX = "history-index.jsonl"
FORMAT = 1  # the index's format: an index of another is read afresh from the logs
EMPTY = "empty"  # a log the tower created and has not written its start to: no game (yet)
INDEX_MOST = 100_000_000  # bytes: some 290,000 games (10,000 take 3.4 MB), fifteen years of
# fifty games a night; a larger file is no index of the tower's: the logs are read afresh
CHANGING = (UNFINISHED, UNREADABLE)  # summaries of logs that may still change: looked at again
Stamp = tuple[int, int, bool]  # a log's size, its time (ns), whether it is marked abandoned


@dataclass(frozen=True)
class Progress:
    """How far a refresh has come: logs read, of those it has to read."""

    read: int = 0
    to_read: int = 0

    @property
    def busy(self) -> bool:
        return self.read < self.to_read


class HistoryIndex:
    """The summaries of the game logs in `directory` (and those set aside in quarantine/),
    oldest first, as the last `refresh` found them."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)
        self.summaries: tuple[GameSummary, ...] = ()
        self.version = 0  # counts the refreshes that changed the summaries
        self.figures_version = 0  # ... that changed a game that counts (or made one count)
        self._quarantined: list[GameSummary] = []
        self.progress = Progress()
        self._known: dict[str, tuple[Stamp, GameSummary]] = {}
        self._loaded = False
        self._listed: int | None = None  # the directory's time at the last look
        self._dead_lines = 0  # lines of the index file no log needs any more
        self._untrusted = False  # the file read holds no index of this format: written whole
        self._lock = threading.Lock()

    def refresh(self) -> tuple[GameSummary, ...]:
        """Bring the summaries up to the logs (one refresh at a time; any thread) and return
        them. Never raises for what is on disk: what cannot be read is an unreadable game."""
        with self._lock:
            if not self._loaded:
                self._known, self._dead_lines = _load(self.directory / INDEX)
                self._untrusted = not self._known  # (appending to it would keep it so)
                self._loaded = True
            logs = self._logs_to_compare()
            if logs is None:
                return self.summaries
            fresh = self._read_changed(logs)
            self._keep(fresh, logs)
            return self.summaries

    def _logs_to_compare(self) -> dict[str, Stamp | None] | None:
        """The logs to compare with the index: all of them at the first look (an index left
        by an earlier start may be stale), the new ones and those gone when the directory
        changed since, and always those whose summary may still change; None: nothing."""
        try:
            listed = os.stat(self.directory).st_mtime_ns
        except OSError:
            listed = None
        if listed is not None and listed == self._listed:
            changing = [name for name, (_, s) in self._known.items() if s.state in CHANGING]
            return {name: _stamp(self.directory / name, _abandoned(self.directory / name))
                    for name in changing} if changing else None  # fmt: skip
        every = self._listed is None
        self._listed = listed
        return self._logs_listed(every)

    def _logs_listed(self, every: bool) -> dict[str, Stamp | None]:
        """The logs in the directory (`every` one, or only those new or still changing: a
        stat of 10,000 logs after each game cost a page a quarter of a second), and those
        gone from it."""
        try:
            names = set(os.listdir(self.directory))
        except OSError:
            names = set()
        logs = sorted(name for name in names if name.endswith(".jsonl") and number_of(name))
        known = self._known
        found: dict[str, Stamp | None] = {
            name: _stamp(self.directory / name, f"{name[:-6]}{ABANDONED_SUFFIX}" in names)
            for name in logs
            if every or name not in known or known[name][1].state in CHANGING
        }
        listed = set(logs)
        return found | {name: None for name in known if name not in listed}

    def _read_changed(self, logs: dict[str, Stamp | None]) -> dict[str, tuple[Stamp, GameSummary]]:
        """The summaries of the logs that are new or changed since the index read them."""
        changed = [
            name for name, stamp in logs.items()
            if stamp is not None and (name not in self._known or self._known[name][0] != stamp)
        ]  # fmt: skip
        fresh = {}
        self.progress = Progress(0, len(changed))
        for done, name in enumerate(changed, start=1):
            stamp = logs[name]
            assert stamp is not None
            fresh[name] = (stamp, _summary(self.directory / name, stamp))
            self.progress = Progress(done, len(changed))
        return fresh

    def _keep(self, fresh: dict[str, tuple[Stamp, GameSummary]],
              logs: dict[str, Stamp | None]) -> None:  # fmt: skip
        """The index with the fresh summaries and without logs that have gone; noted on disk."""
        gone = [name for name, stamp in logs.items() if stamp is None and name in self._known]
        counting = any(kept[1].counts for kept in fresh.values()) or any(
            self._known[name][1].counts for name in [*gone, *fresh] if name in self._known
        )
        for name in gone:
            del self._known[name]
        self._dead_lines += len(gone) + sum(name in self._known for name in fresh)
        self._known.update(fresh)
        quarantined = _quarantined(self.directory)
        if fresh or gone or quarantined != self._quarantined or not self.version:
            self._quarantined = quarantined
            self.summaries = tuple(sorted(
                [s for _, s in self._known.values() if s.why != EMPTY] + quarantined,
                key=lambda summary: summary.number,
            ))  # fmt: skip
            self.version += 1
            if counting or self.figures_version == 0:
                self.figures_version += 1
        lasting = {name: kept for name, kept in fresh.items() if kept[1].state != UNFINISHED}
        if gone or lasting:
            self._note(lasting)

    def _note(self, fresh: dict[str, tuple[Stamp, GameSummary]]) -> None:
        """The fresh summaries appended to the index file, or the file written again when
        most of its lines are dead (or it is new). A cache: failing to write is only said."""
        path = self.directory / INDEX
        try:
            if self._dead_lines > len(self._known) or self._untrusted or not path.exists():
                lasting = {n: k for n, k in self._known.items() if k[1].state != UNFINISHED}
                _write_whole(path, lasting)
                self._dead_lines, self._untrusted = 0, False
            else:
                with open(path, "a", encoding="utf-8") as file:
                    file.writelines(_line(name, *kept) for name, kept in fresh.items())
        except OSError as error:
            log.warning("the history's index cannot be written: %s", error.strerror)


def _stamp(path: Path, abandoned: bool) -> Stamp | None:
    """What tells a log changed: its size and time, and whether it is marked abandoned (None:
    it has gone)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError:
        return (-1, 0, abandoned)  # there, but not to be looked at: read as unreadable
    return (info.st_size if stat.S_ISREG(info.st_mode) else -1, info.st_mtime_ns, abandoned)


def _abandoned(path: Path) -> bool:
    return path.with_suffix(ABANDONED_SUFFIX).exists()


def _summary(path: Path, stamp: Stamp) -> GameSummary:
    number = number_of(path.name) or 0
    try:
        data = disk.read_regular(path, GAME_LOG_MOST)
    except OSError as error:
        return unreadable(number, f"{path.name}: {error.strerror or error}")
    if not data:
        return unreadable(number, EMPTY, UNFINISHED)  # no game (yet): not listed
    return read_summary(path, number, data, abandoned=stamp[2])


def _quarantined(directory: Path) -> list[GameSummary]:
    """The game logs set aside in quarantine/: never in the figures, but counted."""
    try:
        names = os.listdir(directory / QUARANTINE)
    except OSError:
        return []
    return [
        unreadable(number, "set aside in quarantine/", QUARANTINED)
        for name in sorted(names)
        if name.endswith(".jsonl") and (number := number_of(name))
    ]


# ---- the index file -----------------------------------------------------------------------------


def _load(path: Path) -> tuple[dict[str, tuple[Stamp, GameSummary]], int]:
    """The index as written ({} when there is none, or of another format), and how many of its
    lines a later one replaced. A line that cannot be read is left out: its log is read again."""
    try:
        lines = disk.read_regular(path, INDEX_MOST).splitlines()
    except OSError:
        return {}, 0
    if not lines or _header(lines[0]) != FORMAT:
        return {}, 0
    known: dict[str, tuple[Stamp, GameSummary]] = {}
    for line in lines[1:]:
        entry = _entry(line)
        if entry is not None:
            known[entry[0]] = entry[1:]
    return known, len(lines) - 1 - len(known)


def _header(line: bytes) -> object:
    try:
        header = json_value(line)
    except ValueError:
        return None
    return header.get("history-index") if isinstance(header, dict) else None


def _entry(line: bytes) -> tuple[str, Stamp, GameSummary] | None:
    try:
        data = json_value(line)
        stamp = (int(data["size"]), int(data["time"]), bool(data["abandoned"]))
        return str(data["log"]), stamp, _from_json(data["game"])
    except (ValueError, TypeError, KeyError, IndexError, OverflowError):
        return None


def _line(name: str, stamp: Stamp, summary: GameSummary) -> str:
    size, time, abandoned = stamp
    entry = {"log": name, "size": size, "time": time, "abandoned": abandoned,
             "game": _to_json(summary)}  # fmt: skip
    return json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n"


def _write_whole(path: Path, known: dict[str, tuple[Stamp, GameSummary]]) -> None:
    fresh = path.with_suffix(".tmp")
    with open(fresh, "w", encoding="utf-8") as file:
        file.write(json.dumps({"history-index": FORMAT}) + "\n")
        file.writelines(_line(name, *kept) for name, kept in sorted(known.items()))
        file.flush()
        os.fsync(file.fileno())
    os.replace(fresh, path)


def _to_json(summary: GameSummary) -> dict[str, Any]:
    return {
        "number": summary.number, "began": summary.began, "variant": summary.variant,
        "state": summary.state, "winners": list(summary.winners), "rolls": summary.rolls,
        "why": summary.why,
        "players": [[s.name, s.total, s.penalties, list(s.rows), s.locked]
                    for s in summary.players],
    }  # fmt: skip


def _from_json(data: dict[str, Any]) -> GameSummary:
    states = (ABANDONED, UNFINISHED, UNREADABLE, QUARANTINED, "over")
    if data["state"] not in states:
        raise ValueError(f"no state {data['state']!r}")
    players = tuple(
        SeatSummary(str(name), int(total), int(penalties), tuple(map(int, rows)), int(locked))
        for name, total, penalties, rows, locked in data["players"]
    )
    return GameSummary(int(data["number"]), str(data["began"]), str(data["variant"]),
                       data["state"], players, tuple(str(w) for w in data["winners"]),
                       int(data["rolls"]), str(data["why"]))  # fmt: skip
