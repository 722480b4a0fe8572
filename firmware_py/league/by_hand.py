"""A table's result typed by hand by the organiser (docs/league.md, "A result typed by hand"):
the table's tower broke down and its players finished the game on paper. The scores typed are
checked as a tower's result is: only the players drawn at that table, whole numbers in a
sheet's range; a blank score is a player who did not play. The game is kept as BY_HAND, shown
so in the standings, and counts once: a table that reported (or was closed, or typed in)
takes no other result."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from firmware_py.errors import TowerError
from firmware_py.league.incoming import SCORES
from firmware_py.league.round_points import BY_HAND
from firmware_py.league.tournament_store import RoundTable

__all__ = ["BY_HAND", "HandRefused", "hand_scores", "score_field"]
WHOLE = re.compile(r"-?[0-9]{1,3}")  # (ASCII digits only: "²" is a digit to str.isdigit)


class HandRefused(TowerError, ValueError):
    """What is wrong with a result typed by hand, in the organiser's words."""


def score_field(seat: int) -> str:
    """The form's field of the score of the player drawn at `seat` (0 first) of a table."""
    return f"score-{seat}"


def hand_scores(
    tables: Sequence[RoundTable], tower: str, typed: Mapping[str, str]
) -> dict[str, int]:
    """The scores typed for `tower`'s table of the round, by name; HandRefused with why not."""
    table = next((one for one in tables if one.tower == tower), None)
    if table is None:
        raise HandRefused(f"{tower[:40]!r} has no table in this round")
    if table.started is None:
        raise HandRefused(f"the round has not begun at {tower}")
    if table.game is not None:
        raise HandRefused(f"{tower}'s result is in already: it counts once")
    scores: dict[str, int] = {}
    for seat, name in enumerate(table.players):
        words = typed.get(score_field(seat), "").strip()
        if not words:
            continue  # (did not play)
        if not WHOLE.fullmatch(words) or int(words) not in SCORES:
            raise HandRefused(f"{name}'s score {words[:12]!r} is not a sheet's total "
                              f"({SCORES.start} to {SCORES.stop - 1})")  # fmt: skip
        scores[name] = int(words)
    if not scores:
        raise HandRefused(f"type the score of at least one player of {tower}")
    return scores
