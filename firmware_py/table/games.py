"""A game's life at the table: set up, its start journalled, set aside when a new one starts.

A new game takes the seats and the variant chosen. Longo with pads or phones first asks for the
players' lucky numbers (`lucky_step`); otherwise the tower draws them. A game begins only once
its start is in the journal (fsynced), with how each player decides noted beside it for a
restart (`Table.begin` journals it here and then plays). An unfinished game a new one replaces
stays in the journal, marked abandoned.
"""

from __future__ import annotations

import logging
from typing import Protocol

from firmware_py.journal.history import game_title
from firmware_py.journal.journal import GameLog, Journal, JournalError
from firmware_py.lucky import draw_all
from firmware_py.rules import Start
from firmware_py.seating import SeatSpec
from firmware_py.table.button_menu import ButtonMenu
from firmware_py.table.lucky_step import LuckyStep
from firmware_py.table.state import GameOn, Journalled, Publishes, Seated, Tells, Variant
from firmware_py.table.storage import StorageGuard
from sheets import load_sheet

log = logging.getLogger(__name__)


class GamesTable(Seated, Variant, GameOn, Journalled, Tells, Publishes, Protocol):
    """What a new game reads of the table (the seats, the variant, the game on and its log,
    the journal) and asks of it: the menu closed, a message, news, the lucky numbers asked
    for, the game on set aside, the new one begun, the moment shown."""

    @property
    def game_log(self) -> GameLog | None: ...
    @property
    def storage(self) -> StorageGuard: ...
    @property
    def button_menu(self) -> ButtonMenu: ...
    @property
    def lucky(self) -> LuckyStep: ...
    def here(self, seat: SeatSpec) -> bool: ...
    def playing(self) -> bool: ...
    def sample(self, population: list[int], count: int) -> list[int]: ...
    def set_message(self, words: str) -> None: ...
    def set_aside_game(self) -> None: ...
    def close_log(self) -> None: ...
    def begin(self, start: Start, requests: list[tuple[str, str]] | None = None) -> bool: ...


def new_game(table: GamesTable) -> None:
    """A new game with the seats and variant chosen (or the lucky numbers asked for first)."""
    table.button_menu.close()
    if not table.seating.seats:
        table.set_message("nobody is seated: press a button on a pad to join")
        table.publish()
        return
    names = players_here(table)
    if not names:
        table.set_message("every player's pad or phone has left: join again to play")
        table.publish()
        return
    abandon(table)
    sheet = load_sheet(table.variant)
    if sheet.has_lucky_numbers and table.seating.any_pads():
        table.set_aside_game()
        table.set_message("")
        table.lucky.ask(sheet, names)
        table.publish()
        return
    lucky = draw_all(sheet, names, table.sample) if sheet.has_lucky_numbers else None
    table.begin(Start(table.variant, tuple(names), lucky))


def players_here(table: GamesTable) -> list[str]:
    """The players of the next game: every seat but those whose pad or phone has left (they
    sit this one out, and play again once their device is back). A game on goes on as it
    is: this is asked only when a new one starts."""
    names = []
    for seat in table.seating.seats:
        if table.here(seat):
            names.append(seat.name)
        else:
            table.tell(f"{seat.name}'s {seat.kind} has left: {seat.name} sits this one out")
    return names


def journal_start(
    table: GamesTable, start: Start, requests: list[tuple[str, str]] | None
) -> GameLog | None:
    """The start in the journal (with the device requests of the lucky numbers chosen for
    it), and the seats noted beside it; None (and the table paused) if it cannot be saved."""
    table.close_log()
    try:
        game_log = table.journal.begin(start, requests)
    except JournalError as error:
        table.storage.failed(error)  # the table pauses until saving works
        return None
    table.storage.saved()
    note_seats(table.journal, game_log, table.seating.seats)
    return game_log


def note_seats(journal: Journal, game_log: GameLog, seats: list[SeatSpec]) -> None:
    """How each player decides, beside the game's log, for resuming after a power cut."""
    try:
        journal.note_seats(game_log.path, seats)
    except JournalError as error:
        log.warning("%s; after a restart unknown seats wait for their pads", error)


def abandon(table: GamesTable) -> None:
    """An unfinished game stays in the journal, marked abandoned so it is never resumed."""
    game, game_log = table.game, table.game_log
    if not table.playing() or game_log is None:
        return
    try:
        table.journal.abandon(game_log.path)
    except JournalError as error:
        log.warning("%s", error)  # the newer game's log will hide it from resuming anyway
    assert game is not None  # playing
    title = game_title(game_log.path, [p.name for p in game.players], game.sheet.name)
    table.tell(f"set aside unfinished {title} (a new game was asked for on the menu)")
    table.set_aside_game()
