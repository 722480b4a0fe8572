"""What a player's own device shows (a pad, a phone): one `SeatView`, plain data.

The table publishes one `TableView` for everyone; a device in a player's hand needs that
player's sheet, the dice, exactly the marks the rules allow now, and a line of words. Every kind
of remote seat builds its screen from a `SeatView`: the pad hub encodes it as the wire's STATE,
the web hub as JSON. So a pad and a phone cannot disagree about what a player may do.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from firmware_py.lucky import DraftView
from firmware_py.rules import ACTION1, ROLL, Game, Mark
from firmware_py.rules.doubles import second_positions, twice_words
from firmware_py.rules.player import PlayerSheet
from sheets import COLOURS

SeatPhase = Literal["idle", "roll", "action1", "action2", "over", "lucky"]


@dataclass(frozen=True)
class RowView:
    """One row of the player's sheet, as printed and as crossed."""

    colour: str  # the row's lock colour
    numbers: tuple[int, ...]  # in printed order
    cell_colours: tuple[str, ...]  # each cell's colour (mixx-a rows mix them)
    crossed: tuple[int, ...]  # crossed cell positions, 0 the leftmost
    skipped_before: int  # cells left of this position not crossed are skipped for good
    locked_by_me: bool  # this player crossed the row's lock
    closed: bool  # the row is locked for everyone
    doubled: tuple[int, ...] = ()  # Qwixx Double: cell positions holding a second cross
    printed_double: tuple[int, ...] = ()  # Double B: cell positions printed double
    # Qwixx Connected, on the player's pad: the stair's cell positions (framed in black), and
    # each circled cell's position, its pair's letter (a, b, ...) and the cell it is joined to
    stair: tuple[int, ...] = ()
    links: tuple[tuple[int, str, str], ...] = ()


@dataclass(frozen=True)
class BonusRowView:
    """Big Points: a row of round bonus boxes, printed between the rows `between`."""

    name: str  # "red-yellow": as a mark names it
    between: tuple[str, str]  # the colour rows above and below it
    numbers: tuple[int, ...]  # in printed order
    crossed: tuple[int, ...]  # crossed box positions, 0 the leftmost
    skipped_before: int  # boxes left of this position not crossed are skipped for good


@dataclass(frozen=True)
class SwapFieldView:
    """X-Change: one swap field, as printed (two numbers) and as used: "used", "passed" (left
    of a used field, so gone) or "open"."""

    field: int  # 1 = the leftmost
    numbers: tuple[int, int]
    state: str


@dataclass(frozen=True)
class MoveView:
    """A mark the player may make now; `choices`: the rows a reward lets them choose from;
    `swap`: the X-Change field the cross uses (0: none)."""

    row: str
    number: int
    lucky: bool = False
    choices: tuple[str, ...] = ()
    twice: bool = False  # Qwixx Double: two crosses (a second cross, a cell printed double)
    swap: int = 0


@dataclass(frozen=True)
class SeatView:
    """Everything one player's device shows at this moment."""

    player: str  # "" when the device holds no seat
    phase: SeatPhase
    text: str  # one line: what happens now, in a player's words
    may_join: bool = False
    may_pass: bool = False
    may_undo: bool = False
    active: bool = False
    decided: bool = False
    penalties: int = 0
    total: int = 0
    white: tuple[int, int] | None = None
    colours: dict[str, int] = field(default_factory=dict)  # colour dice in play: their faces
    locked: tuple[str, ...] = ()  # rows locked for everyone
    lucky: tuple[int, ...] = ()  # longo: the player's lucky numbers
    rows: tuple[RowView, ...] = ()
    bonus_rows: tuple[BonusRowView, ...] = ()  # Big Points: between two rows each
    moves: tuple[MoveView, ...] = ()
    swaps: tuple[SwapFieldView, ...] = ()  # X-Change: the swap fields, left to right
    lucky_choices: tuple[int, ...] = ()  # phase "lucky": the numbers still allowed
    scores: tuple[tuple[str, int], ...] = ()  # every player's total, in seat order
    waiting_for: tuple[str, ...] = ()
    sheet_title: str = ""


def idle_view(text: str, *, may_join: bool = False, player: str = "") -> SeatView:
    """A device without a game to show: how to join, or why not now."""
    return SeatView(player=player, phase="idle", text=text, may_join=may_join)


def game_view(game: Game, name: str) -> SeatView:
    """`name`'s sheet in `game`, the dice, their legal marks and a line of words."""
    if name not in game.seat:
        return idle_view(f"{name} sits this game out: you play in the next one", player=name)
    player = game.player(name)
    dice = game.dice
    in_play = set(game.dice_in_play())
    return SeatView(
        player=name,
        phase=game.phase.value,
        text=status_text(game, name),
        may_pass=game.can_pass(name),
        may_undo=game.can_undo(name),
        active=game.active_name == name,
        decided=game.phase is ACTION1 and game.seat[name] in game.decisions,
        penalties=player.penalties,
        total=game.total(name),
        white=(dice.white[0], dice.white[1]) if dice else None,
        colours={c: f for c, f in dice.colours.items() if c in in_play} if dice else {},
        locked=tuple(COLOURS[row] for row in game.locked),
        lucky=tuple(player.lucky),
        rows=tuple(_row_view(game, player, row) for row in range(len(COLOURS))),
        bonus_rows=bonus_row_views(game, player),
        moves=twice_moves(game, name, move_views(game.legal_marks(name))),
        swaps=swap_field_views(game, player),
        scores=tuple((p.name, game.total(p.name)) for p in game.players),
        waiting_for=tuple(game.waiting_for()),
        sheet_title=game.sheet.title,
    )


def lucky_view(draft: DraftView, name: str) -> SeatView:
    """Before a longo game: the numbers chosen, those still open, and whom the table waits
    for."""
    chosen = draft.chosen[name]
    missing = tuple(n for n in draft.missing() if n != name)
    if len(chosen) < draft.count:
        text = f"choose {draft.count} numbers"
    else:
        text = "waiting for " + ", ".join(missing) if missing else "the game starts"
    return SeatView(
        player=name,
        phase="lucky",
        text=text,
        may_undo=bool(chosen),
        decided=len(chosen) >= draft.count,
        lucky=tuple(chosen),
        lucky_choices=tuple(draft.allowed(name)),
        waiting_for=tuple(draft.missing()),
        sheet_title=draft.sheet.title,
    )


def _row_view(game: Game, player: PlayerSheet, row: int) -> RowView:
    sheet_row = game.sheet.rows[row]
    crossed = tuple(player.crossed_positions(row))
    return RowView(
        colour=COLOURS[row],
        numbers=tuple(sheet_row.numbers),
        cell_colours=tuple(sheet_row.colours),
        crossed=crossed,
        skipped_before=max(crossed) + 1 if crossed else 0,
        locked_by_me=player.has_locked(row),
        closed=row in game.locked,
        doubled=tuple(second_positions(player, row)) if game.sheet.has_doubles else (),
        printed_double=tuple(sorted(map(sheet_row.numbers.index, sheet_row.double))),
        stair=tuple(sorted(p for r, p in player.pad.steps if r == row)) if player.pad else (),
        links=_links_in_row(game, player, row),
    )


def _links_in_row(game: Game, player: PlayerSheet, row: int) -> tuple[tuple[int, str, str], ...]:
    """Connected, the Chain: the circled cells of a row on the player's pad, each with its
    pair's letter and the cell joined to it ("yellow 6"), left to right."""
    if player.pad is None:
        return ()
    links = []
    for k, ends in enumerate(player.pad.links):
        for (here, position), (there, other) in (ends, ends[::-1]):
            if here == row:
                joined = f"{COLOURS[there]} {game.sheet.rows[there].numbers[other]}"
                links.append((position, "abcdefgh"[k], joined))
    return tuple(sorted(links))


def bonus_row_views(game: Game, player: PlayerSheet) -> tuple[BonusRowView, ...]:
    """Big Points: the player's bonus rows, top one first; none on other sheets."""
    views = []
    for k, bonus in enumerate(game.sheet.bonus_rows):
        crossed = tuple(player.crossed_positions(len(COLOURS) + k))
        views.append(
            BonusRowView(
                name=bonus.name,
                between=(COLOURS[bonus.between[0]], COLOURS[bonus.between[1]]),
                numbers=bonus.numbers,
                crossed=crossed,
                skipped_before=max(crossed) + 1 if crossed else 0,
            )
        )
    return tuple(views)


def move_views(marks: list[Mark]) -> tuple[MoveView, ...]:
    """One move per cell and kind of cross; a mark the engine lists once per possible choice
    of row (bonus-b ties) becomes one move with those rows as its choices."""
    moves: dict[tuple[str, int, bool, int], list[str]] = {}
    for mark in marks:
        choices = moves.setdefault((mark.row, mark.number, mark.lucky, mark.swap or 0), [])
        if mark.choice is not None:
            choices.append(mark.choice)
    return tuple(
        MoveView(row, number, lucky, tuple(choices), swap=swap)
        for (row, number, lucky, swap), choices in moves.items()
    )


def twice_moves(game: Game, name: str, moves: tuple[MoveView, ...]) -> tuple[MoveView, ...]:
    """Qwixx Double: the moves that make two crosses, flagged `twice`; as they are elsewhere."""
    if not game.sheet.has_doubles:
        return moves
    return tuple(
        replace(move, twice=bool(twice_words(game, Mark(name, move.row, move.number))))
        for move in moves
    )


def swap_field_views(game: Game, player: PlayerSheet) -> tuple[SwapFieldView, ...]:
    """X-Change: the player's swap fields, left to right; none on other sheets."""
    first = player.next_swap()
    views = []
    for k, numbers in enumerate(game.sheet.swaps):
        used = player.swaps >> k & 1
        state = "used" if used else "passed" if k < first else "open"
        views.append(SwapFieldView(k + 1, numbers, state))
    return tuple(views)


def status_text(game: Game, name: str) -> str:
    """One line a player reads to know what happens now."""
    if game.over:
        return f"Game over: {' and '.join(game.winners())} won"
    waiting = [n for n in game.waiting_for() if n != name]
    if game.phase is ROLL:
        if game.active_name == name:
            return "your roll: press the button"
        return f"{game.active_name} rolls next"
    if name in game.waiting_for():
        return "your move" + (f"; also {', '.join(waiting)}" if waiting else "")
    return f"waiting for {', '.join(waiting)}"
