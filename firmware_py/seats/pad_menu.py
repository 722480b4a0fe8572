"""A pad's player named from the roll button's menu (`table.pad_naming` keeps its pages): the
names the menu offers for a pad's seat, and the naming, through the table's door for pads.

Offered, in this order: the players a league's tournament drew for this table whose seat no
device holds yet (a pad that takes one plays the round as that player), then the league's
players the tower heard on the bus (`prefix/TOWER/players`, best known first), leaving out
every name that looks like one at the table or one offered already (as the seats compare
names: "ann" is Ann). The naming is the phone's (`phones.pad_names.name_pad`): between games,
refused in words when a name at the table looks like it.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_py.seating import DRAWN
from firmware_py.seats.names import looks_alike
from firmware_py.seats.phones.pad_names import name_pad, pad_seats
from firmware_py.table.decisions import Refusal
from firmware_py.table.seats import SeatDoor

MAX_OFFERED = 40  # names on the menu's page: a tap each, the best known first


class PadNamesOnMenu:
    """The `PadNamer` of the table's menu, on the table's door for pads."""

    def __init__(self, door: SeatDoor) -> None:
        self.door = door
        self.known: tuple[str, ...] = ()  # the league's players, as the bus last said

    def know(self, names: Sequence[str]) -> None:
        self.known = tuple(names)

    def pads(self) -> list[str]:
        """The pads' seats that may be named now (between games only)."""
        return pad_seats(self.door.now())

    def names_for(self, seat: str) -> list[str]:
        """The names offered for the pad's seat `seat` (not its own)."""
        seats = self.door.now().seats
        offered = [one.name for one in seats if one.pad == DRAWN]
        at_table = [one.name for one in seats if one.pad != DRAWN]
        for name in self.known:
            if len(offered) >= MAX_OFFERED:
                break
            if not any(looks_alike(name, other) for other in (*at_table, *offered)):
                offered.append(name)
        return offered

    def name(self, seat: str, name: str) -> Refusal | None:
        return name_pad(self.door, seat, name)
