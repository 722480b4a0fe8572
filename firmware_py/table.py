"""The table service: one game from button press to final score.

Everything happens on one asyncio loop. Button presses (gpiozero threads) arrive through
`loop.call_soon_threadsafe`; pads, keyboards and computer players call `decide`. Every event is
checked by the rules engine on a copy of the game, written to the journal (fsynced), and only
then becomes the game and is shown: displays, lock lights, pads, listeners.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from drivers.button import RollButton
from firmware_py import systemd
from firmware_py.hardware import Hardware
from firmware_py.journal import GameLog, Journal, JournalError, noted_seats
from firmware_py.lookahead import look_ahead
from firmware_py.lucky import LuckyDraft, draft_from_note, draw_all
from firmware_py.menu import BACK, CONFIRM, LIST, NEW_GAME, PLAYERS, VARIANT, Menu, menu_view
from firmware_py.news import describe, final_words
from firmware_py.players import choose
from firmware_py.rules import (
    ACTION1,
    ACTION2,
    ROLL,
    ChoiceNeeded,
    Game,
    Mark,
    Pass,
    Refused,
    Roll,
    Start,
    Undo,
)
from firmware_py.screens import render
from firmware_py.seating import (
    COMPUTER,
    MAX_SEATS,
    PAD,
    SeatSpec,
    kind_of,
    one_more_seat,
    seats_for,
    with_pad,
)
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
from sheets import COLOURS, SheetError, load_sheet, sheet_names

log = logging.getLogger(__name__)

ROLL_FRAMES = 4  # rolling-animation frames before the dice show
THROW_WAIT = 30.0  # seconds to wait for thrown electronic dice before saying which are missing
LOCK_NOTICE_SECONDS = 3.0  # the main display announces a lock this long
ALERT_SECONDS = 5.0  # a problem players can act on (a pad missing, a die lost) shows this long


RULE, CHOICE, STORAGE, NOT_NOW = "rule", "choice", "storage", "not now"


@dataclass(frozen=True)
class Refusal:
    """Why the referee said no: `reason` in a player's words, `kind` one of RULE, CHOICE (the
    mark needs a choice of row), STORAGE (the journal cannot be written) or NOT_NOW (no game)."""

    reason: str
    kind: str = RULE


@dataclass(frozen=True)
class LuckyNumber:
    """A longo player's choice of one lucky number before the game; 0: let the tower draw."""

    player: str
    number: int = 0


class Table:
    """The referee at the table: owns the game, the journal and what the table sees."""

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
    ) -> None:
        self.seats = list(seats)
        self.variant = variant
        self.journal = journal
        self.hardware = hardware
        self.pace = pace
        self.action1_timer = action1_timer
        self.long_press = long_press
        self.clock = clock
        self.idle_dim = idle_dim
        self.idle_blank = idle_blank
        self.look_ahead = look_ahead  # playouts per option for computer players; 0: rule of thumb
        self._thinking: set[str] = set()  # computer players whose look-ahead is running
        self._rng = random.Random()  # for look-ahead playouts (the dice have their own source)
        self._last_input = clock()
        self._power = "on"
        self.game: Game | None = None
        self.last_decisions: dict[str, Mark | Pass | Undo] = {}  # each player's, this game
        self.menu: Menu | None = None  # the roll button's menu, while it is open
        self.draft: LuckyDraft | None = None  # longo lucky numbers being chosen before a game
        self._benched: list[SeatSpec] = []  # seats the menu removed, first back when it adds
        self.game_log: GameLog | None = None
        self.screen = ATTRACT  # what the main display shows outside a turn
        self.message = ""
        self.listeners: list[Callable[[Table], None]] = []
        self.games_finished = 0
        self._rolling = False
        self._lock_notice_until = 0.0
        self._timers: list[asyncio.TimerHandle] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped = asyncio.Event()
        self._games_wanted: int | None = None
        self._dice_task: asyncio.Task | None = None
        self._alert: tuple[str, float] = ("", 0.0)  # words, shown until this time
        self._display_errors: dict[str, int] = {}
        self.news: list[str] = []  # what happened, in words, newest last
        self.version = 0  # counts the changes shown, so a delayed action can tell it is stale

    # ---- start and stop ----------------------------------------------------------------------

    async def run(self, *, games: int | None = None) -> None:
        """Run the table until `stop()` (or until `games` games have finished)."""
        self._loop = asyncio.get_running_loop()
        self._games_wanted = games
        self._attach_button()
        await self._start_pixels()
        self._resume_or_attract()
        systemd.ready("the tower is ready")
        housekeeping = asyncio.create_task(self._housekeeping())
        try:
            await self._stopped.wait()
        finally:
            housekeeping.cancel()
            self._cancel_timers()
            self._stop_reading_dice()
            if self.hardware.pixels is not None:
                await self.hardware.pixels.close()
            if self.game_log is not None:
                self.game_log.close()

    def stop(self) -> None:
        self._stopped.set()

    def _attach_button(self) -> None:
        hw = self.hardware
        hw.button = RollButton(
            hw.button_pin,
            on_press=lambda: self._loop.call_soon_threadsafe(self.press),
            on_long_press=lambda: self._loop.call_soon_threadsafe(self.long_press_menu),
            long_press_time=self.long_press,
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

    def _dice_event(self, event) -> None:
        """Electronic dice news: problems (out of range, low battery, lost) are alerts."""
        if event.kind in ("out of range", "low battery", "connection lost"):
            self.alert(event.message)
        else:
            self.say(event.message)

    def alert(self, words: str) -> None:
        """A problem the players can act on: on the displays for a few seconds, and in the news."""
        log.warning("%s", words)
        self._alert = (words, self.clock() + ALERT_SECONDS)
        self.say(words)
        self._show(self.view())

    def say(self, words: str) -> None:
        """News for the table that changes no game state (dice found, dice missing, ...)."""
        self.news.append(words)
        self.message = words
        for listener in self.listeners:
            listener(self)

    def _resume_or_attract(self) -> None:
        try:
            resumed = self.journal.resume_latest()
        except (JournalError, OSError) as error:
            self._problem(f"the last game cannot be read back: {error}")
            resumed = None
        for problem in self.hardware.problems:
            self.alert(problem)
        if resumed is None:
            if self._resume_draft():
                return
            self.screen = SETUP if self._all_computers() else ATTRACT
            self._publish()
            return
        self._forget_draft()  # a game began after the note; it holds the numbers
        self.game = resumed.game
        self.last_decisions = dict(resumed.last_decisions)
        self.game_log = GameLog(resumed.path)
        noted = [SeatSpec(**seat) for seat in noted_seats(resumed.path)]
        self.seats = seats_for([p.name for p in self.game.players], self.seats, noted)
        log.info("resumed %s after %d events", resumed.path.name, resumed.events)
        self._publish()

    # ---- input -------------------------------------------------------------------------------

    def press(self) -> None:
        """The roll button: in the menu the next line or value; else start a game (or draw the
        lucky numbers still missing), roll the dice, or go on after the game."""
        self._wake()
        if self.menu is not None:
            self._menu_next()
        else:
            self._go_on()

    def _go_on(self) -> None:
        """What a short press means outside the menu (computer players press this way too)."""
        if self.draft is not None:
            self._draw_missing()
        elif self.game is None or self.game.over:
            self.new_game()
        elif self.game.phase == ROLL and not self._rolling:
            self._stop_reading_dice()  # the button is the fallback to thrown dice
            self._start_roll()

    def long_press_menu(self) -> None:
        """A long press opens the menu; in the menu it chooses the line (or keeps the value)."""
        self._wake()
        if self._rolling:
            return  # the dice are on their way; the menu can wait a moment
        if self.menu is None:
            self.menu = Menu(self.clock())
        else:
            self._menu_choose()
        self._publish()

    def decide(self, event: Mark | Pass | Undo | LuckyNumber) -> Refusal | None:
        """A player's decision; None when accepted, else the referee's refusal."""
        self._wake()
        if self.draft is not None:
            return self._decide_lucky(event)
        if type(event) is LuckyNumber:
            return Refusal("lucky numbers are chosen before a longo game starts", NOT_NOW)
        if self.game is None:
            return Refusal("no game is being played; press the roll button to start one", NOT_NOW)
        if self.game.over:
            return Refusal("this game is over; press the roll button for a new one", NOT_NOW)
        return self.submit(event)

    def join(self, name: str, kind: str, pad: str = "") -> Refusal | None:
        """A new seat (held by the pad of ident `pad`, if any), between games only; None when
        seated, else why not. The main display shows the seats and who joined."""
        refusal = self.why_not_join()
        if refusal is None and name in (seat.name for seat in self.seats):
            refusal = Refusal(f"{name} is already at the table", RULE)
        if refusal is not None:
            return refusal
        self._benched = [seat for seat in self._benched if seat.name != name]
        self.seats.append(SeatSpec(name, kind, pad))
        self.screen = SETUP
        self.message = f"{name} joins the table"
        self.news.append(self.message)
        self._publish()
        return None

    def give_pad(self, name: str, pad: str) -> None:
        """The pad of ident `pad` holds `name`'s seat now (noted with the next game)."""
        self.seats = with_pad(self.seats, name, pad)
        if self.draft is not None:
            self._note_draft()

    def why_not_join(self) -> Refusal | None:
        """Why a new seat cannot join now, in a player's words (None: it can): a game is on,
        or its lucky numbers are being chosen, or five players are seated."""
        if self._playing() or self.draft is not None:
            return Refusal("a game is being played: you can join when it ends", NOT_NOW)
        if len(self.seats) >= MAX_SEATS:
            return Refusal("the table is full: five players", RULE)  # MAX_SEATS
        return None

    # ---- the referee -------------------------------------------------------------------------

    def submit(self, event) -> Refusal | None:
        """Check, journal, then apply and show one event; None when accepted, else why not."""
        trial = self.game.copy()
        try:
            trial.apply(event)
        except ChoiceNeeded as needed:
            return Refusal(needed.reason, CHOICE)
        except Refused as refusal:
            return Refusal(refusal.reason, RULE)
        try:
            self.game_log.append(event)
        except JournalError as error:
            self._problem(f"the game cannot be saved: {error}")
            return Refusal("the tower cannot save the game right now; try again", STORAGE)
        if type(event) in (Mark, Pass, Undo):
            self.last_decisions[event.player] = event
        before, self.game = self.game, trial
        self._after(event, before)
        return None

    def new_game(self) -> None:
        """A new game with the seats and variant chosen. An unfinished game is left in the
        journal as abandoned. Longo with pads first asks for the players' lucky numbers."""
        self.menu = None
        if not self.seats:
            self.message = "nobody is seated: hold the button, then choose players"
            self._publish()
            return
        self._abandon()
        names = [seat.name for seat in self.seats]
        sheet = load_sheet(self.variant)
        if sheet.has_lucky_numbers and any(seat.kind == PAD for seat in self.seats):
            self._ask_lucky_numbers(sheet, names)
            return
        lucky = (
            draw_all(sheet, names, self.hardware.dice.sample) if sheet.has_lucky_numbers else None
        )
        self._begin(Start(self.variant, tuple(names), lucky))

    def _begin(self, start: Start) -> bool:
        """Journal the start and play; False (and the problem shown) if it cannot be saved."""
        if self.game_log is not None:
            self.game_log.close()
            self.game_log = None
        try:
            self.game_log = self.journal.begin(start)
        except JournalError as error:
            self._problem(f"a new game cannot be saved: {error}")
            return False
        self._note_seats()
        self._forget_draft()
        self.draft = None
        self._lock_notice_until = 0.0  # a lock of the last game is no news in this one
        self.game = Game.start(start)
        self.last_decisions = {}
        self.screen = ATTRACT
        self.message = ""
        self.news.append(f"New game of {self.game.sheet.title}: {', '.join(start.players)}")
        self.hardware.lights.all_off()
        self._publish()
        return True

    def _note_seats(self) -> None:
        """How each player decides, beside the game's log, for resuming after a power cut."""
        try:
            self.journal.note_seats(self.game_log.path, self.seats)
        except JournalError as error:
            log.warning("%s; after a restart unknown seats wait for their pads", error)

    def _abandon(self) -> None:
        """An unfinished game stays in the journal, marked abandoned so it is never resumed."""
        if not self._playing():
            return
        try:
            self.journal.abandon(self.game_log.path)
        except JournalError as error:
            log.warning("%s", error)  # the newer game's log will hide it from resuming anyway
        self.news.append("The unfinished game is set aside")
        self.game_log.close()
        self.game_log = None
        self.game = None

    def _playing(self) -> bool:
        return self.game is not None and not self.game.over

    # ---- longo: lucky numbers before the game ------------------------------------------------

    def _ask_lucky_numbers(self, sheet, names: list[str]) -> None:
        """Pads enter their sheets' lucky numbers; the tower draws them for everyone else."""
        self.draft = LuckyDraft(sheet, names, self.hardware.dice.sample)
        for seat in self.seats:
            if seat.kind != PAD:
                self.draft.draw(seat.name)
        self._note_draft()
        if self.game_log is not None:
            self.game_log.close()
            self.game_log = None
        self.game = None
        self.screen = LUCKY
        self.message = ""
        self.news.append("Lucky numbers: enter the two on your sheet on your pad")
        self._publish()

    def _decide_lucky(self, event) -> Refusal | None:
        name = getattr(event, "player", "")
        if name not in self.draft.chosen:
            return Refusal(f"{name} has no seat in the game being set up", NOT_NOW)
        if type(event) is LuckyNumber:
            reason = self._choose_lucky(name, event.number)
        elif type(event) is Undo:
            reason = self.draft.take_back(name)
        else:
            return Refusal("the game has not started: first choose your lucky numbers", NOT_NOW)
        if reason is not None:
            return Refusal(reason, RULE)
        self._note_draft()
        if name not in self.draft.missing():
            numbers = " and ".join(str(n) for n in self.draft.chosen[name])
            self.news.append(f"{name}'s lucky numbers: {numbers}")
        return self._start_when_complete()

    def _choose_lucky(self, name: str, number: int) -> str | None:
        if number == 0:
            self.draft.draw(name)
            return None
        return self.draft.choose(name, number)

    def _note_draft(self) -> None:
        """The numbers chosen so far, on disk: a restart before the game starts loses none."""
        seats = seats_for(self.draft.chosen, self.seats, [])
        try:
            self.journal.note_draft(self.draft.sheet.name, seats, self.draft.chosen)
        except JournalError as error:
            log.warning("%s; a restart now would ask for the lucky numbers again", error)

    def _forget_draft(self) -> None:
        try:
            self.journal.forget_draft()
        except JournalError as error:
            log.warning("%s", error)  # harmless: a note older than the newest game is ignored

    def _resume_draft(self) -> bool:
        """After a restart during the lucky numbers: the same players, with the numbers they
        had chosen, go on choosing. False when there is nothing (readable) to go on with."""
        try:
            record = self.journal.noted_draft()
            if record is None:
                return False
            seats, draft = draft_from_note(record, self.hardware.dice.sample)
        except (JournalError, KeyError, TypeError, ValueError, SheetError) as error:
            log.warning("lucky numbers noted before the restart: %s", error)
            self._forget_draft()
            self.alert("The lucky numbers chosen before the restart are lost: choose them again")
            return False
        self.seats, self.variant, self.draft = seats, draft.sheet.name, draft
        self.screen = LUCKY
        self.news.append("Lucky numbers: go on entering them on your pads")
        self._start_when_complete()  # the last number was in, the game not yet begun: begin
        return True

    def _draw_missing(self) -> None:
        """The roll button during the lucky numbers: draw for everyone still missing, and play."""
        missing = self.draft.missing()
        for name in missing:
            self.draft.draw(name)
        self.news.append(f"The tower draws the lucky numbers of {', '.join(missing)}")
        self._start_when_complete()

    def _start_when_complete(self) -> Refusal | None:
        if not self.draft.complete():
            self._publish()
            return None
        draft = self.draft
        start = Start(draft.sheet.name, tuple(draft.chosen), draft.numbers())
        if not self._begin(start):
            return Refusal("the tower cannot save the game right now; try again", STORAGE)
        return None

    # ---- the menu ----------------------------------------------------------------------------

    def _menu_next(self) -> None:
        """A short press in the menu: the next line, the next value, or yes to a new game."""
        menu = self.menu
        menu.touch(self.clock())
        if menu.page == LIST:
            menu.next_item()
        elif menu.page == VARIANT:
            names = sheet_names()
            self.variant = names[(names.index(self.variant) + 1) % len(names)]
        elif menu.page == PLAYERS:
            self.seats, self._benched = one_more_seat(self.seats, self._benched)
        else:  # CONFIRM: yes
            self.new_game()
            return
        self._publish()

    def _menu_choose(self) -> None:
        """A long press in the menu: choose the line, keep the value, or no to a new game."""
        menu = self.menu
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
            self._publish()

    def _after(self, event, before: Game) -> None:
        """Tell the table what the event changed: news, lock lights, penalties, the end."""
        self.news.append(describe(event, before))
        for old, new in zip(before.players, self.game.players, strict=True):
            if new.penalties > old.penalties:
                self.news.append(f"{new.name} crossed nothing and takes penalty {new.penalties}")
        lights = self.hardware.lights
        for row in self.game.locked[len(before.locked) :]:
            lights.announce_lock(COLOURS[row])
            self._lock_notice_until = self.clock() + LOCK_NOTICE_SECONDS
            self.news.append(f"{COLOURS[row]} is locked: the {COLOURS[row]} die leaves the game")
        if self.game.over:
            lights.celebrate()
            self.games_finished += 1
            self.news.append(final_words(self.game))
        self._publish()

    # ---- rolling -----------------------------------------------------------------------------

    def _start_roll(self) -> None:
        self._rolling = True
        self._animate(0)

    def _animate(self, frame: int) -> None:
        if frame < ROLL_FRAMES:
            self._show(TableView(ROLLING, active=self.game.active_name, frame=frame))
            self._later(self.pace / 8, self._animate, frame + 1)
            return
        self._rolling = False
        white, colours = self.hardware.dice.roll(self.game.dice_in_play())
        self.submit(Roll(white, colours))

    def _read_thrown_dice(self) -> None:
        if self._dice_task is None or self._dice_task.done():
            self._dice_task = self._loop.create_task(self._thrown_dice())

    async def _thrown_dice(self) -> None:
        """Electronic dice: the roll is whatever they show once every die in play has landed."""
        while self.game is not None and self.game.phase == ROLL:
            in_play = self.game.dice_in_play()
            try:
                white, colours = await self.hardware.pixels.wait_for_roll(
                    in_play, timeout=THROW_WAIT
                )
            except TimeoutError as waiting:  # the dice say which of them are still missing
                self.say(str(waiting))
                continue
            self.submit(Roll(white, colours))
            return

    def _stop_reading_dice(self) -> None:
        if self._dice_task is not None:
            self._dice_task.cancel()
            self._dice_task = None

    # ---- what the table sees -----------------------------------------------------------------

    def view(self) -> TableView:
        words, until = self._alert
        if self.clock() < until:
            return TableView(ERROR, message=words)
        if self.menu is not None:
            return self._menu_view()
        if self.draft is not None:
            return self._lucky_view()
        if self.game is None or (self.game.over and self.screen == SETUP):
            return self._between_games_view()
        notice = self.clock() < self._lock_notice_until and not self.game.over
        screen = LOCK if notice else None
        return table_view(self.game, screen=screen, message=self.message)

    def _menu_view(self) -> TableView:
        names = sheet_names()
        page = menu_view(
            self.menu,
            titles=[load_sheet(name).title for name in names],
            chosen=names.index(self.variant),
            seats=[seat.name for seat in self.seats],
            playing=self._playing(),
        )
        return TableView(MENU, menu=page)

    def _lucky_view(self) -> TableView:
        draft = self.draft
        seats = tuple(Seat(name, lucky=tuple(numbers)) for name, numbers in draft.chosen.items())
        missing = tuple(draft.missing())
        return TableView(LUCKY, title=draft.sheet.title, seats=seats, waiting_for=missing)

    def _between_games_view(self) -> TableView:
        sheet = load_sheet(self.variant)
        seats = tuple(Seat(seat.name) for seat in self.seats)
        return TableView(self.screen, title=sheet.title, seats=seats, message=self.message)

    def _publish(self) -> None:
        self.version += 1
        self._show(self.view())
        self.hardware.lights.show_locked(
            COLOURS[r] for r in (self.game.locked if self.game else [])
        )
        for listener in self.listeners:
            listener(self)
        self._schedule_players()
        self._maybe_finish()

    def _show(self, view: TableView) -> None:
        """Draw `view` on every display; a display that stops answering is named on the others."""
        failed = []
        for role, display in self.hardware.displays.items():
            display.display(render(view, role))
            if display.errors > self._display_errors.get(role, 0):
                failed.append(role)
            self._display_errors[role] = display.errors
        for role in failed:
            words = f"the {role} display does not answer: check its wires"
            log.warning("%s", words)
            for other, display in self.hardware.displays.items():
                if other != role:
                    display.display(render(TableView(ERROR, message=words), other))

    def _problem(self, words: str) -> None:
        log.error("%s", words)
        self.message = words
        self._show(TableView(ERROR, message=words))
        for listener in self.listeners:
            listener(self)

    # ---- computer players and timers ---------------------------------------------------------

    def _schedule_players(self) -> None:
        """Computer seats decide after a pause (so the table can follow); timers for people."""
        self._cancel_timers()
        if self.menu is not None:
            return  # the table waits while the menu is open
        game = self.game
        if game is None or game.over:
            if self._all_computers() and self.seats and not self._finished_enough():
                self._later(self.pace * 3, self._go_on)
            return
        if game.phase == ROLL and self.kind_of(game.active_name) == COMPUTER:
            self._later(self.pace, self._go_on)
        elif game.phase == ROLL and self.hardware.pixels is not None:
            self._read_thrown_dice()
        for name in game.waiting_for() if game.phase in (ACTION1, ACTION2) else []:
            if self.kind_of(name) == COMPUTER:
                self._later(self.pace * random.uniform(0.3, 1.0), self._computer_decides, name)
            elif self.action1_timer and game.phase == ACTION1:
                self._later(self.action1_timer, self._auto_pass, name)

    def _computer_decides(self, name: str) -> None:
        if self.game is None or name not in self.game.waiting_for() or name in self._thinking:
            return
        if not self.look_ahead:
            self.submit(choose(self.game, name))
            return
        # Thousands of playouts: in a worker thread, so pads and displays are served meanwhile.
        self._thinking.add(name)
        thought = self._loop.run_in_executor(
            None, look_ahead, self.game.copy(), name, self._rng, self.look_ahead
        )
        thought.add_done_callback(partial(self._computer_thought, name, self._moment()))

    def _computer_thought(self, name: str, moment: tuple, thought: asyncio.Future) -> None:
        """A look-ahead is done: play it if the table is still at the moment it was asked for
        (the same game, turn and action), else think again about where the table is now."""
        self._thinking.discard(name)
        if thought.cancelled() or self.game is None or name not in self.game.waiting_for():
            return
        failure = thought.exception()
        if failure is not None:
            log.error("a computer player's look-ahead failed: %r", failure)
            self.submit(choose(self.game, name))
        elif self._moment() != moment:
            self._later(0, self._computer_decides, name)
        else:
            self.submit(thought.result())

    def _moment(self) -> tuple:
        """The game, turn and action the table is at: a decision made for it stays legal
        (locks change only as an action ends, so they need no place here)."""
        return (self.game_log, self.game.active, self.game.phase, self.game.dice)

    def _auto_pass(self, name: str) -> None:
        if self.game is not None and self.game.can_pass(name):
            self.message = f"{name} took too long and passes"
            self.submit(Pass(name))

    def _later(self, delay: float, callback, *args) -> None:
        self._timers.append(self._loop.call_later(delay, callback, *args))

    def _cancel_timers(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()

    def kind_of(self, name: str) -> str:
        """How the seat of `name` decides: computer, keyboard or pad."""
        return kind_of(name, self.seats + self._benched)  # a removed seat plays its game out

    def _all_computers(self) -> bool:
        return all(seat.kind == COMPUTER for seat in self.seats)

    def _finished_enough(self) -> bool:
        return self._games_wanted is not None and self.games_finished >= self._games_wanted

    def _maybe_finish(self) -> None:
        if self._finished_enough():
            self._later(self.pace * 2, self.stop)

    # ---- housekeeping ------------------------------------------------------------------------

    async def _housekeeping(self) -> None:
        """Once a second: watchdog, display refresh (pixel shift, retries), lock notice end,
        and burn-in protection when nobody has touched anything for a while."""
        notice_shown = False
        while True:
            await asyncio.sleep(1.0)
            systemd.ping_watchdog()
            for display in self.hardware.displays.values():
                display.refresh()
            showing = self.clock() < max(self._lock_notice_until, self._alert[1])
            if notice_shown and not showing and not self._rolling:
                self._show(self.view())
            notice_shown = showing
            self.rest_displays()
            self.close_idle_menu()

    def rest_displays(self) -> None:
        """Dim after `idle_dim` seconds without input, blank after `idle_blank`."""
        idle = self.clock() - self._last_input
        power = "blank" if idle >= self.idle_blank else "dim" if idle >= self.idle_dim else "on"
        if power != self._power:
            self._power = power
            for display in self.hardware.displays.values():
                getattr(display, {"on": "wake"}.get(power, power))()

    def _wake(self) -> None:
        """Any input: the displays come back at full brightness."""
        self._last_input = self.clock()
        self.rest_displays()
