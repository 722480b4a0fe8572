"""`Game.copy` and `Game.state`: complete, so that a trial or a playout never touches the game.

The referee tries every event on a copy before it journals it, and computer players play
thousands of games out on copies. A field added to `Game` and forgotten by `copy` would let a
trial change the live game; forgotten by `state`/`restore`, a playout's result would go stale.
These tests fail as soon as an attribute is in neither `Game.SETUP`, `Game.CACHES` nor
`GameState`, or is shared between a game and its copy while it can change.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from support.rules import new_game, state

from firmware_py.rules import Game, Pass, Roll
from firmware_py.rules.game import GameState, Phase
from firmware_py.rules.rollout import play_out
from sheets import sheet_names

IMMUTABLE = (int, str, tuple, type(None), Phase, Roll)  # Roll's dict is replaced, never changed


def lucky_for(variant: str, names: tuple[str, ...]) -> dict | None:
    return {name: (5, 9) for name in names} if variant == "longo" else None


def played(variant: str, seed: int, events: int) -> Game:
    """A game some random legal events in (a roll, then marks and passes, possibly to its end)."""
    names = ("Ann", "Ben", "Cleo")
    game = new_game(variant, names, lucky_for(variant, names))
    rng = random.Random(seed)
    faces = game.sheet.dice_faces
    for _ in range(events):
        if game.over:
            break
        if game.phase == Phase.ROLL:
            colours = {c: rng.randint(1, faces) for c in game.dice_in_play()}
            game.apply(Roll((rng.randint(1, faces), rng.randint(1, faces)), colours))
            continue
        name = rng.choice(game.waiting_for())
        options = [*game.legal_marks(name), Pass(name)]
        game.apply(rng.choice(options))
    return game


def state_attribute(field: str, game: Game) -> str:
    """The `Game` attribute a `GameState` field stands for (internal ones start with _)."""
    return field if field in vars(game) else f"_{field}"


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sheet_names()), st.integers(0, 2**32), st.integers(0, 80))
def test_every_attribute_of_a_game_is_setup_state_or_a_cache(variant, seed, events):
    game = played(variant, seed, events)
    state_fields = {state_attribute(field, game) for field in GameState._fields}
    assert set(vars(game)) == set(Game.SETUP) | set(Game.CACHES) | state_fields


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sheet_names()), st.integers(0, 2**32), st.integers(0, 80))
def test_a_copy_shares_nothing_that_can_change(variant, seed, events):
    game = played(variant, seed, events)
    twin = game.copy()
    assert twin.state() == game.state()
    for field in GameState._fields:
        name = state_attribute(field, game)
        mine, its = getattr(game, name), getattr(twin, name)
        assert isinstance(mine, IMMUTABLE) or mine is not its, f"copy shares {name}"
    for player, copied in zip(game.players, twin.players, strict=True):
        assert player is not copied and player.rows is not copied.rows


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sheet_names()), st.integers(0, 2**32), st.integers(0, 80))
def test_playing_a_copy_out_leaves_the_game_as_it_was(variant, seed, events):
    """What the referee's trial and a computer player's playout rely on."""
    game = played(variant, seed, events)
    seen, kept = state(game), game.state()
    twin = game.copy()
    play_out(twin, random.Random(seed))
    assert twin.over
    assert state(game) == seen and game.state() == kept


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sheet_names()), st.integers(0, 2**32), st.integers(0, 80))
def test_restoring_a_state_brings_back_the_game_a_player_saw(variant, seed, events):
    game = played(variant, seed, events)
    seen, kept = state(game), game.state()
    play_out(game, random.Random(seed))
    game.restore(kept)
    assert game.state() == kept and state(game) == seen
