"""qwixxer's genetic-algorithm heuristic (github.com/vibelyova/qwixxer, src/bot.rs and
src/state.rs), written afresh for our referee as a benchmark opponent. Classic sheet only.

qwixxer's model of a sheet is, per row, the crosses so far (`total`, the lock cross included)
and the next number that may still be crossed (`free`, None once the row is locked). A position
is worth the four-gene "instinct" with the champion weights (champion.txt):
  weighted_prob  sum over open rows of P(two dice make `free`) * (total + 1)
  strikes        penalties
  concentration  sum of total squared
  blanks         numbers passed over in open rows
As the active player it sees all six dice and picks one move for the whole turn (a white mark, a
colour mark, both, or a strike) after its meta-rules: strike to end a won game at three strikes
and never strike into a loss; take any lock at once unless it ends the game in a loss (the
highest-scoring one); drop moves that lock into a loss; prune dominated moves. Our referee asks
for that move in two halves: the white mark in action 1, the colour mark in action 2 (chosen
again from what is left should a lock in action 1 have closed its row). As a non-active player
it takes a smart lock, else the white mark (or none) of the best instinct.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from firmware_py.rules import ACTION1, Game, Mark, Pass
from sheets import COLOURS

WEIGHTS = (0.49085229701342714, -0.8692448091076695, 0.01846237488088304, -0.056005580702027866)
ASCENDING = (True, True, False, False)


@dataclass(frozen=True)
class State:
    """One sheet in qwixxer's terms: per row (total, free), and the strikes."""

    totals: tuple[int, ...]
    frees: tuple[int | None, ...]
    strikes: int

    def can_mark(self, row: int, number: int) -> bool:
        free = self.frees[row]
        if free is None or not 2 <= number <= 12:
            return False
        lock = 12 if ASCENDING[row] else 2
        if number == lock and self.totals[row] < 5:
            return False
        return free <= number if ASCENDING[row] else free >= number

    def mark(self, row: int, number: int) -> State:
        totals, frees = list(self.totals), list(self.frees)
        totals[row] += 1
        if number == (12 if ASCENDING[row] else 2):
            totals[row] += 1
            frees[row] = None
        else:
            frees[row] = number + 1 if ASCENDING[row] else number - 1
        return State(tuple(totals), tuple(frees), self.strikes)

    def apply(self, move: Move) -> State:
        if move == STRIKE:
            return State(self.totals, self.frees, self.strikes + 1)
        state = self
        for row, number in move:
            state = state.mark(row, number)
        return state

    def lock(self, rows: int) -> State:
        frees = tuple(None if rows >> r & 1 else f for r, f in enumerate(self.frees))
        return State(self.totals, frees, self.strikes)

    def points(self) -> int:
        return sum(t * (t + 1) // 2 for t in self.totals) - 5 * self.strikes

    def locked_count(self) -> int:
        return sum(f is None for f in self.frees)

    def blanks(self) -> int:
        total = 0
        for row, (t, f) in enumerate(zip(self.totals, self.frees, strict=True)):
            if f is not None:
                total += (f - 2 if ASCENDING[row] else 12 - f) - t
        return total

    def instinct(self) -> float:
        prob = sum(
            (6 - abs(7 - f)) / 36 * (t + 1)
            for t, f in zip(self.totals, self.frees, strict=True)
            if f is not None
        )
        genes = (prob, self.strikes, sum(t * t for t in self.totals), self.blanks())
        return sum(g * w for g, w in zip(genes, WEIGHTS, strict=True))


Move = tuple[tuple[int, int], ...]  # one or two (row, number) marks, in the order made
STRIKE: Move = ()


def state_of(game: Game, name: str) -> State:
    """qwixxer's view of `name`'s sheet: rows the table has closed count as locked."""
    player = game.player(name)
    totals, frees = [], []
    for row in range(4):
        numbers = game.sheet.rows[row].numbers
        totals.append(player.crosses(row))
        next_position = player.last_position(row) + 1
        closed = game.closed >> row & 1 or player.has_locked(row)
        frees.append(None if closed or next_position >= len(numbers) else numbers[next_position])
    return State(tuple(totals), tuple(frees), player.penalties)


def score_gap(game: Game, name: str) -> int:
    others = [game.total(p.name) for p in game.players if p.name != name]
    return game.total(name) - max(others, default=0)


def generate_moves(state: State, white: tuple[int, int], colours: dict[int, int]) -> list[Move]:
    """The active player's marking moves, in qwixxer's order: white singles, colour singles,
    then doubles (white and colour in different rows, then in the same row)."""
    on_white = white[0] + white[1]
    white_moves: list[Move] = []
    colour_moves: list[Move] = []
    same_row: list[Move] = []

    def on_colour(row: int, after: State) -> list[tuple[int, int]]:
        if row not in colours:
            return []
        return [(row, w + colours[row]) for w in white if after.can_mark(row, w + colours[row])]

    for row in range(4):
        if state.can_mark(row, on_white):
            white_moves.append(((row, on_white),))
            after = state.mark(row, on_white)
            same_row += [((row, on_white), mark) for mark in on_colour(row, after)]
        colour_moves += [(mark,) for mark in on_colour(row, state)]
    doubles = [(w[0], c[0]) for w, c in product(white_moves, colour_moves) if w[0][0] != c[0][0]]
    return _unique(white_moves + colour_moves) + _unique(doubles + same_row)


def _unique(moves: list[Move]) -> list[Move]:
    return list(dict.fromkeys(moves))


def smart_lock(state: State, moves: list[Move], gap: int) -> Move | None:
    """A move that locks a row, unless it ends the game in a loss; the highest-scoring one."""
    opponent = state.points() - gap
    best, best_points = None, None
    for move in moves:
        after = state.apply(move)
        if after.locked_count() <= state.locked_count():
            continue
        if after.locked_count() >= 2 and after.points() <= opponent:
            continue
        if best_points is None or after.points() >= best_points:  # Rust's max_by: the last
            best, best_points = move, after.points()
    return best


def meta_rules(state: State, moves: list[Move], gap: int) -> tuple[bool, list[Move]]:
    """(forced, moves): qwixxer's apply_meta_rules on the marking moves plus the strike."""
    moves = [*moves, STRIKE]
    opponent = state.points() - gap
    if state.strikes == 3:
        if state.points() - 5 > opponent:
            return True, [STRIKE]
        if len(moves) > 1:
            moves = [m for m in moves if m != STRIKE]
    lock = smart_lock(state, moves, gap)
    if lock is not None:
        return True, [lock]
    locked = state.locked_count()
    moves = [
        m
        for m in moves
        if not (
            (after := state.apply(m)).locked_count() > locked
            and after.locked_count() >= 2
            and after.points() < opponent
        )
    ]
    moves = prune_dominated(state, moves)
    if not moves:
        return True, [STRIKE]
    return False, moves


def prune_dominated(state: State, moves: list[Move]) -> list[Move]:
    strikes = [m for m in moves if m == STRIKE]
    markers = [m for m in moves if m != STRIKE]
    after = [state.apply(m) for m in markers]
    surviving = [
        m
        for i, m in enumerate(markers)
        if not any(j != i and _dominates(after[j], after[i]) for j in range(len(markers)))
    ]
    return _marginal_dominance(state, surviving) + strikes


def _dominates(better: State, worse: State) -> bool:
    strict = False
    for row in range(4):
        if better.totals[row] < worse.totals[row]:
            return False
        f1, f2 = better.frees[row], worse.frees[row]
        if (f1 is None) != (f2 is None):
            return False
        cmp = 0
        if f1 is not None and f2 is not None:
            cmp = (f2 > f1) - (f2 < f1) if ASCENDING[row] else (f1 > f2) - (f1 < f2)
        if cmp < 0:
            return False
        if cmp > 0 or better.totals[row] > worse.totals[row]:
            strict = True
    return strict


def _marginal_dominance(state: State, moves: list[Move]) -> list[Move]:
    tags: list[tuple[int, int, int] | None] = []
    for move in moves:
        if len(move) != 1:
            tags.append(None)
            continue
        row, number = move[0]
        free = state.frees[row]
        assert free is not None
        if ASCENDING[row]:
            tags.append((row, number - free, number - 1))
        else:
            tags.append((row, free - number, 13 - number))
    kept = []
    for move, tag in zip(moves, tags, strict=True):
        if tag is not None and any(
            other is not None
            and other[0] != tag[0]
            and other[1:] == tag[1:]
            and state.totals[other[0]] > state.totals[tag[0]]
            for other in tags
        ):
            continue
        kept.append(move)
    return kept


def best_by_instinct(options: list[tuple[State, object]]) -> object:
    best, best_value = None, None
    for after, choice in options:
        value = after.instinct()
        if best_value is None or value >= best_value:  # Rust's max_by keeps the last maximum
            best, best_value = choice, value
    return best


def your_move(state: State, white: tuple[int, int], colours: dict[int, int], gap: int) -> Move:
    forced, moves = meta_rules(state, generate_moves(state, white, colours), gap)
    if forced:
        return moves[0]
    return best_by_instinct([(state.apply(m), m) for m in moves])  # type: ignore[return-value]


def opponents_move(state: State, number: int, locked: int, gap: int) -> Move | None:
    moves: list[Move] = [((row, number),) for row in range(4) if state.can_mark(row, number)]
    lock = smart_lock(state, moves, gap)
    if lock is not None:
        return lock
    options: list[tuple[State, object]] = [(state.apply(m).lock(locked), m) for m in moves]
    options.append((state.lock(locked), None))
    return best_by_instinct(options)  # type: ignore[return-value]


class QwixxerSeat:
    """A qwixxer strategy as a player at our table: `decide(game, name)` like ours. A strategy
    gives its active turn (`your_move`), its white-sum mark as a non-active player
    (`opponents_move`) and, should a row close in action 1 under its planned colour mark, its
    choice among the colour marks left (`choose_again`: (state after, choice) options)."""

    def __init__(self) -> None:
        self._plan: tuple[object, str, Move] | None = None  # (the roll, the player, the move)

    def your_move(
        self, state: State, white: tuple[int, int], colours: dict[int, int], gap: int
    ) -> Move:
        raise NotImplementedError

    def opponents_move(self, state: State, number: int, locked: int, gap: int) -> Move | None:
        raise NotImplementedError

    def choose_again(self, state: State, options: list[tuple[State, object]]) -> object:
        raise NotImplementedError

    def decide(self, game: Game, name: str) -> Mark | Pass:
        if game.phase is ACTION1 and name != game.active_name:
            return self._as_opponent(game, name)
        if game.phase is ACTION1:
            return self._first_half(game, name)
        return self._second_half(game, name)

    def _as_opponent(self, game: Game, name: str) -> Mark | Pass:
        state = state_of(game, name)
        move = self.opponents_move(state, game.white_sum, game.closed, score_gap(game, name))
        return _to_event(game, name, move[0]) if move else Pass(name)

    def _first_half(self, game: Game, name: str) -> Mark | Pass:
        dice = game.dice
        assert dice is not None
        colours = {COLOURS.index(c): face for c, face in dice.colours.items()}
        state = state_of(game, name)
        move = self.your_move(state, dice.white, colours, score_gap(game, name))
        self._plan = (dice, name, move)
        if move and move[0][1] == game.white_sum:
            mark = _to_event(game, name, move[0])
            if mark in game.legal_marks(name):
                self._plan = (dice, name, move[1:])
                return mark
        return Pass(name)

    def _second_half(self, game: Game, name: str) -> Mark | Pass:
        plan = self._plan
        legal = game.legal_marks(name)
        if plan is not None and plan[0] is game.dice and plan[1] == name:
            move = plan[2]
            if not move:
                return Pass(name)
            mark = _to_event(game, name, move[0])
            if mark in legal:
                return mark
        # The planned colour mark is gone (a row closed in action 1): choose again.
        state = state_of(game, name)
        crossed = game.decisions.get(game.active) is not None
        options: list[tuple[State, object]] = [
            (state.mark(COLOURS.index(m.row), m.number), m) for m in legal
        ]
        options.append((state if crossed else state.apply(STRIKE), Pass(name)))
        return self.choose_again(state, options)  # type: ignore[return-value]


class QwixxerGA(QwixxerSeat):
    """The GA heuristic at our table."""

    def your_move(
        self, state: State, white: tuple[int, int], colours: dict[int, int], gap: int
    ) -> Move:
        return your_move(state, white, colours, gap)

    def opponents_move(self, state: State, number: int, locked: int, gap: int) -> Move | None:
        return opponents_move(state, number, locked, gap)

    def choose_again(self, state: State, options: list[tuple[State, object]]) -> object:
        return best_by_instinct(options)


def _to_event(game: Game, name: str, mark: tuple[int, int]) -> Mark:
    return Mark(name, COLOURS[mark[0]], mark[1])
