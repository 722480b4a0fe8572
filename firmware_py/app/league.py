"""`qwixx-tower league`: the café's league as a service (docs/league.md). It reads its file
(the café's broker, its own file and page), keeps the towers' results in SQLite, rates the
players and serves the page, under systemd like the tower (`systemd/qwixx-league.service`:
ready once the page listens, the watchdog pinged). It never speaks to a tower but through the
broker, and the broker may come and go: the page stays up and says what it has."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_py.app import systemd
from firmware_py.app.arguments import say_and_fail
from firmware_py.app.paths import LEAGUE_FILE, default_state_dir
from firmware_py.journal.lock import hold

if TYPE_CHECKING:
    from firmware_py.app.config.league import LeagueConfig
    from firmware_py.league.organiser import Organisers

log = logging.getLogger("qwixx-league")
LOG_FORMAT = "%(levelname)s %(name)s: %(message)s"
DATABASE = "league.sqlite"
NOT_INSTALLED = (
    "the league needs aiomqtt and openskill: pip install 'qwixx-tower[league]' "
    "(sudo /opt/qwixx-tower/.venv/bin/pip install '/opt/qwixx-tower[league]' on the kiosk)"
)


def league_command(add_parser: Callable[..., argparse.ArgumentParser]) -> None:
    """Adds `qwixx-tower league` to the command's parser."""
    command = add_parser(
        "league", help="the café's league: every tower's results from the broker, and a page"
    )
    command.add_argument(
        "--config", type=Path, default=LEAGUE_FILE, help=f"its file (default {LEAGUE_FILE})"
    )
    command.add_argument(
        "--database", type=Path, help="the league's SQLite file (default: the file's, else "
        "league.sqlite in its state directory)",
    )  # fmt: skip
    command.add_argument(
        "--rebuild",
        action="store_true",
        help="start from an empty file: every tower is asked to publish its journal again",
    )
    command.set_defaults(handler=run_league)


def run_league(args: argparse.Namespace) -> int:
    from firmware_py.app.config.league import ConfigError, load_league_config

    try:
        config = load_league_config(args.config)
    except ConfigError as error:
        return say_and_fail(str(error))
    try:
        import aiomqtt  # noqa: F401 (only to say what is missing before anything starts)
        import openskill  # noqa: F401
    except ImportError:
        return say_and_fail(NOT_INSTALLED)
    _logging()
    database = args.database or config.database or default_state_dir("qwixx-league") / DATABASE
    another_league = hold(
        Path(f"{database}.lock"),
        f"another league is running on {database}",
        "(Ctrl-C in its terminal, or sudo systemctl stop qwixx-league for the service)",
    )
    if another_league is not None:
        return say_and_fail(another_league)
    if args.rebuild:
        _start_afresh(database)
    try:
        return asyncio.run(serve(config, database))
    except KeyboardInterrupt:
        return 130


def _start_afresh(database: Path) -> None:
    """The file and its write-ahead log removed: the towers fill it again when asked."""
    for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
    log.info("%s emptied: every tower heard of is asked for its journal again", database)


def _logging() -> None:
    logging.basicConfig(level=logging.INFO, format=LOG_FORMAT)
    if systemd.logging_to_journal():
        for handler in logging.getLogger().handlers:
            handler.setFormatter(systemd.JournalFormatter(LOG_FORMAT))


async def serve(config: LeagueConfig, database: Path) -> int:
    """The league until SIGTERM or Ctrl-C: 0, or 1 when its file or its port cannot be had."""
    from firmware_py.league.core import open_league
    from firmware_py.league.listener import Listener
    from firmware_py.league.organiser import OrganiserPasswordError
    from firmware_py.league.store import StoreError
    from firmware_py.league.web import Evening, LeaguePage

    try:
        league = open_league(database, config.mqtt.prefix)
    except StoreError as error:
        return say_and_fail(str(error))
    store = league.store
    try:
        organisers = _organisers(config)
    except OrganiserPasswordError as error:
        store.close()
        return say_and_fail(str(error))
    league.tournament.key = organisers.password  # signs the tournament's record on the broker
    page = LeaguePage(league, config.host, config.port, Evening(config.day_starts), organisers)
    try:
        port = await page.start()
    except OSError as error:
        store.close()
        return say_and_fail(f"the league's page cannot listen on {config.host} port "
                            f"{config.port}: {error.strerror or error}")  # fmt: skip
    print(f"The league's page is at http://{_shown(config.host)}:{port}/", flush=True)
    print(f"{store.games()} games kept, {len(league.ratings.players)} players", flush=True)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stopping.set)
    listening = asyncio.create_task(Listener(config.mqtt, league, config.catch_up).run())
    watchdog = asyncio.create_task(_watchdog())
    systemd.ready(f"page on port {port}")
    await stopping.wait()
    for task in (listening, watchdog):
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    await page.stop()
    league.save_ratings()
    store.close()
    print("The league stopped; nothing is lost", flush=True)
    return 0


def _organisers(config: LeagueConfig) -> Organisers:
    """Who may run a tournament: whoever knows the password in the organiser's file."""
    from firmware_py.league.organiser import Organisers, read_password

    path = config.organiser_password_file
    return Organisers(read_password(path) if path is not None else None)


def _shown(host: str) -> str:
    from firmware_py.seats.phones.server import EVERY_NETWORK, lan_address

    shown = lan_address() if host in EVERY_NETWORK else host
    return f"[{shown}]" if ":" in shown else shown


async def _watchdog() -> None:
    interval = systemd.watchdog_interval()
    while interval is not None:
        systemd.ping_watchdog()
        await asyncio.sleep(interval)
