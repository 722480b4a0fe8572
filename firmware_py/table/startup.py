"""How the table starts: the roll button attached, and the evening picked up where it was.

After a power cut the table carries on with the game that was being played (its journal is
read back, each seat goes to the player it had), or with the lucky numbers being chosen, or
shows the set-up screen. What cannot be read is set aside and said in one sentence; a problem
the hardware reported while starting is shown as an alert.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from drivers.button import RollButton
from firmware_py.journal.history import game_title
from firmware_py.journal.journal import (
    GameLog,
    Journal,
    JournalError,
    ResumedGame,
    number_of,
    read_noted_seats,
)
from firmware_py.rules import Game
from firmware_py.seating import SeatSpec, seat_from_record, seats_for
from firmware_py.table.hardware import TowerParts
from firmware_py.table.news_feed import News
from firmware_py.table.state import Configured, Publishes, Seated
from firmware_py.table.storage import set_aside_words

log = logging.getLogger(__name__)


class ButtonTable(Configured, Protocol):
    """What the roll button is attached to: the table's short and long presses, how long a
    long one is (its settings), and its clock."""

    @property
    def clock(self) -> Callable[[], float]: ...
    def press(self) -> None: ...
    def long_press_menu(self) -> None: ...


class StartingGames(Seated, Protocol):
    """What picking the evening up asks of the games (`games.Games`): the requests applied
    remembered, the lucky numbers resumed, the game carried on."""

    def remember_requests(self, requests: Iterable[tuple[str, str]]) -> None: ...
    def resume_lucky(self) -> bool: ...
    def carry_on(self, game: Game, game_log: GameLog, seats: list[SeatSpec]) -> None: ...


class StartingTable(Publishes, Protocol):
    """What picking the evening up asks of the table: the set-up screen with the devices'
    seats back, a message, the moment shown."""

    def show_setup(self) -> None: ...
    def set_message(self, words: str) -> None: ...


def roll_button(
    table: ButtonTable,
    loop: asyncio.AbstractEventLoop,
    parts: TowerParts,
) -> RollButton:
    """The roll button: gpiozero calls from its own threads, the table hears it on `loop`."""
    return RollButton(
        parts.button_pin,
        on_press=lambda: loop.call_soon_threadsafe(table.press),
        on_long_press=lambda: loop.call_soon_threadsafe(table.long_press_menu),
        long_press_time=table.settings.long_press,
        debounce_time=parts.button_debounce,
        clock=table.clock,
        pin_factory=parts.button_factory,
    )


def read_back(journal: Journal, news: News) -> tuple[ResumedGame, GameLog] | None:
    """The unfinished game in the journal, if any (what cannot be read is set aside and said)."""
    found = journal.tidy()
    if found:
        news.alert(set_aside_words(found))
    try:
        resumed = journal.resume_latest()
        return None if resumed is None else (resumed, GameLog(resumed.path))
    except (JournalError, OSError) as error:
        news.problem(f"the last game cannot be read back: {error}")
        return None


def resume_or_attract(
    table: StartingTable,
    games: StartingGames,
    journal: Journal,
    problems: Sequence[str],
    news: News,
) -> None:
    """Carry on with the last game, or the lucky numbers, or show the set-up screen; the
    `problems` the hardware reported while starting are alerts."""
    resumed = read_back(journal, news)
    for problem in problems:
        news.alert(problem)
    if resumed is None:
        games.remember_requests(journal.last_requests())
        if games.resume_lucky():
            return
        table.show_setup()  # the variant, the seats, and how to start
        table.publish()
        return
    carry_on(table, games, *resumed, news)


def carry_on(
    table: StartingTable,
    games: StartingGames,
    resumed: ResumedGame,
    game_log: GameLog,
    news: News,
) -> None:
    """The game read back goes on, each seat to the player it had (as noted with the game)."""
    game = resumed.game
    games.remember_requests(resumed.requests)
    records, problem = read_noted_seats(resumed.path)
    noted = [seat for record in records if (seat := seat_from_record(record))]
    players = [player.name for player in game.players]
    games.carry_on(game, game_log, seats_for(players, games.seating.seats, noted))
    log.info("resumed %s after %d events", resumed.path.name, resumed.events)
    carrying_on = "carrying on " + game_title(resumed.path, players, game.sheet.name)
    table.set_message(carrying_on)
    news.tell(carrying_on)
    if problem:
        news.alert(
            f"the note of who sat where in game {number_of(resumed.path.name)} {problem}: "
            "the players configured take their seats, the others the first pads that come"
        )
    table.publish()
