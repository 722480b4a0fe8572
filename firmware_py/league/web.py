"""The league's page on the café's network: aiohttp, behind the guards of the tower's own page
for phones (`firmware_py/seats/phones/`): the doorman's share of connections per device at
the port, the `Host` header checked against DNS rebinding, little read at once, small request
bodies, aiohttp's log lines counted rather than written, and the same security headers. It
only reads: the league (/), a player's page (/player/KEY) and its style sheet."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from html import escape
from pathlib import Path
from time import monotonic

from aiohttp import web, web_response

from firmware_py.league.core import League
from firmware_py.league.organiser import COOKIE, Organisers
from firmware_py.league.pages import league_page, not_found_page, page, player_page
from firmware_py.league.tournament_web import ORGANISERS, add_tournament
from firmware_py.seats.phones.budget import PageBudget
from firmware_py.seats.phones.guard import OwnHosts, few_log_lines
from firmware_py.seats.phones.history_pages import ADDRESSES_KEPT, FOR_EVERYONE, PER_ADDRESS
from firmware_py.seats.phones.server import (
    HOSTS,
    IDLE,
    SERVER_NAME,
    GuardedSite,
    Handler,
    listening_socket,
    own_host_only,
    read_little,
    security_headers,
)

STATIC = Path(__file__).resolve().parent / "static"
Clock = Callable[[], datetime]  # now, with its time zone
LEAGUE = web.AppKey("league", League)
BUDGET = web.AppKey("budget", PageBudget)
TOO_OFTEN = "The league's page was asked for too often from here: wait a moment and reload it."

STANDINGS_SHOWN = 100  # players on the front page
GAMES_SHOWN = 50  # games on a page


@dataclass(frozen=True)
class Evening:
    """The café's day begins at `day_starts` o'clock local time, so an evening that runs past
    midnight is one evening."""

    day_starts: int = 6
    clock: Clock = lambda: datetime.now().astimezone()  # the local time, zoned

    def began(self) -> str:
        """When this evening began, as the games' times say it (ISO, UTC, to the second)."""
        now = self.clock()
        start = datetime.combine(now.date(), time(self.day_starts), now.tzinfo)
        if start > now:
            start -= timedelta(days=1)
        return start.astimezone(UTC).isoformat(timespec="seconds")


EVENING = web.AppKey("evening", Evening)


def make_app(
    league: League, evening: Evening, organisers: Organisers | None = None
) -> web.Application:
    # (8 KiB: the organiser's list of players; every other request is a GET)
    middlewares = [read_little, own_host_only, within_budget]
    app = web.Application(client_max_size=8192, middlewares=middlewares)
    app[LEAGUE], app[HOSTS], app[EVENING] = league, OwnHosts(), evening
    app[BUDGET] = PageBudget(PER_ADDRESS, FOR_EVERYONE, monotonic(), ADDRESSES_KEPT)
    app.router.add_get("/", _front)
    app.router.add_get("/player/{key}", _player)
    add_tournament(app, league, organisers or Organisers(None))
    app.router.add_static("/static/", STATIC)
    app.on_response_prepare.append(security_headers)
    return app


@web.middleware
async def within_budget(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Each page (not its style sheet) within the budgets of the phones' history pages: an
    address asking too often is told to wait, and another still gets its page. The organiser
    signed in (a session only the password gives) is never told to wait in mid-tournament."""
    budget = request.app[BUDGET]
    if (
        request.path.startswith("/static/")
        or request.app[ORGANISERS].is_organiser(request.cookies.get(COOKIE))
        or budget.allowed(request.remote or "", monotonic())
    ):
        return await handler(request)
    return _html(page("Too often", f"<p>{escape(TOO_OFTEN)}</p>"), 429)


def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")


async def _front(request: web.Request) -> web.Response:
    league = request.app[LEAGUE]
    since = request.app[EVENING].began()
    evening = league.store.latest(GAMES_SHOWN, since=since)
    page = league_page(league.ratings.standings(), league.store.towers(), league.tables,
                       league.clocks_ahead, evening, STANDINGS_SHOWN,
                       league.file_trouble)  # fmt: skip
    return _html(page)


async def _player(request: web.Request) -> web.Response:
    league = request.app[LEAGUE]
    key = request.match_info["key"][:200]
    standings = league.ratings.standings()
    for rank, one in enumerate(standings, start=1):
        if one.key == key:
            return _html(player_page(one, rank, league.store.latest(GAMES_SHOWN, player=key)))
    return _html(not_found_page("No player of that name has finished a game here."), 404)


class LeaguePage:
    """The page's server in the league's loop: `start` (its port), `stop`."""

    def __init__(self, league: League, host: str, port: int, evening: Evening,
                 organisers: Organisers | None = None) -> None:  # fmt: skip
        self.app = make_app(league, evening, organisers)
        self.host, self.port = host, port
        self._runner: web.AppRunner | None = None

    async def start(self) -> int:
        """Listen (OSError when the port cannot be had); the port listened on."""
        few_log_lines()
        web_response.SERVER_SOFTWARE = SERVER_NAME  # type: ignore[attr-defined]
        runner = web.AppRunner(self.app, access_log=None, handle_signals=False,
                               shutdown_timeout=0.5, keepalive_timeout=IDLE)  # fmt: skip
        await runner.setup()
        try:
            await GuardedSite(runner, listening_socket(self.host, self.port)).start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = runner.addresses[0][1]
        return self.port

    async def stop(self) -> None:
        if self._runner is not None:
            await asyncio.shield(self._runner.cleanup())
            self._runner = None
