"""A pad's player named from a phone. A pad cannot type: the seat it joins goes by the name
the configuration gives the pad, else "Player N", and the café's league would rate every
"Player 2" of every table as one player. Between games anyone at the table with its code (the
QR link's key or the four digits, as for joining) opens the phone page, picks the pad's seat
and types its player's name: the seat goes by that name from then on, on the pad, the displays,
in the journal and in the results the tower publishes, so the league rates the player under
their own name (docs/league.md, "Who a player is")."""

from __future__ import annotations

from firmware_py.seating import DRAWN, SeatKind
from firmware_py.seats.names import looks_alike
from firmware_py.table.decisions import RULE, Refusal
from firmware_py.table.seats import SeatDoor, SeatsNow


def pad_seats(now: SeatsNow) -> list[str]:
    """The pads' seats a phone may name now: every pad's, between games (none while a game or
    its lucky numbers are on)."""
    if now.draft is not None or (now.game is not None and not now.game.over):
        return []
    return [seat.name for seat in now.seats if seat.kind == SeatKind.PAD]


def named_pad(door: SeatDoor, seat: object, name: str) -> dict[str, object]:
    """The answer to a page naming the pad's seat `seat` `name` (a name cleaned already):
    "named", or "refused" with why not in words."""
    refusal = name_pad(door, seat, name)
    if refusal is None:
        return {"type": "named", "pad": seat, "player": name}
    return {"type": "refused", "reason": refusal.reason, "forget": False, "final": False}


def name_pad(door: SeatDoor, seat: object, name: str) -> Refusal | None:
    """The pad's seat `seat` goes by `name`, unless another player at the table has a name
    that could be taken for it; a tournament's player drawn here whose seat waits (as names
    are compared: "zoe" is Zoë's) has it taken by the pad. None when named, else why not."""
    now = door.now()
    if not isinstance(seat, str) or seat not in pad_seats(now):
        return Refusal("that pad's seat is not at the table now: reload the page", RULE)
    drawn = [other.name for other in now.seats
             if other.pad == DRAWN and looks_alike(other.name, name)]  # fmt: skip
    if drawn:  # a tournament's player drawn here, their seat still waiting: the pad takes it
        return door.name_pad(seat, drawn[0])
    others = [other.name for other in now.seats if other.name != seat]
    alike = [other for other in others if looks_alike(other, name)]
    if alike:
        return Refusal(f"{name} looks like {alike[0]}, who is at the table: add a letter", RULE)
    return door.name_pad(seat, name)
