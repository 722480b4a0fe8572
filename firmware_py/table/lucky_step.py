"""Longo's lucky numbers before the game: pads enter theirs, the tower draws the rest.

The table is in its LUCKY phase while a draft is open. Every number chosen is noted on disk, so
a restart before the game starts loses none; the game begins as soon as every player has theirs.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Protocol

from firmware_py.journal.journal import Journal, JournalError
from firmware_py.lucky import LuckyDraft, Sample, draft_from_note, noted_requests
from firmware_py.rules import Mark, Pass, Start, Undo
from firmware_py.seating import DEVICES, SeatSpec, seats_for
from firmware_py.table.decisions import NOT_NOW, RULE, LuckyNumber, Refusal
from firmware_py.table.news_feed import News
from firmware_py.table.state import Publishes, Seated
from sheets import Sheet, SheetError

log = logging.getLogger(__name__)

LOST_WORDS = "The lucky numbers chosen before the restart are lost: choose them again"


class LuckyTable(Seated, Publishes, Protocol):
    """What the lucky step reads of the table (the seats) and asks of it: the moment shown,
    the device requests of the numbers remembered, the game begun, and after a restart the
    seats and variant of the game being set up taken back."""

    def remember_requests(self, requests: Iterable[tuple[str, str]]) -> None: ...
    def begin(
        self, start: Start, requests: list[tuple[str, str]] | None = None
    ) -> Refusal | None: ...
    def take_seats(self, seats: list[SeatSpec], variant: str) -> None: ...


class LuckyStep:
    """The lucky numbers being chosen for the next longo game (`draft`, None when none are);
    the tower draws with `sample`, its dice's source, notes the numbers in the `journal`,
    and tells the players through `news`."""

    def __init__(self, table: LuckyTable, sample: Sample, journal: Journal, news: News) -> None:
        self.table = table
        self.sample = sample
        self.journal = journal
        self.news = news
        self.draft: LuckyDraft | None = None
        self.requests: list[tuple[str, str]] = []  # (player, device request) of each choice

    def ask(self, sheet: Sheet, names: list[str]) -> None:
        """Pads enter their sheets' lucky numbers; the tower draws them for everyone else."""
        self.draft = draft = LuckyDraft(sheet, names, self.sample)
        for seat in self.table.seating.seats:
            if seat.kind not in DEVICES:
                draft.draw(seat.name)
        self.note()
        self.news.tell("Lucky numbers: enter the two on your sheet on your pad")

    def decide(
        self, event: Mark | Pass | Undo | LuckyNumber, request: str | None = None
    ) -> Refusal | None:
        """A player's lucky number, or taking one back (as the device request `request`);
        None when accepted. The request is noted with the numbers, and goes into the game's
        start, so that repeated after a restart it is not applied again."""
        draft = self.draft
        assert draft is not None  # the table routes here only during the lucky numbers
        name = event.player
        if name not in draft.chosen:
            return Refusal(f"{name} has no seat in the game being set up", NOT_NOW)
        if type(event) is LuckyNumber:
            reason = self._choose(draft, name, event.number)
        elif type(event) is Undo:
            reason = draft.take_back(name)
        else:
            return Refusal("the game has not started: first choose your lucky numbers", NOT_NOW)
        if reason is not None:
            return Refusal(reason, RULE)
        if request is not None:
            self.requests.append((name, request))
            self.table.remember_requests([(name, request)])
        self.note()
        if name not in draft.missing():
            numbers = " and ".join(str(n) for n in draft.chosen[name])
            self.news.tell(f"{name}'s lucky numbers: {numbers}")
        return self.start_when_complete()

    @staticmethod
    def _choose(draft: LuckyDraft, name: str, number: int) -> str | None:
        if number == 0:
            draft.draw(name)
            return None
        return draft.choose(name, number)

    def draw_missing(self) -> None:
        """The roll button during the lucky numbers: draw for everyone still missing, and play."""
        draft = self.draft
        assert draft is not None
        missing = draft.missing()
        for name in missing:
            draft.draw(name)
        self.news.tell(f"The tower draws the lucky numbers of {', '.join(missing)}")
        self.start_when_complete()

    def start_when_complete(self) -> Refusal | None:
        """Begin the game once every player has their numbers (else show who is missing)."""
        draft = self.draft
        assert draft is not None
        if not draft.complete():
            self.table.publish()
            return None
        start = Start(draft.sheet.name, tuple(draft.chosen), draft.numbers())
        return self.table.begin(start, self.requests)

    def note(self) -> None:
        """The numbers chosen so far, on disk: a restart before the game starts loses none."""
        draft = self.draft
        assert draft is not None
        seats = seats_for(draft.chosen, self.table.seating.seats, [])
        try:
            self.journal.note_draft(draft.sheet.name, seats, draft.chosen, self.requests)
        except JournalError as error:
            log.warning("%s; a restart now would ask for the lucky numbers again", error)

    def forget(self) -> None:
        """The game began (or the numbers are lost): no draft, on disk or here."""
        self.draft = None
        self.requests = []
        try:
            self.journal.forget_draft()
        except JournalError as error:
            log.warning("%s", error)  # harmless: a note older than the newest game is ignored

    def resume(self) -> bool:
        """After a restart during the lucky numbers: the same players, with the numbers they
        had chosen, go on choosing. False when there is nothing (readable) to go on with."""
        table = self.table
        try:
            record = self.journal.noted_draft()
            if record is None:
                return False
            seats, draft = draft_from_note(record, self.sample)
            requests = noted_requests(record)
        except (JournalError, KeyError, TypeError, ValueError, SheetError) as error:
            log.warning("lucky numbers noted before the restart: %s", error)
            self.draft = None
            self.journal.set_aside_draft(str(error))  # kept for inspection
            self.news.alert(LOST_WORDS)
            return False
        table.take_seats(seats, draft.sheet.name)
        self.draft = draft
        self.requests = requests
        table.remember_requests(requests)
        self.news.tell("Lucky numbers: go on entering them on your pads")
        self.start_when_complete()  # the last number was in, the game not yet begun: begin
        return True
