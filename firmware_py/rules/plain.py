"""The playouts' fast path: on sheets where a cross sets nothing else off (classic, Longo,
Mixx A and B, Big Points), a whole game played in one loop over integers.

Each player's sheet is held as its row masks (as `PlayerSheet` keeps them) and its open cells:
the cells the rules let the player cross on the right roll, as the bits of one integer
(`CellBits`). The legal marks for a roll are then one AND away, and a decision one pick.

How it is tied to the referee:
- its tables are built from the engine's own (`SheetTables`): the cells and their lock flags,
  which white sum and which colour die reaches each, the lock bits; the dice are drawn as
  draws.py says, for both ways of playing out;
- it reads the game's public state and hands the end it reaches back with `Game.end_playout`;
- tests/rules/test_rules_rollout.py plays random games on every sheet in sheets/ both here
  and through `Game.apply`, and checks, decision by decision, that the options offered and the
  state agree (the crosses, locks, penalties, scores, whose turn, the end).
bench/engine.py measures it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from sheets import COLOURS

from .draws import RANDOM_BITS, Bits, dice
from .events import Event, Mark, Pass, Roll
from .plain_boxes import BoxBits
from .plain_links import LinkBits
from .plain_seconds import SecondBits
from .state import (
    ACTION1,
    ACTION2,
    COLOUR_INDEX,
    ROLL,
    EndReason,
    Phase,
    close_rows,
    dice_in_play,
)
from .tables import Cell, SheetTables

if TYPE_CHECKING:
    from .game import Game
    from .rollout import Watch

CellEntry = tuple[int, int, int, bool, int, int, bool]  # a `CellBits.cell` entry
SwapEntry = tuple[int, int, int, bool, int, int, bool, int]  # X-Change: and the field's bit
Options = tuple[CellEntry | SwapEntry | None, ...]  # a decision's cells in order, then the pass


class CellBits:
    """A sheet's cells as the bits of one integer: row by row (red first), left to right within
    a row, which is the order `Game.legal_marks` lists marks in. A player's open cells are then
    one integer, and the legal marks for a roll are one AND away. Built once per sheet from its
    `SheetTables`."""

    __slots__ = (
        "boxes",
        "by_die_and_roll",
        "by_sum",
        "cell",
        "choices",
        "closing",
        "links",
        "lock_bits",
        "lock_cells",
        "lucky_cell",
        "names",
        "numbers",
        "offsets",
        "row_bits",
        "seconds",
        "swap_cells",
        "swap_reach",
    )

    def __init__(self, tables: SheetTables) -> None:
        self.lock_bits = tables.lock_bits
        lengths = [lock_bit.bit_length() - 1 for lock_bit in tables.lock_bits]  # lock: past the end
        self.offsets = offsets = [sum(lengths[:row]) for row in range(len(lengths))]
        self.row_bits = [(1 << length) - 1 << offsets[r] for r, length in enumerate(lengths)]
        self.lock_cells = [0] * len(lengths)
        for _, row, position, _, locks in tables.cells:
            self.lock_cells[row] |= locks << offsets[row] + position
        self.by_sum = [self.bits(cells) for cells in tables.by_sum]
        # Per colour die, by (pick of the white pair) * faces + its face - 1: the cells a white
        # die plus that die reach.
        faces = tables.sheet.dice_faces
        self.by_die_and_roll = [
            [
                self.bits(by_sum[white1 + face] + by_sum[white2 + face])
                for white1, white2 in dice(faces).pairs
                for face in range(1, faces + 1)
            ]
            for by_sum in tables.by_die_and_sum
        ]
        self.cell = {1 << offsets[c[1]] + c[2]: self._entry(c, False) for c in tables.cells}
        self.lucky_cell = {1 << offsets[c[1]] + c[2]: self._entry(c, True) for c in tables.cells}
        sheet = tables.sheet
        self.boxes = BoxBits(tables, offsets) if sheet.bonus_rows else None
        if self.boxes is not None:  # Big Points: the boxes are cells too, after the rows'
            self._add_boxes(self.boxes)
        # Qwixx Double: second crosses, rows 4 to 7 after the colour rows (plain_seconds.py)
        self.seconds = SecondBits(tables, self) if sheet.has_doubles else None
        # Per colour row, the open cells its closing takes away (its second cells too)
        seconds = self.seconds
        self.closing = [
            self.row_bits[row] if seconds is None else seconds.closing(row)
            for row in range(len(COLOURS))
        ]
        self.choices = self._choices()
        # Connected, the Chain: the cells each pad joins (plain_links.py)
        self.links = LinkBits(tables, self) if sheet.has_links else None
        self.swap_reach: dict[int, tuple[tuple[int, int], ...]] | None = None
        self.swap_cells: list[dict[int, SwapEntry]] = []
        if sheet.swaps:
            self.swap_reach, self.swap_cells = self._swaps(tables)
        self.names = sheet.row_names
        self.numbers = [sheet.row_numbers(row) for row in range(len(sheet.row_names))]
        if seconds is not None:  # a second cross names its cell as a first cross does
            self.names = (*self.names, *COLOURS)
            self.numbers += [row.numbers for row in sheet.rows]

    def _add_boxes(self, boxes: BoxBits) -> None:
        """Big Points: each bonus box a cell of its number for the white sum, with its entry
        (crossing it passes the boxes left of it; it never locks)."""
        for number, bits in boxes.by_number.items():
            self.by_sum[number] |= bits
        for bit, row, position, row_bit in boxes.placed:
            passed = self.row_bits[row] & (1 << self.offsets[row] + position + 1) - 1
            self.cell[bit] = (row, position, row_bit, False, ~passed, 0, False)

    def _swaps(
        self, tables: SheetTables
    ) -> tuple[dict[int, tuple[tuple[int, int], ...]], list[dict[int, SwapEntry]]]:
        """X-Change: per white sum, each swap field that trades it (its index, the cells of
        the number it trades for); per field, each cell's entry with the field's bit."""
        reach: dict[int, tuple[tuple[int, int], ...]] = {}
        for k, (first, second) in enumerate(tables.sheet.swaps):
            for rolled, other in ((first, second), (second, first)):
                reach[rolled] = (*reach.get(rolled, ()), (k, self.bits(tables.by_sum[other])))
        cells = [
            {bit: (*entry, 1 << k) for bit, entry in self.cell.items()}
            for k in range(len(tables.sheet.swaps))
        ]
        return reach, cells

    def bits(self, cells: Iterable[Cell]) -> int:
        """The bits of some cells of the sheet."""
        mask = 0
        for _, row, position, _, _ in cells:
            mask |= 1 << self.offsets[row] + position
        return mask

    def _entry(self, cell: Cell, lucky: bool) -> CellEntry:
        """A cell's row and position, its bit in the row mask, whether it locks, the open cells
        crossing it leaves (an AND mask), the lock cells right of it, and whether crossing it
        is a lucky cross (Longo: the same cell, but another mark in the journal)."""
        _, row, position, bit, locks = cell
        passed = self.row_bits[row] & (1 << self.offsets[row] + position + 1) - 1
        if locks:
            passed = self.row_bits[row]  # locked for this player: the whole row
        return (row, position, bit, locks, ~passed, self.lock_cells[row] & ~passed, lucky)

    def _choices(self) -> dict[int, Options]:
        """Every set of legal cells one white sum can leave, to the cells' entries in order and
        then None, the pass: a decision in action 1 is one lookup and one pick."""
        choices: dict[int, Options] = {}
        for cells in self.by_sum:
            cell_list = [1 << b for b in range(cells.bit_length()) if cells >> b & 1]
            for subset in range(1 << len(cell_list)):
                chosen = [c for k, c in enumerate(cell_list) if subset >> k & 1]
                choices[sum(chosen)] = (*(self.cell[c] for c in chosen), None)
        return choices

    def open_cells(self, rows: Iterable[int], closed: int, threshold: int) -> int:
        """The cells a sheet may cross on the right roll: right of the last cross, in a row that
        is neither closed nor locked by the player, and a lock cell only after enough crosses."""
        if self.seconds is not None:
            return self.seconds.open_cells(rows, closed, threshold)
        cells = 0
        for row, mask in enumerate(rows):
            if closed >> row & 1 or mask & self.lock_bits[row]:
                continue
            right = self.row_bits[row] & ~((1 << self.offsets[row] + mask.bit_length()) - 1)
            if mask.bit_count() < threshold:
                right &= ~self.lock_cells[row]
            cells |= right
        if self.boxes is not None:  # Big Points: a box only once a cell beside it is crossed
            cells &= ~self.boxes.every_box | self.boxes.beside_crossed(list(rows))
        return cells

    def with_swaps(self, used: int, open_cells: int, white_sum: int, options: Options) -> Options:
        """X-Change: the white sum's cells (`options` but its last, the pass), then the
        crosses each usable swap field trades the sum for, as `Game.legal_marks` lists them
        (field by field, top row first), then the pass."""
        assert self.swap_reach is not None  # (only sheets with swap fields)
        swapped: list[SwapEntry] = []
        first = used.bit_length()
        for k, cells in self.swap_reach.get(white_sum, ()):
            if k < first:
                continue
            cells &= open_cells
            while cells:
                cell = cells & -cells
                cells ^= cell
                swapped.append(self.swap_cells[k][cell])
        return (*options[:-1], *swapped, None) if swapped else options

    def entries(self, cells: int) -> list[CellEntry]:
        """The entries of some cells, in sheet order."""
        return [self.cell[1 << b] for b in range(cells.bit_length()) if cells >> b & 1]


def play_plain(game: Game, bits: Bits, events: list[Event] | None, watch: Watch | None) -> int:
    """`play_out` on a plain sheet: the game played to its end and handed back with
    `Game.end_playout`; returns the number of rolls."""
    record = None
    if events is not None or watch is not None:
        record = _Record(game.tables.derived(CellBits), game, events, watch)
    return _play(game, bits, record)


def _play(game: Game, bits: Bits, record: _Record | None) -> int:
    """The loop of the fast path, turn after turn until the game ends; returns the number of
    rolls. Kept whole, in one function over local variables, past the 60 lines a function is
    held to here: split into a function per action (same games), a 4-player playout took 6.6 %
    more instructions on classic and 4.4 % on Longo (callgrind, 500 playouts each)."""
    cell_bits = game.tables.derived(CellBits)
    by_sum, by_die_and_roll, cell_of = cell_bits.by_sum, cell_bits.by_die_and_roll, cell_bits.cell
    boxes = cell_bits.boxes  # Big Points' bonus boxes, else None
    cross = _cross if boxes is None else boxes.cross()
    if cell_bits.seconds is not None:  # Qwixx Double
        cross = cell_bits.seconds.cross()
    boxes_by_die = None if boxes is None else boxes.by_die
    choices, lock_bits, sheet = cell_bits.choices, cell_bits.lock_bits, game.sheet
    threshold, penalties_to_end = sheet.lock_threshold, sheet.penalties_to_end
    faces = sheet.dice_faces
    pairs, colour_rolls = dice(faces).pairs, dice(faces).colours
    pair_count, random_bits = len(pairs), RANDOM_BITS
    masks = [list(player.rows) for player in game.players]
    penalties = [player.penalties for player in game.players]
    lucky = [player.lucky for player in game.players]
    swaps = [player.swaps for player in game.players] if cell_bits.swap_reach else None
    if record is not None:
        record.swaps = swaps
    opens = [cell_bits.open_cells(rows, game.closed, threshold) for rows in masks]
    has_extras, seats = any(lucky) or swaps is not None, range(len(masks))
    closed, locking, active, phase = game.closed, game.locking, game.active, game.phase
    locked = list(game.locked)
    if cell_bits.links is not None:  # Connected, the Chain: the cross a pad joins to a cell
        cross = cell_bits.links.cross(cross, locked)
    in_play = [row for row in range(len(COLOURS)) if not closed >> row & 1]
    rolls = 0
    undecided: Iterable[int]
    if phase is not ROLL:  # picked up mid-turn: the roll on the table and who has decided
        pair, white1, white2, colours, colour_faces, undecided, active_crossed = _pick_up(game)
    while True:
        if phase is ROLL:
            pair = bits(random_bits) * pair_count >> random_bits
            white1, white2 = pairs[pair]
            colours = in_play
            roll_of_colours = colour_rolls[len(colours)]
            colour_faces = roll_of_colours[bits(random_bits) * len(roll_of_colours) >> random_bits]
            rolls += 1
            if record is not None:
                record.rolled(white1, white2, colours, colour_faces)
            undecided = seats
            active_crossed = False
            phase = ACTION1
        if phase is ACTION1:
            reach = by_sum[white1 + white2]
            for seat in undecided:
                options = choices[opens[seat] & reach]  # legal cells, then None: the pass
                if has_extras:  # Longo's lucky crosses, X-Change's swapped ones
                    if swaps is None:
                        if white1 + white2 in lucky[seat]:
                            options = _with_lucky(cell_bits, masks[seat], opens[seat], options)
                    else:
                        total = white1 + white2
                        options = cell_bits.with_swaps(swaps[seat], opens[seat], total, options)
                if record is not None:
                    state = (masks, penalties, ACTION1, active, locked, closed, locking)
                    record.deciding(seat, options, *state)
                if len(options) > 1:
                    entry = options[bits(random_bits) * len(options) >> random_bits]
                else:
                    entry = None  # nothing to cross: a pass, with no draw
                if entry is None:
                    if record is not None:
                        record.passed(seat)
                    continue
                if record is not None:
                    record.marked(seat, entry)
                if swaps is not None and len(entry) == 8:  # X-Change: it uses its field
                    swaps[seat] |= entry[7]
                    entry = entry[:7]
                # (a swapped cross's entry is cut to the cell's here: no test on other sheets)
                cross(masks[seat], opens, seat, entry, lock_bits, threshold)  # type: ignore[arg-type]
                if entry[3]:  # a lock: the row closes for everyone when action 1 ends
                    locking |= 1 << entry[0]
                if seat == active:
                    active_crossed = True
            if locking:
                closed = _close_for_all(locked, cell_bits, opens, closed, locking)
                locking = 0
                in_play = [row for row in in_play if not closed >> row & 1]
                if len(locked) >= sheet.locks_to_end:
                    reason = EndReason.LOCKS
                    break
            phase = ACTION2
        reach = 0  # every cell a white die and a colour die still in the game make
        base = pair * faces - 1
        if boxes_by_die is None:
            for die, face in zip(colours, colour_faces, strict=True):
                if not closed >> die & 1:
                    reach |= by_die_and_roll[die][base + face]
        else:  # Big Points: and the boxes beside the die's row where its own cell is crossed
            rows = masks[active]
            for die, face in zip(colours, colour_faces, strict=True):
                if not closed >> die & 1:
                    by_roll, cells, shift = boxes_by_die[die]
                    near = (rows[die] & cells) << shift
                    reach |= by_die_and_roll[die][base + face] | by_roll[base + face] & near
        legal = opens[active] & reach
        if record is not None:
            state = (masks, penalties, ACTION2, active, locked, closed, locking)
            record.deciding(active, (*cell_bits.entries(legal), None), *state)
        if legal:
            count = legal.bit_count()
            choice = bits(random_bits) * (count + 1) >> random_bits
            while choice:
                legal &= legal - 1
                choice -= 1
            cell = legal & -legal
        else:
            cell = 0
        if not cell:
            if record is not None:
                record.passed(active)
            if not active_crossed:
                penalties[active] += 1  # crossed nothing in either action
                if penalties[active] >= penalties_to_end:
                    reason = EndReason.PENALTIES
                    break
        else:
            entry = cell_of[cell]
            cross(masks[active], opens, active, entry, lock_bits, threshold)
            if record is not None:
                record.marked(active, entry)
            if entry[3]:  # a lock in action 2 closes its row at once
                closed = _close_for_all(locked, cell_bits, opens, closed, 1 << entry[0])
                in_play = [row for row in in_play if not closed >> row & 1]
                if len(locked) >= sheet.locks_to_end:
                    reason = EndReason.LOCKS
                    break
        active = active + 1 if active + 1 < len(masks) else 0
        phase = ROLL
    last_roll = _roll_event(white1, white2, colours, colour_faces)
    game.end_playout(masks, penalties, active, last_roll, locked, closed, reason)
    if swaps is not None:  # X-Change: the fields each seat used, handed back with the end
        for player, used in zip(game.players, swaps, strict=True):
            player.swaps = used
    return rolls


def _pick_up(game: Game) -> tuple[int, int, int, list[int], tuple[int, ...], list[int], bool]:
    """A game picked up mid-turn: the roll on the table as the loop holds it (the pick of the
    white pair, the whites, the colour dice and their faces), the seats yet to decide action
    1, and whether the active player has crossed in it."""
    roll = game.dice
    assert roll is not None  # rolled: the phase is past ROLL
    white1, white2 = roll.white
    pair = (white1 - 1) * game.sheet.dice_faces + white2 - 1
    colours = [COLOUR_INDEX[colour] for colour in roll.colours]
    undecided = [seat for seat in range(len(game.players)) if seat not in game.decisions]
    active_crossed = game.decisions.get(game.active) is not None
    return pair, white1, white2, colours, tuple(roll.colours.values()), undecided, active_crossed


def _cross(
    rows: list[int],
    opens: list[int],
    seat: int,
    entry: CellEntry,
    lock_bits: tuple[int, ...],
    threshold: int,
) -> None:
    """Cross the cell of a `CellBits.cell` entry on `seat`'s sheet: its bit (and, for a lock
    cell, the lock cross) in the row mask; the cells it passes (the whole row, once locked) out
    of the seat's open cells, and the row's lock cells in, once the row has the crosses."""
    row, _, bit, locks, keep, lock_after, _ = entry
    rows[row] |= bit
    if locks:
        rows[row] |= lock_bits[row]
    elif lock_after and rows[row].bit_count() >= threshold:
        opens[seat] = opens[seat] & keep | lock_after
        return
    opens[seat] &= keep


def _with_lucky(cell_bits: CellBits, rows: list[int], open_cells: int, options: Options) -> Options:
    """Longo, a lucky white sum: the white sum's cells (`options` but its last, the pass), then
    the lucky crosses (the next open cell of each row with the fewest crosses, as
    `Game.legal_marks` lists them), then the pass."""
    counts = [mask.bit_count() for mask in rows]
    fewest = min(counts)
    lucky: list[CellEntry] = []
    for row, mask in enumerate(rows):
        if counts[row] == fewest:
            cell = 1 << cell_bits.offsets[row] + (mask & ~cell_bits.lock_bits[row]).bit_length()
            if cell & open_cells & cell_bits.row_bits[row]:  # in the row (not past its end), open
                lucky.append(cell_bits.lucky_cell[cell])
    return (*options[:-1], *lucky, None)


def _close_for_all(
    locked: list[int], cell_bits: CellBits, opens: list[int], closed: int, rows: int
) -> int:
    """The end of an action: its locks close their rows for everyone (as at the table), and
    their cells leave every player's open cells."""
    for row in range(len(COLOURS)):
        if rows >> row & 1:
            keep = ~cell_bits.closing[row]
            for seat, cells in enumerate(opens):
                opens[seat] = cells & keep
    return close_rows(locked, closed, rows)


def _roll_event(white1: int, white2: int, colours: list[int], faces: tuple[int, ...]) -> Roll:
    return Roll(
        (white1, white2), {COLOURS[die]: face for die, face in zip(colours, faces, strict=True)}
    )


class _Record:
    """What a playout shows when asked: the events it makes (`events`), and each decision's
    options and the state before it (`watch`). Built only then, so the loop pays one test."""

    def __init__(
        self, cell_bits: CellBits, game: Game, events: list[Event] | None, watch: Watch | None
    ) -> None:
        self.cell_bits, self.events, self.watch = cell_bits, events, watch
        self.start = game.state()
        self.names = [player.name for player in game.players]
        self.roll = game.dice
        self.swaps: list[int] | None = None  # X-Change: the loop's used fields, by seat

    def rolled(self, white1: int, white2: int, colours: list[int], faces: tuple[int, ...]) -> None:
        self.roll = _roll_event(white1, white2, colours, faces)
        if self.events is not None:
            self.events.append(self.roll)

    def deciding(
        self,
        seat: int,
        options: Options,
        masks: list[list[int]],
        penalties: list[int],
        phase: Phase,
        active: int,
        locked: list[int],
        closed: int,
        locking: int,
    ) -> None:
        """Show the watch a decision about to be made: its options and the state."""
        if self.watch is None:
            return
        marks = [self._mark(seat, entry) for entry in options if entry is not None]
        swaps = self.swaps or [snapshot[5] for snapshot in self.start.players]
        sheets = tuple(
            (tuple(rows), count, *snapshot[2:5], used)
            for rows, count, snapshot, used in zip(
                masks, penalties, self.start.players, swaps, strict=True
            )
        )
        roll = self.roll
        assert roll is not None  # a decision follows a roll
        state = self.start._replace(
            players=sheets,
            phase=phase,
            active=active,
            dice=roll,
            white_sum=roll.white[0] + roll.white[1],
            locked=tuple(locked),
            closed=closed,
            decisions=(),  # not kept by the fast path
            locking=locking,
            in_play=dice_in_play(closed),
        )
        self.watch(seat, marks, state)

    def passed(self, seat: int) -> None:
        if self.events is not None:
            self.events.append(Pass(self.names[seat]))

    def marked(self, seat: int, entry: CellEntry | SwapEntry) -> None:
        if self.events is not None:
            self.events.append(self._mark(seat, entry))

    def _mark(self, seat: int, entry: CellEntry | SwapEntry) -> Mark:
        row, position, lucky = entry[0], entry[1], entry[6]
        name, number = self.cell_bits.names[row], self.cell_bits.numbers[row][position]
        if len(entry) == 8:  # X-Change: the field's bit, to its number (1 = leftmost)
            return Mark(self.names[seat], name, number, swap=entry[7].bit_length())
        return Mark(self.names[seat], name, number, lucky)
