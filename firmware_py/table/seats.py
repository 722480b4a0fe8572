"""Seats of every kind hand their players' decisions to the table through one door.

A seat is a player's name and how that player decides (`SeatKind`): a pad or a phone in the
player's hand, someone at the terminal's keyboard, or the tower itself. The table makes a
`SeatDoor` per kind (`Table.door`), and whatever holds the seats of that kind gets it, never
the table: `seats.devices.RemoteSeats` for pads and phones (it first finds which seat a device
holds, and names its request for exactly-once), the keyboard (`seats.keyboard`), the
computer players (`ComputerPlayers`). The door refuses a decision for a player who does not
sit in a seat of its kind (a keyboard cannot decide for a pad's player), wakes the displays
when a person decided (a computer player's moves do not keep them awake), and routes the
decision: to Longo's lucky numbers before a game, else to the referee. Devices join the table
through their door too, between games, and read what they show from `SeatDoor.now`; a device
that goes or comes back says so through it (`absence.Absence` tells the table and waits).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from firmware_py.lucky import DraftView
from firmware_py.rules import Event, Game, Mark, Pass, Undo
from firmware_py.seating import (
    COMPUTER,
    DRAWN,
    PAD,
    Seating,
    SeatKind,
    SeatSpec,
    waiting_drawn,
)
from firmware_py.table.absence import Absence
from firmware_py.table.decisions import NOT_NOW, RULE, LuckyNumber, Refusal
from firmware_py.table.news_feed import News
from firmware_py.table.requests import Earlier, EarlierCheck
from firmware_py.table.state import GameOn

Decision = Mark | Pass | Undo | LuckyNumber


@dataclass(frozen=True)
class SeatsNow:
    """What a door reads of the table at this moment: the game, the lucky numbers being
    chosen, the seats, why a new seat cannot join now (None: it can), and whose device has
    gone (`Absence.notice`: "" while none has)."""

    game: Game | None
    draft: DraftView | None
    seats: tuple[SeatSpec, ...]
    join_refusal: Refusal | None
    absence: str = ""

    def taken(self, name: str) -> bool:
        return any(seat.name == name for seat in self.seats)


class RouteTable(GameOn, Protocol):
    """What a decision's route reads of the table (the lucky numbers being chosen, the game)
    and the referee it hands a decision to."""

    @property
    def draft(self) -> DraftView | None: ...
    def submit(self, event: Event, request: str | None = None) -> Refusal | None: ...


class LuckyDecider(Protocol):
    """Where lucky numbers go before a Longo game (`games.Games`, its lucky step)."""

    def decide_lucky(self, event: Decision, request: str | None = None) -> Refusal | None: ...


class DoorsTable(GameOn, Protocol):
    """What the doors read of the table (the game, the lucky numbers, whether a game is on)
    and ask of it: the displays woken, a decision routed, a new seat shown, a pad noted."""

    @property
    def draft(self) -> DraftView | None: ...
    def playing(self) -> bool: ...
    def touched(self) -> None: ...
    def route(self, event: Decision, request: str | None = None) -> Refusal | None: ...
    def seat_joined(self, seat: SeatSpec) -> None: ...
    def pad_given(self) -> None: ...


class Doors:
    """Every kind of seat's way in: a `SeatDoor` per kind, new seats between games, and
    whether the device holding each seat is here. It keeps the table's `seating`, asks the
    referee's exactly-once check (`earlier`) for devices, lends them the table's `news`, and
    tells `absence` when a seat's device goes or comes back."""

    def __init__(
        self,
        table: DoorsTable,
        seating: Seating,
        earlier: EarlierCheck,
        news: News,
        absence: Absence,
    ) -> None:
        self.table = table
        self.seating = seating
        self.earlier = earlier
        self.news = news
        self.absence = absence
        self.devices_here: dict[SeatKind, Callable[[str], bool]] = {}  # per kind of device

    def door(self, kind: SeatKind) -> SeatDoor:
        """The way in for the seats of `kind`, for whatever holds them (pads, phones, ...)."""
        return SeatDoor(self, kind, self.earlier, self.news)

    def kind_of(self, name: str) -> SeatKind:
        return self.seating.kind_of(name)

    def touched(self) -> None:
        self.table.touched()

    def route(self, event: Decision, request: str | None = None) -> Refusal | None:
        return self.table.route(event, request)

    def here(self, seat: SeatSpec) -> bool:
        """True when `seat` can play a new game now: its pad or phone has not left (computer
        and keyboard seats are always here)."""
        device_here = self.devices_here.get(seat.kind)
        return device_here is None or device_here(seat.name)

    def watch_presence(self, kind: SeatKind, here: Callable[[str], bool]) -> None:
        self.devices_here[kind] = here

    def presence(self, name: str, *, here: bool) -> None:
        """The device holding `name`'s seat came back (`here`) or has gone."""
        if here:
            self.absence.came_back(name)
        else:
            self.absence.went(name)

    def why_not_join(self) -> Refusal | None:
        """Why a device cannot join now, in a player's words (None: it can): a game is on,
        or its lucky numbers are being chosen, or five players are seated, none of them a
        tournament's person whose seat waits for the phone or pad they bring."""
        if self.table.playing() or self.table.draft is not None:
            return Refusal("a game is being played: you can join when it ends", NOT_NOW)
        if self.seating.full() and not waiting_drawn(self.seating.seats):
            return Refusal("the table is full: five players", RULE)
        return None

    def why_no_new_seat(self) -> Refusal | None:
        """Why a new seat (not one drawn for a person) cannot be added now: as `why_not_join`,
        and a full table of drawn seats has no sixth for anyone."""
        refusal = self.why_not_join()
        waiting = waiting_drawn(self.seating.seats)
        if refusal is None and self.seating.full():
            return Refusal(f"the table is full: its seats are drawn for the tournament, and "
                           f"{' and '.join(waiting)} not sat down yet", RULE)  # fmt: skip
        return refusal

    def now(self) -> SeatsNow:
        table = self.table
        seats, refusal = tuple(self.seating.seats), self.why_not_join()
        return SeatsNow(table.game, table.draft, seats, refusal, self.absence.notice())

    def add_seat(self, seat: SeatSpec) -> Refusal | None:
        """A new seat between games, at the end of the table; None when seated, else why not.
        The main display shows the seats and who joined. A device holding a seat already (a
        pad's, its player named from a phone) keeps it under the new name."""
        held = [old.name for old in self.seating.seats
                if seat.pad and (old.pad, old.kind) == (seat.pad, seat.kind)]  # fmt: skip
        if held:
            return self.name_seat(held[0], seat.name)
        refusal = self.why_no_new_seat()
        if refusal is None and self.seating.taken(seat.name):
            refusal = Refusal(f"{seat.name} is already at the table", RULE)
        if refusal is None:
            self.seating.add(seat)
            self.table.seat_joined(seat)
        return refusal

    def name_seat(self, old: str, new: str) -> Refusal | None:
        """The seat of `old` goes by `new`, between games: a pad's player's own name, typed
        on a phone or picked on the menu (a pad cannot type), by which the league knows them;
        a tournament's player drawn here and not seated yet has their seat taken by the pad.
        The caller cleaned the name and told it apart from the other seats'. None when named."""
        if self.table.playing() or self.table.draft is not None:
            return Refusal("a game is being played: name the pad's player when it ends", NOT_NOW)
        if any(seat.name == new and seat.pad == DRAWN for seat in self.seating.seats):
            self.table.seat_joined(self.seating.take_drawn(old, new))  # a tournament's player
            return None
        if self.seating.taken(new):
            return Refusal(f"{new} is already at the table", RULE)
        self.table.seat_joined(self.seating.rename(old, new))
        return None

    def give_pad(self, name: str, pad: str, kind: SeatKind | None = None) -> None:
        """The pad of ident `pad` holds `name`'s seat now (noted with the next game); `kind`:
        a seat drawn for a person taken by the device they brought, of this kind."""
        self.seating.give_pad(name, pad, kind)
        self.table.pad_given()


class DoorTable(Protocol):
    """What a door reads of the table (`Doors`), and asks of it: whose seat is of which kind,
    the displays woken, a decision routed, a seat added, the moment read, a seat's device
    back, the question whether the device holding a seat is here, and its answer changed."""

    def kind_of(self, name: str) -> SeatKind: ...
    def touched(self) -> None: ...
    def route(self, event: Decision, request: str | None = None) -> Refusal | None: ...
    def add_seat(self, seat: SeatSpec) -> Refusal | None: ...
    def now(self) -> SeatsNow: ...
    def give_pad(self, name: str, pad: str, kind: SeatKind | None = None) -> None: ...
    def watch_presence(self, kind: SeatKind, here: Callable[[str], bool]) -> None: ...
    def presence(self, name: str, *, here: bool) -> None: ...


class SeatDoor:
    """The way in for the seats of one kind: their players' decisions, joining, and what a
    device needs to show and to be answered exactly once (`earlier`, the table's one check).
    `news` is what the door's holder may tell the people at the table."""

    def __init__(
        self,
        table: DoorTable,
        kind: SeatKind,
        earlier: EarlierCheck,
        news: News,
    ) -> None:
        self.table = table
        self.kind = kind
        self._earlier = earlier
        self.news = news

    def decide(self, event: Decision, request: str | None = None) -> Refusal | None:
        """A decision of a player seated at this kind of seat; None when accepted, else why
        not. `request` is the id a device sent it under (checked with `earlier` first)."""
        table = self.table
        if table.kind_of(event.player) != self.kind:
            return Refusal(f"{event.player}'s seat is not a {self.kind} seat", RULE)
        if self.kind != COMPUTER:
            table.touched()
        return table.route(event, request)

    def join(self, name: str, pad: str = "") -> Refusal | None:
        """A new seat of this kind (held by the device of ident `pad`, if any), between games
        only; None when seated, else why not. The main display shows the seats and who joined."""
        return self.table.add_seat(SeatSpec(name, self.kind, pad))

    def name_pad(self, seat: str, name: str) -> Refusal | None:
        """A pad's seat named from a phone, between games: the pad's seat joins again under
        its player's name (`Doors.add_seat`); None when named, else why not."""
        pads = [one.pad for one in self.now().seats if one.name == seat and one.kind == PAD]
        if not pads or not pads[0]:
            return Refusal(f"no pad at this table plays as {seat} now", RULE)
        return self.table.add_seat(SeatSpec(name, PAD, pads[0]))

    def earlier(self, request: str, tail_of_any_device: str = "") -> Earlier | None:
        """The exactly-once check (`AppliedRequests.earlier`): how a request seen before is
        answered, None for one to decide."""
        return self._earlier(request, tail_of_any_device=tail_of_any_device)

    def now(self) -> SeatsNow:
        return self.table.now()

    def seat_back(self, name: str, device: str) -> None:
        """The device of ident `device` holds `name`'s seat again (noted with the next game),
        or a tournament's seat drawn for `name`, whatever device they brought."""
        self.table.give_pad(name, device, self.kind)
        self.news.say(f"{name}'s {self.kind} is here")

    def device_gone(self, name: str) -> None:
        """The device holding `name`'s seat has gone (a phone's page closed, a pad silent):
        the table says so at once and, after a grace period, plays on without them."""
        self.table.presence(name, here=False)

    def device_back(self, name: str) -> None:
        """The device holding `name`'s seat is back: they decide again from the next decision."""
        self.table.presence(name, here=True)

    def watch(self, here: Callable[[str], bool]) -> None:
        """`here(name)`: whether the device holding `name`'s seat is here now; a new game
        leaves out the seats whose device has gone."""
        self.table.watch_presence(self.kind, here)


def route(
    table: RouteTable, lucky: LuckyDecider, event: Decision, request: str | None = None
) -> Refusal | None:
    """Where a decision goes: lucky numbers to the lucky step before a Longo game, everything
    else to the referee while a game is on. A device's `request` was checked for exactly
    once by its seats (`RemoteSeats.decide`) before it came here; it goes into the journal."""
    if table.draft is not None:
        return lucky.decide_lucky(event, request)
    if isinstance(event, LuckyNumber):
        return Refusal("lucky numbers are chosen before a longo game starts", NOT_NOW)
    if table.game is None:
        return Refusal("no game is being played; press the roll button to start one", NOT_NOW)
    if table.game.over:
        return Refusal("this game is over; press the roll button for a new one", NOT_NOW)
    return table.submit(event, request)
