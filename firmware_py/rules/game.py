"""The referee: a game of Qwixx as a state, its legal moves, and `apply(event)`.

Pure Python: no I/O, no clock, no randomness. The table service, the replay command and computer
players all drive the game through `apply`, which either changes the state or raises `Refused`
with the rule that was broken and leaves the state exactly as it was.

Timing, as `docs/game-log.md` fixes it: action-1 decisions are simultaneous, so each is
checked against the locks as they stood at the roll plus the player's own sheet; rows locked in
action 1 close for everyone when action 1 ends. A row locked in action 2 closes at once.

`Game` holds the state and moves it through the turn (roll, action 1, action 2, next player);
the rules it applies live beside it, each built once per sheet from its tables: the legal moves
(moves.py), a cross and what it sets off (crossing.py), and the checks with the words of a
refusal (checks.py). Sheets are player.py, points scoring.py.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import cast

from sheets import COLOURS, Pad, Sheet, SheetError, load_sheet

from . import scoring
from .checks import Checks
from .crossing import Crossing
from .doubles import crossing_for, moves_for
from .errors import Refused
from .events import Mark, Pass, Roll, Start, Undo
from .lineup import check_players, lucky_numbers_of, pads_of
from .naming import join
from .player import PlayerSheet, Snapshot
from .state import (
    ACTION1,
    ACTION2,
    OVER,
    ROLL,
    EndReason,
    GameState,
    Phase,
    close_rows,
    dice_in_play,
)
from .tables import Cell, SheetTables, tables_for

__all__ = ["ACTION1", "ACTION2", "OVER", "ROLL", "EndReason", "Game", "GameState", "Phase"]

_END_WORDS = {"locks": "two rows are locked", "penalties": "a player took a fourth penalty"}


class Game:
    """One game at the table: sheets, dice, whose turn, which action, and the locks."""

    def __init__(
        self,
        sheet: Sheet,
        players: Sequence[str],
        lucky: Mapping[str, Sequence[int]] | None = None,
        pads: Mapping[str, str] | None = None,
    ) -> None:
        check_players(players)
        lucky_numbers = lucky_numbers_of(sheet, players, lucky)
        self.sheet = sheet
        self._tables = tables = tables_for(sheet)
        self.players = _player_sheets(tables, players, lucky_numbers, pads_of(sheet, players, pads))
        self.seat = {name: index for index, name in enumerate(players)}
        self.phase = ROLL
        self.active = 0
        self.dice: Roll | None = None
        self.white_sum = 0
        self.locked: list[int] = []  # rows in the order they locked
        self.closed = 0  # mask of locked rows
        self.reason: EndReason | None = None
        # Action-1 decisions this turn: seat -> snapshot before the mark, or None for a pass.
        self.decisions: dict[int, Snapshot | None] = {}
        self._locking = 0  # mask of rows a player locked in the open action
        self._in_play: dict[str, None] = dict.fromkeys(COLOURS)  # colour dice in the game
        self._action2_cells: list[Cell] | None = None  # cells the colour sums reach, this roll
        self._marks = [tables.marks_for(name) for name in players]
        self._moves = tables.derived(moves_for)
        self._crossing: Crossing = tables.derived(crossing_for)
        self._checks = tables.derived(Checks)

    @classmethod
    def start(cls, event: Start) -> Game:
        """A new game from a start event; refuses unknown variants and bad player lists."""
        try:
            sheet = load_sheet(event.variant)
        except SheetError as error:
            raise Refused(str(error)) from error
        return cls(sheet, event.players, event.lucky, event.pads)

    # Attributes fixed when the game starts, shared by copies; every other attribute is in
    # `GameState` (tests/rules/test_rules_copy.py checks that no attribute is left out of both).
    SETUP = ("sheet", "seat", "_tables", "_marks", "_moves", "_crossing", "_checks")
    CACHES = ("_action2_cells",)  # derived from the state, rebuilt when needed

    def copy(self) -> Game:
        """An independent copy of the game: trying an event on it, or playing it out, leaves
        this game as it is (the referee's trial before the journal, computer players)."""
        twin = copy.copy(self)
        twin.players = [player.copy() for player in self.players]
        twin.locked = list(self.locked)
        twin.decisions = dict(self.decisions)
        twin._in_play = dict(self._in_play)
        return twin

    def state(self) -> GameState:
        """Everything that changes as the game is played, as one immutable value."""
        return GameState(
            players=tuple(player.snapshot() for player in self.players),
            phase=self.phase,
            active=self.active,
            dice=self.dice,
            white_sum=self.white_sum,
            locked=tuple(self.locked),
            closed=self.closed,
            reason=self.reason,
            decisions=tuple(self.decisions.items()),
            locking=self._locking,
            in_play=tuple(self._in_play),
        )

    def restore(self, state: GameState) -> None:
        """Put the game back to a state `state()` returned (of this game or a copy of it)."""
        for player, snapshot in zip(self.players, state.players, strict=True):
            player.restore(snapshot)
        self.phase, self.active, self.dice = state.phase, state.active, state.dice
        self.white_sum, self.closed, self.reason = state.white_sum, state.closed, state.reason
        self.locked = list(state.locked)
        self.decisions = dict(state.decisions)
        self._locking = state.locking
        self._in_play = dict.fromkeys(state.in_play)
        self._action2_cells = None

    def end_playout(
        self,
        rows: list[list[int]],
        penalties: list[int],
        active: int,
        roll: Roll,
        locked: list[int],
        closed: int,
        reason: EndReason,
    ) -> None:
        """Put the game in the end a playout on a plain sheet reached (plain.py): each
        player's row masks and penalties (the lists are kept), whose turn it was, the last
        roll, the rows locked in order and their mask, and why the game ended. Cheaper than
        `restore`, which a playout would pay for on each of its thousands of games."""
        for player, masks, count in zip(self.players, rows, penalties, strict=True):
            player.rows, player.penalties = masks, count
        self.active, self.dice, self.white_sum = active, roll, roll.white[0] + roll.white[1]
        self.locked, self.closed = locked, closed
        self.decisions = {}  # nothing reads the last turn's decisions once the game is over
        self._locking, self._action2_cells = 0, None
        self._in_play = dict.fromkeys(dice_in_play(closed))
        self._end_game(reason)

    # ---- state queries -------------------------------------------------------------------

    @property
    def plain(self) -> bool:
        """True when no cross on this sheet sets off anything else (no bonus boxes or
        rewards): playouts take their fast path (plain.py)."""
        return self._tables.plain

    @property
    def tables(self) -> SheetTables:
        """The lookup tables of this game's sheet (shared by every game of the sheet)."""
        return self._tables

    @property
    def locking(self) -> int:
        """Mask of the rows a player locked in the open action; they close when it ends."""
        return self._locking

    @property
    def over(self) -> bool:
        return self.phase is OVER

    @property
    def active_name(self) -> str:
        return self.players[self.active].name

    def player(self, name: str) -> PlayerSheet:
        return self.players[self._seat_of(name)]

    def dice_in_play(self) -> list[str]:
        """The colour dice still in the game (their rows are not locked)."""
        return list(self._in_play)

    def waiting_for(self) -> list[str]:
        """Who the table waits for: the roller, the undecided players, or the active player."""
        if self.phase is ACTION1:
            return [p.name for i, p in enumerate(self.players) if i not in self.decisions]
        if self.phase in (ROLL, ACTION2):
            return [self.active_name]
        return []

    def total(self, name: str) -> int:
        return scoring.total(self.sheet, self.player(name))

    def winners(self) -> list[str]:
        return scoring.winners(self.sheet, self.players)

    # ---- legal moves ---------------------------------------------------------------------

    def legal_marks(self, name: str) -> list[Mark]:
        """Every mark `name` may make right now, with the row choice spelled out where needed."""
        seat = self.seat.get(name)
        if seat is None:
            seat = self._seat_of(name)  # raises: no such player
        player = self.players[seat]
        if self.phase is ACTION1 and seat not in self.decisions:
            marks = self._moves.action1(player, self._marks[seat], self.white_sum, self.closed)
        elif self.phase is ACTION2 and seat == self.active:
            dice = self.dice
            assert dice is not None  # rolled: this is action 2
            if self._action2_cells is None:
                self._action2_cells = self._moves.colour_sums(dice)
            marks = self._moves.action2(
                player, self._marks[seat], self._action2_cells, self.closed, dice
            )
        else:
            return []
        if self.sheet.rewards:
            marks = self._moves.with_choices(player, marks, self.closed)
        return marks

    def can_pass(self, name: str) -> bool:
        seat = self._seat_of(name)
        if self.phase is ACTION1:
            return seat not in self.decisions
        return self.phase is ACTION2 and seat == self.active

    def can_undo(self, name: str) -> bool:
        return self.phase is ACTION1 and self._seat_of(name) in self.decisions

    # ---- applying events -----------------------------------------------------------------

    def apply(self, event: Roll | Mark | Pass | Undo) -> None:
        """Apply one table event, or raise Refused and leave the game as it was."""
        if self.phase is OVER:
            reason = cast(EndReason, self.reason)  # set when the game ended
            raise Refused(f"the game is over ({_END_WORDS[reason]}); no more events")
        if type(event) is Mark:
            self._checks.check_mark(self, self._seat_of(event.player), event)
        elif type(event) is Pass:
            self._checks.check_pass(self, self._seat_of(event.player))
        elif type(event) is Roll:
            self._checks.check_roll(self, event, self._in_play)
        elif type(event) is Undo:
            self._undo(self._seat_of(event.player))
            return
        else:
            raise Refused(f"{event!r} is not a table event")
        self.apply_unchecked(event)

    def apply_unchecked(self, event: Roll | Mark | Pass) -> None:
        """Apply an event known to be legal (a roll of the dice in play, a mark of `legal_marks`,
        a pass of a player waited for) unchecked: `apply` comes here after its checks, playouts
        (rollout.py) directly. An illegal event leaves a state no table reaches."""
        if type(event) is Pass:  # most decisions of a random player
            seat, before = self.seat[event.player], None
        elif type(event) is Mark:
            seat = self.seat[event.player]
            player = self.players[seat]
            before = player.snapshot()
            row = self._tables.row_index[event.row]
            position = self.sheet.positions[row][event.number]
            try:
                locks = self._crossing.cross_with_effects(
                    player, row, position, self.closed, event.choice
                )
            except Refused:
                player.restore(before)  # nothing of the mark stays
                raise
            if event.swap is not None:  # X-Change: the field is used
                player.swaps |= 1 << event.swap - 1
            self._locking |= locks
        elif type(event) is Roll:
            self._begin_action1(event)
            return
        else:
            return
        if self.phase is ACTION1:
            self.decisions[seat] = before  # the sheet before the mark, or None for a pass
            if len(self.decisions) == len(self.players):
                self._end_action1()
        else:
            self._end_action2(before)

    def _undo(self, seat: int) -> None:
        if self.phase is ACTION1 and seat in self.decisions:
            snapshot = self.decisions.pop(seat)
            if snapshot is not None:
                self.players[seat].restore(snapshot)
                self._locking = _locked_in_open_action(self.players, self.closed)
            return
        self._checks.refuse_undo(self, seat)

    def _seat_of(self, name: str) -> int:
        seat = self.seat.get(name)
        if seat is None:
            names = join(list(self.seat))
            raise Refused(f"there is no player named {name!r} in this game (players: {names})")
        return seat

    # ---- turn order ----------------------------------------------------------------------

    def _begin_action1(self, roll: Roll) -> None:
        """The dice are on the table: everyone decides action 1 on their white sum."""
        self.dice = roll
        self.white_sum = roll.white[0] + roll.white[1]
        self._action2_cells = None
        self.decisions = {}
        self.phase = ACTION1

    def _end_action1(self) -> None:
        if self._locking:
            self._close_locked_rows()
        if self.phase is not OVER:
            self.phase = ACTION2

    def _end_action2(self, snapshot: Snapshot | None) -> None:
        active = self.players[self.active]
        if self._locking:
            self._close_locked_rows()
        elif snapshot is None and self.decisions.get(self.active) is None:
            active.penalties += 1  # crossed nothing in either action
            if active.penalties >= self.sheet.penalties_to_end:
                self._end_game(EndReason.PENALTIES)
        if self.phase is OVER:
            return
        self.active = (self.active + 1) % len(self.players)
        self.phase = ROLL
        self.dice = None

    def _close_locked_rows(self) -> None:
        """End of an action: its locks close their rows for everyone."""
        self.closed = close_rows(self.locked, self.closed, self._locking)
        self._locking = 0
        self._in_play = dict.fromkeys(dice_in_play(self.closed))
        if len(self.locked) >= self.sheet.locks_to_end:
            self._end_game(EndReason.LOCKS)

    def _end_game(self, reason: EndReason) -> None:
        self.reason = reason
        self.phase = OVER


def _player_sheets(
    tables: SheetTables,
    players: Sequence[str],
    lucky: Mapping[str, tuple[int, ...]],
    pads: Sequence[Pad | None],
) -> list[PlayerSheet]:
    """A blank sheet per seat, with its lucky numbers (Longo) and its pad (Connected)."""
    return [
        PlayerSheet(name, tables.lock_bits, lucky.get(name, ()), pad)
        for name, pad in zip(players, pads, strict=True)
    ]


def _locked_in_open_action(players: list[PlayerSheet], closed: int) -> int:
    """Rows some player has locked that the table has not closed yet: every lock of an
    earlier action closed its row when that action ended, so these are the open action's."""
    mask = 0
    for player in players:
        for row, bit in enumerate(player.lock_bits):
            if player.rows[row] & bit:
                mask |= 1 << row
    return mask & ~closed
