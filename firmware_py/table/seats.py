"""Seats of every kind hand their players' decisions to the table through one door.

A seat is a player's name and how that player decides (`SeatKind`): a pad or a phone in the
player's hand, someone at the terminal's keyboard, or the tower itself. Whatever holds the seats
of one kind holds a `SeatDoor` of that kind: `remote.RemoteSeats` for pads and phones (it first
finds which seat a device holds, and names its request for exactly-once), the terminal's
`Console` for keyboard seats, `ComputerPlayers` for the computer's. The door refuses a decision
for a player who does not sit in a seat of its kind (a keyboard cannot decide for a pad's
player), wakes the displays when a person decided (a computer player's moves do not keep them
awake), and routes the decision: to Longo's lucky numbers before a game, else to the referee.
Devices join the table through their door too, between games.
"""

from __future__ import annotations

from typing import Protocol

from firmware_py.lucky import LuckyDraft
from firmware_py.rules import Event, Mark, Pass, Undo
from firmware_py.seating import COMPUTER, SeatKind, SeatSpec
from firmware_py.show.presenters import DisplayPower
from firmware_py.table.decisions import NOT_NOW, RULE, LuckyNumber, Refusal
from firmware_py.table.state import GameOn, Seated

Decision = Mark | Pass | Undo | LuckyNumber


class LuckyDecider(Protocol):
    """Where lucky numbers go before a Longo game (`lucky_step.LuckyStep`)."""

    def decide(self, event: Decision, request: str | None = None) -> Refusal | None: ...


class RouteTable(GameOn, Protocol):
    """What a decision's route reads of the table: the lucky numbers or the game, and the
    referee to hand it to."""

    @property
    def draft(self) -> LuckyDraft | None: ...
    @property
    def lucky(self) -> LuckyDecider: ...
    def submit(self, event: Event, request: str | None = None) -> Refusal | None: ...


class DoorTable(RouteTable, Seated, Protocol):
    """What a door reads of the table, and what it asks of it: whose seat is of which kind,
    the displays woken, a seat added between games and shown."""

    @property
    def power(self) -> DisplayPower: ...
    def kind_of(self, name: str) -> SeatKind: ...
    def why_not_join(self) -> Refusal | None: ...
    def seat_joined(self, seat: SeatSpec) -> None: ...


class SeatDoor:
    """The way in for the seats of one kind: their players' decisions, and joining."""

    def __init__(self, table: DoorTable, kind: SeatKind) -> None:
        self.table = table
        self.kind = kind

    def decide(self, event: Decision, request: str | None = None) -> Refusal | None:
        """A decision of a player seated at this kind of seat; None when accepted, else why
        not. `request` is the id a device sent it under (see `Table.decide`)."""
        table = self.table
        if table.kind_of(event.player) != self.kind:
            return Refusal(f"{event.player}'s seat is not a {self.kind} seat", RULE)
        if self.kind != COMPUTER:
            table.power.touched()
        return route(table, event, request)

    def join(self, name: str, pad: str = "") -> Refusal | None:
        """A new seat of this kind (held by the device of ident `pad`, if any), between games
        only; None when seated, else why not. The main display shows the seats and who joined."""
        table = self.table
        refusal = table.why_not_join()
        if refusal is None and table.seating.taken(name):
            refusal = Refusal(f"{name} is already at the table", RULE)
        if refusal is not None:
            return refusal
        table.seat_joined(SeatSpec(name, self.kind, pad))
        return None


def route(table: RouteTable, event: Decision, request: str | None = None) -> Refusal | None:
    """Where a decision goes: lucky numbers to the lucky step before a Longo game, everything
    else to the referee while a game is on. A device's `request` was checked for exactly
    once by its seats (`RemoteSeats.decide`) before it came here; it goes into the journal."""
    if table.draft is not None:
        return table.lucky.decide(event, request)
    if isinstance(event, LuckyNumber):
        return Refusal("lucky numbers are chosen before a longo game starts", NOT_NOW)
    if table.game is None:
        return Refusal("no game is being played; press the roll button to start one", NOT_NOW)
    if table.game.over:
        return Refusal("this game is over; press the roll button for a new one", NOT_NOW)
    return table.submit(event, request)
