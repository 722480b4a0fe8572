"""The tournament's part of the league's page: /tournament for everyone (the round, the tables,
who still plays, the points) and the organiser's actions, each a form posted to
/tournament/ACTION: only from a browser signed in with the organiser's password
(`organiser.Organisers`), only from the league's own page (the Origin a browser sends names
the league), answered by going back to /tournament with what happened in words."""

from __future__ import annotations

import sqlite3
from urllib.parse import urlsplit

from aiohttp import web

from firmware_py.league.core import League
from firmware_py.league.organiser import COOKIE, WINDOW, Organisers
from firmware_py.league.tournament import NotNow, read_entrants, read_towers
from firmware_py.league.tournament_pages import (
    hand_form,
    organiser_forms,
    sign_in_form,
    tournament_page,
)
from firmware_py.words import in_digits

SAID = 200  # characters of the words shown after an action
DEVICES_TOLD = 256  # devices whose last words wait to be shown


class Told:
    """What each device's last post came to, in words, shown once by the page it is sent back
    to (kept here, not in the address: a link cannot make the page say anything)."""

    def __init__(self) -> None:
        self.words: dict[str, str] = {}

    def keep(self, device: str, words: str) -> None:
        self.words.pop(device, None)
        if len(self.words) >= DEVICES_TOLD:
            self.words.pop(next(iter(self.words)))
        self.words[device] = words[:SAID]

    def take(self, device: str) -> str:
        return self.words.pop(device, "")


ORGANISERS = web.AppKey("organisers", Organisers)
TOURNAMENT_LEAGUE = web.AppKey("tournament_league", League)
TOLD = web.AppKey("told", Told)


def add_tournament(app: web.Application, league: League, organisers: Organisers) -> None:
    app[ORGANISERS], app[TOURNAMENT_LEAGUE], app[TOLD] = organisers, league, Told()
    app.router.add_get("/tournament", _page)
    app.router.add_post("/tournament/sign-in", _sign_in)
    for action in ACTIONS:
        app.router.add_post(f"/tournament/{action}", _action)


async def _page(request: web.Request) -> web.Response:
    league, organisers = request.app[TOURNAMENT_LEAGUE], request.app[ORGANISERS]
    tournament = league.tournament
    header = tournament.header
    round_, tables = tournament.round_now()
    organiser = organisers.is_organiser(request.cookies.get(COOKIE))
    if organiser:
        entrants = tournament.store.entrants(header.id) if header else []
        reported = all(table.game for table in tables)
        begun = bool(tables) and all(table.started for table in tables)
        forms = organiser_forms(header, entrants, can_draw=reported,
                                can_start=bool(tables) and not begun,
                                can_close=begun and not reported)  # fmt: skip
        if tournament.running():
            waiting = [table for table in tables if table.started and not table.game]
            forms += "".join(hand_form(table) for table in waiting)
    else:
        forms = sign_in_form(organisers.on)
    said = request.app[TOLD].take(request.remote or "")
    text = tournament_page(header, round_, tables, tournament.totals(), forms, said,
                           refresh=not organiser)  # fmt: skip
    return web.Response(text=text, content_type="text/html", charset="utf-8")


def _back(request: web.Request, said: str) -> web.HTTPSeeOther:
    """Back to the page, which says `said` to this device once."""
    request.app[TOLD].keep(request.remote or "", said)
    return web.HTTPSeeOther("/tournament")


def _from_our_page(request: web.Request) -> bool:
    """A form posted from the league's own page. A browser says where from: in Sec-Fetch-Site,
    and in Origin ("null" under the page's no-referrer policy, which Chromium applies to it);
    the session's cookie is SameSite=Strict besides, so another site's form never carries it."""
    if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        return False
    origin = request.headers.get("Origin", "null")
    try:
        return origin == "null" or urlsplit(origin).netloc == request.host
    except ValueError:  # an Origin that is no URL ("http://["): no page of ours
        return False


async def _sign_in(request: web.Request) -> web.StreamResponse:
    organisers = request.app[ORGANISERS]
    if not _from_our_page(request):
        raise web.HTTPForbidden(text="only the league's own page may sign in")
    form = await request.post()
    typed = form.get("password")
    device = request.remote or ""
    token = organisers.sign_in(device, typed if isinstance(typed, str) else "")
    if token is None:
        if organisers.waiting(device):
            raise _back(request, f"too many wrong passwords from this device: wait {WINDOW:g} s")
        raise _back(request, "that is not the organiser's password")
    answer = _back(request, "signed in as the organiser")
    answer.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/tournament")
    raise answer


async def _action(request: web.Request) -> web.StreamResponse:
    league, organisers = request.app[TOURNAMENT_LEAGUE], request.app[ORGANISERS]
    if not _from_our_page(request) or not organisers.is_organiser(request.cookies.get(COOKIE)):
        raise web.HTTPForbidden(text="only the organiser may do that: sign in on /tournament")
    form = await request.post()
    fields = {key: value for key, value in form.items() if isinstance(value, str)}
    action = request.path.rsplit("/", 1)[1]
    try:
        said = ACTIONS[action](league, fields)
    except NotNow as why:
        said = str(why)
    except sqlite3.Error as error:  # another program holds the file (nothing done: one write)
        said = f"the league's file cannot be written now ({error}): try again in a moment"
    raise _back(request, said)


def _create(league: League, fields: dict[str, str]) -> str:
    rounds = fields.get("rounds", "").strip()
    if not in_digits(rounds) or len(rounds) > 2:
        raise NotNow("the number of rounds is a number, 1 to 10")
    entrants = read_entrants(fields.get("players", ""))
    towers = read_towers(fields.get("towers", ""))
    league.tournament.create(fields.get("name", ""), int(rounds), entrants, towers)
    return f"the tournament is created: {len(entrants)} players, {rounds} rounds"


def _online(league: League) -> list[str]:
    return [tower for tower, on in league.store.towers().items() if on]


def _draw(league: League, _: dict[str, str]) -> str:
    number = league.tournament.draw(_online(league))
    return f"round {number}'s tables are drawn and shown at the towers"


def _start(league: League, _: dict[str, str]) -> str:
    return f"round {league.tournament.start()} has begun at every table"


def _close(league: League, fields: dict[str, str]) -> str:
    if fields.get("sure") != "yes":
        raise NotNow('tick "Yes" to close the round without those tables\' results')
    closed = league.tournament.close_round()
    return f"the round is closed; no result from {', '.join(closed)}"


def _leave(league: League, fields: dict[str, str]) -> str:
    name = fields.get("name", "")
    league.tournament.leave(name)
    return f"{name} has left: not drawn again, no points in the rounds left"


def _by_hand(league: League, fields: dict[str, str]) -> str:
    tower = fields.get("tower", "")
    scores = league.tournament.by_hand(tower, fields)
    typed = ", ".join(f"{name} {score}" for name, score in scores.items())
    return f"{tower}'s result is typed in by hand: {typed}"


def _end(league: League, fields: dict[str, str]) -> str:
    if fields.get("sure") != "yes":
        raise NotNow('tick "Yes, end it" to end the tournament')
    league.tournament.end(_online(league))
    return "the tournament has ended"


ACTIONS = {"create": _create, "draw": _draw, "start": _start, "close": _close, "leave": _leave,
           "by-hand": _by_hand, "end": _end}  # fmt: skip
