"""`qwixx-tower run`: configuration, hardware, journal, table and console put together."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from firmware_py.config import ConfigError, load_config
from firmware_py.console import Console
from firmware_py.hardware import build_hardware
from firmware_py.journal import Journal
from firmware_py.padhub import PadHub
from firmware_py.paths import default_state_dir
from firmware_py.seating import COMPUTER, KEYBOARD, SeatSpec
from firmware_py.table import Table
from firmware_py.table.sound import SoundPresenter
from firmware_py.web import tower as web_tower
from firmware_py.web.server import WebServer
from sheets import load_sheet

log = logging.getLogger("qwixx-tower")


def run_tower(args: argparse.Namespace) -> int:
    """Run until stopped (or for --games games); exit status 2 for a bad configuration."""
    try:
        config = load_config(args.config)
        seats = _seats(args)
    except ConfigError as error:
        print(error, file=sys.stderr)
        return 2
    variant = args.variant or config.variant
    full_screen = not args.plain and sys.stdout.isatty()
    setup_logging(full_screen)
    hardware = build_hardware(config, load_sheet(variant).dice_faces, args.screens)
    for problem in hardware.problems:
        log.warning("%s", problem)
    table = Table(
        seats=seats,
        variant=variant,
        journal=Journal(args.state_dir or config.state_dir or default_state_dir()),
        hardware=hardware,
        pace=args.pace,
        action1_timer=config.action1_timer,
        long_press=config.button.long_press if config.button else 1.5,
        idle_dim=config.idle_dim,
        idle_blank=config.idle_blank,
        look_ahead=config.look_ahead if args.look_ahead is None else args.look_ahead,
    )
    if hardware.buzzer is not None or hardware.speech is not None:
        table.subscribe(SoundPresenter(hardware.buzzer, hardware.speech))
    console = Console(table, full_screen=full_screen)
    hub = PadHub(table, list(config.pad_ports), config.pad_names, baudrate=config.pad_baud)
    web = web_tower.build(table, config.web)  # phones as pads; None when [web] turns it off
    try:
        asyncio.run(
            _serve(table, console, hub, keyboard=sys.stdin.isatty(), games=args.games, web=web)
        )
    finally:
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
    loop = asyncio.get_running_loop()
    hub.open(loop)
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, table.stop)
    if keyboard:
        console.attach_keyboard(loop)
    if web is not None:
        await web_tower.start(web, table, console, sys.stdout)
    try:
        await table.run(games=games)
    finally:
        if web is not None:
            await web.stop()


def _seats(args: argparse.Namespace) -> list[SeatSpec]:
    names = [name.strip() for name in args.players.split(",") if name.strip()]
    if not 1 <= len(names) <= 5 or len(set(names)) != len(names):
        raise ConfigError(f"--players: give 1 to 5 different names, not {args.players!r}")
    for human in args.human:
        if human not in names:
            raise ConfigError(f"--human {human}: not one of the players ({', '.join(names)})")
    return [SeatSpec(name, KEYBOARD if name in args.human else COMPUTER) for name in names]


def setup_logging(full_screen: bool) -> None:
    """Plain sentences on standard error (systemd's journal); quieter under a drawn screen."""
    level = logging.ERROR if full_screen else logging.INFO
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
