"""The table: one evening of games as a small state machine around the referee.

Everything happens on one asyncio loop. Inputs arrive as calls: the roll button (`press`,
`long_press_menu`, from gpiozero's threads through `loop.call_soon_threadsafe`), and seats'
decisions (`decide`, `join`: pads, keyboards, computer players). The table is in one phase at a
time (`phase.TablePhase`); `_enter` is the only place it changes, and ends the old phase's
timers. Every rules event is checked by the engine on a copy of the game, written to the
journal (fsynced), and only then becomes the game. Each change is published as one `TableView`
to the presenters attached (displays, lights, pads, terminal), which the table knows only as
callables.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from drivers.button import RollButton
from drivers.pixels import DiceEvent
from firmware_py import systemd
from firmware_py.hardware import Hardware
from firmware_py.history import game_title
from firmware_py.journal import GameLog, Journal, JournalError, noted_seats
from firmware_py.lucky import LuckyDraft, draw_all
from firmware_py.menu import BACK, CONFIRM, LIST, NEW_GAME, PLAYERS, VARIANT, Menu, menu_view
from firmware_py.news import describe, final_words
from firmware_py.rules import (
    ACTION1,
    ACTION2,
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
from firmware_py.seating import COMPUTER, Seating, SeatKind, SeatSpec, seats_for
from firmware_py.table import phase as phases
from firmware_py.table.computers import ComputerPlayers
from firmware_py.table.decisions import (
    CHOICE,
    NOT_NOW,
    RULE,
    STALE,
    STORAGE,
    LuckyNumber,
    Refusal,
)
from firmware_py.table.lucky_step import LuckyStep
from firmware_py.table.phase import TablePhase
from firmware_py.table.presenters import (
    DisplayPower,
    DisplayPresenter,
    LightPresenter,
    Presenter,
)
from firmware_py.table.requests import AppliedRequests
from firmware_py.table.storage import StorageGuard, set_aside_words
from firmware_py.table.timers import PhaseTimers
from firmware_py.view import (
    ATTRACT,
    ERROR,
    LOCK,
    LUCKY,
    MENU,
    ROLLING,
    SETUP,
    Seat,
    TableView,
    table_view,
)
from sheets import COLOURS, load_sheet, sheet_names

log = logging.getLogger(__name__)

ROLL_FRAMES = 4  # rolling-animation frames before the dice show
THROW_WAIT = 30.0  # seconds to wait for thrown electronic dice before saying which are missing
LOCK_NOTICE_SECONDS = 3.0  # the main display announces a lock this long
ALERT_SECONDS = 5.0  # a problem players can act on (a pad missing, a die lost) shows this long
NEWS_KEPT = 200  # lines of news the table keeps: a kiosk runs for years

Decision = Mark | Pass | Undo | LuckyNumber
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
        self.menu: Menu | None = None  # the roll button's menu, in the MENU phase
        self.lucky = LuckyStep(self)
        self.computers = ComputerPlayers(self)
        self.storage = StorageGuard(self)  # a failed write pauses the table until saving works
        self.power = DisplayPower(hardware.displays, clock, idle_dim, idle_blank)
        self.screen = ATTRACT  # what the main display shows between games (or SETUP)
        self.message = ""
        self.join_address = ("", "")  # where phones join and the table code, set by the web server
        self.news: deque[str] = deque(maxlen=NEWS_KEPT)  # what happened, newest last
        self.news_count = 0  # lines of news told since the start (more than are kept)
        self.games_finished = 0
        self.version = 0  # counts the changes published, so a delayed action can tell it is stale
        self._presenters: list[Presenter] = [
            DisplayPresenter(hardware.displays),
            LightPresenter(hardware.lights),
        ]
        self._frame = 0  # ROLLING: the animation's frame
        self._notice_until = 0.0  # LOCK_NOTICE: when the notice ends
        self._alert: tuple[str, float] = ("", 0.0)  # words on the displays until this time
        self._changed: dict[str, Any] = {}  # what the next publication announces
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped = asyncio.Event()
        self._games_wanted: int | None = None
        self._dice_task: asyncio.Task[None] | None = None

    # ---- presenters and seats ----------------------------------------------------------------

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

    def kind_of(self, name: str) -> SeatKind:
        """How the seat of `name` decides: computer, keyboard or pad."""
        return self.seating.kind_of(name)

    # ---- start and stop ----------------------------------------------------------------------

    async def run(self, *, games: int | None = None) -> None:
        """Run the table until `stop()` (or until `games` games have finished)."""
        self._loop = asyncio.get_running_loop()
        self.timers.attach(self._loop)
        self._games_wanted = games
        self._attach_button()
        await self._start_pixels()
        self._resume_or_attract()
        self.storage.check()
        systemd.ready("the tower is ready")
        housekeeping = asyncio.create_task(self._housekeeping())
        try:
            await self._stopped.wait()
        finally:
            housekeeping.cancel()
            self.storage.stop()
            self.timers.end_phase()
            self._stop_reading_dice()
            if self.hardware.pixels is not None:
                await self.hardware.pixels.close()
            if self.game_log is not None:
                self.game_log.close()

    def stop(self) -> None:
        self._stopped.set()

    def _attach_button(self) -> None:
        hw, loop = self.hardware, self._loop
        assert loop is not None
        hw.button = RollButton(
            hw.button_pin,
            on_press=lambda: loop.call_soon_threadsafe(self.press),
            on_long_press=lambda: loop.call_soon_threadsafe(self.long_press_menu),
            long_press_time=self.long_press,
            debounce_time=hw.button_debounce,
            clock=self.clock,
            pin_factory=hw.button_factory,
        )

    async def _start_pixels(self) -> None:
        pixels = self.hardware.pixels
        if pixels is None:
            return
        pixels.on_event = self._dice_event
        try:
            await pixels.start()
        except Exception as error:  # no Bluetooth adapter, BlueZ not running, ...
            self.hardware.pixels = None
            self._problem(f"the electronic dice cannot be read ({error}); the button rolls")

    def _dice_event(self, event: DiceEvent) -> None:
        """Electronic dice news: problems (out of range, low battery, lost) are alerts."""
        if event.kind in ("out of range", "low battery", "connection lost"):
            self.alert(event.message)
        else:
            self.say(event.message)

    def _resume_or_attract(self) -> None:
        self._set_aside_unreadable()
        try:
            resumed = self.journal.resume_latest()
            game_log = GameLog(resumed.path) if resumed is not None else None
        except (JournalError, OSError) as error:
            self._problem(f"the last game cannot be read back: {error}")
            resumed = game_log = None
        for problem in self.hardware.problems:
            self.alert(problem)
        if resumed is None:
            self.applied.remember_all(self.journal.last_requests())
            if self.lucky.resume():
                return
            self.screen = SETUP  # the variant, the seats, and how to start
            self.publish()
            return
        self.lucky.forget()  # a game began after the note; it holds the numbers
        self.game = resumed.game
        self.game_log = game_log
        self.applied.remember_all(resumed.requests)
        noted = [SeatSpec(**seat) for seat in noted_seats(resumed.path)]
        self.seating.seats = seats_for([p.name for p in self.game.players], self.seats, noted)
        log.info("resumed %s after %d events", resumed.path.name, resumed.events)
        players = [player.name for player in self.game.players]
        self.message = "carrying on " + game_title(resumed.path, players, self.game.sheet.name)
        self.tell(self.message)
        self.publish()

    def _set_aside_unreadable(self) -> None:
        """What in the state directory cannot be read is kept aside, said in one sentence."""
        found = self.journal.tidy()
        if found:
            self.alert(set_aside_words(found))

    # ---- input -------------------------------------------------------------------------------

    def press(self) -> None:
        """The roll button: in the menu the next line or value; else start a game (or draw the
        lucky numbers still missing), roll the dice, or go on after the game."""
        self.power.touched()
        if self.phase is phases.MENU:
            self._menu_next()
        else:
            self._go_on()

    def _go_on(self) -> None:
        """What a short press means outside the menu (computer players press this way too)."""
        if self.phase is phases.LUCKY:
            self.lucky.draw_missing()
        elif self.phase in (phases.ATTRACT, phases.GAME_OVER):
            self.new_game()
        elif self.game is not None and self.game.phase is ROLL and self.phase is not phases.ROLLING:
            self._stop_reading_dice()  # the button is the fallback to thrown dice
            self._start_roll()

    def long_press_menu(self) -> None:
        """A long press opens the menu; in the menu it chooses the line (or keeps the value)."""
        self.power.touched()
        if self.phase is phases.ROLLING:
            return  # the dice are on their way; the menu can wait a moment
        if self.menu is None:
            self.menu = Menu(self.clock())
        else:
            self._menu_choose()
        self.publish()

    def decide(self, event: Decision, request: str | None = None) -> Refusal | None:
        """A player's decision; None when accepted, else the referee's refusal. `request` is
        the id a device sent it under (see `requests`): a request applied before, also before
        a restart, is accepted again without being applied twice; a replayed old one is
        refused."""
        self.power.touched()
        if request is not None and self.applied.applied(request):
            return None
        if request is not None and self.applied.stale(request):
            return Refusal("an old request, answered long ago: nothing was changed", STALE)
        if self.draft is not None:
            return self.lucky.decide(event, request)
        if isinstance(event, LuckyNumber):
            return Refusal("lucky numbers are chosen before a longo game starts", NOT_NOW)
        if self.game is None:
            return Refusal("no game is being played; press the roll button to start one", NOT_NOW)
        if self.game.over:
            return Refusal("this game is over; press the roll button for a new one", NOT_NOW)
        return self.submit(event, request)

    def join(self, name: str, kind: SeatKind, pad: str = "") -> Refusal | None:
        """A new seat (held by the pad of ident `pad`, if any), between games only; None when
        seated, else why not. The main display shows the seats and who joined."""
        refusal = self.why_not_join()
        if refusal is None and self.seating.taken(name):
            refusal = Refusal(f"{name} is already at the table", RULE)
        if refusal is not None:
            return refusal
        self.seating.add(SeatSpec(name, kind, pad))
        self.screen = SETUP
        self.message = f"{name} joins the table"
        self.tell(self.message)
        self.publish()
        return None

    def give_pad(self, name: str, pad: str) -> None:
        """The pad of ident `pad` holds `name`'s seat now (noted with the next game)."""
        self.seating.give_pad(name, pad)
        if self.draft is not None:
            self.lucky.note()

    def why_not_join(self) -> Refusal | None:
        """Why a new seat cannot join now, in a player's words (None: it can): a game is on,
        or its lucky numbers are being chosen, or five players are seated."""
        if self._playing() or self.draft is not None:
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
        """Tell the table what the event changed: news, locks, penalties, the end."""
        self.tell(describe(event, before))
        for old, new in zip(before.players, game.players, strict=True):
            if new.penalties > old.penalties:
                self.tell(f"{new.name} crossed nothing and takes penalty {new.penalties}")
        new_locks = tuple(COLOURS[row] for row in game.locked[len(before.locked) :])
        for colour in new_locks:
            self._notice_until = self.clock() + LOCK_NOTICE_SECONDS
            self.tell(f"{colour} is locked: the {colour} die leaves the game")
        self._changed.update(new_locks=new_locks)
        if game.over:
            self.games_finished += 1
            self.tell(final_words(game))
            self._changed.update(ended=True)
        self.publish()

    def new_game(self) -> None:
        """A new game with the seats and variant chosen. An unfinished game is left in the
        journal as abandoned. Longo with pads first asks for the players' lucky numbers."""
        self.menu = None
        if not self.seats:
            self.message = "nobody is seated: press a button on a pad to join"
            self.publish()
            return
        self._abandon()
        names = self.seating.names()
        sheet = load_sheet(self.variant)
        if sheet.has_lucky_numbers and self.seating.any_pads():
            self._close_game_log()
            self.game = None
            self.message = ""
            self.lucky.ask(sheet, names)
            self.publish()
            return
        lucky = (
            draw_all(sheet, names, self.hardware.dice.sample) if sheet.has_lucky_numbers else None
        )
        self.begin(Start(self.variant, tuple(names), lucky))

    def begin(self, start: Start, requests: list[tuple[str, str]] | None = None) -> bool:
        """Journal the start (with the device requests of the lucky numbers chosen for it) and
        play; False (and the problem shown) if it cannot be saved."""
        self._close_game_log()
        try:
            self.game_log = self.journal.begin(start, requests)
        except JournalError as error:
            self.storage.failed(error)  # the table pauses until saving works
            return False
        self.storage.saved()
        self._note_seats(self.game_log)
        self.applied.remember_all(requests or [])
        self.last_decisions = {}
        self.lucky.forget()
        self._notice_until = 0.0  # a lock of the last game is no news in this one
        self.game = game = Game.start(start)
        self.screen = ATTRACT
        self.message = ""
        self.tell(f"New game of {game.sheet.title}: {', '.join(start.players)}")
        self._changed.update(started=True)
        self.publish()
        return True

    def _close_game_log(self) -> None:
        if self.game_log is not None:
            self.game_log.close()
            self.game_log = None

    def _note_seats(self, game_log: GameLog) -> None:
        """How each player decides, beside the game's log, for resuming after a power cut."""
        try:
            self.journal.note_seats(game_log.path, self.seats)
        except JournalError as error:
            log.warning("%s; after a restart unknown seats wait for their pads", error)

    def _abandon(self) -> None:
        """An unfinished game stays in the journal, marked abandoned so it is never resumed."""
        if not self._playing() or self.game_log is None:
            return
        try:
            self.journal.abandon(self.game_log.path)
        except JournalError as error:
            log.warning("%s", error)  # the newer game's log will hide it from resuming anyway
        self.tell("The unfinished game is set aside")
        self._close_game_log()
        self.game = None

    def _playing(self) -> bool:
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
        if self.clock() < self._notice_until and not game.over:
            return phases.LOCK_NOTICE
        return GAME_PHASES[game.phase]

    def _enter(self, phase: TablePhase) -> None:
        """Move to `phase`: the old phase's timers end with it."""
        if phase is self.phase:
            return
        if not phases.can_move(self.phase, phase):
            log.error("the table moved from %s to %s, which it never should", self.phase, phase)
        self.timers.end_phase()
        if self.phase is phases.LOCK_NOTICE:
            self._notice_until = 0.0
        self.phase = phase

    # ---- the menu ----------------------------------------------------------------------------

    def _menu_next(self) -> None:
        """A short press in the menu: the next line, the next value, or yes to a new game."""
        menu = self.menu
        assert menu is not None
        menu.touch(self.clock())
        if menu.page == LIST:
            menu.next_item()
        elif menu.page == VARIANT:
            names = sheet_names()
            self.variant = names[(names.index(self.variant) + 1) % len(names)]
        elif menu.page == PLAYERS:
            self.seating.one_more()
        else:  # CONFIRM: yes
            self.new_game()
            return
        self.publish()

    def _menu_choose(self) -> None:
        """A long press in the menu: choose the line, keep the value, or no to a new game."""
        menu = self.menu
        assert menu is not None
        menu.touch(self.clock())
        if menu.page != LIST:
            menu.back_to_list()
        elif menu.item == NEW_GAME:
            if self._playing():
                menu.open_page(CONFIRM)
            else:
                self.new_game()
        elif menu.item in (VARIANT, PLAYERS):
            menu.open_page(menu.item)
        elif menu.item == BACK:
            self.menu = None

    def close_idle_menu(self) -> None:
        """The menu closes by itself when nobody has pressed for a while."""
        if self.menu is not None and self.menu.idle(self.clock()):
            self.menu = None
            self.publish()

    # ---- rolling -----------------------------------------------------------------------------

    def _start_roll(self) -> None:
        self._enter(phases.ROLLING)
        self._animate(0)

    def _animate(self, frame: int) -> None:
        """One frame of the rolling dice; after the last, the roll itself."""
        game = self.game
        assert game is not None
        if frame < ROLL_FRAMES:
            self._frame = frame
            self._present(self.view())
            self.timers.once(("frame", frame), self.pace / 8, self._animate, frame + 1)
            return
        white, colours = self.hardware.dice.roll(game.dice_in_play())
        if self.submit(Roll(white, colours)) is not None:
            self._enter(phases.ROLL)  # not saved: press again
            self.publish()

    def _read_thrown_dice(self) -> None:
        if self._dice_task is None or self._dice_task.done():
            assert self._loop is not None
            self._dice_task = self._loop.create_task(self._thrown_dice())

    async def _thrown_dice(self) -> None:
        """Electronic dice: the roll is whatever they show once every die in play has landed."""
        pixels = self.hardware.pixels
        while pixels is not None and self.game is not None and self.game.phase is ROLL:
            in_play = self.game.dice_in_play()
            try:
                white, colours = await pixels.wait_for_roll(in_play, timeout=THROW_WAIT)
            except TimeoutError as waiting:  # the dice say which of them are still missing
                self.say(str(waiting))
                continue
            self.submit(Roll(white, colours))
            return

    def _stop_reading_dice(self) -> None:
        if self._dice_task is not None:
            self._dice_task.cancel()
            self._dice_task = None

    # ---- what the table publishes ------------------------------------------------------------

    def view(self) -> TableView:
        """What the table shows now, with what presenters other than screens read."""
        return replace(
            self._screen_view(),
            phase=self.phase,
            version=self.version,
            game=self.game,
            draft=self.draft,
            news=tuple(self.news),
            news_count=self.news_count,
        )

    def _screen_view(self) -> TableView:
        words, until = self._alert
        if self.clock() < until:
            return TableView(ERROR, message=words)
        if self.phase is phases.MENU:
            return self._menu_view()
        if self.storage.fault:
            return TableView(ERROR, message=self.storage.fault)
        if self.phase is phases.LUCKY:
            return self._lucky_view()
        game = self.game
        if self.phase is phases.ATTRACT or game is None:
            return self._between_games_view()
        if self.phase is phases.ROLLING:
            return replace(table_view(game, screen=ROLLING), frame=self._frame)  # scores stay
        notice = self.clock() < self._notice_until and not game.over
        return table_view(game, screen=LOCK if notice else None, message=self.message)

    def _menu_view(self) -> TableView:
        assert self.menu is not None
        names = sheet_names()
        page = menu_view(
            self.menu,
            titles=[load_sheet(name).title for name in names],
            chosen=names.index(self.variant),
            seats=self.seating.names(),
            playing=self._playing(),
        )
        return TableView(MENU, menu=page)

    def _lucky_view(self) -> TableView:
        draft = self.draft
        assert draft is not None
        seats = tuple(Seat(name, lucky=tuple(numbers)) for name, numbers in draft.chosen.items())
        missing = tuple(draft.missing())
        return TableView(LUCKY, title=draft.sheet.title, seats=seats, waiting_for=missing)

    def _between_games_view(self) -> TableView:
        sheet = load_sheet(self.variant)
        seats = tuple(Seat(name) for name in self.seating.names())
        message = self.message or self._how_to_start()
        return TableView(self.screen, title=sheet.title, seats=seats, message=message,
                         join_url=self.join_address[0], join_code=self.join_address[1])  # fmt: skip

    def _how_to_start(self) -> str:
        if self.screen != SETUP:
            return ""
        return "press to start" if self.seats else "press a button on a pad to join"

    def publish(self) -> None:
        """A change: the phase it calls for, the view to every presenter, then what the
        computer players and timers of that phase do next."""
        self._enter(self._next_phase())
        self.version += 1
        self._present(self.view())
        self._plan()

    def _present(self, view: TableView) -> None:
        if self._changed:
            view = replace(view, **self._changed)
            self._changed = {}
        for presenter in self._presenters:
            presenter(view)

    def tell(self, words: str) -> None:
        """One line of news, kept with the last NEWS_KEPT (shown with the next change)."""
        self.news.append(words)
        self.news_count += 1

    def say(self, words: str) -> None:
        """News for the table that changes no game state (dice found, dice missing, ...)."""
        self.tell(words)
        self.message = words
        self.version += 1
        self._present(self.view())

    def alert(self, words: str) -> None:
        """A problem the players can act on: on the displays for a few seconds, and in the news."""
        log.warning("%s", words)
        self._alert = (words, self.clock() + ALERT_SECONDS)
        self.say(words)

    def _problem(self, words: str) -> None:
        """Something the tower cannot do (save, read back): on the displays until the next
        change, and in the log."""
        log.error("%s", words)
        self.message = words
        self.version += 1
        self._present(replace(self.view(), screen=ERROR, message=words))

    # ---- what happens next, by itself --------------------------------------------------------

    def _plan(self) -> None:
        """The timers of this moment: computer players decide after a pause (so the table can
        follow), a person's action-1 time runs out, the last wanted game ends the run."""
        game, phase = self.game, self.phase
        if self.storage.fault:
            return  # paused: nothing goes on unsaved, until saving works again
        if phase is phases.MENU or phase is phases.LUCKY or phase is phases.ROLLING:
            return  # the table waits while the menu is open
        if phase is phases.ATTRACT or phase is phases.GAME_OVER or game is None:
            alone = self.autoplay and self.seating.all_computers() and self.seats
            if alone and not self._finished_enough():
                self.timers.once("next game", self.pace * 3, self._go_on)
            if self._finished_enough():
                self.timers.once("stop", self.pace * 2, self.stop)
            return
        # The table's phase changes at every roll, so within a phase a player and the game's
        # own phase name a decision: no timer is started twice for one.
        if game.phase is ROLL and self.kind_of(game.active_name) == COMPUTER:
            self.timers.once("roll", self.pace, self._go_on)
        elif game.phase is ROLL and self.hardware.pixels is not None:
            self._read_thrown_dice()
        if game.phase is not ACTION1 and game.phase is not ACTION2:
            return
        for name in game.waiting_for():
            if self.kind_of(name) == COMPUTER:
                pause = self.pace * random.uniform(0.3, 1.0)
                key = ("decide", name, game.phase)
                self.timers.once(key, pause, self.computers.decide, name)
            elif self.action1_timer and game.phase is ACTION1:
                self.timers.once(("time out", name), self.action1_timer, self._auto_pass, name)

    def _auto_pass(self, name: str) -> None:
        if self.game is not None and self.game.can_pass(name):
            self.message = f"{name} took too long and passes"
            self.submit(Pass(name))

    def _finished_enough(self) -> bool:
        return self._games_wanted is not None and self.games_finished >= self._games_wanted

    # ---- housekeeping ------------------------------------------------------------------------

    async def _housekeeping(self) -> None:
        """Once a second: watchdog, display refresh (pixel shift, retries), the end of a lock
        notice or alert, burn-in protection when nobody has touched anything for a while.

        The watchdog is pinged from this loop only, so a hung loop stops the pings and systemd
        restarts the tower. A failing chore is logged and tried again the next second; failing
        three seconds in a row, the tower exits non-zero at once for systemd to restart it.
        """
        watchdog = systemd.watchdog_interval()  # None: no watchdog to ping
        tick = min(1.0, watchdog) if watchdog else 1.0
        alert_shown, failures = False, 0
        while True:
            await asyncio.sleep(tick)
            if watchdog:
                systemd.ping_watchdog()
            try:
                for display in self.hardware.displays.values():
                    display.refresh()
                if self.phase is phases.LOCK_NOTICE and self.clock() >= self._notice_until:
                    self.publish()  # the notice is over: the game as it is
                alerting = self.clock() < self._alert[1]
                if alert_shown and not alerting and self.phase is not phases.ROLLING:
                    if self.message == self._alert[0]:
                        self.message = ""  # the problem's words go with it
                    self.version += 1  # a change: the terminal redraws too
                    self._present(self.view())
                alert_shown = alerting
                self.rest_displays()
                self.close_idle_menu()
                failures = 0
            except Exception:
                failures += 1
                log.exception("housekeeping failed (%d time(s) in a row)", failures)
                if failures >= 3:
                    log.critical("housekeeping keeps failing: exiting for systemd to restart")
                    raise SystemExit(70) from None  # EX_SOFTWARE

    def rest_displays(self) -> None:
        """Dim after `idle_dim` seconds without input, blank after `idle_blank`."""
        self.power.rest()
