"""Shared helpers for the rules tests: build sheet states by playing whole turns.

Sheet layouts come straight from the sheet data files (sheets/*.toml), read here with tomllib so
the tests do not depend on the engine's own loader. Everything else goes through the engine's
public API: `Game.apply`, `legal_marks`, `waiting_for`, `game_report`.
"""

from __future__ import annotations

import copy
import functools
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from firmware_py.rules import Game, Mark, Pass, Refused, Roll, Start, game_report
from sheets import load_sheet

COLOURS = ("red", "yellow", "green", "blue")
SHEET_DIR = Path(__file__).resolve().parents[2] / "sheets"
# The score table printed on the classic sheets (seed 000, "Scoring"): points for 0..12 crosses.
CLASSIC_POINTS = (0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78)
# The Longo table (seed 000, Longo "Scoring"): 13x = 91, 14x = 105, 15x = 120.
LONGO_POINTS = (*CLASSIC_POINTS, 91, 105, 120)

Step = tuple | Mark  # (row, number) or a Mark (its player is filled in)


@functools.cache
def sheet_data(variant: str) -> dict:
    """The sheet file of a variant, as the product owner gave it."""
    return tomllib.loads((SHEET_DIR / f"{variant}.toml").read_text(encoding="utf-8"))


def row_numbers(variant: str, row: str) -> list[int]:
    return list(sheet_data(variant)["rows"][COLOURS.index(row)]["numbers"])


def cell_colour(variant: str, row: str, number: int) -> str:
    data = sheet_data(variant)["rows"][COLOURS.index(row)]
    colours = data.get("colours")
    if colours is None:
        return row
    return colours[data["numbers"].index(number)]


def faces(variant: str) -> int:
    return sheet_data(variant)["dice_faces"]


# ---- games and their state -------------------------------------------------------------------


def new_game(variant: str = "classic", players: Iterable[str] = ("Ann", "Ben"), lucky=None) -> Game:
    players = tuple(players)
    if variant == "longo" and lucky is None:
        lucky = {name: (2, 16) for name in players}
    return Game.start(Start(variant, players, lucky))


def report(game: Game) -> dict:
    return game_report(game)


def refused_unchanged(game: Game, event, words: Iterable[str], where: str) -> None:
    """`event` is refused with a reason holding each of `words`, and the game is exactly as
    before: its state, its replay report, every player's legal marks (a fixture's step)."""
    before = (game.state(), report(game), [game.legal_marks(p.name) for p in game.players])
    with pytest.raises(Refused) as refusal:
        game.apply(event)
    for word in words:
        assert word in refusal.value.reason, f"{where}: {word!r} not in {refusal.value.reason!r}"
    after = (game.state(), report(game), [game.legal_marks(p.name) for p in game.players])
    assert after == before, f"{where}: the refusal changed the game"


def variant_of(game: Game) -> str:
    return report(game)["variant"]


def active(game: Game) -> str:
    return report(game)["turn"]["active"]


def names(game: Game) -> list[str]:
    return list(report(game)["players"])


def marks(game: Game, name: str, row: str) -> list[int]:
    """The numbers crossed in a row, in the order crossed (the report's `marks`)."""
    return report(game)["players"][name]["rows"][row]["marks"]


def row_report(game: Game, name: str, row: str) -> dict:
    return report(game)["players"][name]["rows"][row]


def locked_rows(game: Game) -> list[str]:
    return report(game)["locked"]


def in_play(game: Game) -> list[str]:
    """The colour dice a roll must hold now: those whose row is not locked."""
    locked = set(locked_rows(game))
    return [colour for colour in COLOURS if colour not in locked]


def penalties(game: Game) -> dict[str, int]:
    return {name: p["penalties"] for name, p in report(game)["players"].items()}


# ---- dice ------------------------------------------------------------------------------------


def whites(total: int, faces_: int = 6) -> tuple[int, int]:
    """Two white dice showing `total`."""
    first = min(faces_, total - 1)
    second = total - first
    assert 1 <= second <= faces_, f"two d{faces_} cannot show {total}"
    return first, second


def roll(game: Game, white: tuple[int, int], **colours: int) -> Roll:
    """A roll of both white dice and exactly the colour dice in play (unnamed ones show 1)."""
    return Roll(tuple(white), {colour: colours.get(colour, 1) for colour in in_play(game)})


def roll_sum(game: Game, total: int, **colours: int) -> Roll:
    return roll(game, whites(total, faces(variant_of(game))), **colours)


def dice_for(game: Game, total: int | None, second: Mark | None) -> Roll | None:
    """A roll whose white sum is `total` and on which `second` is a white-plus-colour sum.

    None when no such roll exists (e.g. the colour die of the cell is out of the game).
    """
    variant = variant_of(game)
    top = faces(variant)
    if second is None:
        return roll_sum(game, total)
    colour = cell_colour(variant, second.row, second.number)
    if colour not in in_play(game):
        return None
    splits = (
        [(a, total - a) for a in range(1, top + 1) if 1 <= total - a <= top]
        if total is not None
        else [(a, b) for a in range(1, top + 1) for b in range(1, top + 1)]
    )
    for pair in splits:
        for white in pair:
            face = second.number - white
            if 1 <= face <= top:
                return roll(game, pair, **{colour: face})
    return None


# ---- playing turns ---------------------------------------------------------------------------


def as_mark(name: str, step: Step) -> Mark:
    if isinstance(step, Mark):
        return step._replace(player=name)
    return Mark(name, *step)


def play_turn(
    game: Game,
    first: Mapping[str, Step] | None = None,
    second: Step | None = None,
    white: tuple[int, int] | None = None,
    dice: Roll | None = None,
) -> None:
    """One whole turn: a roll, the action-1 marks in `first` (everyone else passes), then the
    active player's action-2 mark `second` (or a pass), if the game gets to action 2.

    The dice are chosen to fit the marks unless `white` or `dice` are given.
    """
    assert game.phase == "roll", f"play_turn needs a game waiting for a roll, not {game.phase}"
    player = active(game)
    marks1 = {name: as_mark(name, step) for name, step in (first or {}).items()}
    mark2 = as_mark(player, second) if second is not None else None
    if dice is None:
        total = sum(white) if white is not None else None
        if total is None:
            sums = {mark.number for mark in marks1.values() if not mark.lucky}
            assert len(sums) <= 1, f"action-1 marks of one turn share a number, not {sums}"
            total = sums.pop() if sums else None
        if total is None and mark2 is None:
            total = 7
        if white is not None and mark2 is None:
            dice = roll(game, white)
        else:
            dice = dice_for(game, total, mark2)
            assert dice is not None, f"no roll makes {total} and then {mark2}"
    game.apply(dice)
    for name in game.waiting_for():
        game.apply(marks1.get(name) or Pass(name))
    if game.phase == "action2":
        game.apply(mark2 or Pass(player))
    else:
        assert mark2 is None, "the game ended after action 1, so there is no action 2"


def pass_turn(game: Game) -> None:
    """A turn in which nobody crosses anything: the active player takes a penalty."""
    play_turn(game, white=(3, 4))


def advance_to(game: Game, name: str) -> None:
    """Pass turns (each costing the roller a penalty) until `name` is the player to roll."""
    for _ in range(len(names(game))):
        if active(game) == name:
            return
        pass_turn(game)
    raise AssertionError(f"{name} never became the active player")


def build(game: Game, plan: Mapping[str, Iterable[Step]], allow_penalties: bool = False) -> None:
    """Play whole turns until every player in `plan` has made their listed marks, in order.

    Each turn the active player crosses their own next numbers (action 1, then action 2) or,
    when others have more left to do, serves them with the white sum and crosses their own in
    action 2. Other players cross in action 1 whenever the white sum is their next number. A
    plan that would leave the active player crossing nothing (a penalty) is an error unless
    `allow_penalties`.
    """
    queues = {name: [as_mark(name, step) for step in steps] for name, steps in plan.items()}
    for queue in queues.values():
        assert not any(mark.lucky for mark in queue), "build() does not make lucky crosses"
    for _ in range(500):
        if not any(queues.values()):
            return
        assert game.phase == "roll", f"the game is {game.phase} with marks still planned"
        player = active(game)
        own = queues.get(player, [])
        others = {name: q for name, q in queues.items() if name != player and q}
        busiest = max(others, key=lambda name: len(others[name]), default=None)
        first: dict[str, Mark] = {}
        second = None
        total = None
        if own:
            # Two own crosses only while ahead of everyone else, so nobody runs dry early.
            two = len(own) >= 2 and (busiest is None or len(own) > len(others[busiest]))
            if not two and busiest is not None and own[0].number != others[busiest][0].number:
                total = others[busiest][0].number
                if dice_for(game, total, own[0]) is not None:
                    second = own.pop(0)
                else:
                    total = None
            if total is None:
                total = own[0].number
                first[player] = own.pop(0)
                if two and dice_for(game, total, own[0]) is not None:
                    second = own.pop(0)
        else:
            assert allow_penalties, f"the plan leaves {player} nothing to cross on their turn"
            total = others[busiest][0].number
        for name, queue in others.items():
            if queue and queue[0].number == total:
                first[name] = queue.pop(0)
        before = penalties(game)
        play_turn(game, first, second, dice=dice_for(game, total, second))
        if not allow_penalties:
            assert penalties(game) == before, "build() made someone take a penalty"
    raise AssertionError("build() did not finish its plan")


def cross(game: Game, name: str, *steps: Step) -> None:
    """`name` makes these marks in turn, without penalties for anyone (single-player games)."""
    build(game, {name: steps})


# ---- probing legality ------------------------------------------------------------------------


def crossable(game: Game, name: str, row: str) -> set[int]:
    """The numbers of `row` that `name` may cross in action 1 of the next turn.

    Tried on copies of the game: one roll per number, with the white dice showing that number.
    Also checks that `legal_marks` agrees with what `apply` accepts.
    """
    assert game.phase == "roll"
    variant = variant_of(game)
    result = set()
    for number in row_numbers(variant, row):
        trial = copy.deepcopy(game)
        trial.apply(roll_sum(trial, number))
        mark = Mark(name, row, number)
        listed = mark in trial.legal_marks(name)
        try:
            trial.apply(mark)
        except Refused:
            accepted = False
        else:
            accepted = True
        assert listed == accepted, f"legal_marks and apply disagree on {mark}"
        if accepted:
            result.add(number)
    return result


def state(game: Game) -> tuple:
    """Everything a player at the table can see of the game."""
    players = names(game)
    return (
        report(game),
        game.phase,
        game.reason,
        tuple(game.locked),
        tuple(game.waiting_for()),
        {name: list(game.legal_marks(name)) for name in players},
        {name: game.can_pass(name) for name in players},
        {name: game.can_undo(name) for name in players},
    )


def refused(game: Game, event, *words: str) -> str:
    """Apply an event that must be refused; check the state is unchanged and that the reason
    mentions every one of `words` (case-insensitive). Returns the reason."""
    before = state(game)
    with pytest.raises(Refused) as info:
        game.apply(event)
    reason = info.value.reason
    assert isinstance(reason, str) and reason.strip(), "a refusal must say why"
    assert state(game) == before, f"the refused {event} changed the game"
    for word in words:
        assert word.lower() in reason.lower(), f"{word!r} not in the reason {reason!r}"
    return reason


# ---- game logs ---------------------------------------------------------------------------------


class RecordingGame(Game):
    """A game that keeps every accepted event, as the tower's journal does."""

    log: list

    def apply(self, event) -> None:
        super().apply(event)
        self.log.append(event)


def recording_game(variant="classic", players=("Ann", "Ben"), lucky=None) -> RecordingGame:
    players = tuple(players)
    if variant == "longo" and lucky is None:
        lucky = {name: (2, 16) for name in players}
    start = Start(variant, players, lucky)
    game = RecordingGame.start(start)
    game.log = [start]
    return game


PROPERTY_SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def starts(draw, variant: str) -> Start:
    count = draw(st.integers(1, 5))
    names = tuple(f"P{i}" for i in range(count))
    lucky = None
    if load_sheet(variant).has_lucky_numbers:
        pairs = st.lists(st.integers(2, 16), min_size=2, max_size=2, unique=True).map(tuple)
        lucky = {name: draw(pairs) for name in names}
    return Start(variant, names, lucky)
