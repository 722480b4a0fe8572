"""A stand-in for firmware_py.remote.RemoteSeats until it lands on main (then removed)."""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware_py.rules import ACTION1, ROLL, Mark, Pass, Undo
from firmware_py.seating import PAD
from firmware_py.table import RULE, LuckyNumber, Refusal
from sheets import COLOURS


@dataclass(frozen=True)
class RemoteDecision:
    action: str
    row: str = ""
    number: int = 0
    lucky: bool = False
    choice: str = ""


@dataclass(frozen=True)
class RowView:
    colour: str
    numbers: tuple[int, ...]
    cell_colours: tuple[str, ...]
    crossed: tuple[int, ...]
    skipped_before: int
    locked_by_me: bool
    closed: bool


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
    may_join: bool = False
    may_pass: bool = False
    may_undo: bool = False
    active: bool = False
    decided: bool = False
    penalties: int = 0
    total: int = 0
    white: tuple[int, int] | None = None
    colours: dict[str, int] = field(default_factory=dict)
    locked: tuple[str, ...] = ()
    lucky: tuple[int, ...] = ()
    rows: tuple[RowView, ...] = ()
    moves: tuple[MoveView, ...] = ()
    lucky_choices: tuple[int, ...] = ()
    scores: tuple[tuple[str, int], ...] = ()
    waiting_for: tuple[str, ...] = ()
    sheet_title: str = ""


def _moves(marks) -> tuple[MoveView, ...]:
    grouped: dict[tuple, list[str]] = {}
    for mark in marks:
        choices = grouped.setdefault((mark.row, mark.number, mark.lucky), [])
        if mark.choice is not None:
            choices.append(mark.choice)
    return tuple(MoveView(r, n, lucky, tuple(c)) for (r, n, lucky), c in grouped.items())


def _text(game, name: str) -> str:
    if game.over:
        return f"Game over: {' and '.join(game.winners())} won"
    if game.phase == ROLL:
        return "your roll" if game.active_name == name else f"{game.active_name} rolls next"
    if name in game.waiting_for():
        return "your move"
    return "waiting for " + ", ".join(game.waiting_for())


def seat_view(table, name: str) -> SeatView:
    draft = table.draft
    if draft is not None and name in draft.chosen:
        chosen = tuple(draft.chosen[name])
        return SeatView(
            name, "lucky", f"choose {draft.count} lucky numbers", may_undo=bool(chosen),
            decided=len(chosen) >= draft.count, lucky=chosen,
            lucky_choices=tuple(draft.allowed(name)), waiting_for=tuple(draft.missing()),
        )  # fmt: skip
    game = table.game
    if game is None or name not in game.seat:
        return SeatView(name, "idle", "waiting for the next game")
    player = game.player(name)
    rows = []
    for index, row in enumerate(game.sheet.rows):
        crossed = tuple(player.crossed_positions(index))
        rows.append(RowView(row.lock, tuple(row.numbers), tuple(row.colours), crossed,
                            max(crossed, default=0), player.has_locked(index),
                            index in game.locked))  # fmt: skip
    dice = game.dice
    in_play = set(game.dice_in_play())
    return SeatView(
        player=name, phase=str(game.phase), text=_text(game, name),
        may_pass=game.can_pass(name), may_undo=game.can_undo(name),
        active=game.active_name == name,
        decided=game.phase == ACTION1 and game.seat[name] in game.decisions,
        penalties=player.penalties, total=game.total(name),
        white=(dice.white[0], dice.white[1]) if dice else None,
        colours={c: f for c, f in dice.colours.items() if c in in_play} if dice else {},
        locked=tuple(COLOURS[r] for r in game.locked), lucky=tuple(player.lucky),
        rows=tuple(rows), moves=_moves(game.legal_marks(name)),
        scores=tuple((p.name, game.total(p.name)) for p in game.players),
        waiting_for=tuple(game.waiting_for()), sheet_title=game.sheet.title,
    )  # fmt: skip


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
        return seat_view(self.table, self.seated.get(device, ""))
