"""Where the table is: one phase at a time, and the moves between phases that can happen.

The phase is the table's state (the game's own turn and action are in the rules engine): each
value says what the table shows and which inputs mean what. Data that belongs to a phase lives
with the table while it is in that phase: the menu's page (MENU), the lucky numbers chosen so
far (LUCKY), the animation frame (ROLLING), the notice's end (LOCK_NOTICE). Timers belong to the
phase that started them and end with it (`PhaseTimers`).
"""

from __future__ import annotations

from enum import StrEnum


class TablePhase(StrEnum):
    """The moments of an evening at the table."""

    ATTRACT = "attract"  # no game on: the variant, the seats, "press to start"
    MENU = "menu"  # the roll button's menu is open (over whatever was on)
    LUCKY = "lucky"  # longo: players choose their lucky numbers before the game
    ROLL = "roll"  # a game: the active player's roll is next
    ROLLING = "rolling"  # the dice are on their way (the animation)
    ACTION1 = "action1"  # everyone decides on the white sum
    ACTION2 = "action2"  # the active player decides on a colour sum
    LOCK_NOTICE = "lock notice"  # a row just locked: the display says so, the game goes on
    GAME_OVER = "game over"  # the scores and the winner


ATTRACT, MENU, LUCKY = TablePhase.ATTRACT, TablePhase.MENU, TablePhase.LUCKY
ROLL, ROLLING, ACTION1, ACTION2 = (
    TablePhase.ROLL,
    TablePhase.ROLLING,
    TablePhase.ACTION1,
    TablePhase.ACTION2,
)
LOCK_NOTICE, GAME_OVER = TablePhase.LOCK_NOTICE, TablePhase.GAME_OVER

# Every move the table makes, from -> to (staying in a phase is not a move). A new game (ROLL,
# or LUCKY for longo with pads) can begin from any phase: from the menu while a game is on.
_STARTS = frozenset({ROLL, LUCKY})
_SETTLED = frozenset(TablePhase) - {ROLLING, LOCK_NOTICE}  # where the table can come to rest
TRANSITIONS: dict[TablePhase, frozenset[TablePhase]] = {
    ATTRACT: _SETTLED,  # a game resumed after a restart comes back in its own phase
    MENU: _SETTLED,  # the menu closes to where the table is
    LUCKY: _STARTS | {MENU, ATTRACT},  # ATTRACT: the lucky numbers were lost
    ROLL: _STARTS | {ROLLING, ACTION1, MENU},  # ACTION1: electronic dice, thrown
    ROLLING: frozenset({ACTION1, ROLL}),  # ROLL: the roll could not be saved
    ACTION1: _STARTS | {ACTION2, LOCK_NOTICE, GAME_OVER, MENU},
    ACTION2: _STARTS | {LOCK_NOTICE, GAME_OVER, MENU},
    LOCK_NOTICE: _STARTS | {ROLLING, ACTION1, ACTION2, GAME_OVER, MENU},
    GAME_OVER: _STARTS | {ATTRACT, MENU},  # ATTRACT: someone joins for the next game
}


def can_move(old: TablePhase, new: TablePhase) -> bool:
    """True when the table may go from `old` to `new` (or stays where it is)."""
    return old is new or new in TRANSITIONS[old]
