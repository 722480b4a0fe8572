"""What the table tells the people at it besides the game: lines of news, alerts, problems.

News is one line per thing that happened (a mark, a lock, a pad that came back), kept for the
terminal and the pads: the last NEWS_KEPT, since a kiosk runs for years. An alert is a problem
the players can act on (a pad missing, a die lost): on the displays for ALERT_SECONDS, and in
the news. A problem is something the tower cannot do (save, read back): on the displays until
the next change. Saying something changes no game state, so it is shown at once, without a new
phase or anything planned.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from firmware_py.rules import Event, Game
from firmware_py.table.news_words import describe, final_words
from firmware_py.view import ERROR
from sheets import COLOURS

log = logging.getLogger(__name__)

NEWS_KEPT = 200  # lines of news the table keeps: a kiosk runs for years
ALERT_SECONDS = 5.0  # a problem players can act on (a pad missing, a die lost) shows this long


class News(Protocol):
    """What a part may tell the people at the table (`NewsFeed`'s four ways)."""

    def tell(self, words: str) -> None: ...
    def say(self, words: str) -> None: ...
    def alert(self, words: str) -> None: ...
    def problem(self, words: str) -> None: ...


class NewsFeed:
    """The table's news (`lines`, newest last) and the alert on its displays. It reads the
    table's clock and asks the table for two things: to put words on its displays
    (`set_message`), and to show a change at once (`show`, with changes to the view)."""

    def __init__(
        self,
        clock: Callable[[], float],
        set_message: Callable[[str], None],
        show: Callable[..., Any],
    ) -> None:
        self.clock = clock
        self.set_message = set_message
        self.show = show
        self.lines: deque[str] = deque(maxlen=NEWS_KEPT)
        self.count = 0  # lines told since the start (more than are kept)
        self._alert: tuple[str, float] = ("", 0.0)  # words on the displays until this time

    def tell(self, words: str) -> None:
        """One line of news, shown with the next change."""
        self.lines.append(words)
        self.count += 1

    def tell_event(self, event: Event, before: Game, game: Game) -> None:
        """The news of one event: what was done, penalties, locks, and the end of the game."""
        self.tell(describe(event, before))
        for old, new in zip(before.players, game.players, strict=True):
            if new.penalties > old.penalties:
                self.tell(f"{new.name} crossed nothing and takes penalty {new.penalties}")
        for row in game.locked[len(before.locked) :]:
            colour = COLOURS[row]
            self.tell(f"{colour} is locked: the {colour} die leaves the game")
        if game.over:
            self.tell(final_words(game))

    def say(self, words: str) -> None:
        """News that changes no game state (dice found, dice missing, ...), shown at once."""
        self.tell(words)
        self.set_message(words)
        self.show()

    def alert(self, words: str) -> None:
        """A problem the players can act on: on the displays for a few seconds, and in the news."""
        log.warning("%s", words)
        self._alert = (words, self.clock() + ALERT_SECONDS)
        self.say(words)

    def problem(self, words: str) -> None:
        """Something the tower cannot do (save, read back): on the displays until the next
        change, and in the log."""
        log.error("%s", words)
        self.set_message(words)
        self.show(screen=ERROR, message=words)

    def alert_words(self) -> str:
        """The words of the last alert (on the displays or not any more)."""
        return self._alert[0]

    def alert_shown(self) -> str | None:
        """The words of the alert on the displays now; None when no alert is."""
        words, until = self._alert
        return words if self.clock() < until else None
