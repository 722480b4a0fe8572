"""How the table starts: the roll button attached, and the evening picked up where it was.

After a power cut the table carries on with the game that was being played (its journal is
read back, each seat goes to the player it had), or with the lucky numbers being chosen, or
shows the set-up screen. What cannot be read is set aside and said in one sentence; a problem
the hardware reported while starting is shown as an alert.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from drivers.button import RollButton
from firmware_py.journal.history import game_title
from firmware_py.journal.journal import GameLog, JournalError, number_of, read_noted_seats
from firmware_py.seating import seat_from_record, seats_for
from firmware_py.table.seats_note import SeatsNote, restore_device_seats
from firmware_py.table.storage import set_aside_words
from firmware_py.view import SETUP

if TYPE_CHECKING:
    import asyncio

    from firmware_py.table.core import Table

log = logging.getLogger(__name__)


def attach_button(table: Table, loop: asyncio.AbstractEventLoop) -> None:
    """The roll button: gpiozero calls from its own threads, the table hears it on `loop`."""
    hw = table.hardware
    hw.button = RollButton(
        hw.button_pin,
        on_press=lambda: loop.call_soon_threadsafe(table.press),
        on_long_press=lambda: loop.call_soon_threadsafe(table.long_press_menu),
        long_press_time=table.long_press,
        debounce_time=hw.button_debounce,
        clock=table.clock,
        pin_factory=hw.button_factory,
    )


def resume_or_attract(table: Table) -> None:
    """Carry on with the last game, or the lucky numbers, or show the set-up screen."""
    set_aside_unreadable(table)
    try:
        resumed = table.journal.resume_latest()
        game_log = GameLog(resumed.path) if resumed is not None else None
    except (JournalError, OSError) as error:
        table.newsfeed.problem(f"the last game cannot be read back: {error}")
        resumed = game_log = None
    for problem in table.hardware.problems:
        table.alert(problem)
    table.subscribe(
        SeatsNote(table.seating, table.journal)
    )  # from now on, every change of seats is noted
    if resumed is None:
        table.applied.remember_all(table.journal.last_requests())
        if table.lucky.resume():
            return
        restore_device_seats(table.seating, table.journal)
        table.screen = SETUP  # the variant, the seats, and how to start
        table.publish()
        return
    table.lucky.forget()  # a game began after the note; it holds the numbers
    table.game = game = resumed.game
    table.game_log = game_log
    table.applied.remember_all(resumed.requests)
    records, problem = read_noted_seats(resumed.path)
    noted = [seat for record in records if (seat := seat_from_record(record))]
    players = [player.name for player in game.players]
    table.seating.seats = seats_for(players, table.seats, noted)
    log.info("resumed %s after %d events", resumed.path.name, resumed.events)
    table.message = "carrying on " + game_title(resumed.path, players, game.sheet.name)
    table.tell(table.message)
    if problem:
        table.alert(
            f"the note of who sat where in game {number_of(resumed.path.name)} {problem}: "
            "the players configured take their seats, the others the first pads that come"
        )
    table.publish()


def set_aside_unreadable(table: Table) -> None:
    """What in the state directory cannot be read is kept aside, said in one sentence."""
    found = table.journal.tidy()
    if found:
        table.alert(set_aside_words(found))
