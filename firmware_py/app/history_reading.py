"""Reading the journal for `qwixx-tower history` while a person waits: with no index on disk
(or a stale one) every game log is read, seconds with thousands of games and minutes on a Pi.
What is going on is said on standard error (standard output stays the figures, so --json and
--csv are untouched): how many games are being read as soon as that is known, how far it has
come on one line a terminal rewrites (or a few lines when standard error is a file), and that
the index was written so the next look is quick. A refresh that reads nothing, or
only the few games new since the index, says nothing, however slow the machine: what is said
follows from how many games there are to read, not from how long the reading takes."""

from __future__ import annotations

import threading
from typing import TextIO

from firmware_py.journal.index import INDEX, HistoryIndex, Progress
from firmware_py.words import plural

LOOK_EVERY = 0.1  # seconds between looks at the refresh's progress
STEPS_IN_A_FILE = 4  # progress lines written when standard error is no terminal
# More new games than this since the index are read with progress said. Fewer (an evening's
# games) are read in a tenth of a second on a PC (10,000 took 13 s), a few times that on a Pi:
# a busy machine that takes longer over them is no reason to speak (told whenever a look found
# the reading unfinished, one game new since the index was said at load 20).
FEW_GAMES = 100


def refresh_saying(index: HistoryIndex, err: TextIO) -> None:
    """Bring `index` up to its logs (a thread reads; this one tells `err` how far it is)."""
    first_look = not (index.directory / INDEX).exists()
    worker = threading.Thread(target=index.refresh, name="history-index", daemon=True)
    worker.start()
    teller = _Teller(err)
    while worker.is_alive():
        worker.join(LOOK_EVERY)
        progress = index.progress
        if progress.busy and (first_look or progress.to_read > FEW_GAMES):
            teller.tell(progress)
    if first_look or teller.told_step >= 0:
        teller.done(index.progress)


class _Teller:
    """Says on `err` how far reading the journal has come, without a flood of lines."""

    def __init__(self, err: TextIO) -> None:
        self.err = err
        self.rewrites = _is_terminal(err)
        self.told_step = -1

    def tell(self, progress: Progress) -> None:
        if self.told_step < 0:
            games = progress.to_read
            self._say(f"Reading {plural(games, 'game')} from the journal "
                      f"to index {_them(games)} (the next look is quick).\n")  # fmt: skip
            self.told_step = 0
        if self.rewrites:
            self._say(f"\r{_how_far(progress)}")
            return
        step = progress.read * STEPS_IN_A_FILE // progress.to_read
        if step > self.told_step:
            self.told_step = step
            self._say(f"{_how_far(progress)}\n")

    def done(self, progress: Progress) -> None:
        if progress.to_read == 0:
            return
        ending = "\n" if self.rewrites and self.told_step >= 0 else ""
        self._say(f"{ending}Read {plural(progress.to_read, 'game')} from the journal "
                  f"and indexed {_them(progress.to_read)} in {INDEX}.\n")  # fmt: skip

    def _say(self, text: str) -> None:
        self.err.write(text)
        self.err.flush()


def _them(games: int) -> str:
    """The pronoun for `games` games: `it` for one, `them` for more."""
    return "it" if games == 1 else "them"


def _how_far(progress: Progress) -> str:
    """`read 2,500 of 10,000 games (25 %)`: within 80 columns."""
    percent = progress.read * 100 // progress.to_read
    return f"read {progress.read:,} of {progress.to_read:,} games ({percent} %)"


def _is_terminal(err: TextIO) -> bool:
    try:
        return err.isatty()
    except (AttributeError, ValueError):
        return False
