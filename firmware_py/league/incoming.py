"""A tower's result as the league takes it from the broker, checked as a phone's message is:
every device on a café's network may publish anything on any topic, by mistake or on purpose.

A result (docs/home-assistant.md, "result") is taken only when it is what a tower publishes:
at most MAX_RESULT bytes of UTF-8 JSON, its id naming the tower of its topic and the game's
number, a known variant, one to five players whose names are as the seats clean them and do
not look alike (firmware_py/seats/names.py), scores and penalties in range, places and winners
that follow from the scores. Anything else raises `NotAResult` with what is wrong, in words.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from firmware_py.errors import TowerError
from firmware_py.json_text import json_value
from firmware_py.seats.names import clean_name, looks, why_not_name
from firmware_py.words import moment
from sheets import sheet_names

MAX_RESULT = 4096  # bytes: five players' result is about 1,000
MAX_PLAYERS = 5
TOWER = re.compile(r"[A-Za-z0-9_-]{1,32}")  # a topic level, as [mqtt] tower_id allows
GAME_ID = re.compile(r"(?P<tower>[A-Za-z0-9_-]{1,32})-(?P<number>\d{6,9})(-\d{8}T\d{6}Z)?")
KINDS = ("pad", "phone", "keyboard", "computer", None)
LEVELS = ("easy", "medium", "hard", None)
REASONS = ("locks", "penalties")
SCORES = range(-100, 1000)  # a sheet's total: at most a few hundred, penalties below zero
PENALTIES = range(0, 10)


class NotAResult(TowerError):
    """A message on a result topic that is not a tower's result."""


@dataclass(frozen=True)
class Placing:
    """One player of a finished game."""

    name: str
    seat: int
    kind: str | None
    level: str | None
    score: int
    penalties: int
    place: int


@dataclass(frozen=True)
class Result:
    """A finished game, as a tower published it."""

    id: str
    tower: str
    number: int
    variant: str
    started: str | None  # ISO 8601, UTC
    finished: str | None
    reason: str
    players: tuple[Placing, ...]
    previous: str | None = None  # the id of the tower's finished game before it, if it says

    @property
    def order(self) -> tuple[str, str, str]:
        """Where the game stands in the evening: when it ended, began, and its id (so two
        games that ended in the same second still have one order, whatever arrives first)."""
        return (self.finished or "", self.started or "", self.id)


def read_result(tower: str, payload: bytes) -> Result:
    """The result published on `tower`'s result topic, checked; NotAResult otherwise."""
    data = json_object(payload, MAX_RESULT, "a result")
    number = _identity(tower, data)
    players = tuple(_placing(each) for each in _listed(data.get("players")))
    _players_apart(players)
    _places_follow_the_scores(players, data.get("winners"))
    return Result(
        id=data["id"],
        tower=tower,
        number=number,
        variant=_one_of(data.get("variant"), known_variants(), "variant"),
        started=_time(data.get("started"), "started"),
        finished=_time(data.get("finished"), "finished"),
        reason=_one_of(data.get("reason"), REASONS, "reason"),
        players=players,
        previous=_previous(tower, data.get("previous")),
    )


def number_in(game_id: str) -> int:
    """The game number in a game's id checked by GAME_ID (a tower's name may hold "-")."""
    found = GAME_ID.fullmatch(game_id)
    return int(found["number"]) if found is not None else 0


def _previous(tower: str, previous: object) -> str | None:
    """The id of the game before, when it is one of this tower's (an older tower sends none;
    a mangled one is no reason to lose the game: it is not used)."""
    if not isinstance(previous, str):
        return None
    found = GAME_ID.fullmatch(previous)
    return previous if found is not None and found["tower"] == tower else None


@functools.cache
def known_variants() -> tuple[str | None, ...]:
    return tuple(sheet_names())  # read from the package once: the sheets do not change


def json_object(payload: bytes, most: int, what: str) -> dict[str, Any]:
    """A payload of at most `most` bytes that is a JSON object in UTF-8; NotAResult else."""
    if len(payload) > most:
        raise NotAResult(f"{len(payload)} bytes: {what} is at most {most}")
    try:
        data = json_value(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise NotAResult(f"{what} not JSON in UTF-8 ({error})") from error
    if not isinstance(data, dict):
        raise NotAResult(f"{what} not a JSON object")
    return data


def _identity(tower: str, data: dict[str, Any]) -> int:
    """The game's number, once its id and tower name the topic's tower."""
    game_id, number = data.get("id"), data.get("game")
    found = GAME_ID.fullmatch(game_id) if isinstance(game_id, str) else None
    if found is None or not TOWER.fullmatch(tower):
        raise NotAResult(f"id {game_id!r} is not a game's id")
    if found["tower"] != tower or data.get("tower") != tower:
        raise NotAResult(f"id {game_id!r} is not a game of tower {tower!r}, whose topic it is on")
    if number != int(found["number"]) or isinstance(number, bool):
        raise NotAResult(f"game {number!r} is not the number in its id {game_id!r}")
    return int(number)


def _listed(players: object) -> list[dict[str, Any]]:
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
        raise NotAResult(f"players must be a list of 1 to {MAX_PLAYERS}")
    if not all(isinstance(each, dict) for each in players):
        raise NotAResult("each player must be a JSON object")
    return players


def _placing(player: dict[str, Any]) -> Placing:
    name = player.get("name")
    if not isinstance(name, str) or clean_name(name) != name or why_not_name(name):
        raise NotAResult(f"{name!r} is not a player's name as a tower seats one")
    return Placing(
        name=name,
        seat=_whole(player.get("seat"), range(1, MAX_PLAYERS + 1), "seat"),
        kind=_one_of(player.get("kind"), KINDS, "kind"),
        level=_one_of(player.get("level"), LEVELS, "level"),
        score=_whole(player.get("score"), SCORES, "score"),
        penalties=_whole(player.get("penalties"), PENALTIES, "penalties"),
        place=_whole(player.get("place"), range(1, MAX_PLAYERS + 1), "place"),
    )


def _players_apart(players: tuple[Placing, ...]) -> None:
    """No two seats, and no two names a person could take for one another."""
    if len({player.seat for player in players}) != len(players):
        raise NotAResult("two players on one seat")
    for at, player in enumerate(players):
        for other in players[at + 1 :]:
            if not _looks(player.name).isdisjoint(_looks(other.name)):
                raise NotAResult(f"{player.name!r} and {other.name!r} look alike")


@functools.lru_cache(maxsize=4096)  # the same names come back game after game
def _looks(name: str) -> frozenset[tuple[str, str]]:
    return looks(name)


def _places_follow_the_scores(players: tuple[Placing, ...], winners: object) -> None:
    """Place 1 for the highest score, tied players sharing a place; the winners are place 1."""
    for player in players:
        place = 1 + sum(other.score > player.score for other in players)
        if player.place != place:
            raise NotAResult(f"{player.name} is placed {player.place}, the scores say {place}")
    first = [player.name for player in players if player.place == 1]
    if not isinstance(winners, list) or sorted(map(str, winners)) != sorted(first):
        raise NotAResult(f"winners {winners!r} are not the highest scores ({first})")


def _whole(value: object, allowed: range, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in allowed:
        words = f"from {allowed[0]} to {allowed[-1]}"
        raise NotAResult(f"{key} {str(value)[:20]!r} is not a whole number {words}")
    return value


def _one_of(value: object, allowed: tuple[str | None, ...], key: str) -> Any:
    if value not in allowed:
        raise NotAResult(f"{key} {str(value)[:40]!r} is none of {allowed}")
    return value


def _time(value: object, key: str) -> str | None:
    if value is None:
        return None
    when = moment(value) if isinstance(value, str) and len(value) <= 40 else None
    if when is None:
        raise NotAResult(f"{key} {str(value)[:40]!r} is not a time")
    if when.tzinfo is None:
        raise NotAResult(f"{key} {value!r} says no time zone")
    return when.astimezone(UTC).isoformat()
