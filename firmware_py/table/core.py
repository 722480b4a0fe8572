"""The table: one evening of games as a small state machine around the referee.

Everything happens on one asyncio loop. Inputs arrive as calls: the roll button (`press`,
`long_press_menu`, from gpiozero's threads through `loop.call_soon_threadsafe`), and the
decisions of seats of every kind (pads, phones, keyboards, computer players), each kind through
its `seats.SeatDoor`. The table is in one phase at a time (`phase.TablePhase`): `_next_phase`
says which one its state calls for, and `enter` is the only place it changes, ending the old
phase's timers. Every rules event is checked by the engine on a copy of the game, written to
the journal (fsynced), and only then becomes the game. Each change is published as one
`TableView` to the presenters attached (displays, lights, pads, terminal), which the table
knows only as callables.

The table's parts live beside it, each with one job: the seats' doors (`seats`), the roll
button's menu (`button_menu`), the dice (`rolling`), a game's start and end (`games`), what is
shown (`showing`), news and alerts (`news_feed`), what happens next by itself (`planner`),
start-up (`startup`), the chores (`housekeeping`). Each part is handed the table as its own
port (a Protocol of what it reads, from `state`, and the few actions it asks for), and never
writes the table's fields: this module alone does, in the named actions parts call
(`set_message`, `seat_joined`, `begin`, `carry_on`, ...).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from firmware_py.app import systemd
from firmware_py.app.hardware import Hardware
from firmware_py.journal.journal import GameLog, Journal, JournalError
from firmware_py.lucky import LuckyDraft
from firmware_py.menu import Menu
from firmware_py.rules import (
    ROLL,
    ChoiceNeeded,
    Event,
    Game,
    Mark,
    Pass,
    Phase,
    Refused,
    Roll,
    Start,
    Undo,
)
from firmware_py.seating import COMPUTER, Seating, SeatKind, SeatSpec
from firmware_py.show.presenters import DisplayPower, DisplayPresenter, LightPresenter, Presenter
from firmware_py.table import games, seats, showing, startup
from firmware_py.table import phase as phases
from firmware_py.table.button_menu import ButtonMenu
from firmware_py.table.computers import ComputerPlayers
from firmware_py.table.decisions import CHOICE, NOT_NOW, RULE, STORAGE, Refusal
from firmware_py.table.housekeeping import housekeeping
from firmware_py.table.lucky_step import LuckyStep
from firmware_py.table.news_feed import NewsFeed
from firmware_py.table.phase import TablePhase
from firmware_py.table.planner import Planner
from firmware_py.table.requests import AppliedRequests
from firmware_py.table.rolling import Dice
from firmware_py.table.seats import Decision, SeatDoor
from firmware_py.table.storage import StorageGuard
from firmware_py.table.timers import PhaseTimers
from firmware_py.view import ATTRACT, SETUP, TableView
from sheets import COLOURS

log = logging.getLogger(__name__)

LOCK_NOTICE_SECONDS = 3.0  # the main display announces a lock this long

GAME_PHASES = {
    Phase.ROLL: phases.ROLL,
    Phase.ACTION1: phases.ACTION1,
    Phase.ACTION2: phases.ACTION2,
    Phase.OVER: phases.GAME_OVER,
}


class Table:
    """The referee at the table: owns the phase, the game, the journal and the seats."""

    def __init__(
        self,
        *,
        seats: list[SeatSpec],
        variant: str,
        journal: Journal,
        hardware: Hardware,
        pace: float = 0.8,
        action1_timer: float = 0.0,
        long_press: float = 1.5,
        idle_dim: float = 300.0,
        idle_blank: float = 1800.0,
        clock: Callable[[], float] = time.monotonic,
        look_ahead: int = 0,
        autoplay: bool = False,
    ) -> None:
        self.seating = Seating(seats)
        self.variant = variant
        self.journal = journal
        self.hardware = hardware
        self.pace = pace
        self.action1_timer = action1_timer
        self.long_press = long_press
        self.clock = clock
        self.look_ahead = look_ahead  # playouts per option for computer players; 0: rule of thumb
        # Computer players alone at the table start their next game by themselves: only the
        # simulated tower on a PC, so that a newcomer sees a game. A kiosk waits for people.
        self.autoplay = autoplay
        self.phase = TablePhase.ATTRACT
        self.timers = PhaseTimers()
        self.game: Game | None = None
        self.game_log: GameLog | None = None
        self.applied = AppliedRequests()  # devices' requests in the journal: exactly once
        self.last_decisions: dict[str, Mark | Pass | Undo] = {}  # each player's, this game
        self.button_menu = ButtonMenu(self)  # MENU
        self.lucky = LuckyStep(self, self.sample)  # LUCKY
        self.dice = Dice(self, hardware)  # ROLLING, and thrown electronic dice
        self.notice_until = 0.0  # LOCK_NOTICE: when the notice ends
        self.computers = ComputerPlayers(self, SeatDoor(self, COMPUTER))
        self.planner = Planner(self, self.dice, self.computers.decide)
        self.storage = StorageGuard(self)  # a failed write pauses the table until saving works
        self.newsfeed = NewsFeed(clock, self.set_message, self.show)
        self.power = DisplayPower(hardware.displays, clock, idle_dim, idle_blank)
        self.screen = ATTRACT  # what the main display shows between games (or SETUP)
        self.message = ""
        self.join_address = ("", "")  # where phones join and the table code, set by the web server
        # Per kind of device seat: whether the device holding a player's seat is here now.
        self.devices_here: dict[SeatKind, Callable[[str], bool]] = {}
        self.games_finished = 0
        self.version = 0  # counts the changes published, so a delayed action can tell it is stale
        self._displays = DisplayPresenter(hardware.displays)
        self._presenters: list[Presenter] = [self._displays, LightPresenter(hardware.lights)]
        self._changed: dict[str, Any] = {}  # what the next publication announces
        self.started = False  # `start` has read the journal back
        self._stopped = asyncio.Event()

    # ---- presenters, seats, what the parts keep ----------------------------------------------

    def subscribe(self, presenter: Presenter) -> None:
        """`presenter` gets the table's view after every change, after the displays."""
        self._presenters.append(presenter)

    @property
    def seats(self) -> list[SeatSpec]:
        return self.seating.seats

    @property
    def draft(self) -> LuckyDraft | None:
        """Longo's lucky numbers being chosen before a game (None outside that step)."""
        return self.lucky.draft

    @property
    def menu(self) -> Menu | None:
        """The roll button's menu, open in the MENU phase (None while it is closed)."""
        return self.button_menu.open

    @property
    def fault(self) -> str:
        """Why the table is paused: the journal cannot save ("" while saving works)."""
        return self.storage.fault

    def alert_shown(self) -> str | None:
        """The words of the alert on the displays now; None when no alert is."""
        return self.newsfeed.alert_shown()

    @property
    def news(self) -> deque[str]:
        """What happened, newest last (the last NEWS_KEPT lines)."""
        return self.newsfeed.lines

    @property
    def news_count(self) -> int:
        """Lines of news told since the start (more than are kept)."""
        return self.newsfeed.count

    def sample(self, population: list[int], count: int) -> list[int]:
        """`count` different values of `population`, drawn by the tower's dice's source (so
        that nobody can predict the lucky numbers the tower draws)."""
        return self.hardware.dice.sample(population, count)

    def kind_of(self, name: str) -> SeatKind:
        """How the seat of `name` decides: computer, keyboard, pad or phone."""
        return self.seating.kind_of(name)

    # ---- what the parts ask the table to change (core alone writes its fields) ------------

    def set_message(self, words: str) -> None:
        """Words the displays show with the next view (a join, a time-out, a dice problem)."""
        self.message = words

    def seat_joined(self, seat: SeatSpec) -> None:
        """A new seat between games, at the end of the table: the set-up screen shows the
        seats and who joined."""
        self.seating.add(seat)
        self.screen = SETUP
        self.message = f"{seat.name} joins the table"
        self.tell(self.message)
        self.publish()

    def saving_works_again(self) -> None:
        """The journal saves again after a fault: a game whose start could not be saved
        begins (its lucky numbers all in), else the moment is shown and planned afresh."""
        draft = self.draft
        if draft is not None and draft.complete():
            self.lucky.start_when_complete()
        else:
            self.publish()

    def take_seats(self, seats: list[SeatSpec], variant: str) -> None:
        """The seats and variant of a game being picked up after a restart."""
        self.seating.seats = seats
        self.variant = variant

    def show_setup(self) -> None:
        """Between games the main display shows the set-up: the variant, the seats, how to
        start."""
        self.screen = SETUP

    def carry_on(self, game: Game, game_log: GameLog, seats: list[SeatSpec]) -> None:
        """After a restart: the game read back from its log goes on, with these seats."""
        self.game, self.game_log = game, game_log
        self.seating.seats = seats

    def choose_variant(self, variant: str) -> None:
        """The variant of the next game (the menu's variant page)."""
        self.variant = variant

    # ---- start and stop ----------------------------------------------------------------------

    async def start(self, *, games: int | None = None) -> None:
        """Get ready to play: the roll button, the dice, and the evening picked up where it
        was (the journal read back, every seat given back). Devices' doors open only after
        this, so that no hello finds the table before its seats are restored."""
        loop = asyncio.get_running_loop()
        self.timers.attach(loop)
        self.planner.games_wanted = games
        self.hardware.button = startup.roll_button(self, loop)
        await self.dice.connect()
        startup.resume_or_attract(self)
        self.storage.check()
        self.started = True

    async def run(self, *, games: int | None = None) -> None:
        """Run the table until `stop()` (or until `games` games have finished); started
        first unless `start` was awaited already."""
        if not self.started:
            await self.start(games=games)
        systemd.ready("the tower is ready")
        chores = asyncio.create_task(housekeeping(self))
        try:
            await self._stopped.wait()
        finally:
            chores.cancel()
            self.storage.stop()
            self.timers.end_phase()
            await self.dice.close()
            if self.game_log is not None:
                self.game_log.close()  # kept, closed: what was played can still be read

    def stop(self) -> None:
        self._stopped.set()

    # ---- input -------------------------------------------------------------------------------

    def press(self) -> None:
        """The roll button: in the menu the next line or value; else start a game (or draw the
        lucky numbers still missing), roll the dice, or go on after the game. On a dimmed or
        blank display a press only wakes it: nobody acts on a screen they could not read."""
        if self.power.wake():
            return
        if self.phase is phases.MENU:
            self.button_menu.short_press()
        else:
            self.go_on()

    def go_on(self) -> None:
        """What a short press means outside the menu (computer players press this way too)."""
        if self.phase is phases.LUCKY:
            self.lucky.draw_missing()
        elif self.phase in (phases.ATTRACT, phases.GAME_OVER):
            self.new_game()
        elif self.game is not None and self.game.phase is ROLL and self.phase is not phases.ROLLING:
            self.dice.roll()

    def long_press_menu(self) -> None:
        """A long press opens the menu; in the menu it chooses the line (or keeps the value).
        On a dimmed or blank display it only wakes it."""
        if self.power.wake():
            return
        if self.phase is phases.ROLLING:
            return  # the dice are on their way; the menu can wait a moment
        self.button_menu.long_press()
        self.publish()

    def close_idle_menu(self) -> None:
        """The menu closes by itself when nobody has pressed for a while."""
        if self.button_menu.close_if_idle():
            self.publish()

    def decide(self, event: Decision) -> Refusal | None:
        """A person's decision, whatever their seat; None when accepted, else the referee's
        refusal. Seats of one kind decide through their `SeatDoor`; a device's request id,
        checked for exactly once by its seats, comes that way (`seats.devices.RemoteSeats`)."""
        self.power.touched()
        return seats.route(self, event)

    def give_pad(self, name: str, pad: str) -> None:
        """The pad of ident `pad` holds `name`'s seat now (noted with the next game)."""
        self.seating.give_pad(name, pad)
        if self.draft is not None:
            self.lucky.note()

    def here(self, seat: SeatSpec) -> bool:
        """True when `seat` can play a new game now: its pad or phone has not left (computer
        and keyboard seats are always here)."""
        device_here = self.devices_here.get(seat.kind)
        return device_here is None or device_here(seat.name)

    def why_not_join(self) -> Refusal | None:
        """Why a new seat cannot join now, in a player's words (None: it can): a game is on,
        or its lucky numbers are being chosen, or five players are seated."""
        if self.playing() or self.draft is not None:
            return Refusal("a game is being played: you can join when it ends", NOT_NOW)
        if self.seating.full():
            return Refusal("the table is full: five players", RULE)
        return None

    # ---- the referee -------------------------------------------------------------------------

    def submit(self, event: Event, request: str | None = None) -> Refusal | None:
        """Check, journal (with the device request it answers), then apply and show one
        event; None when accepted, else why not."""
        game, game_log = self.game, self.game_log
        assert game is not None and game_log is not None  # called only while a game is on
        trial = game.copy()
        try:
            trial.apply(event)
        except ChoiceNeeded as needed:
            return Refusal(needed.reason, CHOICE)
        except Refused as refusal:
            return Refusal(refusal.reason, RULE)
        answered = [(event.player, request)] if request and not isinstance(event, Roll) else []
        try:
            notice = game_log.append(event, answered)
        except JournalError as error:
            return Refusal(self.storage.failed(error), STORAGE)  # the table pauses
        self.storage.saved()
        if notice is not None:
            self.alert(notice)
        self.applied.remember_all(answered)
        if not isinstance(event, Roll):
            self.last_decisions[event.player] = event
        self.game = trial
        self._after(event, game, trial)
        return None

    def _after(self, event: Event, before: Game, game: Game) -> None:
        """What the event changed, told and announced: a lock's notice, the end."""
        self.newsfeed.tell_event(event, before, game)
        new_locks = tuple(COLOURS[row] for row in game.locked[len(before.locked) :])
        if new_locks:
            self.notice_until = self.clock() + LOCK_NOTICE_SECONDS
        self.announce(new_locks=new_locks)
        if game.over:
            self.games_finished += 1
            self.announce(ended=True)
        self.publish()

    def new_game(self) -> None:
        """A new game with the seats and variant chosen (`games.new_game`)."""
        games.new_game(self)

    def begin(self, start: Start, requests: list[tuple[str, str]] | None = None) -> bool:
        """Journal the start (`games.journal_start`, with the device requests of the lucky
        numbers chosen for it) and play; False (and the problem shown) if it cannot be saved."""
        game_log = games.journal_start(self, start, requests)
        if game_log is None:
            return False
        self.game_log = game_log
        self.applied.remember_all(requests or [])
        self.last_decisions = {}
        self.lucky.forget()
        self.notice_until = 0.0  # a lock of the last game is no news in this one
        self.game = game = Game.start(start)
        self.screen = ATTRACT
        self.message = ""
        self.tell(f"New game of {game.sheet.title}: {', '.join(start.players)}")
        self.announce(started=True)
        self.publish()
        return True

    def close_log(self) -> None:
        """The game's log is closed (its game set aside or the table stopping)."""
        if self.game_log is not None:
            self.game_log.close()
            self.game_log = None

    def set_aside_game(self) -> None:
        """No game on any more: a new one is being set up (its log closed)."""
        self.close_log()
        self.game = None

    def playing(self) -> bool:
        """True while a game is on (begun and not over)."""
        return self.game is not None and not self.game.over

    # ---- the phases --------------------------------------------------------------------------

    def _next_phase(self) -> TablePhase:
        """The phase the table's state calls for now (the one place that decides it)."""
        if self.menu is not None:
            return phases.MENU
        if self.draft is not None:
            return phases.LUCKY
        game = self.game
        if game is None or (game.over and self.screen == SETUP):
            return phases.ATTRACT
        if self.phase is phases.ROLLING and game.phase is ROLL:
            return phases.ROLLING
        if self.lock_notice_on():
            return phases.LOCK_NOTICE
        return GAME_PHASES[game.phase]

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

    def lock_notice_on(self) -> bool:
        """True while a row's lock is being announced (a game on, not over)."""
        return self.clock() < self.notice_until and self.game is not None and not self.game.over

    # ---- what the table publishes ------------------------------------------------------------

    def view(self) -> TableView:
        """What the table shows now, with what presenters other than screens read."""
        return showing.view_of(self)

    def publish(self) -> None:
        """A change: the phase it calls for, the view to every presenter, then what the
        computer players and timers of that phase do next."""
        self.enter(self._next_phase())
        self.version += 1
        self.present(self.view())
        self.planner.plan()

    def show(self, **changes: Any) -> None:
        """A change of what is shown only (no new phase, nothing planned), with `changes` to
        the view (a problem's screen)."""
        self.version += 1
        self.present(replace(self.view(), **changes))

    def announce(self, **changes: Any) -> None:
        """What the next view published announces: a game started, rows locked, the end."""
        self._changed.update(changes)

    def present(self, view: TableView) -> None:
        """`view` (with what this change announces: a start, locks, an end) to every presenter."""
        if self._changed:
            view = replace(view, **self._changed)
            self._changed = {}
        for presenter in self._presenters:
            presenter(view)

    def redraw_displays(self) -> None:
        """The displays draw the view again (a screen that pages shows its next page); the
        other presenters hear nothing: nothing changed."""
        self._displays(self.view())

    def tell(self, words: str) -> None:
        """One line of news, kept with the last NEWS_KEPT (shown with the next change)."""
        self.newsfeed.tell(words)

    def say(self, words: str) -> None:
        """News for the table that changes no game state (dice found, dice missing, ...)."""
        self.newsfeed.say(words)

    def alert(self, words: str) -> None:
        """A problem the players can act on: on the displays for a few seconds, and in the news."""
        self.newsfeed.alert(words)

    def problem(self, words: str) -> None:
        """Something the tower cannot do (save, read back): on the displays until the next
        change, and in the log."""
        self.newsfeed.problem(words)

    def end_alert(self) -> None:
        """The alert's time is up: its words leave the screens, and what is on is shown again
        (the terminal redraws too)."""
        if self.message == self.newsfeed.alert_words():
            self.message = ""
        self.version += 1
        self.present(self.view())

    def rest_displays(self) -> None:
        """Dim after `idle_dim` seconds without input, blank after `idle_blank`."""
        self.power.rest()
