"""A stand-in for firmware_py.remote.RemoteSeats until it lands on main (then removed)."""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware_py.rules import Mark, Pass, Undo
from firmware_py.seating import PAD
from firmware_py.table import RULE, LuckyNumber, Refusal


@dataclass(frozen=True)
class RemoteDecision:
    action: str
    row: str = ""
    number: int = 0
    lucky: bool = False
    choice: str = ""


@dataclass(frozen=True)
class MoveView:
    row: str
    number: int
    lucky: bool = False
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class SeatView:
    player: str
    phase: str
    text: str
    may_pass: bool = False
    moves: tuple[MoveView, ...] = ()
    colours: dict[str, int] = field(default_factory=dict)


class RemoteSeats:
    def __init__(self, table, kind=PAD, names=None) -> None:
        self.table = table
        self.held: dict[str, object] = {}  # device -> connection
        self.seated: dict[str, str] = {}
        self.answers: dict[tuple[str, str], Refusal | None] = {}

    def connect(self, device, connection, boot=""):
        if self.held.get(device) not in (None, connection):
            return Refusal("another phone holds this seat", RULE)
        self.held[device] = connection
        return None

    def disconnect(self, connection) -> None:
        self.held = {d: c for d, c in self.held.items() if c is not connection}

    def seat_of(self, device):
        return self.seated.get(device)

    def join(self, device, connection, name=None):
        refusal = self.table.join(name, PAD, pad=device)
        if refusal is None:
            self.seated[device] = name
        return refusal

    def decide(self, device, request, decision):
        if (device, request) in self.answers:
            return self.answers[(device, request)]
        name = self.seated[device]
        if decision.action == "pass":
            event = Pass(name)
        elif decision.action == "undo":
            event = Undo(name)
        elif decision.action == "lucky":
            event = LuckyNumber(name, decision.number)
        else:
            event = Mark(
                name, decision.row, decision.number, decision.lucky, decision.choice or None
            )
        refusal = self.table.decide(event)
        self.answers[(device, request)] = refusal
        return refusal

    def view(self, device):
        name = self.seated.get(device, "")
        game = self.table.game
        if game is None or name not in game.seat:
            return SeatView(name, "idle", "waiting for a game")
        moves = tuple(MoveView(m.row, m.number, m.lucky) for m in game.legal_marks(name))
        colours = dict(game.dice.colours) if game.dice else {}
        return SeatView(name, str(game.phase), "", game.can_pass(name), moves, colours)
