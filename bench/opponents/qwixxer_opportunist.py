"""qwixxer's Opportunist bot (github.com/vibelyova/qwixxer, src/strategy/mod.rs), written
afresh for our referee as a second benchmark opponent. Classic sheet only.

It keeps each open row's next free number on sums the dice make often (6, 7, 8), so that the
other players' white sums let it cross without skipping. Its `probability` is the chance that
two dice make one of its rows' next free numbers (each number counted once). As the active
player it follows the same meta-rules as the GA heuristic (smart strike, smart lock, no lock
into a loss, dominated moves pruned), then takes the marking move, among those that pass over
at most two numbers more, whose sheet has the highest probability (a strike if none). As a
non-active player it takes a smart lock, else the white-sum mark, among those that pass over
at most one number, with the highest probability; it never declines such a mark.
"""

from __future__ import annotations

from .qwixxer_ga import STRIKE, Move, QwixxerSeat, State, generate_moves, meta_rules, smart_lock

ACTIVE_BLANKS = 2  # numbers a mark may pass over on its own turn
OTHERS_BLANKS = 1  # ... and on another player's white sum


def chances(state: State) -> int:
    """36 times qwixxer's `probability`: the ways two dice make one of the next free numbers
    (integers, so that ties compare exactly as qwixxer's sums of 1/36 mostly do)."""
    frees = {f for f in state.frees if f is not None}
    return sum(6 - abs(7 - f) for f in frees)


def best_move(state: State, moves: list[Move], budget: int) -> Move | None:
    """The move passing over at most `budget` more numbers whose sheet has the best chances."""
    return best_within(state, [(state.apply(move), move) for move in moves], budget)  # type: ignore[return-value]


def best_within(state: State, options: list[tuple[State, object]], budget: int) -> object:
    """Of (sheet after, choice) options, the choice passing over at most `budget` more numbers
    whose sheet has the best chances, the last of equals as Rust's `max_by`; None if none."""
    blanks = state.blanks()
    best, best_chances = None, -1
    for after, choice in options:
        if max(after.blanks() - blanks, 0) <= budget and chances(after) >= best_chances:
            best, best_chances = choice, chances(after)
    return best


def your_move(state: State, white: tuple[int, int], colours: dict[int, int], gap: int) -> Move:
    forced, moves = meta_rules(state, generate_moves(state, white, colours), gap)
    if forced:
        return moves[0]
    marks = [m for m in moves if m != STRIKE]
    return best_move(state, marks, ACTIVE_BLANKS) or STRIKE


def opponents_move(state: State, number: int, gap: int) -> Move | None:
    moves: list[Move] = [((row, number),) for row in range(4) if state.can_mark(row, number)]
    return smart_lock(state, moves, gap) or best_move(state, moves, OTHERS_BLANKS)


class Opportunist(QwixxerSeat):
    """The Opportunist at our table."""

    def your_move(
        self, state: State, white: tuple[int, int], colours: dict[int, int], gap: int
    ) -> Move:
        return your_move(state, white, colours, gap)

    def opponents_move(self, state: State, number: int, locked: int, gap: int) -> Move | None:
        return opponents_move(state, number, gap)

    def choose_again(self, state: State, options: list[tuple[State, object]]) -> object:
        """Among the colour marks left, the best within its budget; else the pass (last)."""
        choice = best_within(state, options[:-1], ACTIVE_BLANKS)
        return options[-1][1] if choice is None else choice
