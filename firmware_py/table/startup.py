"""How the table starts: the roll button attached, and the evening picked up where it was.

After a power cut the table carries on with the game that was being played (its journal is
read back, each seat goes to the player it had), or with the lucky numbers being chosen, or
shows the set-up screen. What cannot be read is set aside and said in one sentence; a problem
the hardware reported while starting is shown as an alert.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from drivers.button import RollButton
from firmware_py.app.hardware import Hardware
from firmware_py.journal.history import game_title
from firmware_py.journal.journal import GameLog, JournalError, number_of, read_noted_seats
from firmware_py.rules import Game
from firmware_py.seating import SeatSpec, seat_from_record, seats_for
from firmware_py.show.presenters import Presenter
from firmware_py.table.lucky_step import LuckyStep
from firmware_py.table.requests import AppliedRequests
from firmware_py.table.seats_note import SeatsNote, restore_device_seats
from firmware_py.table.state import Clocked, Journalled, Publishes, Seated, Tells
from firmware_py.table.storage import set_aside_words

log = logging.getLogger(__name__)


class ButtonTable(Clocked, Protocol):
    """What the roll button is attached to: the table's presses, its clock, its hardware."""

    @property
    def hardware(self) -> Hardware: ...
    @property
    def long_press(self) -> float: ...
    def press(self) -> None: ...
    def long_press_menu(self) -> None: ...


class StartingTable(Journalled, Seated, Tells, Publishes, Protocol):
    """What picking the evening up reads of the table (the journal, the hardware's problems,
    the seats, the lucky step, the requests applied) and asks of it: problems and news told,
    the seats' note subscribed, the set-up screen, the game carried on, the moment shown."""

    @property
    def hardware(self) -> Hardware: ...
    @property
    def lucky(self) -> LuckyStep: ...
    @property
    def applied(self) -> AppliedRequests: ...
    def problem(self, words: str) -> None: ...
    def alert(self, words: str) -> None: ...
    def set_message(self, words: str) -> None: ...
    def subscribe(self, presenter: Presenter) -> None: ...
    def show_setup(self) -> None: ...
    def carry_on(self, game: Game, game_log: GameLog, seats: list[SeatSpec]) -> None: ...


def roll_button(table: ButtonTable, loop: asyncio.AbstractEventLoop) -> RollButton:
    """The roll button: gpiozero calls from its own threads, the table hears it on `loop`."""
    hw = table.hardware
    return RollButton(
        hw.button_pin,
        on_press=lambda: loop.call_soon_threadsafe(table.press),
        on_long_press=lambda: loop.call_soon_threadsafe(table.long_press_menu),
        long_press_time=table.long_press,
        debounce_time=hw.button_debounce,
        clock=table.clock,
        pin_factory=hw.button_factory,
    )


def resume_or_attract(table: StartingTable) -> None:
    """Carry on with the last game, or the lucky numbers, or show the set-up screen."""
    set_aside_unreadable(table)
    try:
        resumed = table.journal.resume_latest()
        game_log = GameLog(resumed.path) if resumed is not None else None
    except (JournalError, OSError) as error:
        table.problem(f"the last game cannot be read back: {error}")
        resumed = game_log = None
    for problem in table.hardware.problems:
        table.alert(problem)
    table.subscribe(SeatsNote(table.seating, table.journal))  # every change of seats noted
    if resumed is None:
        table.applied.remember_all(table.journal.last_requests())
        if table.lucky.resume():
            return
        restore_device_seats(table.seating, table.journal)
        table.show_setup()  # the variant, the seats, and how to start
        table.publish()
        return
    table.lucky.forget()  # a game began after the note; it holds the numbers
    game = resumed.game
    assert game_log is not None  # read with the game
    table.applied.remember_all(resumed.requests)
    records, problem = read_noted_seats(resumed.path)
    noted = [seat for record in records if (seat := seat_from_record(record))]
    players = [player.name for player in game.players]
    table.carry_on(game, game_log, seats_for(players, table.seating.seats, noted))
    log.info("resumed %s after %d events", resumed.path.name, resumed.events)
    carrying_on = "carrying on " + game_title(resumed.path, players, game.sheet.name)
    table.set_message(carrying_on)
    table.tell(carrying_on)
    if problem:
        table.alert(
            f"the note of who sat where in game {number_of(resumed.path.name)} {problem}: "
            "the players configured take their seats, the others the first pads that come"
        )
    table.publish()


def set_aside_unreadable(table: StartingTable) -> None:
    """What in the state directory cannot be read is kept aside, said in one sentence."""
    found = table.journal.tidy()
    if found:
        table.alert(set_aside_words(found))
