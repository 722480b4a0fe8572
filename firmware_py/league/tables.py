"""Each table's game in progress, from its tower's retained state (docs/home-assistant.md,
"state"), checked as a result is: bounded, JSON, names as the seats clean them. Only what the
league's page shows is kept."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from firmware_py.league.clocks import clock_in
from firmware_py.league.incoming import NotAResult, json_object, known_variants
from firmware_py.seats.names import clean_name

MAX_STATE = 4096  # bytes: a tower's state is about 500
PHASES = ("attract", "menu", "lucky", "roll", "rolling", "action1", "action2", "lock notice",
          "game over")  # fmt: skip
SEATS = 5


@dataclass(frozen=True)
class TableNow:
    """A table now: its phase, the game's variant, whose roll, and each seat's score; the
    tower's time as the state said it (None from a tower too old to say it)."""

    phase: str
    variant: str
    active: str | None
    seats: tuple[tuple[str, int | None], ...]  # (name, score) of each seated player
    clock: datetime | None = None

    @property
    def playing(self) -> bool:
        return self.phase not in ("attract", "menu", "game over")


def read_state(payload: bytes) -> TableNow:
    """A tower's state message, checked; NotAResult otherwise."""
    data = json_object(payload, MAX_STATE, "a state")
    if data.get("state") not in PHASES:
        raise NotAResult("a state without a table's phase")
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) > SEATS:
        raise NotAResult("a state without its seats")
    variant, active = data.get("variant"), data.get("active")
    return TableNow(
        phase=data["state"],
        variant=variant if isinstance(variant, str) and variant in known_variants() else "",
        active=_name(active) if active is not None else None,
        seats=tuple(_seat(seat) for seat in seats if isinstance(seat, dict) and seat.get("name")),
        clock=clock_in(data),
    )


def _seat(seat: dict[str, Any]) -> tuple[str, int | None]:
    score = seat.get("score")
    if score is not None and (not isinstance(score, int) or not -1000 < score < 10000):
        raise NotAResult(f"a seat's score {score!r}")
    return _name(seat["name"]), score


def _name(name: object) -> str:
    if not isinstance(name, str) or clean_name(name) != name:
        raise NotAResult(f"{str(name)[:40]!r} is not a player's name as a tower seats one")
    return name
