"""The table: one evening of games as a small state machine around the referee.

Everything happens on one asyncio loop. Inputs arrive as calls: the roll button (`press`,
`long_press_menu`, from gpiozero's threads through `loop.call_soon_threadsafe`), and the
decisions of seats of every kind, each kind through the `seats.SeatDoor` the table makes for
it (`door`). The table is in one phase at a time (`phase.TablePhase`): `_next_phase` says
which one its state calls for, and `enter` is the only place it changes, ending the old
phase's timers. A game's life (its lucky numbers, its start, every event through the referee:
checked on a copy, journalled, then the game) is `games.Games`'. Each change is published as
one `TableView` to the displays first (`outputs.Screens`) and then to every presenter
subscribed (lights, pads, phones, terminal), which the table knows only as callables.

The table's parts live beside it, each with one job, handed the table as its own narrow port
(a Protocol of what it reads and the few actions it asks for) and, when made, what does not
change while the table runs (clock, settings, journal, news, timers): the games (`games`,
with the referee, the lucky numbers and the storage guard), the seats' doors (`seats`), the
roll button's menu (`button_menu`), the roll (`rolling`) and thrown dice (`thrown`), news
(`news_feed`), what is published (`moments`, `showing`), what happens next by itself
(`planner`), start-up (`startup`), the chores (`housekeeping`). No part writes the table's
fields: this module alone does, in the named actions the ports list.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from drivers.button import RollButton
from firmware_py.journal.journal import Journal
from firmware_py.lucky import DraftView
from firmware_py.rules import ACTION1, ACTION2, OVER, ROLL, Event, Game
from firmware_py.seating import COMPUTER, Seating, SeatKind, SeatSpec
from firmware_py.table import phase as phases
from firmware_py.table import seats, showing, startup
from firmware_py.table.absence import Absence
from firmware_py.table.button_menu import ButtonMenu
from firmware_py.table.computers import ComputerPlayers
from firmware_py.table.decisions import Refusal
from firmware_py.table.games import Games
from firmware_py.table.hardware import TowerParts
from firmware_py.table.housekeeping import housekeeping
from firmware_py.table.moments import Moments
from firmware_py.table.news_feed import NewsFeed
from firmware_py.table.outputs import (
    NoScreens,
    NoServiceManager,
    Presenter,
    Screens,
    ServiceManager,
)
from firmware_py.table.pad_naming import PadNamer, PadNaming
from firmware_py.table.phase import TablePhase
from firmware_py.table.planner import BetweenGames, InGame, Planner
from firmware_py.table.requests import AppliedRequests
from firmware_py.table.rolling import Roller
from firmware_py.table.seats import Decision, Doors, SeatDoor
from firmware_py.table.seats_note import SeatsNote, restore_device_seats
from firmware_py.table.settings import TableSettings
from firmware_py.table.thrown import ThrownDice
from firmware_py.table.timers import PhaseTimers
from firmware_py.view import ATTRACT, SETUP, TableView
from sheets import COLOURS

log = logging.getLogger(__name__)

LOCK_NOTICE_SECONDS = 3.0  # the main display announces a lock this long
GAME_PHASES = {ROLL: phases.ROLL, ACTION1: phases.ACTION1, ACTION2: phases.ACTION2,
               OVER: phases.GAME_OVER}  # fmt: skip


class Table:
    """The referee at the table: owns the phase, the seats and the parts that play a game.
    `settings` are `TableSettings`' fields (pace, action1_timer, long_press, ...)."""

    def __init__(self, *, seats: list[SeatSpec], variant: str, journal: Journal,
                 hardware: TowerParts, screens: Screens | None = None,
                 service: ServiceManager | None = None,
                 clock: Callable[[], float] = time.monotonic, **settings: Any) -> None:  # fmt: skip
        self.settings = TableSettings(**settings)
        self.seating, self.variant, self.journal = Seating(seats), variant, journal
        self.hardware, self.clock = hardware, clock
        self.screens, self.service = screens or NoScreens(), service or NoServiceManager()
        self.phase = TablePhase.ATTRACT
        self.screen = ATTRACT  # what the main display shows between games (or SETUP)
        self.message = ""
        self.join_address = ("", "")  # where phones join and the table code (the web server)
        self.notice_until = 0.0  # LOCK_NOTICE: when the notice ends
        self.button: RollButton | None = None
        self.started = False  # `start` has read the journal back
        self._stopped = asyncio.Event()
        self._make_parts()

    def _make_parts(self) -> None:
        """The table's parts, each handed the table as its port and what it needs besides."""
        journal, clock, dice = self.journal, self.clock, self.hardware.dice
        self.timers = timers = PhaseTimers()
        self.newsfeed = news = NewsFeed(clock, self.set_message, self.show)
        self.moments = Moments(self.screens)
        applied = AppliedRequests()  # devices' requests applied: exactly once

        def here(seat: SeatSpec) -> bool:  # (the doors are made next)
            return self.doors.here(seat)

        self.absence = absence = Absence(self, clock, news, timers, here)  # devices gone
        self.doors = Doors(self, self.seating, applied.earlier, news, absence)
        self.games = Games(self, journal, news, timers, dice.sample, self.doors.here, applied)
        self.button_menu = ButtonMenu(self, self.seating, clock)  # MENU
        self.roller = Roller(self, dice, timers)  # ROLLING
        self.thrown = ThrownDice(self, self.hardware.pixels, news)  # electronic dice, thrown
        self.computers = ComputerPlayers(self, self.doors.door(COMPUTER), timers)
        in_game = InGame(self, timers, self.thrown, self.computers.decide, absence)
        self.planner = Planner(self, BetweenGames(self, timers), in_game)

    # ---- what the parts read -----------------------------------------------------------------

    @property
    def game(self) -> Game | None:
        return self.games.referee.game

    @property
    def draft(self) -> DraftView | None:  # Longo's lucky numbers being chosen, before a game
        return self.games.lucky.draft

    @property
    def fault(self) -> str:  # why the table is paused: the journal cannot save ("": it can)
        return self.games.storage.fault

    @property
    def games_begun(self) -> int:
        return self.games.referee.games_begun

    @property
    def games_finished(self) -> int:
        return self.games.referee.games_finished

    def playing(self) -> bool:
        return self.games.referee.playing()

    def lock_notice_on(self) -> bool:
        """True while a row's lock is being announced (a game on, not over)."""
        return self.clock() < self.notice_until and self.playing()

    # ---- the seats and the next game ---------------------------------------------------------

    def door(self, kind: SeatKind) -> SeatDoor:  # for whatever holds seats of `kind`
        return self.doors.door(kind)

    def seat_joined(self, seat: SeatSpec) -> None:  # between games: the set-up shows who joined
        self.screen, self.message = SETUP, f"{seat.name} joins the table"
        self.tell(self.message)
        self.publish()

    def pad_given(self) -> None:
        if self.draft is not None:
            self.games.lucky.note()  # the lucky numbers' note says which pad holds each seat

    def take_seats(self, seats: list[SeatSpec], variant: str) -> None:  # picked up after a restart
        self.seating.seats, self.variant = seats, variant

    def seat_round(self, seats: list[SeatSpec] | None, words: str) -> None:  # None: its end
        if seats is not None:  # a tournament's round
            self.seating.seat_only(seats)
        self.screen, self.message = SETUP, words
        self.publish()

    def choose_variant(self, variant: str) -> None:
        self.variant = variant

    def name_pads_by(self, namer: PadNamer) -> None:  # the menu's "name a pad" (assembly)
        self.button_menu.naming = PadNaming(namer)

    def know_players(self, names: Sequence[str]) -> None:  # a league's players, from the bus
        self.button_menu.naming.know(names)

    def show_setup(self) -> None:
        """Between games: the seats devices held are back, the main display shows the set-up."""
        restore_device_seats(self.seating, self.journal)
        self.screen = SETUP

    def new_game(self) -> None:
        """A new game with the seats and variant chosen (`Games.new_game`)."""
        self.button_menu.close()
        self.games.new_game()

    def game_begun(self, game: Game) -> None:
        """A game began: the news, the start announced, the game shown."""
        self.notice_until = 0.0  # a lock of the last game is no news in this one
        self.screen, self.message = ATTRACT, ""
        self.tell(f"New game of {game.sheet.title}: {', '.join(p.name for p in game.players)}")
        self.moments.announce(started=True)
        self.publish()

    def submit(self, event: Event, request: str | None = None) -> Refusal | None:
        """One event checked, journalled, applied, shown (`Referee.submit`); None, or why not."""
        return self.games.referee.submit(event, request)

    def after_event(self, event: Event, before: Game, game: Game) -> None:
        """What an event changed, told and announced: a lock's notice, the end."""
        self.newsfeed.tell_event(event, before, game)
        new_locks = tuple(COLOURS[row] for row in game.locked[len(before.locked) :])
        if new_locks:
            self.notice_until = self.clock() + LOCK_NOTICE_SECONDS
        self.moments.announce(new_locks=new_locks)
        if game.over:
            self.moments.announce(ended=True)
        self.publish()

    # ---- start and stop ----------------------------------------------------------------------

    async def start(self, *, games: int | None = None) -> None:
        """Get ready to play: the roll button, the dice, the evening picked up where it was
        (devices' doors open after this: no hello finds the table before its seats are back)."""
        loop = asyncio.get_running_loop()
        self.timers.attach(loop)
        self.planner.between.games_wanted = games
        self.button = startup.roll_button(self, loop, self.hardware)
        await self.thrown.connect()
        self.subscribe(SeatsNote(self.seating, self.journal))  # every change of seats noted
        problems, news = self.hardware.problems, self.newsfeed
        startup.resume_or_attract(self, self.games, self.journal, problems, news)
        self.games.storage.check()
        self.started = True

    async def run(self, *, games: int | None = None) -> None:
        """Run until `stop()` (or until `games` games have finished)."""
        if not self.started:
            await self.start(games=games)
        self.service.ready("the tower is ready")
        self.computers.prepare()  # after READY=1: the start does not wait for it
        alerts = self.newsfeed.alert_shown
        chores = asyncio.create_task(housekeeping(self, self.screens, alerts, self.service))
        try:
            await self._stopped.wait()
        finally:
            chores.cancel()
            self.games.storage.stop()
            self.timers.end_phase()
            await self.thrown.close()
            if self.button is not None:
                self.button.close()
            if self.games.referee.game_log is not None:
                self.games.referee.game_log.close()  # kept: what was played can still be read

    def stop(self) -> None:
        self._stopped.set()

    # ---- input -------------------------------------------------------------------------------

    def press(self) -> None:
        """The roll button: in the menu the next line or value, else `go_on`. On a dark
        display a press only wakes it: nobody acts on a screen they could not read."""
        if self.screens.wake():
            return
        if self.phase is not phases.MENU:
            self.go_on()
        elif self.button_menu.short_press():
            self.publish()

    def go_on(self) -> None:
        """A short press outside the menu: draw the lucky numbers still missing, start a game,
        roll (computer players press this way too), or play on without those gone."""
        if self.phase is phases.LUCKY:
            self.games.lucky.draw_missing()
        elif self.phase in (phases.ATTRACT, phases.GAME_OVER):
            self.new_game()
        elif self.game is not None and self.game.phase is ROLL and self.phase is not phases.ROLLING:
            self.thrown.stop_reading()  # the button is the fallback to thrown dice
            self.roller.roll()
        else:
            self.absence.press()  # players whose device has gone: the game goes on without

    def long_press_menu(self) -> None:
        """A long press opens the menu, or in it chooses; on a dark display it only wakes it."""
        if self.screens.wake() or self.phase is phases.ROLLING:
            return  # (rolling: the dice are on their way; the menu can wait a moment)
        self.button_menu.long_press()
        self.publish()

    def close_idle_menu(self) -> None:
        if self.button_menu.close_if_idle():
            self.publish()

    def decide(self, event: Decision) -> Refusal | None:
        """A person's decision, whatever their seat; None when accepted, else why not."""
        self.touched()
        return self.route(event)

    def route(self, event: Decision, request: str | None = None) -> Refusal | None:
        return seats.route(self, self.games, event, request)

    def touched(self) -> None:
        self.screens.touched()

    # ---- phases and what the table publishes -------------------------------------------------

    def _next_phase(self) -> TablePhase:
        """The phase the table's state calls for now (the one place that decides it)."""
        game = self.game
        if self.button_menu.open is not None:
            return phases.MENU
        if self.draft is not None:
            return phases.LUCKY
        if game is None or (game.over and self.screen == SETUP):
            return phases.ATTRACT
        if self.phase is phases.ROLLING and game.phase is ROLL:
            return phases.ROLLING
        return phases.LOCK_NOTICE if self.lock_notice_on() else GAME_PHASES[game.phase]

    def enter(self, phase: TablePhase) -> None:
        """Move to `phase` (the only place the phase changes): the old phase's timers end."""
        if phase is self.phase:
            return
        if not phases.can_move(self.phase, phase):
            log.error("the table moved from %s to %s, which it never should", self.phase, phase)
        self.timers.end_phase()
        if self.phase is phases.LOCK_NOTICE:
            self.notice_until = 0.0
        self.phase = phase

    def view(self) -> TableView:
        """What the table shows now, with what presenters other than screens read."""
        menu = self.button_menu.page() if self.phase is phases.MENU else None
        alert = self.newsfeed.alert_shown()
        return showing.view_of(showing.Moment(
            phase=self.phase, alert=alert, fault=self.fault, menu=menu,
            draft=self.draft, game=self.game, seats=tuple(self.seating.seats),
            variant=self.variant, screen=self.screen, message=self.message,
            join_address=self.join_address, frame=self.roller.frame,
            notice=self.lock_notice_on(), now=self.clock(), version=self.moments.version,
            news=tuple(self.newsfeed.lines), news_count=self.newsfeed.count,
            played=self.games.referee.played(), absent=self.absence.waiting_notice(),
        ))  # fmt: skip

    def subscribe(self, presenter: Presenter) -> None:
        """`presenter` gets the table's view after every change, after the displays."""
        self.moments.subscribe(presenter)

    def publish(self) -> None:
        """A change: the phase it calls for, the view to every presenter, then what is planned."""
        self.enter(self._next_phase())
        self.moments.next_change()
        self.moments.present(self.view())
        self.planner.plan()

    def show(self, **changes: Any) -> None:  # a change of what is shown only (no phase, no plan)
        self.moments.next_change()
        self.moments.present(replace(self.view(), **changes))

    def show_frame(self) -> None:  # another frame of the same change (rolling dice): no new version
        self.moments.present(self.view())

    def redraw_displays(self) -> None:  # the displays alone draw again (a page turned)
        self.screens(self.view())

    def set_message(self, words: str) -> None:
        self.message = words

    def show_join_address(self, url: str, code: str) -> None:  # where phones join, the table code
        self.join_address = (url, code)
        self.publish()

    def tell(self, words: str) -> None:  # a line of news (kept with the last NEWS_KEPT), shown next
        self.newsfeed.tell(words)

    def end_alert(self) -> None:  # the alert's time is up: its words leave, what is on shows again
        if self.message == self.newsfeed.alert_words():
            self.message = ""
        self.show()
