"""What the table shows: the `TableView` of the moment, built from the table's phase.

One view per change goes to every presenter. Its screen follows the phase (the menu over
anything, the lucky numbers, between games, the game itself, the rolling dice, a lock notice),
except that an alert, and then a storage fault, cover what is on. The view also carries what
presenters other than screens read: the phase, the game, the lucky numbers, the news.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from firmware_py.lucky import LuckyDraft
from firmware_py.table import phase as phases
from firmware_py.table.button_menu import ButtonMenu
from firmware_py.table.rolling import Dice
from firmware_py.table.state import Alerting, Clocked, GameOn, Paused, Phased, Seated, Variant
from firmware_py.view import ERROR, LOCK, LUCKY, ROLLING, SETUP, Seat, TableView, table_view
from sheets import load_sheet

PAGE_SECONDS = 4.0  # what does not fit one screen takes turns: a page this long


class ShownTable(Clocked, Phased, GameOn, Variant, Seated, Paused, Alerting, Protocol):
    """All that the view of the moment is made of; read only."""

    @property
    def version(self) -> int: ...
    @property
    def draft(self) -> LuckyDraft | None: ...
    @property
    def news(self) -> Sequence[str]: ...
    @property
    def news_count(self) -> int: ...
    @property
    def button_menu(self) -> ButtonMenu: ...
    @property
    def dice(self) -> Dice: ...
    @property
    def message(self) -> str: ...
    @property
    def screen(self) -> str: ...
    @property
    def join_address(self) -> tuple[str, str]: ...
    def lock_notice_on(self) -> bool: ...


def view_of(table: ShownTable) -> TableView:
    """What the table shows now, with what presenters other than screens read."""
    return replace(
        screen_view(table),
        page=page_of(table),
        phase=table.phase,
        version=table.version,
        game=table.game,
        draft=table.draft,
        news=tuple(table.news),
        news_count=table.news_count,
    )


def screen_view(table: ShownTable) -> TableView:
    """What the displays show in the table's phase."""
    alert = table.alert_shown()
    if alert is not None:
        return TableView(ERROR, message=alert)
    if table.phase is phases.MENU:
        return table.button_menu.view()
    if table.fault:
        return TableView(ERROR, message=table.fault)
    if table.phase is phases.LUCKY:
        assert table.draft is not None  # the LUCKY phase is the draft's
        return lucky_view(table.draft)
    game = table.game
    if table.phase is phases.ATTRACT or game is None:
        return between_games_view(table)
    if table.phase is phases.ROLLING:
        frame = table.dice.frame
        return replace(table_view(game, screen=ROLLING), frame=frame)  # the scores stay
    notice = table.lock_notice_on()
    view = table_view(game, screen=LOCK if notice else None, message=table.message)
    if table.phase is not phases.GAME_OVER:
        return view
    url, code = table.join_address  # between games phones may join: the game over pages
    return replace(view, join_url=url, join_code=code)


def page_of(table: Clocked) -> int:
    """Which page a screen that pages shows (the names waited for, a long message, the
    winner, scores and join code after a game): the next one every PAGE_SECONDS."""
    return int(table.clock() // PAGE_SECONDS)


def lucky_view(draft: LuckyDraft) -> TableView:
    """Longo's lucky numbers chosen so far, and whose are missing."""
    seats = tuple(Seat(name, lucky=tuple(numbers)) for name, numbers in draft.chosen.items())
    missing = tuple(draft.missing())
    return TableView(LUCKY, title=draft.sheet.title, seats=seats, waiting_for=missing)


def between_games_view(table: ShownTable) -> TableView:
    """The variant, the seats, and how to start (or join from a phone)."""
    sheet = load_sheet(table.variant)
    seating = table.seating
    seats = tuple(Seat(name, level=seating.level_of(name)) for name in seating.names())
    message = table.message or how_to_start(table)
    url, code = table.join_address
    return TableView(table.screen, title=sheet.title, seats=seats, message=message,
                     join_url=url, join_code=code)  # fmt: skip


def how_to_start(table: ShownTable) -> str:
    if table.screen != SETUP:
        return ""
    return "press to start" if table.seating.seats else "press a button on a pad to join"
