"""Who a player is across the café's tables: the name, as the seats tell names apart.

A tower refuses to seat two players whose names look alike (firmware_py/seats/names.py: TR39's
skeleton, case folded, characters nobody sees and symbols dropped), so across towers the same
rule says who is who: "Ann" at table 1, "ann" at table 3 and "Ann" with a Cyrillic A are one player,
shown by the spelling of their latest game. A computer player is never the same as a person of
the same name: its key says it is a computer (and its level, which is how it plays).
docs/league.md says why a name and not a token or a PIN.
"""

from __future__ import annotations

import functools

from firmware_py.league.incoming import Placing
from firmware_py.seats.names import looks, skeleton

MAX_KEY = 200  # characters of a key (a name is at most 16; its skeleton a few times that)


def player_key(player: Placing) -> str:
    """The league's key of a player: the skeleton of the name, its case folded, and the
    skeleton of that ("p:ann"; "Ian" as "lan", as a capital I is drawn like a small l); a
    computer's with its level ("c:hard:robo"). One key is one player, whatever the order
    the games arrive in: the seats' "looks alike" (either skeleton equal) is not an
    equivalence, this key is."""
    folded = _folded(player.name)
    if player.kind == "computer":
        return f"c:{player.level or 'medium'}:{folded}"[:MAX_KEY]
    return f"p:{folded}"[:MAX_KEY]


@functools.lru_cache(maxsize=4096)  # a café's regulars: their names come back game after game
def _folded(name: str) -> str:
    with_case = next(seen for how, seen in looks(name) if how == "case")
    return skeleton(with_case.casefold())
