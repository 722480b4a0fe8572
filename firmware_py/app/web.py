"""The web server's part in `qwixx-tower run`: built from `[web]`, started inside the tower's
loop once the table has read its journal back (then the displays show the join QR code),
announced in the terminal, stopped with the tower. A port another program holds gives way to a
free one (the QR code and the address say which); a host it cannot listen on is one sentence,
and the tower plays on without phones."""

from __future__ import annotations

import asyncio
import logging
import shutil
from collections.abc import Callable
from typing import Any, TextIO

from firmware_py.app.config import WebConfig
from firmware_py.seating import PHONE
from firmware_py.seats.devices import RemoteSeats
from firmware_py.seats.phones.hub import WebHub
from firmware_py.seats.phones.server import WebServer
from firmware_py.show.qr import join_lines
from firmware_py.table import Table

log = logging.getLogger(__name__)

QR_ROOM = 60  # terminal lines needed to show the QR code under the drawn tower


def build(table: Table, config: WebConfig) -> WebServer | None:
    """The web server for phones (seats of the same kind of path as pads), or None when
    `[web]` turns it off."""
    if not config.enabled:
        return None
    hub = WebHub(table, RemoteSeats(table, PHONE))
    return WebServer(hub, config.host, config.port)


async def start(server: WebServer, table: Any, console: Any, out: TextIO) -> bool:
    """Listen; on success the displays and the terminal show where phones join."""
    problem = await server.start()
    if problem is not None:
        log.warning("%s", problem)  # the journal, with its priority
        table.tell(problem)  # the news: under the drawn tower, or as a line of plain output
        return False
    show_join_address(server, table)
    server.hub.code_changed = lambda: new_code_shown(server, table)  # after every game
    if server.moved_from is not None:
        moved = (
            f"port {server.moved_from} is in use by another program: "
            f"phones join on port {server.port}"
        )
        log.warning("%s", moved)
        table.tell(moved)
    if console.full_screen:
        console.footers.append(join_footer(server.url, table))
    else:
        print(join_lines(server.url, with_code=False)[0], file=out, flush=True)
    return True


def show_join_address(server: WebServer, table: Any) -> None:
    """The address phones join at, with the table code, on the displays and the terminal."""
    table.join_address = (server.url, server.hub.code)
    table.publish()


def new_code_shown(server: WebServer, table: Any) -> None:
    """A new table code (a game ended): on the displays with the next publication, drawn
    once the change being published now has reached every presenter."""
    table.join_address = (server.url, server.hub.code)
    asyncio.get_running_loop().call_soon(table.publish)


def join_footer(url: str, table: Any) -> Callable[[], list[str]]:
    """Lines under the drawn tower: the QR code between games (when the terminal has room),
    and always the address."""

    def lines() -> list[str]:
        between_games = table.game is None or table.game.over
        room = shutil.get_terminal_size().lines >= QR_ROOM
        return join_lines(url, with_code=between_games and room)

    return lines
