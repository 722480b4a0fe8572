"""What the table shows: the `TableView` of each moment, built from a `Moment`'s values.

One view per change goes to every presenter. Its screen follows the phase (the menu over
anything, the lucky numbers, between games, the game itself, the rolling dice, a lock notice),
except that an alert, and then a storage fault, cover what is on. The table reads its state
once into a `Moment` (plain values) and `view_of` draws it: nothing here reads the table. The
view also carries what presenters other than screens read: the phase, the game, the lucky
numbers, the news, each player's last decision.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from firmware_py.lucky import DraftView
from firmware_py.rules import Game, Mark, Pass, Undo
from firmware_py.seating import SeatSpec
from firmware_py.table import phase as phases
from firmware_py.table.phase import TablePhase
from firmware_py.view import (
    ERROR,
    LOCK,
    LUCKY,
    MENU,
    ROLLING,
    SETUP,
    MenuView,
    Seat,
    TableView,
    table_view,
)
from sheets import load_sheet

PAGE_SECONDS = 4.0  # what does not fit one screen takes turns: a page this long


@dataclass(frozen=True)
class Moment:
    """Everything a view is made of, read from the table at one moment."""

    phase: TablePhase
    alert: str | None  # the words of the alert on the displays, if one is
    fault: str  # why the journal cannot save ("" while it can)
    menu: MenuView | None  # the menu's page, in the MENU phase
    draft: DraftView | None
    game: Game | None
    seats: tuple[SeatSpec, ...]
    variant: str
    screen: str  # between games: ATTRACT or SETUP
    message: str
    join_address: tuple[str, str]  # where phones join, and the table code
    frame: int  # the rolling dice's frame
    notice: bool  # a lock is being announced
    now: float  # the table's clock: which page a screen that pages shows
    version: int
    news: tuple[str, ...]
    news_count: int
    decisions: Mapping[str, Mark | Pass | Undo]  # each player's last this game
    absent: str = ""  # while the table waits for a player whose device has gone: who, a press


def view_of(moment: Moment) -> TableView:
    """What the table shows at `moment`, with what presenters other than screens read."""
    return replace(
        screen_view(moment),
        page=page_of(moment.now),
        phase=moment.phase,
        version=moment.version,
        game=moment.game,
        draft=moment.draft,
        news=moment.news,
        news_count=moment.news_count,
        decisions=moment.decisions,
        absent=moment.absent,
    )


def screen_view(moment: Moment) -> TableView:
    """What the displays show in the moment's phase, unless an alert or a storage fault
    covers it."""
    phase, game = moment.phase, moment.game
    if moment.alert is not None:
        return TableView(ERROR, message=moment.alert)
    if moment.menu is not None:
        return TableView(MENU, menu=moment.menu)
    if moment.fault:
        return TableView(ERROR, message=moment.fault)
    if phase is phases.LUCKY and moment.draft is not None:
        return lucky_view(moment.draft)
    if phase is phases.ATTRACT or game is None:
        return between_games_view(moment)
    return game_view(moment, game)


def game_view(moment: Moment, game: Game) -> TableView:
    """A game's moment: the rolling dice, a lock's notice, or the game as it is; after the
    game, where phones join for the next one."""
    if moment.phase is phases.ROLLING:
        return replace(table_view(game, screen=ROLLING), frame=moment.frame)  # the scores stay
    view = table_view(game, screen=LOCK if moment.notice else None, message=moment.message)
    if moment.phase is not phases.GAME_OVER:
        return view
    url, code = moment.join_address  # between games phones may join: the game over pages
    return replace(view, join_url=url, join_code=code)


def page_of(now: float) -> int:
    """Which page a screen that pages shows at `now` (the names waited for, a long message,
    the winner, scores and join code after a game): the next one every PAGE_SECONDS."""
    return int(now // PAGE_SECONDS)


def lucky_view(draft: DraftView) -> TableView:
    """Longo's lucky numbers chosen so far, and whose are missing."""
    seats = tuple(Seat(name, lucky=tuple(numbers)) for name, numbers in draft.chosen.items())
    missing = tuple(draft.missing())
    return TableView(LUCKY, title=draft.sheet.title, seats=seats, waiting_for=missing)


def between_games_view(moment: Moment) -> TableView:
    """The variant, the seats, and how to start (or join from a phone)."""
    sheet = load_sheet(moment.variant)
    seats = tuple(Seat(seat.name, level=seat.level) for seat in moment.seats)
    message = moment.message or how_to_start(moment)
    url, code = moment.join_address
    return TableView(moment.screen, title=sheet.title, seats=seats, message=message,
                     join_url=url, join_code=code)  # fmt: skip


def how_to_start(moment: Moment) -> str:
    if moment.screen != SETUP:
        return ""
    return "press to start" if moment.seats else "press a button on a pad to join"
