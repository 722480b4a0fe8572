"""The tournament's page as HTML: the round now and each table (who still plays), the points
by round, the winners once it ended, and for the organiser the forms of what to do next. Pure
functions of what they are given; every name is escaped. Forms post to the league itself and
need no script (the page's policy allows none)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from firmware_py.league.by_hand import score_field
from firmware_py.league.final_standings import points_words, ranks, top
from firmware_py.league.pages import page, table_box
from firmware_py.league.round_points import BY_HAND, CLOSED, round_points
from firmware_py.league.tournament import Total
from firmware_py.league.tournament_store import Entrant, Header, RoundTable
from firmware_py.words import local_time


def tournament_page(header: Header | None, round_: int, tables: Sequence[RoundTable],
                    totals: Sequence[Total], organiser: str, said: str = "",
                    refresh: bool = True) -> str:  # fmt: skip
    """The whole page; `organiser`: the organiser's forms, or the sign-in, as HTML; `refresh`:
    off for the organiser (a form half filled in is not loaded away)."""
    note = f'<p class="said" role="status">{escape(said)}</p>' if said else ""
    if header is None:
        return page("Tournament", note + "<p>No tournament yet.</p>" + organiser, refresh=refresh)
    body = note + _state(header, round_, tables)
    body += winners(totals) if header.ended else _tables(round_, tables)
    body += ("" if header.ended else "<h2>Points</h2>") + points_table(header.rounds, totals)
    return page(
        header.name, '<p><a href="/">The league</a></p>' + body + organiser, refresh=refresh
    )


def _state(header: Header, round_: int, tables: Sequence[RoundTable]) -> str:
    if header.ended:
        return f"<p>Ended at {local_time(header.ended)}.</p>"
    if round_ == 0:
        at = ", ".join(escape(tower) for tower in header.towers) or "every tower on the bus"
        return f"<p>{header.rounds} rounds at {at}; no round drawn yet.</p>"
    playing = [table for table in tables if table.started and not table.game]
    if not all(table.started for table in tables):
        what = "drawn: the players go to their tables"
    elif playing:
        names = ", ".join(escape(table.tower) for table in playing)
        what = f"being played; still playing: {names}"
    else:
        what = "over: every table reported"
    return f'<p class="round">Round {round_} of {header.rounds} {what}.</p>'


def _tables(round_: int, tables: Sequence[RoundTable]) -> str:
    if not tables:
        return ""
    items = "".join(_table(table) for table in tables)
    return f'<h2>Round {round_}: the tables</h2><ul class="tables">{items}</ul>'


def _table(table: RoundTable) -> str:
    points = round_points(table)
    players = ", ".join(
        escape(name) + (f" {points_words(points[name])}" if table.game else "")
        for name in table.players
    )
    if table.game == CLOSED:
        state = "closed by the organiser, no result"
    elif table.game == BY_HAND:
        state = "typed in by hand by the organiser"
    elif table.game:
        state = "reported"
    elif table.started:
        state = f"playing since {local_time(table.started)}"
    else:
        state = f"drawn at {local_time(table.drawn)}, waiting for the start"
    return f"<li><b>{escape(table.tower)}</b>: {players} ({state})</li>"


def points_table(rounds: int, totals: Sequence[Total]) -> str:
    if not totals:
        return "<p>No players.</p>"
    heads = "".join(f"<th>R{number}</th>" for number in range(1, rounds + 1))
    rows = "".join(
        f"<tr><td>{rank}</td><td>{escape(one.name)}{_left(one)}</td>"
        f"<td><b>{points_words(one.points)}</b></td><td>{one.scored}</td>"
        + "".join(f"<td>{points_words(each)}</td>" for each in one.rounds)
        + "</tr>"
        for rank, one in zip(ranks(totals), totals, strict=True)
    )
    return table_box(
        "Points",
        f'<table class="points"><thead><tr><th>#</th><th>Player</th><th>Points</th>'
        f'<th title="Qwixx points scored: the tie-break">Scored</th>{heads}'
        f"</tr></thead><tbody>{rows}</tbody></table>",
    )


def _left(one: Total) -> str:
    return f" <span class=\"kind\">(left after round {one.left_after})</span>" if (
        one.left_after is not None) else ""  # fmt: skip


def winners(totals: Sequence[Total]) -> str:
    """The top players, named with their places (a tie after the tie-break names both)."""
    if not totals:
        return ""
    named = top(totals)
    items = "".join(
        f"<li>{rank}. {escape(one.name)}: {points_words(one.points)} ({one.scored} scored)</li>"
        for rank, one in named
    )
    return f'<h2>Winners</h2><ul class="winners">{items}</ul><h2>Final standings</h2>'


def _form(action: str, label: str, fields: str = "") -> str:
    return (f'<form method="post" action="/tournament/{action}">{fields}'
            f"<button>{escape(label)}</button></form>")  # fmt: skip


def sign_in_form(on: bool) -> str:
    if not on:
        return ("<p>Tournaments are off: the league's file names no "
                "organiser_password_file (docs/league.md).</p>")  # fmt: skip
    fields = ('<label>Organiser\'s password <input type="password" name="password" '
              'autocomplete="current-password" required></label>')  # fmt: skip
    return "<h2>Organiser</h2>" + _form("sign-in", "Sign in", fields)


def organiser_forms(header: Header | None, entrants: Sequence[Entrant], can_draw: bool,
                    can_start: bool, can_close: bool = False) -> str:  # fmt: skip
    """What the organiser may do now."""
    if header is None or header.ended:
        fields = (
            '<label>Name <input name="name" maxlength="40" value="Tournament"></label>'
            '<label>Rounds <input name="rounds" type="number" min="1" max="10" '
            'value="5"></label><label>Players, one a line ("Robo (hard)": a computer '
            'player) <textarea name="players" rows="8" required></textarea></label>'
            "<label>Towers whose tables play (blank: every tower on the bus) "
            '<input name="towers" placeholder="t1 t2 t3"></label>'
        )
        return "<h2>Organiser</h2>" + _form("create", "Create the tournament", fields)
    forms = []
    if can_draw:
        forms.append(_form("draw", "Draw the next round's tables"))
    if can_start:
        forms.append(_form("start", "Start the round"))
    if can_close:
        sure = (
            '<label><input type="checkbox" name="sure" value="yes" required> Yes: the '
            "tables still playing have no result; their players earn 3 points each</label>"
        )
        forms.append(_form("close", "Close the round", sure))
    still = [one for one in entrants if one.left_after is None]
    options = "".join(f"<option>{escape(one.name)}</option>" for one in still)
    forms.append(
        _form(
            "leave",
            "This player leaves",
            f'<label>Player <select name="name">{options}</select></label>',
        )
    )
    sure = (
        '<label><input type="checkbox" name="sure" value="yes" required> '
        "Yes, end it: the winners are named and nothing more is counted</label>"
    )
    forms.append(_form("end", "End the tournament", sure))
    return "<h2>Organiser</h2>" + "".join(forms)


def hand_form(table: RoundTable) -> str:
    """The organiser types a table's result (its tower broke down; played on paper)."""
    scores = "".join(
        f'<label>{escape(name)} <input name="{score_field(seat)}" inputmode="numeric" '
        'pattern="-?[0-9]{1,3}" maxlength="4"></label>'
        for seat, name in enumerate(table.players)
    )
    tower = f'<input type="hidden" name="tower" value="{escape(table.tower)}">'
    return (f"<h3>{escape(table.tower)}: its result typed by hand</h3><p>Each player's "
            "score from the sheets; blank for one who did not play.</p>"
            + _form("by-hand", f"Enter {table.tower}'s result", tower + scores))  # fmt: skip
