"""Random playouts (`play_out`) are games the referee accepts, move for move.

Computer players simulate games with `play_out`, which skips the referee's checks for speed. These
tests replay every playout through the checked path, `Game.apply`, and require three things: each
event is accepted; each decision is the one a player picking uniformly from `legal_marks(name)`
plus a pass would make with the same random number (so the playout offers exactly the legal
choices, in the same order); and the playout ends in the same state, with the same scores, as the
replay. Dice, too, must be the ones the random numbers say.

On sheets where a cross sets nothing else off, `play_out` plays on integers of its own
(rules/plain.py), a second statement of the turn rules. The last tests play the same random game
through it and through the referee, for every sheet file in sheets/ (a sheet added there is
covered without a change here), and compare them decision by decision: the options each player
is offered, and the state before each decision and at the end.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.rules import PROPERTY_SETTINGS, cross, new_game, starts

from firmware_py.rules import (
    ACTION1,
    ACTION2,
    OVER,
    ROLL,
    Game,
    GameState,
    Mark,
    Pass,
    Roll,
    Start,
    game_report,
    plain,
)
from firmware_py.rules.rollout import play_out
from sheets import sheet_names
from sheets.loader import SHEET_DIR

# Every sheet file shipped, found in the folder itself.
SHEET_FILES = sorted(path.stem for path in SHEET_DIR.glob("*.toml"))


class RecordedDraws(random.Random):
    """Random bits that remember themselves, for checking what they decided."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.values: list[int] = []

    def getrandbits(self, k: int) -> int:
        assert k == 30, "playouts draw 30 bits at a time (one digit of a Python int)"
        value = super().getrandbits(k)
        self.values.append(value)
        return value


def choice_of(number: int, count: int) -> int:
    """The one of `count` choices a 30-bit random number picks: the spec of the playouts'
    draws, written out here independently of rules/rollout.py."""
    return number * count // 2**30


def check_against_the_referee(game: Game, events: list, draws: list[int]) -> Game:
    """Replay a playout's events on `game` through `Game.apply`, checking each one against
    what the same random numbers choose from the legal moves; return the replayed game."""
    numbers = iter(draws)
    for event in events:
        if isinstance(event, Roll):
            assert event == expected_roll(game, numbers)
        else:
            assert event == expected_decision(game, event.player, numbers)
        game.apply(event)  # raises Refused if the referee would not accept it
    assert next(numbers, None) is None, "the playout drew numbers it did not use"
    return game


def expected_roll(game: Game, numbers) -> Roll:
    """One number picks both white dice, one every colour die in play: a roll of n dice is an
    n-digit number in base `faces`, the first die the most significant digit."""
    white = digits(choice_of(next(numbers), game.sheet.dice_faces**2), game.sheet.dice_faces, 2)
    in_play = game.dice_in_play()
    count = game.sheet.dice_faces ** len(in_play)
    colours = digits(choice_of(next(numbers), count), game.sheet.dice_faces, len(in_play))
    return Roll(white, dict(zip(in_play, colours, strict=True)))


def digits(number: int, faces: int, dice: int) -> tuple[int, ...]:
    return tuple(number // faces ** (dice - 1 - die) % faces + 1 for die in range(dice))


def expected_decision(game: Game, name: str, numbers):
    """A player with a mark to choose draws one number; one who can only pass draws none."""
    options = [*game.legal_marks(name), Pass(name)]
    if len(options) == 1:
        return options[0]
    return options[choice_of(next(numbers), len(options))]


def table_state(game: Game) -> tuple:
    """Everything that changes as a game is played (`Game.state`), but the last turn's action-1
    decisions, which nothing reads once the game is over: a field a playout forgets to write
    back from its own copies shows here."""
    return game.state()._replace(decisions=())


def play_with_record(game: Game, seed: int) -> tuple[list, list[int]]:
    draws = RecordedDraws(seed)
    events: list = []
    play_out(game, draws, events)
    return events, draws.values


@settings(PROPERTY_SETTINGS, max_examples=60)
@given(variant=st.sampled_from(sheet_names()), data=st.data(), seed=st.integers(0, 2**32))
def test_a_playout_is_a_game_the_referee_accepts_decision_for_decision(variant, data, seed):
    start = data.draw(starts(variant))
    played = Game.start(start)
    events, draws = play_with_record(played, seed)
    replayed = check_against_the_referee(Game.start(start), events, draws)
    assert played.phase == OVER == replayed.phase
    assert table_state(played) == table_state(replayed)


@settings(PROPERTY_SETTINGS, max_examples=40)
@given(
    variant=st.sampled_from(sheet_names()),
    data=st.data(),
    seed=st.integers(0, 2**32),
    events_first=st.integers(0, 60),
)
def test_a_playout_from_the_middle_of_a_turn_finishes_that_turn_by_the_rules(
    variant, data, seed, events_first
):
    """A computer player simulates from where the table is: mid action 1, some players decided."""
    start = data.draw(starts(variant))
    table = Game.start(start)
    events, _ = play_with_record(Game.start(start), seed)
    for event in events[:events_first]:
        table.apply(event)
    position = table.copy()
    events, draws = play_with_record(position, seed + 1)
    replayed = check_against_the_referee(table, events, draws)
    assert table_state(position) == table_state(replayed)


def test_a_playout_leaves_other_copies_of_the_game_alone():
    """Simulating ahead on a copy must not touch the game the table is playing."""
    table = Game.start(Start("bonus-b", ("Ann", "Ben", "Cat")))
    table.apply(Roll((3, 4), {"red": 1, "yellow": 2, "green": 3, "blue": 4}))
    table.apply(Pass("Ann"))
    before = game_report(table)
    for seed in range(20):
        play_out(table.copy(), random.Random(seed))
    assert game_report(table) == before
    assert table.phase == ACTION1 and table.waiting_for() == ["Ben", "Cat"]


# ---- the fast path against the referee, decision by decision ----------------------------------

# A decision as either side saw it: the seat deciding, the marks it was offered, the state and
# every player's total before it, and the decision made.
Decision = tuple[int, list[Mark], GameState, list[int], Mark | Pass]


def drawn_numbers(seed: int) -> Iterator[int]:
    """The random numbers a playout with `random.Random(seed)` draws, one by one."""
    rng = random.Random(seed)
    while True:
        yield rng.getrandbits(30)


def refereed(game: Game, seed: int) -> list[Decision]:
    """Play `game` to its end through `Game.apply`, each roll and decision drawn as a playout
    with `seed` would draw them, from the referee's own legal marks and a pass."""
    numbers = drawn_numbers(seed)
    decisions: list[Decision] = []
    while not game.over:
        if game.phase == ROLL:
            game.apply(expected_roll(game, numbers))
            continue
        name = game.waiting_for()[0]  # the first undecided seat, as a playout goes
        before = (game.seat[name], game.legal_marks(name), unrecorded(game), totals(game))
        decision = expected_decision(game, name, numbers)
        decisions.append((*before, decision))
        game.apply(decision)
    return decisions


def careful_opening(game: Game, seed: int, events_after: int) -> None:
    """Careful players, who take the mark that skips the fewest numbers, play `game` until a
    row may be locked, and `events_after` events more: uniformly random players fill rows so
    slowly that they lock one in 2 % of games, and the playouts should start near locks."""
    numbers = drawn_numbers(seed)
    lockable = False
    while not game.over and events_after >= 0:
        if game.phase == ROLL:
            game.apply(expected_roll(game, numbers))
        else:
            name = game.waiting_for()[0]
            marks = game.legal_marks(name)
            game.apply(min(marks, key=lambda mark: skipped(game, mark)) if marks else Pass(name))
        lockable = lockable or any(
            mask.bit_count() >= game.sheet.lock_threshold
            for player in game.players
            for mask in player.rows
        )
        events_after -= lockable


def skipped(game: Game, mark: Mark) -> int:
    """How many numbers a mark leaves behind in its row."""
    row = game.sheet.row_index(mark.row)
    position = game.sheet.positions[row][mark.number]
    return position - game.player(mark.player).last_position(row) - 1


def played_out(game: Game, seed: int) -> list[Decision]:
    """Play `game` out with `play_out`, watching each decision; returns the decisions."""
    seen: list[tuple[int, list[Mark], GameState, list[int]]] = []
    scratch = game.copy()

    def watch(seat: int, marks: list[Mark], state: GameState) -> None:
        scratch.restore(state)
        seen.append((seat, list(marks), state, totals(scratch)))

    events: list = []
    play_out(game, random.Random(seed), events, watch)
    made = [event for event in events if not isinstance(event, Roll)]
    assert len(made) == len(seen), "the watch missed a decision, or saw one not made"
    return [(*before, event) for before, event in zip(seen, made, strict=True)]


def unrecorded(game: Game) -> GameState:
    """The game's state but the action-1 decisions so far, which the fast path does not keep
    (only whether the active player crossed, which shows in its penalties at the turn's end)."""
    return game.state()._replace(decisions=())


def totals(game: Game) -> list[int]:
    return [game.total(player.name) for player in game.players]


def compare_decisions(fast: list[Decision], referee: list[Decision]) -> None:
    """The same decisions, offered the same options in the same order from the same state."""
    for step, (mine, theirs) in enumerate(zip(fast, referee, strict=False)):
        where = f"decision {step} (seat {theirs[0]})"
        assert mine[0] == theirs[0], f"{where}: another player decides"
        assert mine[2] == theirs[2], f"{where}: the state before it differs"
        assert mine[3] == theirs[3], f"{where}: the totals before it differ"
        assert mine[1] == theirs[1], f"{where}: the options differ"
        assert mine[4] == theirs[4], f"{where}: the same number chose differently"
    assert len(fast) == len(referee), "one game ended before the other"


def check_fast_path(start: Start, seed: int, events_after: int | None) -> None:
    """Play a game out both ways with the same random numbers, from its start (None) or from
    `events_after` events after a careful opening made a row lockable, and require the same
    decisions and the same end."""
    table = Game.start(start)
    if events_after is not None:
        careful_opening(table, seed + 1, events_after)
    fast_game, referee_game = table.copy(), table.copy()
    fast = played_out(fast_game, seed)
    compare_decisions(fast, refereed(referee_game, seed))
    assert unrecorded(fast_game) == unrecorded(referee_game), "the games end differently"
    assert totals(fast_game) == totals(referee_game)
    assert fast_game.winners() == referee_game.winners()
    assert fast_game.over


@pytest.mark.parametrize("variant", SHEET_FILES)
@settings(PROPERTY_SETTINGS, max_examples=40)
@given(
    data=st.data(),
    seed=st.integers(0, 2**32),
    events_after=st.none() | st.integers(0, 30),
)
def test_the_fast_path_plays_every_sheet_as_the_referee_does(variant, data, seed, events_after):
    """Every rule a turn has, on every sheet: classic (seeds 000, 001, 002, 003, 004) "The way
    the game is played": action 1, the white sum for every player in any row; action 2, one
    white die and one colour die for the active player only; a misthrow for an active player
    who crossed nothing in either; "Ending the game": a row locked after five crosses (Longo:
    six, with either of its last two numbers) and its die "removed from the game", the end at
    two locked rows or a fourth misthrow. Longo (seed 000): a lucky number's cross in a row with
    the fewest crosses. Mixx A and B (seed 000): a box of the die's colour in any row, and the
    printed order. Bonus A and B (seed 000): the crosses a bonus sets off. Played from the start
    and picked up mid-turn, as a computer player picks up a game at the table."""
    check_fast_path(data.draw(starts(variant)), seed, events_after)


def test_the_fast_path_takes_the_die_of_a_row_locked_in_action_1_out_of_action_2():
    """Mixx A (seeds 000, 002): "if, for example, a player completes the top row ... by crossing
    out the red 12, then the red dice comes out of play immediately", and the red boxes of the
    other rows may be crossed only "with the help of the two white dice". Random games seldom
    lock a row in action 1 and then roll a colour sum that would reach such a box, so here the
    fast path is picked up in that turn's action 2: white 6 and red 2 make 8, and blue 8 is a red
    box, which neither the referee nor the fast path may offer."""
    game = new_game("mixx-a", ["Tim"])
    cross(game, "Tim", *[("red", n) for n in (2, 3, 4, 5, 6)])
    game.apply(Roll((6, 6), {"red": 2, "yellow": 1, "green": 1, "blue": 1}))
    game.apply(Mark("Tim", "red", 12))
    assert game.phase == ACTION2 and game.dice_in_play() == ["yellow", "green", "blue"]
    for seed in range(5):
        referee = refereed(game.copy(), seed)
        assert Mark("Tim", "blue", 8) not in referee[0][1]
        compare_decisions(played_out(game.copy(), seed), referee)


def test_the_comparison_catches_a_fast_path_that_never_opens_a_lock(monkeypatch):
    """The comparison has teeth: a fast path whose crosses forget to open the lock cells once a
    row has its five crosses (classic, seed 000: "he must first have made at least five
    crosses") offers fewer options than the referee, and is caught."""
    honest = plain._cross

    def forgetful(rows, opens, seat, entry, lock_bits, threshold):
        honest(rows, opens, seat, entry, lock_bits, threshold + 100)

    monkeypatch.setattr(plain, "_cross", forgetful)
    start = Start("classic", ("Ann", "Ben"))
    with pytest.raises(AssertionError, match=r"options differ|state before it differs"):
        for seed in range(40):
            check_fast_path(start, seed, seed % 10)
