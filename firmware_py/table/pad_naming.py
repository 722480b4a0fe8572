"""A pad's player named from the roll button's menu: the kiosk has no keyboard and a pad cannot
type, so the menu offers names to pick with the one button (docs/league.md, "Who a player is").

"name a pad" opens the pads' seats at the table (between games only): a tap shows the next,
a hold picks it. Then the names offered for it: first the seat's own name (a hold on it
changes nothing), then the players a league's tournament drew for this table and who have no
seat of their own yet, then the league's players the tower heard on the bus, none that looks
like a name at the table. A tap shows the next, a hold keeps it: the pad's seat goes by that
name from then on (a drawn player's seat is taken by the pad). What names it, and says why
not, is the seats' (`PadNamer`, seats/pad_menu.py); this part keeps which line is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from firmware_py.table.decisions import Refusal
from firmware_py.view import MenuView

PICK_HINTS = ("tap: next hold: pick",)
KEEP_HINTS = ("tap: next hold: keep",)
BACK_HINTS = ("hold: back",)
AS_NOW = " (as now)"


class PadNamer(Protocol):
    """What names a pad's player (made with the table's door for pads): the pads' seats that
    may be named now, the names offered for one, the naming itself (None, or why not in
    words), and the league's players heard on the bus (best known first)."""

    def pads(self) -> list[str]: ...
    def names_for(self, seat: str) -> list[str]: ...
    def name(self, seat: str, name: str) -> Refusal | None: ...
    def know(self, names: Sequence[str]) -> None: ...


class PadNaming:
    """Which pad's seat and which name the menu's two pages show (`namer`: None while the
    table has no door for pads, as in the tests of other parts)."""

    def __init__(self, namer: PadNamer | None = None) -> None:
        self.namer = namer
        self.seats: list[str] = []
        self.seat = 0
        self.names: list[str] = []
        self.name = 0

    def know(self, names: Sequence[str]) -> None:
        if self.namer is not None:
            self.namer.know(names)

    def open(self) -> None:
        """The pads' seats that may be named now, the first shown."""
        self.seats = self.namer.pads() if self.namer is not None else []
        self.seat = 0

    def next_seat(self) -> None:
        if self.seats:
            self.seat = (self.seat + 1) % len(self.seats)

    def pick_seat(self) -> bool:
        """The seat shown is picked: its names offered, its own first; False with no seat."""
        if not self.seats or self.namer is None:
            return False
        chosen = self.seats[self.seat]
        self.names, self.name = [chosen, *self.namer.names_for(chosen)], 0
        return True

    def next_name(self) -> None:
        self.name = (self.name + 1) % len(self.names)

    def keep(self) -> Refusal | None:
        """The name shown is the pad's player's (its own name: nothing changes)."""
        seat, name = self.seats[self.seat], self.names[self.name]
        if name == seat or self.namer is None:
            return None
        return self.namer.name(seat, name)

    def seat_page(self, playing: bool) -> MenuView:
        if self.seats:
            return MenuView("Name a pad", tuple(self.seats), self.seat, PICK_HINTS)
        if playing:
            return MenuView("Name a pad", ("between games only:", "when this game ends"), -1,
                            BACK_HINTS)  # fmt: skip
        return MenuView("Name a pad", ("no pad at the table:", "a pad joins with a", "press"), -1,
                        BACK_HINTS)  # fmt: skip

    def name_page(self) -> MenuView:
        seat = self.seats[self.seat]
        lines = (seat + AS_NOW, *self.names[1:])
        if len(lines) == 1:
            lines = (*lines, "no league's player", "heard on the bus")
        return MenuView(f"{seat} is", lines, self.name, KEEP_HINTS)
