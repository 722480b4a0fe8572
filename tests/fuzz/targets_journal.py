"""Fuzz targets for the files the tower keeps on its own disk about games (tools/fuzz.py): a
power cut, a full SD card or a careless maker can leave any bytes in a game's log, and start-up
must never be blocked by them nor any reading of them end in a traceback.

- `game_log`: the bytes as the newest game's log, beside a good finished game. The tower's
  start (`read_back`, as `run` calls it) carries the game on or sets the log aside with words,
  kept in quarantine/ as it was; the next game takes a number not used; `history` still lists
  the good game.
- `history_index`: the bytes as the history's index beside a good game whose size and time
  its seed's lines match, so that what they say is trusted: the index is read, the standings
  summed and the phones' history pages (the table, a player's, the game's) drawn, none the
  "cannot be shown just now" of a handler's exception; the good game is listed once (what a
  line matching it says of it is trusted: the index is a cache the tower alone writes).
- `replay_log`: the bytes as the file `qwixx-tower replay` is given: a game or a LogError in
  words, and the game's report (what `replay` prints) drawn.

Kept inputs: tests/fuzz/seeds/TARGET/ (a real finished game's log, the golden story game, and
cuts of it) and tests/fuzz/found/TARGET/ (what made a target fail).
"""

from __future__ import annotations

import asyncio
import io
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from aiohttp.test_utils import make_mocked_request
from support.history import KNOWN

from firmware_py.app.web import history_pages
from firmware_py.journal.disk import QUARANTINE
from firmware_py.journal.history import history_lines
from firmware_py.journal.index import INDEX
from firmware_py.journal.journal import GameLog, Journal, ResumedGame, number_of
from firmware_py.journal.lines import LogError, replay
from firmware_py.rules import Start, game_report
from firmware_py.table.startup import read_back

SCRATCH = "/dev/shm" if Path("/dev/shm").is_dir() else None  # each new game's start is fsynced
_FOLDER = tempfile.TemporaryDirectory(prefix="qwixx-fuzz-journal-", dir=SCRATCH)
GOOD = "game-000001.jsonl"  # the good finished game beside the fuzzed one
FUZZED = "game-000002.jsonl"
LOG_TIME = 1_764_000_000 * 10**9  # the good game's time in `history_index` (ns)


class HeardNews:
    """What the start said to the table, in words."""

    def __init__(self) -> None:
        self.words: list[str] = []

    def tell(self, words: str) -> None:
        self.words.append(words)

    say = alert = problem = tell


def _state_dir(data: bytes) -> Path:
    """A fresh state directory: the good game, then `data` as the newest game's log."""
    folder = Path(_FOLDER.name) / "state"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    shutil.copyfile(KNOWN, folder / GOOD)
    (folder / FUZZED).write_bytes(data)
    return folder


def game_log(data: bytes) -> None:
    folder = _state_dir(data)
    journal, news = Journal(folder), HeardNews()
    resumed = read_back(journal, news)
    assert all(words for words in news.words), "the start said nothing about a log"
    if resumed is not None:
        _carry_on_is_the_fuzzed_game(*resumed)
    elif not (folder / FUZZED).exists() and data.strip():
        kept = list((folder / QUARANTINE).glob("game-000002*"))
        assert [path.read_bytes() for path in kept] == [data], "a log set aside was not kept"
        assert news.words, "a log was set aside in silence"
    _next_game_takes_a_new_number(journal, folder)
    lines = list(history_lines(folder))
    assert any(line.startswith("game-000001 ") and "unreadable" not in line for line in lines)


def _carry_on_is_the_fuzzed_game(resumed: ResumedGame, game_log: GameLog) -> None:
    game_log.close()
    assert resumed.path.name == FUZZED and not resumed.game.over
    game_report(resumed.game)


def _next_game_takes_a_new_number(journal: Journal, folder: Path) -> None:
    names = [path.name for path in (*folder.iterdir(), *folder.glob(f"{QUARANTINE}/*"))]
    used = [number for number in map(number_of, names) if number is not None]
    with journal.begin(Start("classic", ("Ann", "Ben"))) as new:
        number = number_of(new.path.name)
        assert number is not None and number > max(used), f"the next game is {new.path.name}"


def replay_log(data: bytes) -> None:
    try:
        game = replay(io.BytesIO(data))
    except LogError as error:
        assert str(error), "a log refused without words"
        return
    game_report(game)


def history_index(data: bytes) -> None:
    folder = _history_dir(data)
    pages = history_pages(Journal(folder))
    pages.standings.index.refresh()
    pages.standings.update()
    # (an index line that matches the log's size and time is trusted as it is: what it says
    # of the game is the fuzzer's, but the game is listed, once)
    assert len(pages.standings.index.summaries) == 1, "the good game is not listed once"
    loop = asyncio.new_event_loop()
    try:
        for path, handler, match in (
            ("/history", pages._table, {}),
            ("/history/player?name=Ben", pages._player, {}),
            ("/history/game/1", pages._game, {"number": "1"}),
        ):
            request = make_mocked_request("GET", path, match_info=match)
            page = loop.run_until_complete(pages._guarded(handler)(request))
            assert page.status != 500, f"{path}: {page.text}"
    finally:
        loop.close()


def _history_dir(data: bytes) -> Path:
    """A fresh state directory: the good game, its time fixed (so that an index written for it
    by the seeds is trusted, and the fuzzer changes what it says), and `data` as the index."""
    folder = Path(_FOLDER.name) / "history"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    shutil.copyfile(KNOWN, folder / GOOD)
    os.utime(folder / GOOD, ns=(LOG_TIME, LOG_TIME))
    (folder / INDEX).write_bytes(data)
    return folder


TARGETS: dict[str, Callable[[bytes], None]] = {
    "game_log": game_log,
    "replay_log": replay_log,
    "history_index": history_index,
}
