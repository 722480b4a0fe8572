"""Random playouts: a game played to its end by uniformly random legal players, fast.

Computer players that look ahead simulate thousands of games per decision, and a simulated game
needs no referee checks: every decision is drawn from the legal moves, so it cannot be illegal.
`play_out` therefore skips building and checking events, but keeps every rule: it takes its
choices from the same cell tables and legal-move lists as `Game.legal_marks`, and changes the
game through the same crossing, locking, penalty and turn-flow code as `Game.apply`. Hand it
a list and it records the events it made, so a test can replay them through `Game.apply` and
check that the referee accepts each one and ends in the same state.
"""

from __future__ import annotations

from collections.abc import Callable

from .events import Pass, Roll
from .game import ACTION1, ACTION2, COLOUR_INDEX, OVER, ROLL, Game
from .player import Snapshot


def play_out(game: Game, draw: Callable[[], float], events: list | None = None) -> int:
    """Play `game` on to its end and return the number of rolls made.

    `draw()` gives uniform floats in [0, 1) (e.g. `random.Random(seed).random`): it rolls the
    dice and makes each decision uniformly among the player's legal marks and passing, exactly
    as a player choosing from `legal_marks(name)` plus a pass would, in the same order. `events`,
    when given, receives every event in the order a table would journal it.
    """
    rolls = 0
    while game.phase != OVER:
        if game.phase == ROLL:
            _roll(game, draw, events)
            rolls += 1
        if game.phase == ACTION1:
            _action1(game, draw, events)
        if game.phase == ACTION2:
            seat = game.active
            cells = None if game.sheet.rewards else game._open_action2_cells(game.players[seat])
            game._end_action2(_take(game, seat, cells, draw, events))
    return rolls


def _roll(game: Game, draw: Callable[[], float], events: list | None) -> None:
    faces = game.sheet.dice_faces
    white = (int(draw() * faces) + 1, int(draw() * faces) + 1)
    roll = Roll(white, {colour: int(draw() * faces) + 1 for colour in game._in_play})
    game._begin_action1(roll)
    if events is not None:
        events.append(roll)


def _action1(game: Game, draw: Callable[[], float], events: list | None) -> None:
    """Every undecided player decides, in seat order (the rules make the order irrelevant).
    The hot loop: `Game._action1_cells` and `_take` are written out here in line (calling them
    measured about 8% fewer games/s); tests/test_rules_rollout.py holds the copies to them."""
    decisions, white_sum, closed = game.decisions, game.white_sum, game.closed
    reachable = game._tables.by_sum[white_sum]
    threshold = game._threshold
    rewards = game.sheet.rewards
    for seat, player in enumerate(game.players):
        if seat in decisions:
            continue
        if rewards or white_sum in player.lucky:
            decisions[seat] = _take(game, seat, None, draw, events)
            continue
        rows = player.rows
        cells = [
            cell
            for cell in reachable
            if rows[cell[1]] < cell[3]
            and not closed >> cell[1] & 1
            and (not cell[4] or rows[cell[1]].bit_count() >= threshold)
        ]
        pick = int(draw() * (len(cells) + 1))
        if pick == len(cells):
            decisions[seat] = None
            if events is not None:
                events.append(Pass(player.name))
            continue
        decisions[seat] = player.snapshot()
        _, row, position, _, _ = cells[pick]
        game._cross_with_effects(player, row, position, None)
        if events is not None:
            events.append(game._marks[seat][row][position])
    game._end_action1()


def _take(game: Game, seat: int, cells: list | None, draw, events) -> Snapshot | None:
    """Cross one of the legal `cells` or pass, each equally likely; return the sheet as it
    was before the cross (None for a pass). Where cells do not say it all (a lucky cross, a
    reward's row choice), `cells` is None and the choices are the legal marks themselves."""
    if cells is None:
        return _take_mark(game, seat, draw, events)
    pick = int(draw() * (len(cells) + 1))
    if pick == len(cells):
        if events is not None:
            events.append(Pass(game.players[seat].name))
        return None
    player = game.players[seat]
    snapshot = player.snapshot()
    _, row, position, _, _ = cells[pick]
    game._cross_with_effects(player, row, position, None)
    if events is not None:
        events.append(game._marks[seat][row][position])
    return snapshot


def _take_mark(game: Game, seat: int, draw, events) -> Snapshot | None:
    player = game.players[seat]
    marks = game.legal_marks(player.name)
    pick = int(draw() * (len(marks) + 1))
    if pick == len(marks):
        if events is not None:
            events.append(Pass(player.name))
        return None
    mark = marks[pick]
    snapshot = player.snapshot()
    row = COLOUR_INDEX[mark.row]
    game._cross_with_effects(player, row, game.sheet.positions[row][mark.number], mark.choice)
    if events is not None:
        events.append(mark)
    return snapshot
