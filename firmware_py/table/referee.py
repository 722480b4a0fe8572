"""The referee's path at the table: the game being played, and its log in the journal.

Every rules event is checked by the engine on a copy of the game, written to the journal
(fsynced, with the device requests it answers), and only then becomes the game: the game the
table shows is never changed in place. A game begins only once its start is in the journal,
with how each player decides noted beside it for a restart; an unfinished game a new one
replaces stays in the journal, marked abandoned. A write that fails pauses the table
(`Saving`, the storage guard) and the event is refused with the guard's words.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from firmware_py.journal.history import game_title
from firmware_py.journal.journal import NO_MORE_UNDO, GameLog, Journal, JournalError
from firmware_py.rules import ChoiceNeeded, Event, Game, Mark, Pass, Refused, Roll, Start, Undo
from firmware_py.seating import SeatSpec
from firmware_py.table.decisions import CHOICE, RULE, STORAGE, Refusal
from firmware_py.table.news_feed import News
from firmware_py.table.requests import AppliedRequests

if TYPE_CHECKING:
    from firmware_py.story import GameStory

log = logging.getLogger(__name__)


class Saving(Protocol):
    """The storage guard (`storage.StorageGuard`): told of every write that failed or worked."""

    def failed(self, error: Exception) -> str: ...
    def saved(self) -> None: ...


@dataclass(frozen=True)
class Played:
    """What was played of the game on, as values for the view: each player's last decision,
    and once the game is over its story (read from its log in the journal)."""

    decisions: Mapping[str, Mark | Pass | Undo]
    story: GameStory | None = None


class RefereeTable(Protocol):
    """What the referee asks of the table after an event became the game: tell it, show it."""

    def after_event(self, event: Event, before: Game, game: Game) -> None: ...


class Referee:
    """The game on (`game`, None before the first and while one is set up), its log, each
    player's last decision this game, and how many games began and finished since the table
    started. The ids of the device requests each event answered go into the journal and into
    `applied` (exactly once); a notice of the journal's (a disk filling up) goes to the
    players through `news`."""

    def __init__(
        self,
        table: RefereeTable,
        journal: Journal,
        saving: Saving,
        news: News,
        applied: AppliedRequests,
    ) -> None:
        self.table = table
        self.journal = journal
        self.saving = saving
        self.news = news
        self.applied = applied  # devices' requests in the journal: exactly once
        self.game: Game | None = None
        self.game_log: GameLog | None = None
        self.last_decisions: dict[str, Mark | Pass | Undo] = {}  # each player's, this game
        self.story: GameStory | None = None  # the game's story, once it is over
        self.games_begun = 0
        self.games_finished = 0

    def submit(self, event: Event, request: str | None = None) -> Refusal | None:
        """Check, journal (with the device request it answers), then apply and show one
        event; None when accepted, else why not."""
        game, game_log = self.game, self.game_log
        assert game is not None and game_log is not None  # called only while a game is on
        if isinstance(event, Undo) and not game_log.room_for_undo():
            return Refusal(NO_MORE_UNDO, RULE)  # the log must stay one the tower reads back
        trial = game.copy()
        try:
            trial.apply(event)
        except ChoiceNeeded as needed:
            return Refusal(needed.reason, CHOICE)
        except Refused as refusal:
            return Refusal(refusal.reason, RULE)
        answered = [(event.player, request)] if request and not isinstance(event, Roll) else []
        try:
            notice = game_log.append(event, answered)
        except JournalError as error:
            return Refusal(self.saving.failed(error), STORAGE)  # the table pauses
        self.saving.saved()
        if notice is not None:
            self.news.alert(notice)
        self.applied.remember_all(answered)
        if not isinstance(event, Roll):
            self.last_decisions[event.player] = event
        self.game = trial
        self.games_finished += trial.over
        if trial.over:
            self.story = game_story(game_log)
        self.table.after_event(event, game, trial)
        return None

    def begin(
        self, start: Start, requests: list[tuple[str, str]], seats: Sequence[SeatSpec]
    ) -> Refusal | None:
        """Journal the start (with the device requests of the lucky numbers chosen for it)
        and the seats beside it, then play; the storage guard's words if it cannot be saved."""
        self.close_log()
        try:
            game_log = self.journal.begin(start, requests)
        except JournalError as error:
            return Refusal(self.saving.failed(error), STORAGE)  # the table pauses
        self.saving.saved()
        self._note_seats(game_log, seats)
        self.game_log = game_log
        self.applied.remember_all(requests)
        self.last_decisions, self.story = {}, None
        self.game = Game.start(start)
        self.games_begun += 1
        return None

    def _note_seats(self, game_log: GameLog, seats: Sequence[SeatSpec]) -> None:
        """How each player decides, beside the game's log, for resuming after a power cut."""
        try:
            self.journal.note_seats(game_log.path, list(seats))
        except JournalError as error:
            log.warning("%s; after a restart unknown seats wait for their pads", error)

    def carry_on(self, game: Game, game_log: GameLog) -> None:
        """After a restart: the game read back from its log goes on."""
        self.game, self.game_log = game, game_log
        self.games_begun += 1

    def abandon(self) -> str | None:
        """An unfinished game stays in the journal, marked abandoned so it is never resumed,
        and is set aside; the news of it (None when no game was being played)."""
        game, game_log = self.game, self.game_log
        if not self.playing() or game_log is None:
            return None
        try:
            self.journal.abandon(game_log.path)
        except JournalError as error:
            log.warning("%s", error)  # the newer game's log will hide it from resuming anyway
        assert game is not None  # playing
        title = game_title(game_log.path, [p.name for p in game.players], game.sheet.name)
        self.set_aside()
        return f"set aside unfinished {title} (a new game was asked for on the menu)"

    def played(self) -> Played:
        """Each player's last decision this game, and the game's story once it is over."""
        return Played(dict(self.last_decisions), self.story)

    def close_log(self) -> None:
        """The game's log is closed (its game set aside or the table stopping)."""
        if self.game_log is not None:
            self.game_log.close()
            self.game_log = None

    def set_aside(self) -> None:
        """No game on any more: a new one is being set up (its log closed)."""
        self.close_log()
        self.game, self.story = None, None

    def playing(self) -> bool:
        """True while a game is on (begun and not over)."""
        return self.game is not None and not self.game.over


def game_story(game_log: GameLog) -> GameStory | None:
    """The story of the game `game_log` holds, told once it is over (None: unreadable)."""
    from firmware_py.journal.figures import story_of_log  # (at game over, not at the start)

    return story_of_log(game_log.path, game_log.lines())
