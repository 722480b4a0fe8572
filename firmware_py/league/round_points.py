"""A tournament's round read: the (tournament, round) a tower's result is tagged with, and a
reported table's placement points (docs/league.md, "Tournaments")."""

from __future__ import annotations

from fractions import Fraction

from firmware_py.json_text import json_value
from firmware_py.league.draw import MEAN, placement_points
from firmware_py.league.tournament_store import RoundTable

CLOSED = "(closed)"  # the game of a table the organiser closed without a result
BY_HAND = "(by hand)"  # the game of a table whose result the organiser typed in


def round_tag(payload: bytes) -> tuple[int, int] | None:
    """The (tournament, round) a tower's result says its game was played for, if any."""
    try:
        tag = json_value(payload).get("round")
        number, round_ = tag["tournament"], tag["round"]
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    if not all(type(one) is int and 0 < one < 1_000_000 for one in (number, round_)):
        return None
    return number, round_


def round_points(table: RoundTable) -> dict[str, Fraction]:
    """A reported table's placement points: by place among the players drawn there who
    played (ties share), and nothing for one drawn who did not play; MEAN each at a table the
    organiser closed without a result."""
    if table.game is None:
        return {}
    if table.game == CLOSED:
        return dict.fromkeys(table.players, MEAN)
    scores = dict(table.scores)
    places = [1 + sum(other > score for other in scores.values()) for score in scores.values()]
    points = dict(zip(scores, placement_points(places), strict=True))
    return {name: points.get(name, Fraction(0)) for name in table.players}


def scored_points(rounds: dict[int, list[RoundTable]]) -> dict[str, int]:
    """Each player's Qwixx points summed over their tables' games counted (the tie-break)."""
    scored: dict[str, int] = {}
    for tables in rounds.values():
        for table in tables:
            for name, score in table.scores:
                scored[name] = scored.get(name, 0) + score
    return scored
