"""How much a sheet is worth: its points now plus what its open rows may still make.

A row's prospects come from a small dynamic programme, solved once per sheet: the expected
points of one row with `c` crosses and its next open cell at position `p` when `n` more rolls
come its way, taking a roll's white sum only where that pays (a lock cell once the row has the
crosses). Passing over a 7 costs more than passing over a 2, a cross in a long row is worth more
than one in a short row, all as the dice and the score table say. How many rolls a row still
sees is the tuned part (`Weights`): fewer once a row is locked and while rows can be locked.

A position is judged as a margin: the player's worth less the best opponent's. Opponents' worth
changes only where a lock closes one of their rows, so locking a row an opponent was filling is
worth what it takes from them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from firmware_py.rules import Game
from firmware_py.rules.doubles import SECOND, crosses_in
from firmware_py.rules.player import PlayerSheet
from firmware_py.rules.scoring import counted_crosses, penalty_points, reward_points
from firmware_py.rules.tables import SheetTables
from sheets import Sheet, load_sheet, sheets_that_load

HORIZON = 40  # the most rolls a row's prospects are worked out for


@dataclass(frozen=True)
class Weights:
    """The numbers of the evaluation, tuned by self-play (tools/tune_players.py)."""

    rolls: float = 20.0  # rolls each open row still sees early in the game
    per_lock: float = 0.5  # each lock made divides them by (1 + this)...
    per_lockable: float = 0.15  # ...and each row that someone could lock now, by (1 + this)
    opponents: float = 1.0  # the best opponent's worth counts this much against the player's
    win: float = 20.0  # points a won end of game is worth on top of its margin
    skip: float = 0.0  # points each number passed over in an open row costs beyond its prospects
    # The same for a player alone (active every roll, no race to lock): 2.5 took the mean
    # alone from 60 to 86 points (1: 78, 4: 62), while any skip cost lost games in company.
    skip_alone: float = 2.5
    # How much the look a roll ahead counts (0: not at all, and quicker). 1 won 59.3 % of 2,000
    # games against the GA heuristic where 0 won 57.9 % (the same dice), so the tuning starts there.
    ahead: float = 1.0


def load_weights(name: str = "weights.json") -> Weights:
    """The shipped weights (a small JSON file in this package)."""
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return Weights(**json.loads(text))


class Prospects:
    """Per sheet, built once: `value[r][n][c][p]`, the expected final points of row r with c
    crosses, next open position p and n rolls to come."""

    __slots__ = ("score", "value")

    def __init__(self, tables: SheetTables) -> None:
        sheet = tables.sheet
        self.score = sheet.score
        self.value = [solved_row(sheet, row) for row in range(len(sheet.rows))]


_SOLVED: dict[tuple[object, ...], list[list[list[float]]]] = {}


def solved_row(sheet: Sheet, row: int, extra: int = 0) -> list[list[list[float]]]:
    """A row's prospects; rows laid out alike (most sheets share two layouts) share them.
    `extra`: crosses the row counts besides its own (Big Points' bonus boxes beside it), which
    shift its points on the score table but not the crosses its lock needs."""
    numbers, locks = sheet.rows[row].numbers, sheet.lock_positions[row]
    key = (numbers, locks, sheet.dice_faces, sheet.score, sheet.lock_threshold, extra)
    if key not in _SOLVED:
        _SOLVED[key] = _solve_row(numbers, locks, sheet, extra)
    return _SOLVED[key]


def _solve_row(
    numbers: tuple[int, ...], locks: frozenset[int], sheet: Sheet, extra: int = 0
) -> list[list[list[float]]]:
    """One row's prospects, roll by roll: a roll offers its white sum, taken where it pays.
    Crosses never outnumber the cells passed, so only c <= p is worked out."""
    faces, threshold = sheet.dice_faces, sheet.lock_threshold
    last = len(sheet.score) - 1
    score = [sheet.score[min(c + extra, last)] for c in range(last + 1)]
    most = last
    ways = [0] * (2 * faces + 1)
    for a in range(1, faces + 1):
        for b in range(1, faces + 1):
            ways[a + b] += 1
    position = {n: p for p, n in enumerate(numbers)}
    offers = [(position[k], ways[k] / faces**2) for k in range(2, 2 * faces + 1) if k in position]
    offers.sort()
    size = len(numbers) + 1
    before = [[float(score[c])] * size for c in range(most + 1)]
    value = [before]
    for _ in range(HORIZON):
        now = [[float(score[c])] * size for c in range(most + 1)]
        for p in range(size):
            later = [(q, chance) for q, chance in offers if q >= p]
            for c in range(min(p, most) + 1):
                stay = before[c][p]
                gain = 0.0
                for q, chance in later:
                    if q in locks:
                        if c < threshold:
                            continue
                        take = float(score[min(c + 2, most)])
                    else:
                        take = before[min(c + 1, most)][q + 1]
                    if take > stay:
                        gain += chance * (take - stay)
                now[c][p] = stay + gain
        value.append(now)
        before = now
    return value


def prepare_shipped_sheets() -> None:
    """Work out the prospects of every shipped sheet's rows now (0.18 s of CPU on a PC, half a
    second on a Zero 2 W), so that no decision in a game waits for them. The table does it in
    a thread once it is ready, not when this module loads: that held the tower's start up."""
    for name in sheets_that_load():  # (one broken by hand is said in the log, not prepared)
        sheet = load_sheet(name)
        for row in range(len(sheet.rows)):
            solved_row(sheet, row)


def prospects_of(game: Game) -> Prospects:
    return game.tables.derived(Prospects)


def rolls_left(game: Game, weights: Weights, closed: int) -> float:
    """Rolls an open row still sees, given how near the game is to its end."""
    lockable = (lockable_rows(game) & ~closed).bit_count()
    return rolls_for(weights, closed.bit_count(), lockable)


def lockable_rows(game: Game) -> int:
    """The rows (a mask of the first four) in which some player has the crosses to lock next."""
    threshold = game.sheet.lock_threshold - 1
    rows = 0
    if game.sheet.has_doubles:  # Qwixx Double: second crosses count towards a lock
        for row in range(4):
            if any(crosses_in(p, row) >= threshold for p in game.players):
                rows |= 1 << row
        return rows
    for row in range(4):
        if any(p.rows[row].bit_count() >= threshold for p in game.players):
            rows |= 1 << row
    return rows


def rolls_for(weights: Weights, locks: int, lockable: int) -> float:
    """Rolls an open row still sees with `locks` rows closed and `lockable` open ones that
    someone could lock now."""
    rolls = (
        weights.rolls / (1.0 + weights.per_lock * locks) / (1.0 + weights.per_lockable * lockable)
    )
    return min(max(rolls, 0.0), HORIZON)


def worth(game: Game, player: PlayerSheet, closed: int, rolls: float, skip: float = 0.0) -> float:
    """The player's expected final points: rows, rewards earned, penalties; less `skip` for
    each number passed over in a row still open."""
    prospects = prospects_of(game)
    lock_bits = player.lock_bits
    sheet = game.sheet
    if sheet.bonus_rows:
        value = _worth_with_bonus_rows(game, player, closed, rolls, skip)
    elif sheet.has_doubles:
        value = _worth_with_second_crosses(game, player, closed, rolls, skip)
    else:
        value = 0.0
        for row, mask in enumerate(player.rows):
            value += row_worth(prospects, row, mask, lock_bits[row], closed, rolls, skip)
    if sheet.rewards:
        value += reward_points(sheet, player)
    return value - penalty_points(sheet, player)


def _worth_with_bonus_rows(
    game: Game, player: PlayerSheet, closed: int, rolls: float, skip: float
) -> float:
    """Big Points: each colour row's prospects with the bonus boxes beside it counted as
    crosses it has already (the boxes' own rows are worth what they add there)."""
    sheet, value = game.sheet, 0.0
    for row in range(len(sheet.rows)):
        mask, lock_bit = player.rows[row], player.lock_bits[row]
        extra = counted_crosses(sheet, player, row) - mask.bit_count()
        crosses = mask.bit_count()
        if closed >> row & 1 or mask & lock_bit:
            value += sheet.score[crosses + extra]
            continue
        value += _open_row_worth(sheet, row, mask & ~lock_bit, extra, rolls, skip)
    return value


def _worth_with_second_crosses(
    game: Game, player: PlayerSheet, closed: int, rolls: float, skip: float
) -> float:
    """Qwixx Double: each colour row's prospects with its second crosses counted as crosses it
    has already (their part towards its lock aside: the prospects read a lock by the row's own
    crosses, which undervalues a row near its lock a little)."""
    sheet, value = game.sheet, 0.0
    most = len(sheet.score) - 1
    for row in range(len(sheet.rows)):
        mask, lock_bit = player.rows[row], player.lock_bits[row]
        extra, crosses = player.rows[SECOND + row].bit_count(), mask.bit_count()
        if closed >> row & 1 or mask & lock_bit:
            value += sheet.score[min(crosses + extra, most)]
            continue
        value += _open_row_worth(sheet, row, mask & ~lock_bit, extra, rolls, skip)
    return value


def _open_row_worth(
    sheet: Sheet, row: int, crossed: int, extra: int, rolls: float, skip: float
) -> float:
    """An open row's prospects (its `crossed` cells, `extra` crosses counted beside them) over
    `rolls` rolls, less `skip` for each cell passed by: the solved table read between the two
    whole numbers of rolls around `rolls`."""
    crosses, position = crossed.bit_count(), crossed.bit_length()
    table = solved_row(sheet, row, extra)
    low = int(rolls)
    part, high = rolls - low, min(low + 1, HORIZON)
    worth = (1 - part) * table[low][crosses][position] + part * table[high][crosses][position]
    return worth - skip * (position - crosses)


def row_worth(
    prospects: Prospects, row: int, mask: int, lock_bit: int, closed: int, rolls: float, skip: float
) -> float:
    """One row's part of `worth`: its points if closed, else its prospects in `rolls` rolls
    (between two whole numbers of rolls, in proportion) less `skip` a number passed over."""
    crosses = mask.bit_count()
    if closed >> row & 1 or mask & lock_bit:
        return prospects.score[crosses]
    position = (mask & ~lock_bit).bit_length()
    table = prospects.value[row]
    low = int(rolls)
    part = rolls - low
    high = min(low + 1, HORIZON)
    value = (1 - part) * table[low][crosses][position] + part * table[high][crosses][position]
    return value - skip * (position - crosses)
