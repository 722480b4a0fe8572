"""The history on the phones: read-only pages anyone on the table's network may open, no seat
needed (`/history`: the players and the table's last games; `/history/player?name=...`: one
player's figures; `/history/game/N`: one game's story). Plain HTML drawn by the tower, its
charts SVG: no script, so any phone shows them, and a screen reader reads their tables.

A guest's phone may be careless or hostile: every request is budgeted (per address and for
the whole table, `Bucket`), its inputs bounded (a name of at most MAX_NAME characters, game
numbers of at most nine digits), and every answer is a page in words, a refusal included. The
figures come from the journal's index (`journal/standings.py`); reading logs happens in a
thread of its own (`Refresher`), so the table's loop never waits on the disk, and a request
waits at most WAIT seconds for the newest games before it shows what is counted so far. A
game's end starts that reading at once (`game_ended`), and until it has read the game a page
waits for it up to ENDED_WAIT: the game-over page's links lead to the history with the game in
it, even on a busy tower. The charts are drawn by the show stage, handed in as `Drawings`
(`app/web.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from functools import cached_property
from html import escape
from typing import TYPE_CHECKING, Protocol
from urllib.parse import quote

from aiohttp import web

from firmware_py.seats.names import MAX_NAME, clean_name
from firmware_py.seats.phones.budget import PageBudget
from firmware_py.words import DAY_AND_CLOCK, in_digits, local_time, plural

if TYPE_CHECKING:  # (the figures are made at the first page or the warm-up, after READY=1)
    from firmware_py.journal.figures import GameSummary, PlayerHistory
    from firmware_py.journal.standings import Standings
    from firmware_py.story import GameStory

log = logging.getLogger(__name__)

WARM_UP_AFTER = 2.0  # seconds after the web server starts: the journal read for the history
WAIT = 0.1  # seconds a page waits for the journal's newest games before it answers
ENDED_WAIT = 5.0  # ... for a game that has just ended (its game-over page links here)
PER_ADDRESS = (12, 2.0)  # pages one address may ask at once, and then per second
FOR_EVERYONE = (40, 10.0)  # ... and the whole table
ADDRESSES_KEPT = 256
GAMES_A_PAGE = 20
PLAYERS_LISTED = 60  # players on the first page (most games first); the others found by name
MAX_DIGITS = 9
TOO_OFTEN = "the history was asked for too often: wait a moment and reload the page"
LEFT_OUT_AS = {  # a game that does not count, in the table's list: in a family's words
    "abandoned": "abandoned",
    "unfinished": "not finished",
    "unreadable": "cannot be read",
    "quarantined": "could not be read (set aside)",
}


class Drawings(Protocol):
    """The charts the pages show, as HTML pieces (`show/figures_html.py`)."""

    def game(self, story: GameStory) -> str: ...
    def player(self, history: PlayerHistory) -> str: ...


class Refresher:
    """The index brought up to the journal, and the figures to the index, in a thread of its
    own, one refresh at a time: the first reads every log (half a minute for 10,000 games
    here, when there is no index yet), and the tower neither waits for it to start nor to stop
    (a daemon thread; what it had not noted is read again)."""

    def __init__(self, standings: Callable[[], Standings]) -> None:
        self.standings = standings  # (asked for at the first refresh: made then)
        self._done: asyncio.Future[None] | None = None

    def start(self) -> asyncio.Future[None]:
        """A refresh, begun now unless one is running: its end."""
        if self._done is None or self._done.done():
            loop = asyncio.get_running_loop()
            self._done = loop.create_future()
            thread = threading.Thread(target=self._run, args=(loop, self._done, self.standings()),
                                      name="history-index", daemon=True)  # fmt: skip
            thread.start()
        return self._done

    def anew(self) -> asyncio.Future[None]:
        """A refresh that begins now or, while one runs (it may have listed the journal
        before the newest log was whole), as soon as that one ends: its end."""
        running = self._done
        if running is None or running.done():
            return self.start()
        after = asyncio.get_running_loop().create_future()
        running.add_done_callback(lambda _: self.start().add_done_callback(
            lambda _: _finish(after)))  # fmt: skip
        return after

    def _run(self, loop: asyncio.AbstractEventLoop, done: asyncio.Future[None],
             standings: Standings) -> None:  # fmt: skip
        try:
            standings.index.refresh()
            standings.update()
        except Exception:  # a bug: said, and the pages show what they had
            log.exception("the history's index could not be brought up to the journal")
        finally:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                loop.call_soon_threadsafe(_finish, done)


def _finish(done: asyncio.Future[None]) -> None:
    if not done.done():
        done.set_result(None)


Handler = Callable[[web.Request], Awaitable[web.Response]]


class HistoryPages:
    """The history's pages on the phones' web server (`add_routes`). Their figures and
    charts are made by `standings` and `drawings` when first needed (the warm-up, or a page
    asked for before it), so that the tower's start does not wait for their modules."""

    def __init__(self, standings: Callable[[], Standings], drawings: Callable[[], Drawings],
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self._make_standings, self._make_drawings = standings, drawings
        self.clock = clock
        self.refresher = Refresher(lambda: self.standings)
        self.budget = PageBudget(PER_ADDRESS, FOR_EVERYONE, clock(), ADDRESSES_KEPT)
        self._warming: asyncio.TimerHandle | None = None
        self._ended: asyncio.Future[None] | None = None  # the reading begun at a game's end

    @cached_property
    def standings(self) -> Standings:
        return self._make_standings()

    @cached_property
    def drawings(self) -> Drawings:
        return self._make_drawings()

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/history", self._guarded(self._table))
        app.router.add_get("/history/player", self._guarded(self._player))
        app.router.add_get(r"/history/game/{number:\d{1,9}}", self._guarded(self._game))
        app.on_startup.append(self._warm_up)

    async def _warm_up(self, app: web.Application) -> None:
        """The tower starts: the index is brought up to the journal in the background, a
        moment later (WARM_UP_AFTER), so that the tower's own start does not share the
        processor with it. A page asked for before then starts it itself."""
        loop = asyncio.get_running_loop()
        self._warming = loop.call_later(WARM_UP_AFTER, self.refresher.start)
        app.on_cleanup.append(self._cool_down)

    def game_ended(self) -> None:
        """A game ended (its log is whole): the index reads it now, for the pages that its
        game-over page links to."""
        self._ended = self.refresher.anew()

    def _reading(self) -> tuple[asyncio.Future[None], float]:
        """The reading of the journal's newest games that a page waits for, and how long at
        most: the one begun at a game's end until it is done (ENDED_WAIT), else one now (WAIT)."""
        if self._ended is not None and not self._ended.done():
            return self._ended, ENDED_WAIT
        return self.refresher.start(), WAIT

    async def _cool_down(self, app: web.Application) -> None:
        if self._warming is not None:
            self._warming.cancel()

    def _guarded(self, handler: Handler) -> Handler:
        """A page within the budgets, its figures as fresh as WAIT allows; a refusal or a
        fault is a page in words, never a traceback."""

        async def guarded(request: web.Request) -> web.Response:
            if not self.budget.allowed(request.remote or "", self.clock()):
                return page("Too often", f"<p>{escape(TOO_OFTEN)}</p>", 429)
            reading, wait = self._reading()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(reading), wait)
            try:
                return await handler(request)
            except web.HTTPException:
                raise
            except Exception:  # a bug: said in the log, and in words on the page
                log.exception("a history page failed")
                return page("Not now", "<p>The history cannot be shown just now.</p>", 500)

        return guarded

    # ---- the pages ---------------------------------------------------------------------------

    async def _table(self, request: web.Request) -> web.Response:
        """Every player, and the table's last games (older ones a page at a time)."""
        before = _number(request.query.get("before", ""))
        body = [self._counting(), _left_out(self.standings)]
        body.append(_players_list(self.standings) if before is None else "")
        games = self.standings.last_games(GAMES_A_PAGE, before)
        body.append(_games_list(games, before))
        return page("Past games and players", "".join(body), overview=before is None)

    async def _player(self, request: web.Request) -> web.Response:
        typed = request.query.get("name", "")
        if len(typed) > 4 * MAX_NAME:
            return page("No such player", "<p>No player has a name that long.</p>", 400)
        name = clean_name(typed)
        history = self.standings.player(name) if name else None
        if history is None:
            words = f"No finished game has a player named {name}." if name else "Type a name."
            return page("No such player", f"<p>{escape(words)}</p>{_find_form(name)}", 404)
        body = [self._counting(), self.drawings.player(history), _recent_games(history)]
        return page(f"{history.name}", "".join(body))

    async def _game(self, request: web.Request) -> web.Response:
        number = int(request.match_info["number"])
        answer = await asyncio.to_thread(self.standings.game, number)
        if answer.story is None:
            return page(f"Game {number}", f"<p>{escape(_sentence(answer.why))}</p>", 404)
        body = [f"<p>{escape(_game_line(answer.story))}</p>", self.drawings.game(answer.story)]
        return page(f"Game {number}", "".join(body))

    def _counting(self) -> str:
        """While the journal's games are being read: how far, and that the figures are of
        those read so far."""
        progress = self.standings.index.progress
        if not progress.busy:
            return ""
        return (f'<p role="status">Reading the journal: {progress.read:,} of '
                f"{progress.to_read:,} games so far; the figures are of those. Reload "
                "in a moment for all of them.</p>")  # fmt: skip


def page(title: str, body: str, status: int = 200, *, overview: bool = False) -> web.Response:
    """A history page: its title, the ways on, and `body` (HTML already escaped); the
    overview (`/history` itself) does not link to itself."""
    to_overview = (
        "" if overview else ('<a class="link-button" href="/history">All players and games</a> ')
    )
    html = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} - Qwixx tower</title>"
        '<link rel="icon" href="data:,"><link rel="stylesheet" href="/static/app.css">'
        '</head><body class="history">'
        f"<header><h1>{escape(title)}</h1></header>"
        f'<nav aria-label="The history">{to_overview}'
        '<a class="link-button" href="/">Back to the table</a></nav>'
        f"<main>{body}</main></body></html>"
    )
    return web.Response(text=html, status=status, content_type="text/html")


def _number(text: str) -> int | None:
    """A game number typed in digits; None for anything else."""
    return int(text) if in_digits(text) and len(text) <= MAX_DIGITS else None


def _sentence(words: str) -> str:
    return words[:1].upper() + words[1:] + "."


def _left_out(standings: Standings) -> str:
    words = standings.left_out().words()
    return f"<p>{escape(words)}</p>" if words else ""


def _players_list(standings: Standings) -> str:
    """Every player: a link to their figures, games, wins and their most played sheet."""
    lines = standings.everyone()
    if not lines:
        return "<h2>Players</h2><p>No finished games yet.</p>"
    items = []
    for line in lines[:PLAYERS_LISTED]:
        sheet = line.sheets[0]
        words = (f"{plural(line.games, 'game')}, {plural(line.wins, 'win')} "
                 f"({round(100 * line.win_rate)} %); "
                 f"{sheet.variant}: mean {round(sheet.mean)}, best {sheet.best}")  # fmt: skip
        items.append(f'<li><a class="link-button" href="{_player_link(line.name)}">'
                     f"{escape(line.name)}</a> {escape(words)}</li>")  # fmt: skip
    more = len(lines) - PLAYERS_LISTED
    rest = f"<p>{more:,} more players, who played fewer games: find them by name.</p>"
    return (f'<h2>Players</h2>{_find_form("")}<ul class="players">{"".join(items)}</ul>'
            f"{rest if more > 0 else ''}")  # fmt: skip


def _find_form(name: str) -> str:
    field = f'<input name="name" maxlength="{MAX_NAME}" value="{escape(name)}">'
    return (f'<form action="/history/player" method="get" class="find"><label>A player\'s '
            f'name {field}</label> <button type="submit">Show</button></form>')  # fmt: skip


def _player_link(name: str) -> str:
    return f"/history/player?name={quote(name)}"


def _games_list(games: list[GameSummary], before: int | None) -> str:
    """The table's games, newest first, each a link to its story where it counts."""
    if not games:
        return "<h2>Games at this table</h2><p>No games yet.</p>"
    items = "".join(f"<li>{_game_item(summary)}</li>" for summary in games)
    older = ""
    if len(games) == GAMES_A_PAGE and games[-1].number > 1:
        link = f"/history?before={games[-1].number}"
        older = f'<p><a class="link-button" href="{link}">Older games</a></p>'
    title = "The last games at this table" if before is None else f"Games before game {before}"
    return f'<h2>{title}</h2><ul class="games">{items}</ul>{older}'


def _game_item(summary: GameSummary) -> str:
    when = _when(summary.began)
    if not summary.counts:
        why = LEFT_OUT_AS.get(summary.state, summary.state)
        return escape(f"Game {summary.number}{when}: {why}, not in the figures.")
    scores = ", ".join(f"{seat.name} {seat.total}" for seat in summary.players)
    won = " and ".join(summary.winners)
    words = f"{when.removeprefix(', ')} {summary.variant}: {won} won ({scores})".strip()
    link = (f'<a class="link-button" href="/history/game/{summary.number}">Game '
            f"{summary.number}</a>")  # fmt: skip
    return f"{link} {escape(words)}"


def _when(began: str) -> str:
    """When a game began, in the tower's local time (", Sun 2026-11-22 19:04"), or ""."""
    when = local_time(began, DAY_AND_CLOCK)
    return f", {when}" if when else ""


def _recent_games(history: PlayerHistory) -> str:
    items = "".join(
        f'<li><a class="link-button" href="/history/game/{number}">Game {number}</a> '
        f"{escape(variant)}: {total} points{', won' if won else ''}</li>"
        for number, variant, total, won in reversed(history.last)
    )
    return f'<h2>Last games</h2><ul class="games">{items}</ul>'


def _game_line(story: GameStory) -> str:
    breakdown = story.breakdown
    won = " and ".join(breakdown.winners)
    why = {"locks": "two rows locked", "penalties": "a fourth penalty"}.get(breakdown.reason, "")
    return f"{breakdown.title}, {story.rolls} rolls, ended by {why}: {won} won."
