"""The history's figures as the phones' pages and `qwixx-tower history` ask for them: every
player's figures computed in one pass over the index's summaries (`journal/index.py`) when a
game that counts comes or goes, and kept as one snapshot (`Figures`), so that a page of a tower
of 10,000 games is a look-up; a game's story read from its own log when it is asked for.

The snapshot is computed by whoever brings the index up to the journal (the phones' pages: a
thread of their own, `update`), and a page shows the last one while the next is computed.
"""

from __future__ import annotations

import bisect
import threading
from dataclasses import dataclass

from firmware_py.journal import disk
from firmware_py.journal.figures import (
    GameSummary,
    Leftout,
    Looks,
    PlayerHistory,
    PlayerLine,
    Players,
    every_history,
    last_games,
    left_out,
    lines_of,
    names_in,
    story_of_log,
)
from firmware_py.journal.index import HistoryIndex
from firmware_py.journal.journal import GAME_LOG_MOST, log_path
from firmware_py.story import GameStory

STATE_WORDS = {
    "abandoned": "was abandoned before its end",
    "unfinished": "is not finished",
    "unreadable": "cannot be read",
    "quarantined": "was set aside in quarantine/ (it could not be read)",
}


@dataclass(frozen=True)
class GameAnswer:
    """What the history says of one game: its summary and story, or why there is none."""

    summary: GameSummary | None
    story: GameStory | None = None
    why: str = ""


@dataclass(frozen=True)
class Figures:
    """Every player's figures as of one state of the index (`version`: its figures_version)."""

    version: int
    players: Players
    histories: dict[str, PlayerHistory]
    everyone: list[PlayerLine]


class Standings:
    """The figures of the games `index` holds; names alike (`looks`) are one player."""

    def __init__(self, index: HistoryIndex, looks: Looks) -> None:
        self.index = index
        self.looks = looks
        self._figures: Figures | None = None
        self._lock = threading.Lock()

    def update(self) -> Figures:
        """The figures brought up to the index: computed afresh (any thread, one at a time)
        when a game that counts came or went since; else the ones there are."""
        with self._lock:
            figures = self._figures
            version = self.index.figures_version
            if figures is None or figures.version != version:
                summaries = self.index.summaries
                players = Players(names_in(summaries), self.looks)
                histories = every_history(summaries, players)
                figures = Figures(version, players, histories, lines_of(histories.values()))
                self._figures = figures
            return figures

    def _now(self) -> Figures:
        """The last figures computed (computed now if there are none yet)."""
        return self._figures or self.update()

    @property
    def summaries(self) -> tuple[GameSummary, ...]:
        return self.index.summaries

    def players(self) -> Players:
        return self._now().players

    def everyone(self) -> list[PlayerLine]:
        """Every player of the games that count, most games first."""
        return self._now().everyone

    def player(self, name: str) -> PlayerHistory | None:
        """The figures of the player `name` names (names alike are one player), or None."""
        figures = self._now()
        who = figures.players.find(name)
        return None if who is None else figures.histories.get(who)

    def last_games(self, count: int, before: int | None = None) -> list[GameSummary]:
        return last_games(self.summaries, count, before)

    def left_out(self) -> Leftout:
        return left_out(self.summaries)

    def game(self, number: int) -> GameAnswer:
        """Game `number`: its story from its log when it counts, else why not."""
        summaries = self.summaries  # numbered in order
        at = bisect.bisect_left(summaries, number, key=lambda each: each.number)
        summary = summaries[at] if at < len(summaries) else None
        if summary is None or summary.number != number:
            return GameAnswer(None, why=f"there is no game {number} in the journal")
        if not summary.counts:
            words = STATE_WORDS.get(summary.state, summary.state)
            return GameAnswer(summary, why=f"game {number} {words}: it is not in the figures")
        path = log_path(self.index.directory, number)
        try:
            data = disk.read_regular(path, GAME_LOG_MOST)
        except OSError as error:
            return GameAnswer(summary, why=f"game {number} cannot be read: {error.strerror}")
        story = story_of_log(path, data[: data.rfind(b"\n") + 1].splitlines(keepends=True))
        if story is None:
            return GameAnswer(summary, why=f"game {number} cannot be read: it does not replay")
        return GameAnswer(summary, story)
