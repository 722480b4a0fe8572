"""A tournament's end as the towers show it (docs/league.md, "Tournaments"): the top players
with their places and points, the same ones the page names above the final standings. Each
tower of the tournament hears it retained on `prefix/TOWER/tournament` in place of its seating,
and shows it between games on its main display, in the terminal and on the phones until the
next game begins there (firmware_py/bus/tournament_end.py)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from firmware_py.league.tournament_store import Header

if TYPE_CHECKING:  # (the tournament reads this module: only its type here)
    from firmware_py.league.tournament import Total

WINNERS = 3  # the top players named at the end
MAX_NAMED = 5  # at most, when places are shared (a tower's message stays small)


def ranks(totals: Sequence[Total]) -> list[int]:
    """Each player's place, best first: tied on points and then on points scored, shared."""
    return [1 + sum(other.standing > one.standing for other in totals) for one in totals]


def points_words(points: Fraction | None) -> str:
    if points is None:
        return "-"
    return f"{float(points):.1f}".removesuffix(".0")


def top(totals: Sequence[Total]) -> list[tuple[int, Total]]:
    """The players placed in the first WINNERS (a tie after the tie-break names both)."""
    return [(rank, one) for rank, one in zip(ranks(totals), totals, strict=True)
            if rank <= WINNERS]  # fmt: skip


def end_message(header: Header, totals: Sequence[Total]) -> bytes:
    """What each tower of the ended tournament hears: its name, when it ended, the top players
    (place, name, points)."""
    named = [{"place": rank, "name": one.name, "points": points_words(one.points)}
             for rank, one in top(totals)[:MAX_NAMED]]  # fmt: skip
    return json.dumps({"tournament": header.id, "name": header.name, "rounds": header.rounds,
                       "ended": header.ended, "final": named}).encode()  # fmt: skip
