"""The league's players, as the league tells each tower (docs/league.md, "Who a player is"):
retained on `prefix/TOWER/players` when [mqtt] commands names "players", so the roll button's
menu can name a pad's player with one of them (the kiosk has no keyboard). The message is
checked as everything from the bus is: JSON of at most MAX_MESSAGE bytes, at most MAX_PLAYERS
names, each printable, trimmed and as long as a seat's name at most; anything else is refused
in words (NotPlayers), counted by the inbox and ignored.
"""

from __future__ import annotations

from typing import Any

from firmware_py.errors import TowerError
from firmware_py.json_text import json_value
from firmware_py.seating import NAME_LENGTH

MAX_MESSAGE = 2048  # bytes: forty names of sixteen characters are about 800
MAX_PLAYERS = 40


class NotPlayers(TowerError):
    """A message on the players' topic that is not the league's list of players."""


def read_players(words: str) -> tuple[str, ...]:
    """The league's players, best known first (an empty message: none)."""
    if not words:
        return ()
    try:
        data = json_value(words)
    except ValueError as error:
        raise NotPlayers("not JSON") from error
    names: Any = data.get("players") if isinstance(data, dict) else None
    if not isinstance(names, list) or len(names) > MAX_PLAYERS:
        raise NotPlayers(f"no list of at most {MAX_PLAYERS} players")
    for name in names:
        if not isinstance(name, str) or not name.isprintable() or name != name.strip():
            raise NotPlayers("a name that is not as the league cleans names")
        if not 0 < len(name) <= NAME_LENGTH:
            raise NotPlayers("a name that is empty or too long")
    return tuple(dict.fromkeys(names))
