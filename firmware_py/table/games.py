"""A game's life at the table: set up, its lucky numbers chosen, begun, refereed, carried on
after a restart, and set aside when a new one replaces it.

A new game takes the seats whose pad or phone is here, and the variant chosen. Longo with pads
or phones first asks for the players' lucky numbers (`lucky_step`); otherwise the tower draws
them. The game begins once its start is in the journal, and every event goes through the
referee (`referee.Referee`). `Games` holds both and is the lucky step's port; the table sees a
game begin and each event applied through its own port (`GamesTable`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from firmware_py.journal.journal import GameLog, Journal
from firmware_py.lucky import DraftView, Sample, draw_all
from firmware_py.rules import Game, Start, seat_pads
from firmware_py.seating import SeatingView, SeatSpec
from firmware_py.table.decisions import Refusal
from firmware_py.table.lucky_step import LuckyStep
from firmware_py.table.news_feed import News
from firmware_py.table.referee import Referee, RefereeTable
from firmware_py.table.requests import AppliedRequests
from firmware_py.table.seats import Decision
from firmware_py.table.state import Publishes, Seated, Variant
from firmware_py.table.storage import StorageGuard
from firmware_py.table.timers import Schedule
from sheets import load_sheet


class GamesTable(Seated, Variant, Publishes, RefereeTable, Protocol):
    """What a game's life reads of the table (the seats, the variant) and asks of it: a
    message for the displays, the seats of a game picked up after a restart, a game's start
    and each event shown (`after_event`), the set-up shown when no game can start."""

    def set_message(self, words: str) -> None: ...
    def take_seats(self, seats: list[SeatSpec], variant: str) -> None: ...
    def game_begun(self, game: Game) -> None: ...
    def show_setup(self) -> None: ...


class Games:
    """The game on and its referee, the lucky numbers of the next longo game, and the pause
    while the journal cannot save (`storage`, with the phase's `timers`); the tower draws
    lucky numbers with `sample` (its dice's source), `here(seat)` says whether a seat's device
    is here for a new game, `applied` keeps the device requests applied, and `news` tells the
    players what happened."""

    def __init__(
        self,
        table: GamesTable,
        journal: Journal,
        news: News,
        timers: Schedule,
        sample: Sample,
        here: Callable[[SeatSpec], bool],
        applied: AppliedRequests,
    ) -> None:
        self.table = table
        self.news = news
        self.sample = sample
        self.here = here
        self.storage = StorageGuard(self, journal, news, timers)
        self.referee = Referee(table, journal, self.storage, news, applied)
        self.lucky = LuckyStep(self, sample, journal, news)

    # ---- what the lucky step and the storage guard read and ask (their ports) ----------------

    @property
    def seating(self) -> SeatingView:
        return self.table.seating

    def publish(self) -> None:
        self.table.publish()

    def remember_requests(self, requests: Iterable[tuple[str, str]]) -> None:
        self.referee.applied.remember_all(requests)

    def take_seats(self, seats: list[SeatSpec], variant: str) -> None:
        self.table.take_seats(seats, variant)

    def playing(self) -> bool:
        return self.referee.playing()

    def resume_lucky(self) -> bool:
        return self.lucky.resume()

    # ---- a game's life -----------------------------------------------------------------------

    @property
    def draft(self) -> DraftView | None:
        """Longo's lucky numbers being chosen before a game (None outside that step)."""
        return self.lucky.draft

    def new_game(self) -> None:
        """A new game with the seats and variant chosen (or the lucky numbers asked for first).
        An unfinished game it replaces is set aside, also when no new one can start: then the
        set-up shows why."""
        table = self.table
        names = self.players_here()
        self.abandon_unfinished()
        if not names:
            table.show_setup()
            table.set_message(
                "every player's pad or phone has left: join again to play"
                if table.seating.seats
                else "nobody is seated: press a button on a pad to join"
            )
            table.publish()
            return
        sheet = load_sheet(table.variant)
        if sheet.has_lucky_numbers and table.seating.any_pads():
            self.referee.set_aside()
            table.set_message("")
            self.lucky.ask(sheet, names)
            table.publish()
            return
        lucky = draw_all(sheet, names, self.sample) if sheet.has_lucky_numbers else None
        self.begin(Start(table.variant, tuple(names), lucky, seat_pads(sheet, names)))

    def players_here(self) -> list[str]:
        """The players of the next game: every seat but those whose pad or phone has left (they
        sit this one out, and play again once their device is back). A game on goes on as it
        is: this is asked only when a new one starts."""
        names = []
        for seat in self.table.seating.seats:
            if self.here(seat):
                names.append(seat.name)
            else:
                self.news.tell(f"{seat.name}'s {seat.kind} has left: {seat.name} sits this one out")
        return names

    def abandon_unfinished(self) -> None:
        """An unfinished game a new one replaces stays in the journal, marked abandoned."""
        words = self.referee.abandon()
        if words is not None:
            self.news.tell(words)

    def begin(self, start: Start, requests: list[tuple[str, str]] | None = None) -> Refusal | None:
        """Journal the start (with the device requests of the lucky numbers chosen for it) and
        play; the storage fault's words if it cannot be saved."""
        refusal = self.referee.begin(start, requests or [], self.table.seating.seats)
        if refusal is not None:
            return refusal
        self.lucky.forget()
        assert self.referee.game is not None  # just begun
        self.table.game_begun(self.referee.game)
        return None

    def decide_lucky(self, event: Decision, request: str | None = None) -> Refusal | None:
        return self.lucky.decide(event, request)

    def carry_on(self, game: Game, game_log: GameLog, seats: list[SeatSpec]) -> None:
        """After a restart: the game read back from its log goes on, with these seats."""
        self.lucky.forget()  # a game began after the lucky numbers' note; it holds them
        self.referee.carry_on(game, game_log)
        self.table.take_seats(seats, self.table.variant)

    def saving_works_again(self) -> None:
        """A game whose start could not be saved begins, else the moment is planned afresh."""
        draft = self.lucky.draft
        if draft is not None and draft.complete():
            self.lucky.start_when_complete()
        else:
            self.table.publish()
