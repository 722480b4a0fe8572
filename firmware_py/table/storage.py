"""When the journal cannot save: the table pauses, says why, and carries on by itself.

No event is acknowledged before it is on disk, so a table that cannot save must not play on: a
failed write (a full or read-only disk, a state directory that cannot be written) puts the
table in a storage fault. Its words ("cannot save the game: the disk is full") stay on the
displays and answer every decision; computer players and the next game wait. The guard tries
saving again with a small probe file, after 1 s, then twice as long each time up to 30 s. When
the probe works (or any real write does, such as a pad's retry), the fault ends and the table
plans the moment afresh: computer players decide again, the displays show the game.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from firmware_py.journal.disk import SetAside, plain_reason
from firmware_py.journal.journal import Journal, JournalError, number_of
from firmware_py.table.news_feed import News
from firmware_py.table.state import Publishes
from firmware_py.table.timers import Schedule

log = logging.getLogger(__name__)

FIRST_RETRY = 1.0  # seconds before the first try to save again
LAST_RETRY = 30.0  # the longest wait between tries


class StorageTable(Publishes, Protocol):
    """What the guard reads of the table (whether a game is on) and asks of it: the moment
    shown, play picked up again."""

    def playing(self) -> bool: ...
    def saving_works_again(self) -> None: ...


class StorageGuard:
    """The table's storage fault: `fault` holds its words ("" while saving works). It probes
    the table's `journal`, tells the players through `news`, and ends what the phase's
    `timers` planned (nothing planned goes on unsaved)."""

    def __init__(self, table: StorageTable, journal: Journal, news: News, timers: Schedule) -> None:
        self.table = table
        self.journal = journal
        self.news = news
        self.timers = timers
        self.fault = ""
        self.delay = FIRST_RETRY  # the wait before the next try
        self._retry: asyncio.TimerHandle | None = None

    def failed(self, error: Exception) -> str:
        """Saving failed: pause the table, show why, and try again later. Returns the words."""
        table = self.table
        if table.playing():
            words = "cannot save the game: " + plain_reason(error)
        else:
            words = "cannot save games: " + plain_reason(error, self.journal.directory)
        if words != self.fault:
            log.error("%s (%s)", words, error)
            self.news.tell(words.capitalize())
        self.fault = words
        self.timers.end_phase()  # nothing planned goes on unsaved
        self._try_later()
        table.publish()
        return words

    def check(self) -> None:
        """At start: a state directory that cannot be written is a fault from the outset."""
        try:
            self.journal.probe()
        except JournalError as error:
            self.failed(error)

    def saved(self) -> None:
        """A real write worked: the waits start short again, and a paused table goes on."""
        self.delay = FIRST_RETRY
        if self.fault:
            self._carry_on()

    def stop(self) -> None:
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None

    def _try_later(self) -> None:
        if self._retry is not None:
            return  # a try is planned already
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not running (yet): the next decision tries
            return
        self._retry = loop.call_later(self.delay, self._try_again)
        self.delay = min(self.delay * 2, LAST_RETRY)

    def _try_again(self) -> None:
        self._retry = None
        try:
            self.journal.probe()
        except JournalError as error:
            log.debug("still cannot save: %s", error)
            self._try_later()
            return
        self._carry_on()
        self.table.saving_works_again()

    def _carry_on(self) -> None:
        """Saving works again: the table plans this moment afresh (computer players decide
        again) with the next change it publishes."""
        self.stop()
        log.warning("saving works again (it failed: %s)", self.fault)
        self.news.tell("Saving works again: play goes on")
        self.fault = ""
        self.timers.end_phase()


def set_aside_words(found: list[SetAside]) -> str:
    """One sentence for the files set aside at start: "game 12 could not be read: moved to
    quarantine/" (or "skipped" for those that could not be moved)."""
    moved = [_named(entry.name) for entry in found if entry.moved_to is not None]
    left = [_named(entry.name) for entry in found if entry.moved_to is None]
    parts = [f"{_listed(moved)} could not be read: moved to quarantine/"] if moved else []
    parts += [f"{_listed(left)} could not be read: skipped"] if left else []
    return "; ".join(parts)


def _named(name: str) -> str:
    number = number_of(name)
    return f"game {number}" if number is not None and name.endswith(".jsonl") else name


def _listed(names: list[str]) -> str:
    """Up to two names; more are counted (the log names each), so the sentence fits a display."""
    if len(names) > 2:
        return f"{len(names)} files"
    return " and ".join(names)
