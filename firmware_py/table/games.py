"""A game's life at the table: set up, begun in the journal, set aside when a new one starts.

A new game takes the seats and the variant chosen. Longo with pads or phones first asks for the
players' lucky numbers (`lucky_step`); otherwise the tower draws them. A game begins only once
its start is in the journal (fsynced), with how each player decides noted beside it for a
restart. An unfinished game a new one replaces stays in the journal, marked abandoned.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from firmware_py.journal.history import game_title
from firmware_py.journal.journal import GameLog, JournalError
from firmware_py.lucky import draw_all
from firmware_py.rules import Game, Start
from firmware_py.view import ATTRACT
from sheets import load_sheet

if TYPE_CHECKING:
    from firmware_py.table.core import Table

log = logging.getLogger(__name__)


def new_game(table: Table) -> None:
    """A new game with the seats and variant chosen (or the lucky numbers asked for first)."""
    table.button_menu.close()
    if not table.seats:
        table.message = "nobody is seated: press a button on a pad to join"
        table.publish()
        return
    names = players_here(table)
    if not names:
        table.message = "every player's pad or phone has left: join again to play"
        table.publish()
        return
    abandon(table)
    sheet = load_sheet(table.variant)
    if sheet.has_lucky_numbers and table.seating.any_pads():
        close_log(table)
        table.game = None
        table.message = ""
        table.lucky.ask(sheet, names)
        table.publish()
        return
    dice = table.hardware.dice
    lucky = draw_all(sheet, names, dice.sample) if sheet.has_lucky_numbers else None
    begin(table, Start(table.variant, tuple(names), lucky))


def players_here(table: Table) -> list[str]:
    """The players of the next game: every seat but those whose pad or phone has left (they
    sit this one out, and play again once their device is back). A game on goes on as it
    is: this is asked only when a new one starts."""
    names = []
    for seat in table.seats:
        if table.here(seat):
            names.append(seat.name)
        else:
            table.tell(f"{seat.name}'s {seat.kind} has left: {seat.name} sits this one out")
    return names


def begin(table: Table, start: Start, requests: list[tuple[str, str]] | None = None) -> bool:
    """Journal the start (with the device requests of the lucky numbers chosen for it) and
    play; False (and the problem shown) if it cannot be saved."""
    close_log(table)
    try:
        table.game_log = game_log = table.journal.begin(start, requests)
    except JournalError as error:
        table.storage.failed(error)  # the table pauses until saving works
        return False
    table.storage.saved()
    note_seats(table, game_log)
    table.applied.remember_all(requests or [])
    table.last_decisions = {}
    table.lucky.forget()
    table.notice_until = 0.0  # a lock of the last game is no news in this one
    table.game = game = Game.start(start)
    table.screen = ATTRACT
    table.message = ""
    table.tell(f"New game of {game.sheet.title}: {', '.join(start.players)}")
    table.announce(started=True)
    table.publish()
    return True


def close_log(table: Table) -> None:
    if table.game_log is not None:
        table.game_log.close()
        table.game_log = None


def note_seats(table: Table, game_log: GameLog) -> None:
    """How each player decides, beside the game's log, for resuming after a power cut."""
    try:
        table.journal.note_seats(game_log.path, table.seats)
    except JournalError as error:
        log.warning("%s; after a restart unknown seats wait for their pads", error)


def abandon(table: Table) -> None:
    """An unfinished game stays in the journal, marked abandoned so it is never resumed."""
    if not table.playing() or table.game_log is None:
        return
    try:
        table.journal.abandon(table.game_log.path)
    except JournalError as error:
        log.warning("%s", error)  # the newer game's log will hide it from resuming anyway
    game = table.game
    assert game is not None  # playing
    title = game_title(table.game_log.path, [p.name for p in game.players], game.sheet.name)
    table.tell(f"set aside unfinished {title} (a new game was asked for on the menu)")
    close_log(table)
    table.game = None
