"""`qwixx-tower run`: configuration, hardware, journal, table and console put together."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from drivers.errors import GpioUnavailableError
from firmware_py.app import systemd
from firmware_py.app import web as web_tower
from firmware_py.app.arguments import say_and_fail
from firmware_py.app.config import ConfigError, TowerConfig, load_config
from firmware_py.app.hardware import build_hardware
from firmware_py.app.paths import default_state_dir
from firmware_py.journal.history import game_title
from firmware_py.journal.journal import Journal, JournalError, ResumedGame, noted_seats
from firmware_py.seating import COMPUTER, KEYBOARD, MAX_SEATS, SeatSpec, seats_for
from firmware_py.seats.pads import PadHub
from firmware_py.seats.phones.server import WebServer
from firmware_py.show.sound import SoundPresenter
from firmware_py.show.terminal import Console
from firmware_py.table import Table
from sheets import load_sheet

log = logging.getLogger("qwixx-tower")
LOG_FORMAT = "%(levelname)s %(name)s: %(message)s"

SIMULATED_PLAYERS = ("Ann", "Ben", "Cleo")  # without --config: computer players, to watch


def run_tower(args: argparse.Namespace) -> int:
    """Run until stopped (or for --games games); exit status 2 for a bad configuration."""
    try:
        config = load_config(args.config)
        seats = _seats(args, config)
    except ConfigError as error:
        return say_and_fail(str(error))
    variant = args.variant or config.variant
    state_dir = args.state_dir or config.state_dir or default_state_dir()
    if state_dir.exists() and not state_dir.is_dir():
        return say_and_fail(f"{state_dir} is a file: the games are kept in a folder")
    full_screen = not args.plain and sys.stdout.isatty()
    setup_logging(full_screen)
    journal = Journal(state_dir)
    set_aside = _set_aside_unless_chosen(journal, args, seats, variant)
    try:
        hardware = build_hardware(config, load_sheet(variant).dice_faces, args.screens)
    except GpioUnavailableError as error:  # real pins configured, none here: say what to check
        log.error("%s", error)
        return 1
    for problem in hardware.problems:
        log.warning("%s", problem)
    table = Table(
        seats=seats,
        variant=variant,
        journal=journal,
        hardware=hardware,
        autoplay=args.config is None or args.players is not None,  # asked for on this command
        pace=args.pace,
        action1_timer=config.action1_timer,
        long_press=config.button.long_press if config.button else 1.5,
        idle_dim=config.idle_dim,
        idle_blank=config.idle_blank,
        look_ahead=config.look_ahead if args.look_ahead is None else args.look_ahead,
    )
    if hardware.buzzer is not None or hardware.speech is not None:
        table.subscribe(SoundPresenter(hardware.buzzer, hardware.speech))
    for words in filter(None, (set_aside, _computers_only(config, seats))):
        table.tell(words)  # the news: on the terminal, and in systemd's journal
    console = Console(table, full_screen=full_screen)
    hub = PadHub(table, list(config.pad_ports), config.pad_names, baudrate=config.pad_baud)
    web = web_tower.build(table, config.web)  # phones as pads; None when [web] turns it off
    try:
        asyncio.run(
            _serve(table, console, hub, keyboard=sys.stdin.isatty(), games=args.games, web=web)
        )
    finally:
        console.close()
        hub.close()
        hardware.close()
    return 0


async def _serve(
    table: Table,
    console: Console,
    hub: PadHub,
    *,
    keyboard: bool,
    games: int | None,
    web: WebServer | None = None,
) -> None:
    """The table first, then its doors: the journal is read back and every seat restored
    before the pad hub and the web server take a hello (a pad's hello taken earlier found no
    seat to give back, and the pad lost its seat after a power cut)."""
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, table.stop)
    try:
        await table.start(games=games)
        hub.open(loop)
        if web is not None:
            await web_tower.start(web, table, console, sys.stdout)
        if keyboard:
            console.attach_keyboard(loop)
        if console.full_screen:
            loop.add_signal_handler(signal.SIGWINCH, console.redraw)  # the terminal was resized
        await table.run(games=games)
    finally:
        if web is not None:
            await web.stop()


def _seats(args: argparse.Namespace, config: TowerConfig) -> list[SeatSpec]:
    """The seats at power-on. --players names them (--human ones among them play at the
    keyboard); else the configuration's computer players (none: people join on pads), or
    without a configuration Ann, Ben and Cleo, and each --human name takes its seat or joins."""
    if args.players is not None:
        names = list(args.players)
        for human in args.human:
            if human not in names:
                raise ConfigError(
                    f"--human {human}: not one of the players ({', '.join(names)}); "
                    f"name them all with --players"
                )
    else:
        names = list(config.computer_players if args.config else SIMULATED_PLAYERS)
        names += [human for human in dict.fromkeys(args.human) if human not in names]
        if len(names) > MAX_SEATS:
            raise ConfigError(
                f"--human: at most {MAX_SEATS} players, not {len(names)} ({', '.join(names)})"
            )
    return [SeatSpec(name, KEYBOARD if name in args.human else COMPUTER) for name in names]


def _computers_only(config: TowerConfig, seats: list[SeatSpec]) -> str | None:
    """Without a configuration computer players play by themselves, so a newcomer sees a
    game: say who they are and how to play instead."""
    if not config.simulated or not seats or any(seat.kind != COMPUTER for seat in seats):
        return None
    names = [seat.name for seat in seats]
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    are = "is a computer player" if len(names) == 1 else "are computer players"
    return f"{who} {are}: run with --human {names[0]} to play"


def _set_aside_unless_chosen(
    journal: Journal, args: argparse.Namespace, seats: list[SeatSpec], variant: str
) -> str | None:
    """A saved unfinished game carries on unless the command line asks for another: `--new`,
    or seats or a variant it does not have. Then it is set aside (abandoned, kept in the
    history) and the sentence saying so is returned."""
    asked = args.new or args.players is not None or args.human or args.variant is not None
    if not asked:
        return None
    try:
        saved = journal.resume_latest()
    except (JournalError, OSError, ValueError):
        return None  # the table reports what it cannot read
    if saved is None or (not args.new and _same_table(saved, seats, variant)):
        return None
    title = game_title(saved.path, [p.name for p in saved.game.players], saved.game.sheet.name)
    try:
        journal.abandon(saved.path)
    except JournalError as error:
        return f"{title} cannot be set aside ({error}): it carries on"
    why = "--new" if args.new else "other players or another variant were asked for"
    return f"set aside unfinished {title} ({why}); qwixx-tower history lists it"


def _same_table(saved: ResumedGame, seats: list[SeatSpec], variant: str) -> bool:
    """The saved game has these seats (names in order, and who plays them) and variant."""
    noted = [SeatSpec(**seat) for seat in noted_seats(saved.path)]
    players = [player.name for player in saved.game.players]
    had = [(seat.name, seat.kind) for seat in seats_for(players, [], noted)]
    return saved.game.sheet.name == variant and had == [(s.name, s.kind) for s in seats]


def setup_logging(full_screen: bool) -> None:
    """Plain sentences on standard error (systemd's journal); quieter under a drawn screen."""
    level = logging.ERROR if full_screen else logging.INFO
    logging.basicConfig(level=level, format=LOG_FORMAT)
    if systemd.logging_to_journal():  # under systemd: each line carries its syslog priority
        for handler in logging.getLogger().handlers:
            handler.setFormatter(systemd.JournalFormatter(LOG_FORMAT))
