"""Random playouts: a game played to its end by uniformly random legal players, fast.

Computer players that look ahead simulate thousands of games per decision, and a simulated game
needs no referee checks: every decision is drawn from the legal moves, so it cannot be illegal.
`play_out` therefore skips building and checking events, but keeps every rule, and makes the
same choices a player picking from `Game.legal_marks` would, in the same order:
- sheets where a cross sets nothing else off (classic, Longo, Mixx A and B) are played in one
  loop over local copies of the sheets, each player's open cells one integer (the fast path);
- bonus sheets, where a cross can set off more crosses, are played by the referee itself,
  its legal moves applied with `Game.apply_unchecked` (the referee's steps without its checks).
Hand it a list and it records the events it made, so a test can replay them through
`Game.apply` and check that the referee accepts each one and ends in the same state.

Randomness comes as 30-bit numbers (`rng.getrandbits(30)`: one digit of a Python int, so the
arithmetic stays on its fast path), each turned into a choice among n by `bits * n >> 30`
(uniform to within n / 2**30). One number picks a decision, one both white dice and one all the
colour dice in play; a player with nothing to cross passes without a draw.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable
from typing import cast

from sheets import COLOURS

from .events import Event, Mark, Pass, Roll
from .game import ACTION1, ACTION2, OVER, ROLL, Game
from .state import COLOUR_INDEX, EndReason
from .tables import Cell, SheetTables

RANDOM_BITS = 30
CellEntry = tuple[int, int, int, bool, int, int]  # a `_CellBits.cell` entry


def play_out(game: Game, rng: random.Random, events: list[Event] | None = None) -> int:
    """Play `game` on to its end and return the number of rolls made.

    `rng` gives the random bits (`random.Random(seed)`, or `secrets.SystemRandom()`). Each
    decision is uniform among the player's legal marks and passing, in `legal_marks` order;
    `events`, when given, receives every event in the order a table would journal it.
    """
    if game.phase is OVER:
        return 0
    if game.plain:
        return _play_plain(game, rng.getrandbits, events)
    return _play_through_game(game, rng.getrandbits, events)


def _pick(bits: Callable[[int], int], count: int) -> int:
    """A number from 0 to count - 1, each (to within count / 2**30) equally likely."""
    return bits(RANDOM_BITS) * count >> RANDOM_BITS


class _Dice:
    """Every roll of the white pair and of k colour dice, by pick, for dice of one size."""

    def __init__(self, faces: int) -> None:
        self.faces = faces
        self.pairs = cast(list[tuple[int, int]], _digit_tuples(faces, 2))
        self.colours = [_digit_tuples(faces, k) for k in range(len(COLOURS) + 1)]

    def roll(
        self, bits: Callable[[int], int], colours: int
    ) -> tuple[tuple[int, int], tuple[int, ...]]:
        """White dice and `colours` colour dice: the faces are the base-`faces` digits of one
        pick for the whites and one for the colours, most significant first."""
        white = self.pairs[_pick(bits, len(self.pairs))]
        rolls = self.colours[colours]
        return white, rolls[_pick(bits, len(rolls))]


@functools.cache
def _dice(faces: int) -> _Dice:
    return _Dice(faces)


def _digit_tuples(faces: int, digits: int) -> list[tuple[int, ...]]:
    rolls: list[tuple[int, ...]] = [()]
    for _ in range(digits):
        rolls = [(*roll, face) for roll in rolls for face in range(1, faces + 1)]
    return rolls


# ---- bonus sheets: through the referee's own code, without its checks ----------------------------


def _play_through_game(game: Game, bits: Callable[[int], int], events: list[Event] | None) -> int:
    """`play_out` by the referee's own legal moves and steps (`Game.apply_unchecked`)."""
    players = game.players
    passes = [Pass(player.name) for player in players]
    rolls = 0
    while game.phase is not OVER:
        if game.phase is ROLL:
            in_play = game.dice_in_play()
            white, faces = _dice(game.sheet.dice_faces).roll(bits, len(in_play))
            roll = Roll(white, dict(zip(in_play, faces, strict=True)))
            game.apply_unchecked(roll)
            if events is not None:
                events.append(roll)
            rolls += 1
        if game.phase is ACTION1:
            for seat in range(len(players)):  # seat order; the rules make it irrelevant
                if seat not in game.decisions:
                    _decide(game, passes[seat], bits, events)
        if game.phase is ACTION2:
            _decide(game, passes[game.active], bits, events)
    return rolls


def _decide(
    game: Game, pass_: Pass, bits: Callable[[int], int], events: list[Event] | None
) -> None:
    """One of the player's legal marks or the pass, each equally likely (the draw written
    out, not `_pick`: a call per decision costs about 1 % of a playout)."""
    marks = game.legal_marks(pass_.player)
    choice = bits(RANDOM_BITS) * (len(marks) + 1) >> RANDOM_BITS if marks else 0
    decision = marks[choice] if choice < len(marks) else pass_
    game.apply_unchecked(decision)  # the last decision of an action ends it
    if events is not None:
        events.append(decision)


# ---- sheets where a cross sets nothing else off: classic, Longo, Mixx A and B ------------------


class _CellBits:
    """A sheet's cells as the bits of one integer: row by row (red first), left to right within
    a row, which is the order `Game.legal_marks` lists marks in. A player's open cells (those
    the rules let them cross on the right roll) are then one integer, and the legal marks for a
    roll are one AND away. Built once per sheet."""

    __slots__ = (
        "by_die_and_roll",
        "by_sum",
        "cell",
        "choices",
        "lock_bits",
        "lock_cells",
        "offsets",
        "row_bits",
    )

    def __init__(self, tables: SheetTables) -> None:
        self.lock_bits = tables.lock_bits
        sheet = tables.sheet
        lengths = [len(row.numbers) for row in sheet.rows]
        self.offsets = offsets = [sum(lengths[:row]) for row in range(len(lengths))]

        def bits(cells: tuple[Cell, ...]) -> int:
            mask = 0
            for _, row, position, _, _ in cells:
                mask |= 1 << offsets[row] + position
            return mask

        self.by_sum = [bits(cells) for cells in tables.by_sum]
        # Per colour die, by (pick of the white pair) * faces + its face - 1: the cells a white
        # die plus that die reach.
        pairs = _dice(sheet.dice_faces).pairs
        self.by_die_and_roll = [
            [
                bits(by_sum[white1 + face] + by_sum[white2 + face])
                for white1, white2 in pairs
                for face in range(1, sheet.dice_faces + 1)
            ]
            for by_sum in tables.by_die_and_sum
        ]
        self.row_bits = [(1 << length) - 1 << offsets[r] for r, length in enumerate(lengths)]
        self.lock_cells = [
            sum(1 << offsets[row] + p for p in sheet.lock_positions[row])
            for row in range(len(lengths))
        ]
        # Per cell bit: its row and position, its bit in the row mask, whether it locks, the
        # open cells crossing it leaves (an AND mask), and the lock cells right of it.
        self.cell: dict[int, CellEntry] = {}
        for row, length in enumerate(lengths):
            for position in range(length):
                locks = position in sheet.lock_positions[row]
                passed = self.row_bits[row] & (1 << offsets[row] + position + 1) - 1
                if locks:
                    passed = self.row_bits[row]  # locked for this player: the whole row
                lock_after = self.lock_cells[row] & ~passed
                entry = (row, position, 1 << position, locks, ~passed, lock_after)
                self.cell[1 << offsets[row] + position] = entry
        # Every set of legal cells one white sum can leave, to the cells' entries in order
        # and then None, the pass: a decision in action 1 is one lookup and one pick.
        self.choices: dict[int, tuple[CellEntry | None, ...]] = {}
        for cells in self.by_sum:
            cell_list = [1 << b for b in range(cells.bit_length()) if cells >> b & 1]
            for subset in range(1 << len(cell_list)):
                chosen = [c for k, c in enumerate(cell_list) if subset >> k & 1]
                self.choices[sum(chosen)] = (*(self.cell[c] for c in chosen), None)

    def open_cells(self, rows: list[int], closed: int, threshold: int) -> int:
        """The cells a sheet may cross on the right roll: right of the last cross, in a row that
        is neither closed nor locked by the player, and a lock cell only after enough crosses."""
        cells = 0
        for row, mask in enumerate(rows):
            if closed >> row & 1 or mask & self.lock_bits[row]:
                continue
            right = self.row_bits[row] & ~((1 << self.offsets[row] + mask.bit_length()) - 1)
            if mask.bit_count() < threshold:
                right &= ~self.lock_cells[row]
            cells |= right
        return cells


def _play_plain(game: Game, bits: Callable[[int], int], events: list[Event] | None) -> int:
    """`play_out` for sheets without bonus boxes: the whole game in one loop over local copies
    of the sheets (row masks, and each player's open cells as one integer of `_CellBits`),
    handed back to `game` at the end (`Game.end_playout`). The rollout tests hold it to
    `Game.apply`, decision for decision; bench/engine.py measures it."""
    cell_bits = game.tables.derived(_CellBits)
    by_sum, by_die_and_roll, cell_of = cell_bits.by_sum, cell_bits.by_die_and_roll, cell_bits.cell
    choices = cell_bits.choices
    sheet, lock_bits = game.sheet, game.tables.lock_bits
    threshold = sheet.lock_threshold
    penalties_to_end = sheet.penalties_to_end
    dice = _dice(sheet.dice_faces)
    pairs, faces, colour_rolls = dice.pairs, dice.faces, dice.colours
    pair_count, random_bits = len(pairs), RANDOM_BITS
    masks = [list(player.rows) for player in game.players]
    opens = [cell_bits.open_cells(rows, game.closed, threshold) for rows in masks]
    penalties = [player.penalties for player in game.players]
    lucky = [player.lucky for player in game.players]
    has_lucky = any(lucky)
    seats = range(len(masks))
    closed, locking, active, phase = game.closed, game.locking, game.active, game.phase
    locked = list(game.locked)
    in_play = [row for row in range(len(COLOURS)) if not closed >> row & 1]
    rolls = 0
    undecided: Iterable[int]
    if phase is not ROLL:  # picked up mid-turn: the roll on the table and who has decided
        roll = game.dice
        assert roll is not None  # rolled: the phase is past ROLL
        white1, white2 = roll.white
        pair = (white1 - 1) * faces + white2 - 1
        colours = [COLOUR_INDEX[colour] for colour in roll.colours]
        colour_faces = tuple(roll.colours.values())
        undecided = [seat for seat in seats if seat not in game.decisions]
        active_crossed = game.decisions.get(active) is not None
    while True:
        if phase is ROLL:
            pair = bits(random_bits) * pair_count >> random_bits
            white1, white2 = pairs[pair]
            colours = in_play
            roll_of_colours = colour_rolls[len(colours)]
            colour_faces = roll_of_colours[bits(random_bits) * len(roll_of_colours) >> random_bits]
            rolls += 1
            if events is not None:
                events.append(_roll_event(white1, white2, colours, colour_faces))
            undecided = seats
            active_crossed = False
            phase = ACTION1
        if phase is ACTION1:
            reach = by_sum[white1 + white2]
            for seat in undecided:
                options = choices[opens[seat] & reach]  # legal cells, then None: the pass
                lucky_cross = False
                if has_lucky and white1 + white2 in lucky[seat]:
                    entry, lucky_cross = _lucky_decision(
                        bits, cell_bits, masks[seat], opens[seat], options
                    )
                elif len(options) > 1:
                    entry = options[bits(random_bits) * len(options) >> random_bits]
                else:
                    entry = None  # nothing to cross: a pass, with no draw
                if entry is None:
                    if events is not None:
                        events.append(Pass(game.players[seat].name))
                    continue
                _cross(masks[seat], opens, seat, entry, lock_bits, threshold)
                if entry[3]:  # a lock: the row closes for everyone when action 1 ends
                    locking |= 1 << entry[0]
                if seat == active:
                    active_crossed = True
                if events is not None:
                    events.append(_mark_event(game, seat, entry, lucky_cross))
            if locking:
                closed = _close_rows(locked, cell_bits, opens, closed, locking)
                locking = 0
                in_play = [row for row in in_play if not closed >> row & 1]
                if len(locked) >= sheet.locks_to_end:
                    reason = EndReason.LOCKS
                    break
            phase = ACTION2
        reach = 0  # every cell a white die and a colour die still in the game make
        base = pair * faces - 1
        for die, face in zip(colours, colour_faces, strict=True):
            if not closed >> die & 1:
                reach |= by_die_and_roll[die][base + face]
        legal = opens[active] & reach
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
            if events is not None:
                events.append(Pass(game.players[active].name))
            if not active_crossed:
                penalties[active] += 1  # crossed nothing in either action
                if penalties[active] >= penalties_to_end:
                    reason = EndReason.PENALTIES
                    break
        else:
            entry = cell_of[cell]
            _cross(masks[active], opens, active, entry, lock_bits, threshold)
            if events is not None:
                events.append(_mark_event(game, active, entry, False))
            if entry[3]:  # a lock in action 2 closes its row at once
                closed = _close_rows(locked, cell_bits, opens, closed, 1 << entry[0])
                in_play = [row for row in in_play if not closed >> row & 1]
                if len(locked) >= sheet.locks_to_end:
                    reason = EndReason.LOCKS
                    break
        active = active + 1 if active + 1 < len(masks) else 0
        phase = ROLL
    last_roll = _roll_event(white1, white2, colours, colour_faces)
    game.end_playout(masks, penalties, active, last_roll, locked, closed, reason)
    return rolls


def _cross(
    rows: list[int],
    opens: list[int],
    seat: int,
    entry: CellEntry,
    lock_bits: tuple[int, ...],
    threshold: int,
) -> None:
    """Cross the cell of a `_CellBits.cell` entry on `seat`'s sheet: its bit (and, for a lock
    cell, the lock cross) in the row mask; the cells it passes (the whole row, once locked) out
    of the seat's open cells, and the row's lock cells in, once the row has the crosses."""
    row, _, bit, locks, keep, lock_after = entry
    rows[row] |= bit
    if locks:
        rows[row] |= lock_bits[row]
    elif lock_after and rows[row].bit_count() >= threshold:
        opens[seat] = opens[seat] & keep | lock_after
        return
    opens[seat] &= keep


def _lucky_decision(
    bits: Callable[[int], int],
    cell_bits: _CellBits,
    rows: list[int],
    open_cells: int,
    options: tuple[CellEntry | None, ...],
) -> tuple[CellEntry | None, bool]:
    """Longo, a lucky white sum: choose among the legal cells (`options` but its last, the
    pass), then the lucky crosses (the next open cell of each row with the fewest crosses, as
    `Game._lucky_marks` lists them), and the pass. Returns the cell's entry (None for a pass)
    and whether it is a lucky cross."""
    counts = [mask.bit_count() for mask in rows]
    fewest = min(counts)
    lucky: list[CellEntry] = []
    for row, mask in enumerate(rows):
        if counts[row] == fewest:
            cell = 1 << cell_bits.offsets[row] + (mask & ~cell_bits.lock_bits[row]).bit_length()
            if cell & open_cells & cell_bits.row_bits[row]:  # in the row (not past its end), open
                lucky.append(cell_bits.cell[cell])
    everything = [*options[:-1], *lucky, None]
    if len(everything) == 1:
        return None, False
    choice = _pick(bits, len(everything))
    return everything[choice], len(options) - 1 <= choice < len(everything) - 1


def _close_rows(
    locked: list[int], bits: _CellBits, opens: list[int], closed: int, rows: int
) -> int:
    """The end of an action: its locks close their rows for everyone, in red..blue order."""
    for row in range(len(COLOURS)):
        if rows >> row & 1:
            locked.append(row)
            keep = ~bits.row_bits[row]
            for seat, cells in enumerate(opens):
                opens[seat] = cells & keep
    return closed | rows


def _roll_event(white1: int, white2: int, colours: list[int], faces: tuple[int, ...]) -> Roll:
    return Roll(
        (white1, white2), {COLOURS[die]: face for die, face in zip(colours, faces, strict=True)}
    )


def _mark_event(game: Game, seat: int, entry: CellEntry, lucky: bool) -> Mark:
    row, position = entry[:2]
    number = game.sheet.rows[row].numbers[position]
    return Mark(game.players[seat].name, COLOURS[row], number, lucky)
