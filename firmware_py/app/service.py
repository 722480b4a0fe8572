"""`qwixx-tower run`: configuration, hardware, journal, table and console put together."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from drivers.clock import clock_synchronised
from drivers.errors import GpioUnavailableError
from firmware_py.app import collector, systemd
from firmware_py.app import web as web_tower
from firmware_py.app.arguments import say_and_fail
from firmware_py.app.assembly import (
    attach_bus,
    attach_pads,
    attach_phones,
    attach_terminal,
    build_table,
)
from firmware_py.app.bus import BusPart
from firmware_py.app.config import TowerConfig
from firmware_py.app.hardware import build_hardware
from firmware_py.app.held_log import log_held_while_drawn
from firmware_py.app.limits import raise_open_files_limit
from firmware_py.app.paths import default_state_dir
from firmware_py.journal import lock as state_lock
from firmware_py.journal.history import game_title
from firmware_py.journal.journal import Journal, JournalError, ResumedGame, noted_seats
from firmware_py.seating import (
    COMPUTER,
    SeatSpec,
    seat_from_record,
    seats_for,
)
from firmware_py.seats.keyboard import Keyboard
from firmware_py.seats.pads import PadHub
from firmware_py.seats.phones.join_key import kept_join_key
from firmware_py.show.sound import SoundPresenter
from firmware_py.show.terminal import Terminal
from sheets import load_sheet

if TYPE_CHECKING:  # (the web server and its aiohttp are loaded only when [web] is on)
    from firmware_py.seats.phones.server import WebServer

log = logging.getLogger("qwixx-tower")
LOG_FORMAT = "%(levelname)s %(name)s: %(message)s"
CLOCK_UNSET = (
    "the clock is not set from any time server: the games are dated by a guess "
    '(docs/kiosk.md, "The clock"; qwixx-tower doctor says more)'
)
CLOCK_SET = "the clock is set from a time server"


def run_tower(args: argparse.Namespace, config: TowerConfig, seats: list[SeatSpec]) -> int:
    """Run until stopped (or for --games games), with the configuration and the seats the
    command asked for (`firmware_py.app.asked`, read before this module's libraries load)."""
    variant = args.variant or config.variant
    state_dir = args.state_dir or config.state_dir or default_state_dir()
    not_here = _why_not_here(state_dir)
    if not_here is not None:
        return say_and_fail(not_here)
    full_screen = not args.plain and sys.stdout.isatty()
    warned = setup_logging(full_screen)
    raise_open_files_limit()  # each phone's connection is an open file
    journal = Journal(state_dir)
    saved = _saved_game(journal)
    set_aside = _set_aside_if_new(journal, args, seats, variant, saved)
    nobody = _nobody_can_join(config, seats, resuming=saved is not None and not args.new)
    try:
        hardware = build_hardware(config, load_sheet(variant).dice_faces, args.screens)
    except GpioUnavailableError as error:  # real pins configured, none here: say what to check
        log.error("%s", error)
        return 1
    table = build_table(
        hardware,
        seats=seats,
        variant=variant,
        journal=journal,
        autoplay=args.config is None or args.players is not None,  # asked for on this command
        pace=args.pace,
        action1_timer=config.action1_timer,
        absent_grace=config.absent_grace,
        long_press=config.button.long_press if config.button else 1.5,
        idle_dim=config.idle_dim,
        idle_blank=config.idle_blank,
        look_ahead=config.look_ahead if args.look_ahead is None else args.look_ahead,
    )
    bus = BusPart(attach_bus(table, config.mqtt) if config.mqtt else None, state_dir)
    if hardware.buzzer is not None or hardware.speech is not None:
        table.subscribe(SoundPresenter(hardware.buzzer, hardware.speech))
    how_to_play = _computers_only(config, _seats_playing(saved, seats, new=args.new))
    for words in filter(None, (set_aside, how_to_play, nobody)):
        table.tell(words)  # the news: on the terminal, and in systemd's journal
    terminal, keys = attach_terminal(
        table, hardware, full_screen=full_screen, said_elsewhere=warned.take
    )
    if how_to_play and full_screen:  # kept in sight under the drawn tower: news scrolls away
        terminal.footers.append(lambda view: [how_to_play])
    pads = attach_pads(table, list(config.pad_ports), config.pad_names, baudrate=config.pad_baud)
    port_note = web_tower.port_note(config.web, state_dir)
    web = None  # phones as pads, when [web] is on, with the QR link's key kept in state_dir
    if config.web.enabled:
        phones = attach_phones(table, key=kept_join_key(state_dir))
        web = web_tower.build(phones, config.web, port_note, web_tower.history_pages(journal))
    doors = RunDoors(terminal, keys, pads, web, bus, keyboard=sys.stdin.isatty())
    with log_held_while_drawn(full_screen):  # written under the last news, not over the screen
        try:
            asyncio.run(_serve(table, doors, games=args.games, port_note=port_note))
        finally:
            terminal.close()
            pads.close()
            hardware.close()
    return 0


class Running(web_tower.JoinTable, Protocol):
    """What `run` asks of the table: start (the journal read back), run until stopped, stop."""

    async def start(self, *, games: int | None = None) -> None: ...
    async def run(self, *, games: int | None = None) -> None: ...
    def stop(self) -> None: ...


class RunDoors:
    """The ways in and out that open once the table has started: the terminal and its
    keyboard, the pad hub, the web server (None when [web] is off), the MQTT bus."""

    def __init__(
        self,
        terminal: Terminal,
        keys: Keyboard,
        hub: PadHub,
        web: WebServer | None,
        bus: BusPart | None = None,
        *,
        keyboard: bool,
    ) -> None:
        self.terminal, self.keys, self.hub, self.web = terminal, keys, hub, web
        self.bus = bus or BusPart(None, None)  # (none: no [mqtt], and nothing to say goodbye to)
        self.keyboard = keyboard  # standard input is a terminal someone types at

    async def open(self, table: Running, port_note: web_tower.PortNote | None) -> None:
        loop = asyncio.get_running_loop()
        self.hub.open(loop)
        self.bus.open()
        if self.web is not None:
            await web_tower.start(self.web, table, self.terminal, sys.stdout, port_note)
        if self.keyboard:
            self.keys.attach(loop)
            self.terminal.keyboard_ready()
        if self.terminal.full_screen:  # the terminal was resized
            loop.add_signal_handler(signal.SIGWINCH, self.terminal.redraw)


async def _serve(
    table: Running, doors: RunDoors, *, games: int | None, port_note: web_tower.PortNote | None
) -> None:
    """The table first, then its doors: the journal is read back and every seat restored
    before the pad hub and the web server take a hello (a pad's hello taken earlier found no
    seat to give back, and the pad lost its seat after a power cut)."""
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, table.stop)
    _log_the_clock()
    try:
        await table.start(games=games)
        await doors.open(table, port_note)
        collector.started()  # everything made so far stays for the run
        await table.run(games=games)
    finally:
        await doors.bus.close()
        if doors.web is not None:
            await doors.web.stop()


def _log_the_clock() -> None:
    """Whether a time server sets the clock the games are dated by, in the log (systemd's
    journal) and not on the displays: players can do nothing about it, the maker reads it."""
    synchronised = clock_synchronised()
    if synchronised is False:
        log.warning("%s", CLOCK_UNSET)
    elif synchronised:
        log.info("%s", CLOCK_SET)


def _why_not_here(state_dir: Path) -> str | None:
    """Why this tower cannot keep its games in `state_dir`: a file where the folder goes, or
    another tower running there (whose lock this one otherwise takes); None when it can."""
    in_the_way = _file_in_the_way(state_dir)
    if in_the_way is not None:
        return f"{in_the_way} is a file: the games are kept in a folder"
    return state_lock.hold_state_dir(state_dir)


def _file_in_the_way(state_dir: Path) -> Path | None:
    """The state directory, or the nearest folder above it that exists, when it is a file
    (the games could never be saved there); None when the folder is or can be made."""
    for folder in (state_dir, *state_dir.parents):
        if folder.exists():
            return None if folder.is_dir() else folder
    return None


def _computers_only(config: TowerConfig, seats: list[SeatSpec]) -> str | None:
    """Without a configuration computer players play by themselves, so a newcomer sees a
    game: say who they are (with the level chosen for a seat, as the screens show it) and how
    to play instead."""
    if not config.simulated or not seats or any(seat.kind != COMPUTER for seat in seats):
        return None
    names = [f"{seat.name} ({seat.level})" if seat.level else seat.name for seat in seats]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    are = "is a computer player" if len(names) == 1 else "are computer players"
    return f"{who} {are}: run with --human {seats[0].name} to play"


def _nobody_can_join(config: TowerConfig, seats: list[SeatSpec], *, resuming: bool) -> str | None:
    """A tower no one can sit down at (no players named, no pads, no phones, no keyboard)
    would wait for ever in silence: say why, and what to add. A saved game carrying on brings
    its own seats back."""
    if seats or resuming or config.pad_ports or config.web.enabled or sys.stdin.isatty():
        return None
    return (
        "Nobody can sit down at this table: the configuration names no computer players "
        "([table] computer_players), no pads ([pads] ports) and no phones ([web] enabled), "
        "and nobody types here. Add one of them to config.toml "
        "(systemd/config.example.toml shows each)"
    )


def _saved_game(journal: Journal) -> ResumedGame | None:
    """The unfinished game the journal would carry on (None when none, or unreadable: the
    table reports what it cannot read)."""
    try:
        return journal.resume_latest()
    except (JournalError, OSError, ValueError):
        return None


def _set_aside_if_new(
    journal: Journal,
    args: argparse.Namespace,
    seats: list[SeatSpec],
    variant: str,
    saved: ResumedGame | None,
) -> str | None:
    """A saved unfinished game carries on, with the seats it had (pads and phones among them),
    whatever the command line says; only `--new` sets it aside (abandoned, kept in the
    history). The sentence for the news: the game set aside and why, or how to start the
    players or variant the command line asked for instead."""
    if saved is None:
        return None
    title = game_title(saved.path, [p.name for p in saved.game.players], saved.game.sheet.name)
    if not args.new:
        asked = args.players is not None or args.human or args.variant is not None
        if asked and not _same_table(saved, seats, variant):
            return f"{title} carries on with its players: run with --new to start those instead"
        return None
    try:
        journal.abandon(saved.path)
    except JournalError as error:
        return f"{title} cannot be set aside ({error}): it carries on"
    return (
        f"set aside unfinished {title} (--new asked for a new game); qwixx-tower history lists it"
    )


def _same_table(saved: ResumedGame, seats: list[SeatSpec], variant: str) -> bool:
    """The saved game, carried on, has the players the command line names (in order, and
    who plays them) and its variant."""
    had = [(seat.name, seat.kind) for seat in _seats_carried_on(saved, seats)]
    return saved.game.sheet.name == variant and had == [(s.name, s.kind) for s in seats]


def _seats_playing(
    saved: ResumedGame | None, seats: list[SeatSpec], *, new: bool
) -> list[SeatSpec]:
    """The seats of the game that plays first: the saved game's when it carries on, else
    those the command line asked for."""
    return seats if saved is None or new else _seats_carried_on(saved, seats)


def _seats_carried_on(saved: ResumedGame, seats: list[SeatSpec]) -> list[SeatSpec]:
    """The seats the saved game carries on with: as noted when it began, a computer seat
    the command line gives to the keyboard (`--human Ann`) played there."""
    noted = [seat for record in noted_seats(saved.path) if (seat := seat_from_record(record))]
    return seats_for([player.name for player in saved.game.players], seats, noted)


def setup_logging(full_screen: bool) -> WarningsSaid:
    """Plain sentences on standard error (systemd's journal); quieter under a drawn screen.
    The warnings said, for the plain terminal to leave out of its news."""
    level = logging.ERROR if full_screen else logging.INFO
    logging.basicConfig(level=level, format=LOG_FORMAT)
    if systemd.logging_to_journal():  # under systemd: each line carries its syslog priority
        for handler in logging.getLogger().handlers:
            handler.setFormatter(systemd.JournalFormatter(LOG_FORMAT))
    warned = WarningsSaid()
    logging.getLogger().addHandler(warned)
    return warned


class WarningsSaid(logging.Handler):
    """The words of the last warnings and errors the log said. A problem the table tells as
    news (a display that does not answer, a die lost) is also a warning in the log, with its
    priority; under systemd the plain terminal's lines share the journal with the log, so the
    terminal leaves out a line of news the log has just said (issue 39: said twice)."""

    def __init__(self, kept: int = 64) -> None:
        super().__init__(logging.WARNING)
        self._said: deque[str] = deque(maxlen=kept)

    def emit(self, record: logging.LogRecord) -> None:
        self._said.append(record.getMessage())

    def take(self, words: str) -> bool:
        """True (once for each time the log said them) when the log has said `words`."""
        try:
            self._said.remove(words)
        except ValueError:
            return False
        return True
