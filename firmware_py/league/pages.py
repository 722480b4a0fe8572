"""The league's pages as HTML: the standings, each table now, the evening's games, a player's
page. Pure functions of what they are given; every word that came from the bus (names, tower
ids) is escaped, so a name is shown as typed and never read as markup."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import timedelta
from html import escape
from urllib.parse import quote

from firmware_py.league.clocks import clock_words
from firmware_py.league.identity import named, player_key
from firmware_py.league.incoming import Placing, Result
from firmware_py.league.ratings import Standing
from firmware_py.league.tables import TableNow
from firmware_py.words import CLOCK, DAY_AND_CLOCK, local_time

REFRESH = 15  # seconds between two loads of a page: the evening goes on
Towers = dict[str, bool]


def page(title: str, body: str, *, refresh: bool = True) -> str:
    """A whole page; `refresh`: it loads itself again every REFRESH seconds (not a page with a
    form being filled in)."""
    again = f'<meta http-equiv="refresh" content="{REFRESH}">' if refresh else ""
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"{again}"
        f'<title>{escape(title)}</title><link rel="stylesheet" href="/static/league.css">'
        f"</head><body><main><h1>{escape(title)}</h1>{body}</main></body></html>\n"
    )


def player_link(key: str, name: str) -> str:
    return f'<a href="/player/{quote(key, safe="")}">{escape(name)}</a>'


def rating_words(one: Standing) -> str:
    """A rating with its uncertainty: "31.2 ± 4.1" (mu, and two sigmas: 95 % sure)."""
    return f"{one.mu:.1f} ± {2 * one.sigma:.1f}"


def standings_table(standings: Sequence[Standing], limit: int) -> str:
    if not standings:
        return "<p>No games yet: the standings begin with the first game a tower finishes.</p>"
    rows = "".join(
        f"<tr><td>{rank}</td><td>{player_link(one.key, one.name)}{_computer(one)}</td>"
        f'<td>{one.ordinal:.1f}</td><td class="skill">{rating_words(one)}</td><td>{one.games}</td>'
        f"<td>{one.wins}</td></tr>"
        for rank, one in enumerate(standings[:limit], start=1)
    )
    more = len(standings) - limit
    note = f"<p>{more} more players below.</p>" if more > 0 else ""
    return (
        table_box(
            "Standings",
            '<table class="standings"><thead><tr><th>#</th><th>Player</th>'
            '<th title="mu - 3 sigma: a rating the player is almost surely above">Rating</th>'
            '<th title="the skill it expects, ± twice its uncertainty">Skill</th>'
            f"<th>Games</th><th>Wins</th></tr></thead><tbody>{rows}</tbody></table>",
        )
        + note
    )


def table_box(name: str, table: str) -> str:
    """A table in a box of its own: on a screen too narrow for its columns (a phone at large
    text) the box scrolls sideways, never the page; the box takes the focus, so that a
    keyboard scrolls it too, and is named for a screen reader."""
    return f'<div class="table-box" tabindex="0" role="region" aria-label="{name}">{table}</div>'


def _computer(one: Standing) -> str:
    return ' <span class="kind">(computer)</span>' if one.kind == "computer" else ""


Clocks = dict[str, timedelta]  # tower: how far its clock is ahead of the league's


def tables_section(towers: Towers, tables: dict[str, TableNow], clocks: Clocks) -> str:
    if not towers:
        return "<p>No tower has been heard of yet.</p>"
    items = "".join(
        _table(tower, on, tables.get(tower), clocks.get(tower))
        for tower, on in sorted(towers.items())
    )
    return f'<ul class="tables">{items}</ul>'


def _table(tower: str, online: bool, now: TableNow | None, ahead: timedelta | None) -> str:
    if not online:
        return f"<li><b>{escape(tower)}</b>: off the bus</li>"
    off = clock_words(ahead) if ahead is not None else None
    clock = f'<br><span class="clock">{escape(off)}</span>' if off else ""
    if now is None or not now.playing:
        return f"<li><b>{escape(tower)}</b>: between games{clock}</li>"
    seats = ", ".join(
        f"{escape(name)} {score if score is not None else ''}".rstrip() for name, score in now.seats
    )
    turn = f"; {escape(now.active)} rolls" if now.active else ""
    return f"<li><b>{escape(tower)}</b>: {escape(now.variant)}: {seats}{turn}{clock}</li>"


def games_table(games: Iterable[Result], empty: str, shape: str = CLOCK) -> str:
    """The games, each ended at its time in the league's local time, in `shape` (the clock
    alone for one evening's, the day too for a player's, which span evenings)."""
    rows = "".join(_game_row(game, shape) for game in games)
    if not rows:
        return f"<p>{escape(empty)}</p>"
    return table_box(
        "Games",
        '<table class="games"><thead><tr><th>Ended</th><th>Table</th><th>Variant</th>'
        f"<th>Players, by place</th></tr></thead><tbody>{rows}</tbody></table>",
    )


def _who(one: Placing) -> str:
    """A player's name, a link to their page (a seat nobody named has none)."""
    return player_link(player_key(one), one.name) if named(one) else escape(one.name)


def _game_row(game: Result, shape: str) -> str:
    ended = local_time(game.finished, shape)
    players = ", ".join(
        f"{one.place}. {_who(one)} {one.score}"
        for one in sorted(game.players, key=lambda one: (one.place, one.seat))
    )
    return (
        f"<tr><td>{escape(ended)}</td><td>{escape(game.tower)}</td>"
        f"<td>{escape(game.variant)}</td><td>{players}</td></tr>"
    )


def league_page(standings: Sequence[Standing], towers: Towers, tables: dict[str, TableNow],
                clocks: Clocks, evening: Iterable[Result], limit: int,
                trouble: str = "") -> str:  # fmt: skip
    said = f'<p class="said" role="status">{escape(trouble)}</p>' if trouble else ""
    return page(
        "Qwixx league",
        '<p><a href="/tournament">Tournament</a></p>'
        + said
        + "<h2>Tables now</h2>"
        + tables_section(towers, tables, clocks)
        + "<h2>Standings</h2>"
        + standings_table(standings, limit)
        + "<h2>This evening's games</h2>"
        + games_table(evening, "No game has ended this evening yet."),
    )


def player_page(one: Standing, rank: int, games: Iterable[Result]) -> str:
    return page(
        one.name,
        f'<p><a href="/">The league</a></p><p class="rating">Place {rank} with a rating of '
        f"{one.ordinal:.1f} (skill {rating_words(one)}), {one.games} games, {one.wins} won.</p>"
        "<h2>Latest games</h2>" + games_table(games, "No games.", DAY_AND_CLOCK),
    )


def not_found_page(what: str) -> str:
    return page("Not in the league", f'<p>{escape(what)}</p><p><a href="/">The league</a></p>')
