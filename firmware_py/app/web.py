"""The web server's part in `qwixx-tower run`: built from `[web]`, started inside the tower's
loop once the table has read its journal back (then the displays show the join QR code),
announced in the terminal, stopped with the tower. A port another program holds gives way to a
free one (the QR code and the address say which), and that port is kept in the state directory
(`web-port.json`): at the next start the tower listens there first, so the phones' bookmarks
and the printed QR code stay good, as does the key in the QR code's link (`join-key.json`,
`join_key`). A host it cannot listen on is one sentence, and the tower plays on without
phones."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TextIO

from firmware_py.app.config import WebConfig
from firmware_py.journal.disk import read_regular
from firmware_py.journal.journal import Journal
from firmware_py.json_text import json_value
from firmware_py.seats.names import looks
from firmware_py.seats.phones.hub import WebHub
from firmware_py.show.qr import join_lines
from firmware_py.show.terminal import Footer, Terminal
from firmware_py.view import TableView
from firmware_py.words import in_digits

if TYPE_CHECKING:
    from firmware_py.journal.standings import Standings
    from firmware_py.seats.phones.history_pages import HistoryPages
    from firmware_py.seats.phones.server import WebServer
    from firmware_py.show.figures_html import PageDrawings

log = logging.getLogger(__name__)

PLAIN_COLUMNS = 80  # a line of the plain terminal fits a classic terminal's width
QR_ROOM = 60  # terminal lines needed to show the QR code under the drawn tower
PORT_NOTE = "web-port.json"  # in the state directory: the port chosen when the configured was taken
PORT_VARIABLE = "QWIXX_WEB_PORT"  # this run's port, over [web] port and the note; 0: any free port


@dataclass(frozen=True)
class PortNote:
    """The port phones were given when the configured one was taken, kept for that port."""

    path: Path
    configured: int

    def kept(self) -> int:
        """The port to listen on first: the one chosen before, else the configured one."""
        try:
            note = json_value(read_regular(self.path))
            if note["configured"] == self.configured and 0 < int(note["port"]) < 65536:
                return int(note["port"])
        except (OSError, ValueError, TypeError, KeyError):
            pass  # none yet, or unreadable: the configured port
        return self.configured

    def keep(self, port: int) -> None:
        """Remember `port` for the next start (forget it when it is the configured one)."""
        try:
            if port == self.configured:
                self.path.unlink(missing_ok=True)
                return
            fresh = self.path.with_suffix(".tmp")
            fresh.write_text(json.dumps({"configured": self.configured, "port": port}))
            os.replace(fresh, self.path)
        except OSError as error:
            log.warning("the phones' port cannot be kept in %s: %s", self.path, error.strerror)


def port_note(config: WebConfig, state_dir: Path) -> PortNote:
    """The note of the phones' port in the state directory."""
    return PortNote(state_dir / PORT_NOTE, config.port)


class JoinTable(Protocol):
    """What the web server's start asks of the table: news, and where phones join shown."""

    def tell(self, words: str) -> None: ...
    def show_join_address(self, url: str, code: str) -> None: ...


def build(hub: WebHub, config: WebConfig, note: PortNote | None = None,
          history: HistoryPages | None = None) -> WebServer:  # fmt: skip
    """The web server for phones (seats of the same kind of path as pads), serving `hub` and
    the history's pages. With a note it listens first on the port kept there."""
    from firmware_py.seats.phones.server import WebServer  # aiohttp: a tower with phones only

    override = port_override()
    if override is not None:
        return WebServer(hub, config.host, override, history)
    return WebServer(hub, config.host, note.kept() if note else config.port, history)


def history_pages(journal: Journal) -> HistoryPages:
    """The history's pages for phones: the figures of the journal's index (names that look
    alike are one player, as at the table), their charts drawn by the show stage; both made
    when the pages first need them."""
    from firmware_py.seats.phones.history_pages import HistoryPages  # (with phones only)

    return HistoryPages(lambda: history_figures(journal), page_drawings)


def history_figures(journal: Journal) -> Standings:
    """The figures of the journal's index, names that look alike counted as one player."""
    from firmware_py.journal.index import HistoryIndex  # (at the warm-up, after READY=1)
    from firmware_py.journal.standings import Standings

    return Standings(HistoryIndex(journal.directory), looks)


def page_drawings() -> PageDrawings:
    """The history's charts, drawn by the show stage."""
    from firmware_py.show.figures_html import PageDrawings  # (at the first page with a chart)

    return PageDrawings()


def port_override() -> int | None:
    """The port $QWIXX_WEB_PORT names for this run (two towers on one computer, tests side by
    side), neither noted nor kept; None without it, or (said in the log) when it is no port."""
    value = os.environ.get(PORT_VARIABLE, "").strip()
    if not value:
        return None
    if in_digits(value) and int(value) <= 65535:
        return int(value)
    log.warning("%s=%r is not a port: the configured port is used", PORT_VARIABLE, value[:20])
    return None


async def start(
    server: WebServer,
    table: JoinTable,
    terminal: Terminal,
    out: TextIO,
    note: PortNote | None = None,
) -> bool:
    """Listen; on success the displays and the terminal show where phones join (and the port
    is noted for the next start)."""
    problem = await server.start()
    if problem is not None:
        log.warning("%s", problem)  # the journal, with its priority
        table.tell(problem)  # the news: under the drawn tower, or as a line of plain output
        return False
    if terminal.full_screen:  # drawn from the join address's first publication on
        terminal.footers.append(join_footer(server))
    table.show_join_address(server.url, server.hub.code)
    plain = None if terminal.full_screen else out  # plain lines: the new code is one of them
    server.hub.code_changed = lambda: new_code_shown(server, table, plain)  # after every game
    if port_override() is not None:
        note = None  # a port for this run only
    if note is not None:
        note.keep(server.port)
    if server.moved_from is not None:
        kept = " from now on" if note is not None else ""  # kept in the note
        moved = (
            f"port {server.moved_from} is in use by another program: "
            f"phones join on port {server.port}{kept}"
        )
        log.warning("%s", moved)
        table.tell(moved)
    if not terminal.full_screen:
        print(join_lines(server.url, with_code=False)[0], file=out, flush=True)
        print(code_line(server.hub.code), file=out, flush=True)
    return True


def code_line(code: str) -> str:
    """The typed table code, for a phone without a camera (it changes after every game)."""
    return f"Table code {code}: to type on a phone that cannot scan the QR code"


def new_code_shown(server: WebServer, table: JoinTable, plain: TextIO | None = None) -> None:
    """A new table code (a game ended): on the displays with the next publication, drawn
    once the change being published now has reached every presenter; in the plain terminal
    (`plain`), one line after the game's last news, since phones need the new code."""
    loop = asyncio.get_running_loop()
    loop.call_soon(table.show_join_address, server.url, server.hub.code)
    if plain is not None:
        line = new_code_line(server.hub.code, server.url)
        loop.call_soon(lambda: print(line, file=plain, flush=True))


def new_code_line(code: str, url: str, columns: int = PLAIN_COLUMNS) -> str:
    """The new table code and where phones join, in one line of at most `columns`: the
    address is left out when it does not fit (a long IPv6 one)."""
    for line in (f"New table code {code}: phones join at {url}", f"New table code {code}: {url}"):
        if len(line) <= columns:
            return line
    return f"New table code {code}"


def join_footer(server: WebServer) -> Footer:
    """Lines under the drawn tower: the QR code between games (when the terminal has room),
    and always the address and the table code of the moment (read at every drawing: the
    code changes after every game); in a small terminal the address and the code share one
    line, which fits under both displays at 80x24."""

    def lines(view: TableView) -> list[str]:
        if shutil.get_terminal_size().lines < QR_ROOM:
            return [f"Phones join at {server.url} (table code {server.hub.code})"]
        between_games = view.game is None or view.game.over
        return [*join_lines(server.url, with_code=between_games), code_line(server.hub.code)]

    return lines
