"""Who sits at the table: each seat's player, how they decide, and the pad that holds it.

Seats change between games only: a pad joins with a press, the roll button's menu adds computer
players or sends the last seats away (they come back first when seats are added again), and a
game resumed after a restart gives every player back the seat they had. `Seating` is the one
place seats are kept; every kind of seat (pad, keyboard, computer, and later phone) goes
through it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Protocol

from firmware_py.rules.lineup import is_player_name


class SeatKind(StrEnum):
    """How the player in a seat decides."""

    COMPUTER = "computer"  # the tower plays it
    KEYBOARD = "keyboard"  # someone at the terminal
    PAD = "pad"  # a handheld button pad on a serial port
    PHONE = "phone"  # a phone's browser, through the tower's web server


COMPUTER, KEYBOARD, PAD = SeatKind.COMPUTER, SeatKind.KEYBOARD, SeatKind.PAD
PHONE = SeatKind.PHONE
DEVICES = (PAD, PHONE)  # seats held by a device in a player's hand
MAX_SEATS = 5
LEVELS = ("easy", "medium", "hard")  # computer players' levels, weakest first (players/levels.py)
DEFAULT_LEVEL = "medium"  # a computer seat's level where none is given
NAME_LENGTH = 24  # characters in a player's name, wherever it is typed: "Alexandra-Charlotte"
# A seat a league's tournament drew for a person holds this in place of a device's ident: the
# phone that joins with the seat's name takes it (and no other phone saying hello).
DRAWN = "(drawn)"
BENCHED_KEPT = 2 * MAX_SEATS  # seats set aside that the menu remembers, newest first


@dataclass(frozen=True)
class SeatSpec:
    """Who sits in a seat: a player's name, how they decide, (for a pad seat) the ident of
    the pad that joined it, so that after a restart the seat goes back to that pad only, and
    (for a computer seat) the level it plays at, shown beside its name ("": the default level,
    not shown)."""

    name: str
    kind: SeatKind = COMPUTER
    pad: str = ""
    level: str = ""


def seat_from_record(record: dict[str, str]) -> SeatSpec | None:
    """A seat as a note on disk wrote it (name, kind, pad, level); None for a kind of seat this
    tower does not know, or a name no game can hold (a note edited by hand, or half written:
    the seat taken back would stop every game from beginning). A level this tower does not
    know is the default one (its every thought would fail, said in the log at each turn)."""
    try:
        kind = SeatKind(record["kind"])
    except ValueError:
        return None
    if not is_player_name(record["name"]):
        return None
    level = record.get("level", "")
    return SeatSpec(record["name"], kind, record["pad"], level if level in LEVELS else "")


def seats_for(
    players: Iterable[str], configured: Sequence[SeatSpec], noted: Sequence[SeatSpec]
) -> list[SeatSpec]:
    """The seats of these players (a resumed game's, a draft's): each as noted when the game
    began, else as configured. A player of unknown kind held a pad: pads join at the table,
    while computer and keyboard seats are configured; their pad takes the seat back. A
    computer seat the command line now gives to the keyboard (`--human Ann`) is played there."""
    known = {seat.name: seat for seat in configured} | {seat.name: seat for seat in noted}
    at_keyboard = {seat.name for seat in configured if seat.kind == KEYBOARD}
    seats = [known.get(name, SeatSpec(name, PAD)) for name in players]
    return [
        SeatSpec(seat.name, KEYBOARD) if seat.kind == COMPUTER and seat.name in at_keyboard
        else seat
        for seat in seats
    ]  # fmt: skip


def waiting_drawn(seats: Iterable[SeatSpec]) -> list[str]:
    """The people a tournament drew for these seats whose device (phone or pad) has not taken
    their seat yet, in seat order."""
    return [seat.name for seat in seats if seat.pad == DRAWN]


class SeatingView(Protocol):
    """The seats as the table's parts and doors read them: they change only through the
    table's own actions (a seat joined, a pad given, the menu's steps)."""

    @property
    def seats(self) -> Sequence[SeatSpec]: ...
    def names(self) -> list[str]: ...
    def full(self) -> bool: ...
    def taken(self, name: str) -> bool: ...
    def level_of(self, name: str) -> str: ...
    def kind_of(self, name: str) -> SeatKind: ...
    def all_computers(self) -> bool: ...
    def any_pads(self) -> bool: ...


class Seating:
    """The seats at the table, and the seats the menu set aside (they come back first)."""

    def __init__(self, seats: list[SeatSpec]) -> None:
        self.seats = list(seats)
        self.benched: list[SeatSpec] = []

    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    def full(self) -> bool:
        return len(self.seats) >= MAX_SEATS

    def taken(self, name: str) -> bool:
        return name in self.names()

    def add(self, seat: SeatSpec) -> None:
        """A new seat at the end of the table (the caller checked it may join)."""
        self.benched = [old for old in self.benched if old.name != seat.name]
        self.seats.append(seat)

    def rename(self, old: str, new: str) -> SeatSpec:
        """`old`'s seat goes by `new` from now on (a pad's player named from a phone)."""
        self.seats = [replace(s, name=new) if s.name == old else s for s in self.seats]
        return next(seat for seat in self.seats if seat.name == new)

    def take_drawn(self, old: str, drawn: str) -> SeatSpec:
        """The seat a tournament drew for `drawn` is taken by the device holding `old`'s (a
        pad's player named as a drawn player), and `old`'s seat is gone."""
        device = next(seat for seat in self.seats if seat.name == old)
        self.seats = [replace(s, kind=device.kind, pad=device.pad) if s.name == drawn else s
                      for s in self.seats if s.name != old]  # fmt: skip
        return next(seat for seat in self.seats if seat.name == drawn)

    def seat_only(self, seats: Sequence[SeatSpec]) -> None:
        """Exactly these seats (a tournament's round), each kept as it is when its player sits
        here already (their pad or phone); the others set aside, first to come back."""
        here = {seat.name: seat for seat in self.seats}
        chosen = [here.get(seat.name, seat) for seat in seats]
        names = {seat.name for seat in chosen}
        left = [seat for seat in self.seats + self.benched if seat.name not in names]
        self.seats, self.benched = chosen, left[:BENCHED_KEPT]

    def give_pad(self, name: str, pad: str, kind: SeatKind | None = None) -> None:
        """The pad of ident `pad` holds `name`'s seat now; `kind`: the device's kind, when a
        seat drawn for a person is taken by the device they brought (a phone or a pad)."""
        self.seats = [replace(s, pad=pad, kind=kind or s.kind) if s.name == name else s
                      for s in self.seats]  # fmt: skip

    def set_levels(self, level: str) -> None:
        """The menu's level step: every computer seat plays at `level` from the next decision."""
        self.seats = [replace(s, level=level) if s.kind == COMPUTER else s for s in self.seats]
        self.benched = [replace(s, level=level) if s.kind == COMPUTER else s for s in self.benched]

    def level_of(self, name: str) -> str:
        """The level of the computer seat of `name` ("" for the default level)."""
        seats = self.seats + self.benched
        return next((seat.level for seat in seats if seat.name == name), "")

    def one_more(self) -> None:
        """The menu's players step: one more seat (a seat removed earlier, else a computer
        player), or from five to none, every seat set aside: the taps after that bring the
        seats back in order, so any computer player (or a pad's seat taken by mistake) can be
        left out."""
        seats, benched = self.seats, self.benched
        if len(seats) >= MAX_SEATS:  # the oldest seats set aside are forgotten: years of joins
            self.seats, self.benched = [], (seats + benched)[:BENCHED_KEPT]
        elif benched:
            self.seats, self.benched = [*seats, benched[0]], benched[1:]
        else:
            taken = set(self.names())
            number = next(n for n in range(1, MAX_SEATS + 2) if f"Computer {n}" not in taken)
            self.seats = [*seats, SeatSpec(f"Computer {number}", COMPUTER)]

    def kind_of(self, name: str) -> SeatKind:
        """How the seat of `name` decides; a seat the menu removed plays its game out."""
        seats = self.seats + self.benched
        return next((seat.kind for seat in seats if seat.name == name), COMPUTER)

    def all_computers(self) -> bool:
        return all(seat.kind == COMPUTER for seat in self.seats)

    def any_pads(self) -> bool:
        """True when a seat is held by a pad or a phone (they enter lucky numbers)."""
        return any(seat.kind in DEVICES for seat in self.seats)
