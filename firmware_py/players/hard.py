"""The strongest level: every decision judged by the evaluation, the whole turn at once.

Each option (each legal mark, and the pass) is made on a copy of the game and the position it
leaves is judged (evaluation.py). The active player sees all the dice at the roll, so in action 1
it judges each white-sum option together with the best colour-sum option it leaves for action 2;
a position where the game ends is judged by its final margin, with a bonus for a win. The few
best options are then judged once more a roll ahead: the evaluation's average over the next
white sum, the player taking its best cross for each (or none), so that two rows hoping for the
same number are not both counted on it.
"""

from __future__ import annotations

from firmware_py.rules import ACTION1, ACTION2, Game, Mark, Pass
from firmware_py.rules.scoring import penalty_points

from .evaluation import (
    Weights,
    load_weights,
    lockable_rows,
    prospects_of,
    rolls_for,
    rolls_left,
    row_worth,
    worth,
)

RECONSIDERED = 6  # the best options judged again a roll ahead (3: 59.3 % against GA, 6: 60.1 %)

_WEIGHTS: Weights | None = None


def shipped_weights() -> Weights:
    global _WEIGHTS
    if _WEIGHTS is None:
        _WEIGHTS = load_weights()
    return _WEIGHTS


def choose(game: Game, name: str, weights: Weights | None = None) -> Mark | Pass:
    """The decision of the hard level for `name` now; `game` is left as it was."""
    weights = weights or shipped_weights()
    options: list[Mark | Pass] = [*game.legal_marks(name), Pass(name)]
    if len(options) == 1:
        return options[0]
    planning = game.phase is ACTION1 and name == game.active_name
    judged = []
    for order, option in enumerate(options):
        after = game.copy()
        after.apply(option)
        if not planning:
            others_lock(after, name)
        value, end = (
            _turn_value(after, name, weights) if planning else (judge(after, name, weights), after)
        )
        judged.append((value, -order, option, end))
    judged.sort(key=lambda item: item[:2], reverse=True)
    if weights.ahead <= 0:
        return judged[0][2]
    best = max(
        judged[:RECONSIDERED],
        key=lambda item: (ahead(item[3], name, weights, item[0]), item[1]),
    )
    return best[2]


def _turn_value(game: Game, name: str, weights: Weights) -> tuple[float, Game]:
    """The active player after its action-1 decision: the best its action 2 can then make
    (the others' action-1 decisions taken as passes, or the locks they are expected to make),
    and the game that leaves."""
    for waiting in game.waiting_for():
        game.apply(expected_lock(game, waiting) or Pass(waiting))
    if game.phase is not ACTION2:
        return judge(game, name, weights), game
    best, best_end = float("-inf"), game
    options: list[Mark | Pass] = [*game.legal_marks(name), Pass(name)]
    for option in options:
        after = game.copy()
        after.apply(option)
        value = judge(after, name, weights)
        if value > best:
            best, best_end = value, after
    return best, best_end


def others_lock(game: Game, name: str) -> None:
    """After `name`'s action-1 decision, as a non-active player: the others make the locks they
    are expected to make this turn (the dice are on the table), with the white sum in action 1
    and, for the active player, with a colour sum in action 2. A row about to be locked is
    judged closed, so its crosses are taken now or never. Their other decisions stay open."""
    if game.phase is ACTION1:
        for waiting in game.waiting_for():
            game.apply(expected_lock(game, waiting) or Pass(waiting))
    if game.phase is ACTION2 and game.active_name != name:
        lock = expected_lock(game, game.active_name)
        if lock is not None:
            game.apply(lock)


def expected_lock(game: Game, name: str) -> Mark | None:
    """A lock `name` may make now and is taken to make: one that leaves the game going, or one
    that ends it with them not behind (a player does not lock into a loss)."""
    sheet = game.sheet
    rows = game.player(name).rows
    if not sheet.has_doubles and all(mask.bit_count() < sheet.lock_threshold for mask in rows):
        return None  # no row has the crosses a lock needs (most of a game)
    for mark in game.legal_marks(name):
        row = sheet.row_index(mark.row)
        if mark.lucky or sheet.positions[row][mark.number] not in sheet.lock_positions[row]:
            continue
        after = game.copy()
        after.apply(mark)
        if not ending(after, after.closed | after.locking):
            return mark
        theirs = after.total(name)
        if all(theirs >= after.total(p.name) for p in after.players):
            return mark
    return None


def ending(game: Game, closed: int) -> bool:
    return game.over or closed.bit_count() >= game.sheet.locks_to_end


def judge(game: Game, name: str, weights: Weights) -> float:
    """How good the position is for `name`: a margin of worths, or at the end the margin of
    points with a bonus for winning."""
    return judge_closed(game, name, weights, game.closed | game.locking)


def judge_closed(game: Game, name: str, weights: Weights, closed: int) -> float:
    """`judge`, with the rows in `closed` taken as closed (those the table closed, and those
    locked in the open action or in a cross being tried)."""
    if ending(game, closed):
        return final(game, name, weights)
    me = game.player(name)
    scale = rolls_left(game, weights, closed)
    value = worth(game, me, closed, scale, skip_cost(game, weights))
    others = [p for p in game.players if p is not me]
    if others:
        best = max(worth(game, p, closed, scale, weights.skip) for p in others)
        value -= weights.opponents * best
    return value


def skip_cost(game: Game, weights: Weights) -> float:
    """What a number passed over costs beyond its row's prospects: more for a player alone."""
    return weights.skip_alone if len(game.players) == 1 else weights.skip


def final(game: Game, name: str, weights: Weights) -> float:
    """The margin of points at the end, with the bonus for a win (alone: the points)."""
    mine = game.total(name)
    others = [game.total(p.name) for p in game.players if p.name != name]
    if not others:
        return mine
    margin = mine - max(others)
    return margin + (weights.win if margin > 0 else -weights.win if margin < 0 else 0)


def ahead(game: Game, name: str, weights: Weights, now: float) -> float:
    """`now`, the position's value, judged a roll ahead: the mean over the next white sum of
    the best of crossing nothing (worth `now`) and each cross that sum allows `name`. Plain
    sheets only (where a cross sets nothing else off); elsewhere `now` as it is."""
    closed = game.closed | game.locking
    sheet = game.sheet
    # (Big Points, Double, the Chain: the look ahead knows no boxes, second crosses or chains)
    extras = sheet.bonus_rows or sheet.has_doubles or sheet.has_links
    if not game.plain or extras or ending(game, closed):
        return now
    rows = game.player(name).rows
    faces = game.sheet.dice_faces
    threshold = game.sheet.lock_threshold
    by_sum = game.tables.by_sum
    look = _Look(game, name, weights, closed)
    expected = 0.0
    for total in range(2, 2 * faces + 1):
        best = now
        for _, row, _, bit, locks in by_sum[total]:
            mask = rows[row]
            if mask >= bit or closed >> row & 1 or (locks and mask.bit_count() < threshold):
                continue
            best = max(best, look.value(row, mask | bit, locks))
        expected += (faces - abs(total - faces - 1)) / faces**2 * best
    return weights.ahead * expected + (1 - weights.ahead) * now


class _Look:
    """`judge_closed` of a position that differs from `game` by one cross of `name`'s, worked
    out from what all such positions share: the rows left as they were and the others' worth
    are judged once for each number of rolls left (the part of `ahead` that takes the time)."""

    def __init__(self, game: Game, name: str, weights: Weights, closed: int) -> None:
        self.game, self.name, self.weights, self.closed = game, name, weights, closed
        self.me = game.player(name)
        self.others = [p for p in game.players if p is not self.me]
        self.prospects = prospects_of(game)
        self.skip = skip_cost(game, weights)
        self.near = game.sheet.lock_threshold - 1
        self.lockable = lockable_rows(game)
        self.cached: dict[tuple[int, float], tuple[list[float], float, float]] = {}

    def value(self, row: int, mask: int, locks: bool) -> float:
        """The position with `mask` for the player's `row` (and the row locked if `locks`)."""
        me, weights = self.me, self.weights
        closed = self.closed | (1 << row if locks else 0)
        if locks:
            mask |= me.lock_bits[row]
        if ending(self.game, closed):
            rows = me.rows
            before, rows[row] = rows[row], mask
            value = final(self.game, self.name, weights)
            rows[row] = before
            return value
        lockable = self.lockable | (1 << row if mask.bit_count() >= self.near else 0)
        scale = rolls_for(weights, closed.bit_count(), (lockable & ~closed).bit_count())
        terms, penalties, against = self._shared(closed, scale)
        mine = 0.0  # summed as `worth` sums, so that equal positions tie exactly
        for index, term in enumerate(terms):
            mine += (
                term
                if index != row
                else row_worth(
                    self.prospects, row, mask, me.lock_bits[row], closed, scale, self.skip
                )
            )
        return mine - penalties - against

    def _shared(self, closed: int, scale: float) -> tuple[list[float], float, float]:
        """The player's row worths, penalties, and the others' best worth as it counts
        against the player, for these closed rows and rolls left."""
        key = (closed, scale)
        shared = self.cached.get(key)
        if shared is None:
            me, game, weights = self.me, self.game, self.weights
            terms = [
                row_worth(self.prospects, row, mask, me.lock_bits[row], closed, scale, self.skip)
                for row, mask in enumerate(me.rows)
            ]
            penalties = penalty_points(game.sheet, me)
            against = 0.0
            if self.others:
                best = max(worth(game, p, closed, scale, weights.skip) for p in self.others)
                against = weights.opponents * best
            shared = self.cached[key] = (terms, penalties, against)
        return shared
