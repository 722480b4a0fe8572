"""Random playouts: a game played to its end by uniformly random legal players, fast.

Computer players that look ahead simulate thousands of games per decision, and a simulated game
needs no referee checks: every decision is drawn from the legal moves, so it cannot be illegal.
`play_out` therefore skips the checks, but keeps every rule, and makes the same choices a player
picking from `Game.legal_marks` would, in the same order:
- sheets where a cross sets nothing else off (classic, Longo, Mixx A and B) are played on
  integers in one loop (plain.py, the fast path), which hands the end back to the game with
  `Game.end_playout`;
- the others (bonus sheets, where a cross can set off more crosses) are played by the referee
  itself, its legal moves applied with `Game.apply_unchecked`.
Hand it a list and it records the events it made, so a test can replay them through
`Game.apply`; hand it a `Watch` and it shows each decision's options and the state before it
(tests/rules/test_rules_rollout.py holds the fast path to the referee this way, sheet by
sheet). Random numbers become choices and dice as draws.py says; a player with nothing to cross
passes without a draw.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .draws import RANDOM_BITS, Bits, dice
from .events import Event, Mark, Pass, Roll
from .game import ACTION1, ACTION2, OVER, ROLL, Game
from .plain import play_plain
from .state import GameState

Watch = Callable[[int, list[Mark], GameState], None]
"""Told before each decision of a playout: the seat deciding, the marks it may make (it may
always pass too), and the state of the game as the playout holds it (without `decisions`,
which the fast path does not keep)."""


def play_out(
    game: Game,
    rng: random.Random,
    events: list[Event] | None = None,
    watch: Watch | None = None,
) -> int:
    """Play `game` on to its end and return the number of rolls made.

    `rng` gives the random bits (`random.Random(seed)`, or `secrets.SystemRandom()`). Each
    decision is uniform among the player's legal marks and passing, in `legal_marks` order;
    `events`, when given, receives every event in the order a table would journal it, and
    `watch` is told of every decision before it is made.
    """
    if game.phase is OVER:
        return 0
    if game.plain:
        return play_plain(game, rng.getrandbits, events, watch)
    return _play_through_game(game, rng.getrandbits, events, watch)


def _play_through_game(
    game: Game, bits: Bits, events: list[Event] | None, watch: Watch | None
) -> int:
    """`play_out` by the referee's own legal moves and steps (`Game.apply_unchecked`)."""
    players = game.players
    passes = [Pass(player.name) for player in players]
    rolls = 0
    while game.phase is not OVER:
        if game.phase is ROLL:
            in_play = game.dice_in_play()
            white, faces = dice(game.sheet.dice_faces).roll(bits, len(in_play))
            roll = Roll(white, dict(zip(in_play, faces, strict=True)))
            game.apply_unchecked(roll)
            if events is not None:
                events.append(roll)
            rolls += 1
        if game.phase is ACTION1:
            for seat in range(len(players)):  # seat order; the rules make it irrelevant
                if seat not in game.decisions:
                    _decide(game, seat, passes[seat], bits, events, watch)
        if game.phase is ACTION2:
            _decide(game, game.active, passes[game.active], bits, events, watch)
    return rolls


def _decide(
    game: Game,
    seat: int,
    pass_: Pass,
    bits: Bits,
    events: list[Event] | None,
    watch: Watch | None,
) -> None:
    """One of the player's legal marks or the pass, each equally likely (the draw written
    out, not `draws.pick`: a call per decision costs about 1 % of a playout)."""
    marks = game.legal_marks(pass_.player)
    if watch is not None:
        watch(seat, marks, game.state()._replace(decisions=()))
    choice = bits(RANDOM_BITS) * (len(marks) + 1) >> RANDOM_BITS if marks else 0
    decision = marks[choice] if choice < len(marks) else pass_
    game.apply_unchecked(decision)  # the last decision of an action ends it
    if events is not None:
        events.append(decision)
