"""Who a player is across the café's tables: the name, as the seats tell names apart.

A tower refuses to seat two players whose names look alike (firmware_py/seats/names.py: TR39's
skeleton with case kept, or with case folded), so across towers the same rule says who is who:
"Ian" at table 1, "ian" at table 2, "IAN" at table 3 and "\u0406an" (a Cyrillic I) are one player,
shown by the spelling of their latest game. The key is the skeleton with case folded: the
seats' "looks alike" is not transitive ("Ian" looks like "ian" without case and like "lan"
with it, and "ian" is not "lan"), so one key can honour only one of the two; case folded is
the one people meet (a phone's keyboard, a pad's capitals, caps lock), while a capital I drawn
as a small l matters only beside one another at one table, where the tower refuses it. A
computer player is never the same as a person of the same name: its key says it is a computer
(and its level, which is how it plays). docs/league.md says why a name and not a token or a PIN.
"""

from __future__ import annotations

import functools
import re

from firmware_py.league.incoming import Placing
from firmware_py.seats.names import looks

MAX_KEY = 200  # characters of a key (a name is at most 16; its skeleton a few times that)
KEYS = 3  # how keys are made, kept in the league's file (1: the skeleton with case kept;
#            2: unnamed seats were players)
# The name a tower gives a person's seat that nobody named (seats/devices.py: a pad's, until its
# player is named from a phone): every table has a "Player 2", and none of them is one player.
UNNAMED = re.compile(r"Player \d{1,2}")


def named(player: Placing) -> bool:
    """False for a person's seat nobody named ("Player 2"): in the game, rated by nobody."""
    return player.kind == "computer" or not UNNAMED.fullmatch(player.name)


def player_key(player: Placing) -> str:
    """The league's key of a player: the skeleton of the name with case folded ("p:ian" for
    "Ian", "ian" and "IAN"); a computer's with its level ("c:hard:robo"). One key is one
    player, whatever the order the games arrive in."""
    folded = _folded(player.name)
    if player.kind == "computer":
        return f"c:{player.level or 'medium'}:{folded}"[:MAX_KEY]
    return f"p:{folded}"[:MAX_KEY]


@functools.lru_cache(maxsize=4096)  # a café's regulars: their names come back game after game
def _folded(name: str) -> str:
    return next(seen for how, seen in looks(name) if how == "no case")
