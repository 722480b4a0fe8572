"""The history's figures as the phones' pages and `qwixx-tower history` ask for them: from the
index's summaries (`journal/index.py`), each figure computed once per change of the journal
and kept, so that a tower of 10,000 games answers in milliseconds, and a game's story read from
its own log when it is asked for.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from dataclasses import dataclass

from firmware_py.journal import disk
from firmware_py.journal.figures import (
    GameSummary,
    Leftout,
    Looks,
    PlayerHistory,
    PlayerLine,
    Players,
    everyone,
    last_games,
    left_out,
    names_in,
    player_history,
    story_of_log,
)
from firmware_py.journal.index import HistoryIndex
from firmware_py.story import GameStory

PLAYERS_KEPT = 64  # players' figures kept between changes of the journal
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


class Standings:
    """The figures of the games `index` holds; names alike (`looks`) are one player."""

    def __init__(self, index: HistoryIndex, looks: Looks) -> None:
        self.index = index
        self.looks = looks
        self._version = -1
        self._players: Players | None = None
        self._everyone: list[PlayerLine] | None = None
        self._each: OrderedDict[str, PlayerHistory | None] = OrderedDict()

    def _fresh(self) -> None:
        """Forget what was computed when the index has changed since."""
        if self._version != self.index.version:
            self._version = self.index.version
            self._players, self._everyone = None, None
            self._each.clear()

    @property
    def summaries(self) -> tuple[GameSummary, ...]:
        return self.index.summaries

    def players(self) -> Players:
        self._fresh()
        if self._players is None:
            self._players = Players(names_in(self.summaries), self.looks)
        return self._players

    def everyone(self) -> list[PlayerLine]:
        """Every player of the games that count, most games first."""
        self._fresh()
        if self._everyone is None:
            self._everyone = everyone(self.summaries, self.players())
        return self._everyone

    def player(self, name: str) -> PlayerHistory | None:
        """The figures of the player `name` names (names alike are one player), or None."""
        players = self.players()  # (freshens)
        who = players.find(name)
        if who is None:
            return None
        if who not in self._each:
            self._each[who] = player_history(self.summaries, players, who)
            while len(self._each) > PLAYERS_KEPT:
                self._each.popitem(last=False)
        return self._each[who]

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
        path = self.index.directory / f"game-{number:06d}.jsonl"
        try:
            data = disk.read_regular(path)
        except OSError as error:
            return GameAnswer(summary, why=f"game {number} cannot be read: {error.strerror}")
        story = story_of_log(path, data[: data.rfind(b"\n") + 1].splitlines(keepends=True))
        if story is None:
            return GameAnswer(summary, why=f"game {number} cannot be read: it does not replay")
        return GameAnswer(summary, story)
