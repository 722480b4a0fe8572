"""Fuzz targets for the state directory as the tower finds it at its start (tools/fuzz.py): a
power cut, a full SD card or a careless maker can leave any bytes in a game's log or in any file
kept beside the games, and start-up must never be blocked by anything on disk. The target
raises only on a bug. (tests/fuzz/targets_journal.py reads a log by the journal's own calls,
faster; these go through the whole start and the commands.)

- `journal_start`: the tower starts on a journal whose newest log holds the bytes
  (`Table.start`, as `run` does: the log carried on, or set aside with words) and a new game
  can begin. Asserted: nothing the log held is lost (set aside, its bytes are kept as they
  were; carried on, only a torn last line may be cut, docs/game-log.md), and the new game's
  log is never the old one's.
- `state_files`: any bytes in the files kept beside the games, then the same start.
- `journal_read`: the commands that read the games back without starting a tower:
  `qwixx-tower history` (its list, the players' figures, one game, JSON and CSV) and
  `qwixx-tower replay` of the log, each ending in its output or in one sentence with its exit
  status, and the phones' history figures.

Kept inputs: tests/fuzz/seeds/TARGET/ (real logs the tower wrote: a finished classic game,
one cut mid-game, finished Longo and X-Change games; the files of a real evening) and
tests/fuzz/found/TARGET/.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from support.fuzz_doors import BOT, SCRATCH, table_for_fuzzing
from support.fuzz_input import FuzzInput

from firmware_py.app import cli
from firmware_py.app.assembly import attach_phones
from firmware_py.app.web import history_pages
from firmware_py.bus.results import NOTE, Results
from firmware_py.journal.journal import DRAFT, PHONE_TOKENS, TABLE_SEATS, Journal
from firmware_py.seats.phones.join_key import KEY_FILE, kept_join_key
from firmware_py.table import Table

LOG = "game-000001.jsonl"
SEEDS = Path(__file__).parent / "seeds"
CUT_MID_GAME = (SEEDS / "journal_start" / "classic-cut-mid-game.jsonl").read_bytes()
STATE_FILES = ("game-000001.seats.json", "game-000002.jsonl", "game-000001.abandoned",
               TABLE_SEATS, DRAFT, PHONE_TOKENS, KEY_FILE, NOTE, "history-index.jsonl",
               "quarantine")  # fmt: skip
HISTORY_COMMANDS = (
    ["history"],
    ["history", "--players"],
    ["history", "--game", "1"],
    ["history", "--json"],
    ["history", "--csv"],
)


@contextmanager
def journal_holding(data: bytes) -> Iterator[Path]:
    """A journal folder whose only game's log holds `data`, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="qwixx-fuzz-state-", dir=SCRATCH))
    try:
        (folder / LOG).write_bytes(data)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def journal_start(data: bytes) -> None:
    with table_for_fuzzing("classic", [BOT]) as table:
        folder = table.journal.directory
        (folder / LOG).write_bytes(data)
        asyncio.run(_start_and_begin(table))
        _nothing_lost(folder, data)
        newest = table.journal.current_game
        assert newest is not None, "no game could begin after the start"
        if newest.name == LOG:  # carried on: the log is the old one, cut at most at a torn line
            kept = newest.read_bytes()
            assert data.startswith(kept.rstrip(b"\n")) or kept.startswith(data), "log rewritten"


async def _start_and_begin(table: Table) -> None:
    """The start `run` makes, then a new game wherever the old one could not carry on."""
    await table.start()
    try:
        if table.game is None or table.game.over:
            table.new_game()
        assert table.game is not None and not table.game.over, "no game after the start"
    finally:
        table.timers.end_phase()
        await table.thrown.close()
        if table.button is not None:
            table.button.close()


def _nothing_lost(folder: Path, data: bytes) -> None:
    """The old log's bytes are still in the journal: carried on in place (a torn last line
    cut), or set aside whole under another name (an empty file, no game, may go)."""
    if not data:
        return
    if (folder / LOG).exists():
        return  # carried on, or kept where it was (checked by the caller when carried on)
    kept = [path for path in folder.rglob("*") if path.is_file() and path.read_bytes() == data]
    assert kept, f"the old log's bytes are gone: {sorted(p.name for p in folder.rglob('*'))}"


def state_files(data: bytes) -> None:
    """Any of the files the tower keeps beside its games, with any bytes (and the newest
    game's log a good one cut mid-game, or any bytes too), then the start `run` makes: the
    QR code's key, the phones' seats, the results' note for the bus, the table carried on or
    set up, and a new game."""
    fuzz = FuzzInput(data)
    with table_for_fuzzing("classic", [BOT]) as table:
        folder = table.journal.directory
        (folder / LOG).write_bytes(CUT_MID_GAME if fuzz.flag() else fuzz.raw(4096))
        for _ in range(fuzz.number(0, 6)):
            (folder / fuzz.pick(STATE_FILES)).write_bytes(fuzz.raw(1024))
        assert kept_join_key(folder), "no key for the QR code"
        attach_phones(table, key=None)
        Results(table.journal, "t1", "localhost:1883 qwixx/t1/result")
        asyncio.run(_start_and_begin(table))
        pages = history_pages(table.journal)
        pages.standings.index.refresh()
        pages.standings.update()


def journal_read(data: bytes) -> None:
    with journal_holding(data) as folder:
        for command in HISTORY_COMMANDS:
            _said_or_refused([*command, "--state-dir", str(folder)])
        _said_or_refused(["replay", str(folder / LOG)])
        pages = history_pages(Journal(folder))
        pages.standings.index.refresh()
        pages.standings.update()


def _said_or_refused(argv: list[str]) -> None:
    """`qwixx-tower ARGV` ends in its output (0) or one sentence (its exit status)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(argv)
    if status != 0:
        said = err.getvalue().strip()
        assert said and "Traceback" not in said, f"{argv[0]} failed without words: {status}"


TARGETS: dict[str, Callable[[bytes], None]] = {
    "journal_start": journal_start,
    "state_files": state_files,
    "journal_read": journal_read,
}
