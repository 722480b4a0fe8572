"""The referee: a game of Qwixx as a state, its legal moves, and `apply(event)`.

Pure Python: no I/O, no clock, no randomness. The table service, the replay command and computer
players all drive the game through `apply`, which either changes the state or raises `Refused`
with the rule that was broken and leaves the state exactly as it was.

Timing, as `docs/game-log.md` fixes it: action-1 decisions are simultaneous, so each is
checked against the locks as they stood at the roll plus the player's own sheet; rows locked in
action 1 close for everyone when action 1 ends. A row locked in action 2 closes at once.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from typing import NamedTuple, cast

from sheets import COLOURS, Sheet, SheetError, load_sheet

from . import scoring
from .errors import ChoiceNeeded, Refused
from .events import Mark, Pass, Roll, Start, Undo
from .player import PlayerSheet, Snapshot
from .tables import Cell, SheetTables, tables_for


class Phase(StrEnum):
    """Where a game is: the active player rolls, everyone decides on the white sum (action 1),
    the active player decides on a colour sum (action 2), or the game is over."""

    ROLL = "roll"
    ACTION1 = "action1"
    ACTION2 = "action2"
    OVER = "over"


ROLL, ACTION1, ACTION2, OVER = Phase.ROLL, Phase.ACTION1, Phase.ACTION2, Phase.OVER


class EndReason(StrEnum):
    """Why a game ended, as the game log and the report spell it."""

    LOCKS = "locks"
    PENALTIES = "penalties"


class GameState(NamedTuple):
    """Everything about a game that changes as it is played, as immutable values: what
    `Game.state` returns and `Game.restore` puts back. Each field is the `Game` attribute of
    its name (with a leading underscore for the internal ones); the rest of a `Game` is fixed
    when it starts (the sheet and tables built from it) and shared between copies."""

    players: tuple[Snapshot, ...]  # each player's sheet, in seat order
    phase: Phase
    active: int
    dice: Roll | None
    white_sum: int
    locked: tuple[int, ...]
    closed: int
    reason: EndReason | None
    decisions: tuple[tuple[int, Snapshot | None], ...]  # action 1 so far, in decision order
    locking: int
    in_play: tuple[str, ...]


MAX_PLAYERS = 5
COLOUR_INDEX = {colour: index for index, colour in enumerate(COLOURS)}


class _Choice:
    """The row choice a mark carries, and whether a reward used it."""

    __slots__ = ("row", "used")

    def __init__(self, row: str | None) -> None:
        self.row = row
        self.used = False


class Game:
    """One game at the table: sheets, dice, whose turn, which action, and the locks."""

    def __init__(
        self,
        sheet: Sheet,
        players: Sequence[str],
        lucky: Mapping[str, Sequence[int]] | None = None,
    ) -> None:
        _check_players(players)
        lucky_numbers = _lucky_numbers_of(sheet, players, lucky)
        self.sheet = sheet
        lock_bits = tables_for(sheet).lock_bits
        self.players = [
            PlayerSheet(name, lock_bits, lucky_numbers.get(name, ())) for name in players
        ]
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
        self._numbers = tuple(row.numbers for row in sheet.rows)
        self._tables = tables = tables_for(sheet)
        self._marks = [tables.marks_for(name) for name in players]
        self._action2_cells: list[Cell] | None = None  # cells the colour sums reach, this roll
        self._locking = 0  # mask of rows a player locked in the open action
        self._in_play: dict[str, None] = dict.fromkeys(COLOURS)  # colour dice in the game
        self._threshold = sheet.lock_threshold
        self._bonus_cells = tables.bonus_cells
        self._reward_cells = tables.reward_cells
        self._mixed = tables.mixed
        self._plain = tables.plain

    @classmethod
    def start(cls, event: Start) -> Game:
        """A new game from a start event; refuses unknown variants and bad player lists."""
        try:
            sheet = load_sheet(event.variant)
        except SheetError as error:
            raise Refused(str(error)) from error
        return cls(sheet, event.players, event.lucky)

    # Attributes fixed when the game starts, shared by copies; every other attribute is in
    # `GameState` (tests/rules/test_rules_model.py checks that no attribute is left out of both).
    SETUP = (
        "sheet",
        "seat",
        "_numbers",
        "_tables",
        "_marks",
        "_threshold",
        "_bonus_cells",
        "_reward_cells",
        "_mixed",
        "_plain",
    )
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

    # ---- state queries -------------------------------------------------------------------

    @property
    def plain(self) -> bool:
        """True when no cross on this sheet sets off anything else (no bonus boxes, rewards
        or mixed colours to follow): playouts take their fast path."""
        return self._plain

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
        if self.phase is ACTION1 and seat not in self.decisions:
            marks = self._action1_marks(seat)
        elif self.phase is ACTION2 and seat == self.active:
            marks = self._action2_marks(seat)
        else:
            return []
        if self.sheet.rewards:
            marks = self._with_choices(seat, marks)
        return marks

    def can_pass(self, name: str) -> bool:
        seat = self._seat_of(name)
        if self.phase is ACTION1:
            return seat not in self.decisions
        return self.phase is ACTION2 and seat == self.active

    def can_undo(self, name: str) -> bool:
        return self.phase is ACTION1 and self._seat_of(name) in self.decisions

    def _action1_marks(self, seat: int) -> list[Mark]:
        player = self.players[seat]
        marks = self._marks[seat]
        legal = []  # loops here, not comprehensions: in Python 3.11 a comprehension is a call
        for _, row, position, _, _ in self._action1_cells(player):
            legal.append(marks[row][position])
        if self.white_sum in player.lucky:
            legal.extend(self._lucky_marks(player))
        return legal

    def _action1_cells(self, player: PlayerSheet) -> list[Cell]:
        """The cells of the white sum this player may cross (lucky crosses aside)."""
        rows, closed, threshold = player.rows, self.closed, self._threshold
        cells = []
        for cell in self._tables.by_sum[self.white_sum]:
            _, row, _, bit, locks = cell
            if (
                rows[row] < bit  # nothing crossed at or right of it (the lock cross too)
                and not closed >> row & 1
                and (not locks or rows[row].bit_count() >= threshold)
            ):
                cells.append(cell)
        return cells

    def _lucky_marks(self, player: PlayerSheet) -> list[Mark]:
        lucky = []
        for row in player.fewest_crosses_rows():
            position = self._next_available(player, row)
            if position is not None:
                number = self._numbers[row][position]
                lucky.append(Mark(player.name, COLOURS[row], number, True))
        return lucky

    def _action2_marks(self, seat: int) -> list[Mark]:
        marks = self._marks[seat]
        legal = []
        for _, row, position, _, _ in self._open_action2_cells(self.players[seat]):
            legal.append(marks[row][position])
        return legal

    def _open_action2_cells(self, player: PlayerSheet) -> list[Cell]:
        """The cells a white die plus a colour die in play reach that this player may cross."""
        if self._action2_cells is None:
            self._action2_cells = self._cells_for_colour_sums()
        rows, closed, threshold = player.rows, self.closed, self._threshold
        cells = []
        for cell in self._action2_cells:
            die, row, _, bit, locks = cell
            if (
                rows[row] < bit
                and not closed >> die & 1  # the die is still in the game
                and not closed >> row & 1
                and (not locks or rows[row].bit_count() >= threshold)
            ):
                cells.append(cell)
        return cells

    def _with_choices(self, seat: int, marks: list[Mark]) -> list[Mark]:
        """Replace each mark that earns a tied fewest-row reward by one mark per tied row."""
        player = self.players[seat]
        expanded = []
        for mark in marks:
            row = COLOUR_INDEX[mark.row]
            position = self.sheet.positions[row][mark.number]
            if (row, position) not in self._reward_cells:
                expanded.append(mark)  # sets nothing off: no reward, so no choice
                continue
            snapshot, locking = player.snapshot(), self._locking
            try:
                self.cross_with_effects(player, row, position, None)
                expanded.append(mark)
            except ChoiceNeeded as needed:
                expanded.extend(mark._replace(choice=COLOURS[r]) for r in needed.rows)
            finally:
                player.restore(snapshot)
                self._locking = locking
        return expanded

    # ---- applying events -----------------------------------------------------------------

    def apply(self, event: Roll | Mark | Pass | Undo) -> None:
        """Apply one table event, or raise Refused and leave the game as it was."""
        if self.phase is OVER:
            reason = cast(EndReason, self.reason)  # set when the game ended
            raise Refused(f"the game is over ({_END_WORDS[reason]}); no more events")
        if type(event) is Mark:
            self._mark(event)
        elif type(event) is Pass:
            self._pass(event)
        elif type(event) is Roll:
            self._roll(event)
        elif type(event) is Undo:
            self._undo(event)
        else:
            raise Refused(f"{event!r} is not a table event")

    def _roll(self, roll: Roll) -> None:
        if self.phase is not ROLL:
            raise Refused(f"cannot roll now: {self._waiting_words()}")
        self._check_dice(roll)
        self.begin_action1(roll)

    def begin_action1(self, roll: Roll) -> None:
        """The dice are on the table: everyone decides action 1 on their white sum.

        This and `end_action1`, `end_action2` and `cross_with_effects` are the referee's own
        steps, without its checks: `apply` calls them once an event has passed, and playouts
        (rollout.py), whose decisions are drawn from the legal ones, call them directly."""
        self.dice = roll
        self.white_sum = roll.white[0] + roll.white[1]
        self._action2_cells = None
        self.decisions = {}
        self.phase = ACTION1

    def _cells_for_colour_sums(self) -> list[Cell]:
        """Every cell one white die plus one colour die of this roll reaches, in sheet order."""
        dice = self.dice
        assert dice is not None  # only asked for once the dice are rolled
        white1, white2 = dice.white
        tables = self._tables.by_die_and_sum
        reached: list[Cell] = []
        for colour, face in dice.colours.items():
            by_sum = tables[COLOUR_INDEX[colour]]
            reached.extend(by_sum[white1 + face])
            if white2 != white1:
                reached.extend(by_sum[white2 + face])
        # Listed as the sheet reads, top row first and left to right, as action 1's are.
        reached.sort(key=_row_and_position)
        return reached

    def _mark(self, mark: Mark) -> None:
        seat = self.seat.get(mark.player)
        if seat is None:
            seat = self._seat_of(mark.player)  # raises: no such player
        player = self.players[seat]
        if self.phase is ACTION1:
            if seat in self.decisions:
                self._check_undecided(seat)
            row, position = self._check_action1_mark(player, mark)
        elif self.phase is ACTION2:
            self._check_active(seat, "mark")
            row, position = self._check_action2_mark(player, mark)
        else:
            raise Refused(f"{player.name} cannot mark yet: waiting for {self.active_name} to roll")
        snapshot = player.snapshot()
        try:
            self.cross_with_effects(player, row, position, mark.choice)
        except Refused:
            player.restore(snapshot)
            self._locking = self._rows_locked_in_open_action()
            raise
        if self.phase is ACTION1:
            self._decide(seat, snapshot)
        else:
            self.end_action2(snapshot)

    def _pass(self, event: Pass) -> None:
        seat = self.seat.get(event.player)
        if seat is None:
            seat = self._seat_of(event.player)  # raises: no such player
        if self.phase is ACTION1:
            if seat in self.decisions:
                self._check_undecided(seat)
            self._decide(seat, None)
        elif self.phase is ACTION2:
            self._check_active(seat, "pass")
            self.end_action2(None)
        else:
            raise Refused(f"{event.player} cannot pass yet: waiting for {self.active_name} to roll")

    def _undo(self, event: Undo) -> None:
        seat = self._seat_of(event.player)
        if self.phase is ACTION1 and seat in self.decisions:
            snapshot = self.decisions.pop(seat)
            if snapshot is not None:
                self.players[seat].restore(snapshot)
                self._locking = self._rows_locked_in_open_action()
            return
        raise Refused(f"{event.player} has nothing to take back: {self._undo_words(seat)}")

    def _undo_words(self, seat: int) -> str:
        if self.phase is ACTION1:
            return "they have not decided in action 1 yet"
        if self.phase is ACTION2:
            return (
                "action 1 is over, and a decision can only be taken back while its action is open"
            )
        return (
            "the last turn is over, and a decision can only be taken back while its action is open"
        )

    # ---- turn flow -----------------------------------------------------------------------

    def _decide(self, seat: int, snapshot: Snapshot | None) -> None:
        self.decisions[seat] = snapshot
        if len(self.decisions) == len(self.players):
            self.end_action1()

    def end_action1(self) -> None:
        if self._locking:
            self._close_locked_rows()
        if self.phase is not OVER:
            self.phase = ACTION2

    def end_action2(self, snapshot: Snapshot | None) -> None:
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

    def _rows_locked_in_open_action(self) -> int:
        """Rows some player has locked that the table has not closed yet: every lock of an
        earlier action closed its row when that action ended, so these are the open action's."""
        mask = 0
        for player in self.players:
            for row, bit in enumerate(player.lock_bits):
                if player.rows[row] & bit:
                    mask |= 1 << row
        return mask & ~self.closed

    def _close_locked_rows(self) -> None:
        """End of an action: its locks close their rows for everyone, in red..blue order."""
        for row in range(len(COLOURS)):
            if self._locking >> row & 1:
                self.locked.append(row)
        self.closed |= self._locking
        self._locking = 0
        self._in_play = {c: None for i, c in enumerate(COLOURS) if not self.closed >> i & 1}
        if len(self.locked) >= self.sheet.locks_to_end:
            self._end_game(EndReason.LOCKS)

    def end_after_playout(self, reason: EndReason) -> None:
        """A playout (rollout.py) wrote the sheets, turn, dice and locks back: end the game,
        and bring the dice in play in line with the closed rows."""
        self._end_game(reason)
        self._locking, self._action2_cells = 0, None
        self._in_play = {c: None for i, c in enumerate(COLOURS) if not self.closed >> i & 1}

    def _end_game(self, reason: EndReason) -> None:
        self.reason = reason
        self.phase = OVER

    # ---- crossing cells and their effects ------------------------------------------------

    def cross_with_effects(
        self, player: PlayerSheet, row: int, position: int, choice: str | None
    ) -> None:
        """Cross one cell and everything it sets off; refuses a choice that no reward used."""
        if self._plain and choice is None:
            player.rows[row] |= 1 << position
            if position in self.sheet.lock_positions[row]:
                player.rows[row] |= player.lock_bits[row]
                self._locking |= 1 << row
            return
        ctx = _Choice(choice)
        self._cross(player, row, position, ctx)
        if choice is not None and not ctx.used:
            raise Refused(
                f"{player.name}'s mark earns no reward that needs a choice of row, "
                f"so the choice {choice!r} does not belong on it"
            )

    def _cross(self, player: PlayerSheet, row: int, position: int, ctx: _Choice) -> None:
        player.rows[row] |= 1 << position
        if position in self.sheet.lock_positions[row]:
            player.rows[row] |= player.lock_bits[row]
            self._locking |= 1 << row
        if position in self._bonus_cells[row]:
            self._bonus_bar_cross(player, ctx)
        reward = self._reward_cells.get((row, position))
        if reward is not None:
            self._earn_reward(player, reward, ctx)

    def _bonus_bar_cross(self, player: PlayerSheet, ctx: _Choice) -> None:
        """Bonus-a: cross the next bonus-bar box, skipping forfeited colours, then its cell."""
        bar = self.sheet.bonus_bar
        box = player.bar_next
        while box < len(bar) and self._closed_for(player, COLOUR_INDEX[bar[box]]):
            box += 1  # a locked colour's boxes are forfeited and skipped
        player.bar_next = box + 1
        if box >= len(bar):
            return
        player.bar_used |= 1 << box
        row = COLOUR_INDEX[bar[box]]
        position = self._next_available(player, row)
        if position is not None:
            self._cross(player, row, position, ctx)

    def _earn_reward(self, player: PlayerSheet, index: int, ctx: _Choice) -> None:
        """Bonus-b: once both cells of a symbol are crossed, grant its reward at once."""
        reward = self.sheet.rewards[index]
        if player.rewards >> index & 1:
            return
        if not all(player.rows[r] >> p & 1 for r, p in reward.cells):
            return
        player.rewards |= 1 << index
        if reward.effect == "two-crosses-in-fewest-row":
            row = self._fewest_row_choice(player, ctx)
            self._bonus_crosses(player, (row, row), ctx)
        elif reward.effect == "one-cross-in-every-row":
            self._bonus_crosses(player, range(len(COLOURS)), ctx)

    def _bonus_crosses(self, player: PlayerSheet, rows: Iterable[int], ctx: _Choice) -> None:
        """Cross the next available cell of each row in turn; one with none is forfeited."""
        for row in rows:
            position = self._next_available(player, row)
            if position is not None:
                self._cross(player, row, position, ctx)

    def _fewest_row_choice(self, player: PlayerSheet, ctx: _Choice) -> int:
        fewest = player.fewest_crosses_rows()
        if len(fewest) == 1:
            return fewest[0]  # no tie, so no choice: a choice on the mark is left unused, refused
        names = _join([COLOURS[r] for r in fewest])
        if ctx.row is None:
            raise ChoiceNeeded(
                f"{player.name} earns two crosses in the row with the fewest crosses, and "
                f'{names} tie: the mark must say which with "choice": {{"row": ...}}',
                fewest,
            )
        row = self._row_of(ctx.row)
        if row not in fewest:
            raise Refused(
                f"{player.name} cannot take the two bonus crosses in {ctx.row}: they go in the "
                f"row with the fewest crosses ({names}, with {player.crosses(fewest[0])})"
            )
        ctx.used = True
        return row

    # ---- the rules of a single cross -----------------------------------------------------

    def _closed_for(self, player: PlayerSheet, row: int) -> bool:
        """Locked for this player: locked at the table, or locked by this player just now."""
        return bool(self.closed >> row & 1 or player.rows[row] & player.lock_bits[row])

    def _can_cross(self, player: PlayerSheet, row: int, position: int) -> bool:
        mask = player.rows[row]
        if self.closed >> row & 1 or mask >= 1 << position:
            return False  # locked, or a cell at or right of it is crossed (the lock bit too)
        if position in self.sheet.lock_positions[row]:
            return mask.bit_count() >= self.sheet.lock_threshold
        return True

    def _next_available(self, player: PlayerSheet, row: int) -> int | None:
        """The cell right after the player's last cross in a row, if it can be crossed."""
        position = player.last_position(row) + 1
        if position >= len(self._numbers[row]) or not self._can_cross(player, row, position):
            return None
        return position

    def _check_crossable(self, player: PlayerSheet, row: int, position: int) -> None:
        colour = COLOURS[row]
        cell = self._cell_name(row, position)
        if self._closed_for(player, row):
            raise Refused(f"{player.name} cannot cross {cell}: the {colour} row is locked")
        last = player.last_position(row)
        if position == last:
            raise Refused(f"{player.name} has already crossed {cell}")
        if position < last:
            raise Refused(
                f"{player.name} cannot cross {cell}: {colour} is already crossed up to "
                f"{self._numbers[row][last]}, and numbers are crossed from left to right"
            )
        crosses = player.crosses(row)
        if position in self.sheet.lock_positions[row] and crosses < self.sheet.lock_threshold:
            raise Refused(
                f"{player.name} cannot lock {colour}: needs {self.sheet.lock_threshold} crosses "
                f"in {colour} first, has {crosses}"
            )

    def _check_action1_mark(self, player: PlayerSheet, mark: Mark) -> tuple[int, int]:
        row = COLOUR_INDEX.get(mark.row)
        if row is None:
            row = self._row_of(mark.row)  # raises: no such row
        if mark.lucky:
            return self._check_lucky_cross(player, row, mark)
        if mark.number != self.white_sum:
            white1, white2 = cast(Roll, self.dice).white
            raise Refused(
                f"{player.name} cannot cross {mark.row} {mark.number} in action 1: the white dice "
                f"show {white1} and {white2}, so the number to cross is {self.white_sum}"
            )
        position = self._position_of(row, mark.number)
        if not self._can_cross(player, row, position):
            self._check_crossable(player, row, position)  # raises with the reason
        return row, position

    def _check_action2_mark(self, player: PlayerSheet, mark: Mark) -> tuple[int, int]:
        row = self._row_of(mark.row)
        if mark.lucky:
            raise Refused(f"{player.name} cannot make a lucky cross in action 2: only in action 1")
        position = self._position_of(row, mark.number)
        if self._closed_for(player, row):
            raise Refused(
                f"{player.name} cannot cross {self._cell_name(row, position)}: "
                f"the {mark.row} row is locked"
            )
        self._check_die_sum(player, row, position)
        self._check_crossable(player, row, position)
        return row, position

    def _check_die_sum(self, player: PlayerSheet, row: int, position: int) -> None:
        colour = self.sheet.cell_colour(row, position)
        cell = self._cell_name(row, position)
        if self.closed >> COLOUR_INDEX[colour] & 1:
            raise Refused(
                f"{player.name} cannot cross {cell} in action 2: the {colour} die is out of "
                f"the game ({colour} is locked)"
            )
        dice = self.dice
        assert dice is not None  # rolled: this is a mark in action 2
        face = dice.colours[colour]
        white1, white2 = dice.white
        number = self._numbers[row][position]
        if number not in (white1 + face, white2 + face):
            sums = _join(sorted({str(white1 + face), str(white2 + face)}), "or")
            raise Refused(
                f"{player.name} cannot cross {cell} in action 2: a white die plus the {colour} "
                f"die makes {sums} (whites {white1} and {white2}, {colour} {face})"
            )

    def _check_lucky_cross(self, player: PlayerSheet, row: int, mark: Mark) -> tuple[int, int]:
        name, total = player.name, self.white_sum
        if not self.sheet.has_lucky_numbers:
            raise Refused(f"{self.sheet.name} sheets have no lucky numbers")
        if total not in player.lucky:
            raise Refused(
                f"{name} cannot make a lucky cross: the white sum {total} is not one of "
                f"{name}'s lucky numbers ({_join([str(n) for n in player.lucky])})"
            )
        fewest = player.fewest_crosses_rows()
        if row not in fewest:
            raise Refused(
                f"{name} cannot make a lucky cross in {mark.row}: it has {player.crosses(row)} "
                f"crosses, and a lucky cross goes in a row with the fewest crosses "
                f"({_join([COLOURS[r] for r in fewest])}, with {player.crosses(fewest[0])})"
            )
        position = self._next_available(player, row)
        if position is None:
            why = self._no_cell_words(player, row)
            raise Refused(f"{name} cannot make a lucky cross in {mark.row}: {why}")
        number = self._numbers[row][position]
        if mark.number != number:
            raise Refused(
                f"{name}'s lucky cross in {mark.row} must be on {mark.row} {number}, the next "
                f"available number, not {mark.number}"
            )
        return row, position

    def _no_cell_words(self, player: PlayerSheet, row: int) -> str:
        if self._closed_for(player, row):
            return f"the {COLOURS[row]} row is locked"
        if player.last_position(row) + 1 >= len(self._numbers[row]):
            return f"the {COLOURS[row]} row is full"
        return (
            f"its next number locks the row, which needs {self.sheet.lock_threshold} crosses "
            f"in {COLOURS[row]} first, and {player.name} has {player.crosses(row)}"
        )

    # ---- checks on who and what ------------------------------------------------------------

    def _seat_of(self, name: str) -> int:
        seat = self.seat.get(name)
        if seat is None:
            names = _join(list(self.seat))
            raise Refused(f"there is no player named {name!r} in this game (players: {names})")
        return seat

    def _row_of(self, name: object) -> int:
        row = COLOUR_INDEX.get(name) if isinstance(name, str) else None
        if row is None:
            raise Refused(f"there is no row {name!r}; rows are red, yellow, green and blue")
        return row

    def _position_of(self, row: int, number: object) -> int:
        position = self.sheet.positions[row].get(number) if type(number) is int else None
        if position is None:
            raise Refused(f"the {COLOURS[row]} row has no number {number!r}")
        return position

    def _cell_name(self, row: int, position: int) -> str:
        number = self._numbers[row][position]
        if self._mixed:
            return f"{number} in the {COLOURS[row]} row"
        return f"{COLOURS[row]} {number}"

    def _check_undecided(self, seat: int) -> None:
        if seat in self.decisions:
            name = self.players[seat].name
            done = "passed" if self.decisions[seat] is None else "marked"
            raise Refused(
                f"{name} has already {done} in action 1 of this turn (undo takes it back)"
            )

    def _check_active(self, seat: int, what: str) -> None:
        if seat != self.active:
            raise Refused(
                f"{self.players[seat].name} cannot {what} in action 2: only the active player, "
                f"{self.active_name}, may"
            )

    def _check_dice(self, roll: Roll) -> None:
        """Both white dice and exactly the colour dice in play, each showing a face."""
        faces = self.sheet.dice_faces
        white = roll.white
        in_play = roll.colours.keys() == self._in_play.keys()
        if in_play and type(white) in (tuple, list) and len(white) == 2:
            for face in (*white, *roll.colours.values()):
                if type(face) is not int or not 1 <= face <= faces:
                    break
            else:
                return
        self._explain_bad_dice(roll)

    def _explain_bad_dice(self, roll: Roll) -> None:
        faces = self.sheet.dice_faces
        white = roll.white
        if not isinstance(white, (tuple, list)) or len(white) != 2:
            raise Refused("a roll needs both white dice, as a list of two faces")
        in_play = self.dice_in_play()
        for colour in in_play:
            if colour not in roll.colours:
                raise Refused(f"the roll has no {colour} die, but {colour} is still in play")
        for colour in roll.colours:
            if colour not in in_play:
                why = "its row is locked" if colour in COLOURS else "there is no such die"
                raise Refused(f"the roll has a {colour} die, but {why}")
        for name, face in [("white", w) for w in white] + list(roll.colours.items()):
            if type(face) is not int or not 1 <= face <= faces:
                raise Refused(f"the {name} die shows {face!r}, but dice here show 1 to {faces}")

    def _waiting_words(self) -> str:
        if self.phase is ACTION1:
            return f"action 1 is still open, waiting for {_join(self.waiting_for())}"
        return f"waiting for {self.active_name} to decide action 2"


def _row_and_position(cell: Cell) -> tuple[int, int]:
    return cell[1], cell[2]


_END_WORDS = {"locks": "two rows are locked", "penalties": "a player took a fourth penalty"}


def _join(words: list[str], last: str = "and") -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def _check_players(players: Sequence[str]) -> None:
    if not isinstance(players, (list, tuple)) or not 1 <= len(players) <= MAX_PLAYERS:
        raise Refused(f"a game needs 1 to {MAX_PLAYERS} players, in seat order")
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise Refused(f"player names must be non-empty text, not {name!r}")
        if players.count(name) > 1:
            raise Refused(f"two players are named {name!r}; names must differ")


def _lucky_numbers_of(
    sheet: Sheet, players: Sequence[str], lucky: Mapping[str, Sequence[int]] | None
) -> dict[str, tuple[int, ...]]:
    """Longo: each player's distinct lucky numbers, in range; other sheets have none."""
    if not sheet.has_lucky_numbers:
        if lucky:
            raise Refused(f"{sheet.name} sheets have no lucky numbers")
        return {}
    low, high = sheet.lucky_range
    count = sheet.lucky_numbers
    if not isinstance(lucky, Mapping):
        raise Refused(f"a {sheet.name} game needs each player's {count} lucky numbers")
    for name in lucky:
        if name not in players:
            raise Refused(f"lucky numbers are given for {name!r}, who is not a player")
    result = {}
    for name in players:
        numbers = lucky.get(name)
        if (
            not isinstance(numbers, (list, tuple))
            or len(numbers) != count
            or any(type(n) is not int or not low <= n <= high for n in numbers)
            or len(set(numbers)) != count
        ):
            raise Refused(
                f"{name} needs {count} different lucky numbers from {low} to {high}, "
                f"not {numbers!r}"
            )
        result[name] = tuple(numbers)
    return result
