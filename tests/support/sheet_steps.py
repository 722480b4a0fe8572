"""Fixture tables for a sheet: steps played on a fresh game, each a do or an assert.

- `Do(event)`: the event is accepted;
- `Refuse(event, words)`: the event is refused with a reason holding `words`, and the game is
  exactly as before (its state, its replay report, every player's legal marks);
- `Check(player, ...)`: the replay report says so (per row: the crosses, the numbers crossed in
  order, the crosses its points are read for, the points, the numbers holding two crosses; the
  bonus rows' boxes, the swap fields, the stair's crossed cells, the rows locked, the total,
  penalties, the game over), and
  the marks named are offered or not.

Rolls are written `R(white1, white2, red=..)`: colour dice not named show 1, and only the dice
still in play are rolled.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware_py.rules import Game, Mark, Pass, Roll, Start, game_report
from support.rules import refused_unchanged


@dataclass(frozen=True)
class Do:
    event: object


@dataclass(frozen=True)
class Refuse:
    event: object
    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class Check:
    player: str
    crosses: dict[str, int] = field(default_factory=dict)
    marks: dict[str, list[int]] = field(default_factory=dict)  # the numbers crossed, in order
    counted: dict[str, int] = field(default_factory=dict)  # the crosses its points are read for
    points: dict[str, int] = field(default_factory=dict)
    doubled: dict[str, list[int]] = field(default_factory=dict)
    bonus: dict[str, list[int]] = field(default_factory=dict)  # a bonus row's boxes, in order
    swaps: str | None = None  # the swap fields' states: u used, p passed, . open
    steps: int | None = None  # Connected, the Steps: the stair's crossed cells
    locked: tuple[str, ...] | None = None  # the rows locked at the table, in order
    total: int | None = None
    penalties: int | None = None
    over: bool | None = None
    offered: tuple[Mark, ...] = ()
    not_offered: tuple[Mark, ...] = ()


class R:
    """A roll in a fixture, made when it is played (it holds the dice then in play)."""

    def __init__(self, w1: int, w2: int, **faces: int) -> None:
        self.white, self.faces = (w1, w2), faces

    def __repr__(self) -> str:
        return f"R{self.white}{self.faces}"

    def on(self, game: Game) -> Roll:
        """The roll on `game` as it is now: every colour die still in play."""
        return Roll(self.white, {c: self.faces.get(c, 1) for c in game.dice_in_play()})


def white(number: int) -> R:
    """A roll whose white sum is `number` (2 to 12; colour dice not named show 1)."""
    return R(1, number - 1) if number <= 7 else R(6, number - 6)


def play(variant: str, players: tuple[str, ...], steps: list) -> Game:
    """Play the steps on a fresh game of `variant`; fails at the first step that is not so."""
    game = Game.start(Start(variant, players))
    for number, step in enumerate(steps):
        where = f"step {number}: {step}"
        if isinstance(step, Do):
            game.apply(_event(game, step.event))
        elif isinstance(step, Refuse):
            refused_unchanged(game, _event(game, step.event), step.words, where)
        else:
            _check(game, step, where)
    return game


def turn(roller: str, others: tuple[str, ...], roll: R, first=(), second=None) -> list:
    """A whole turn's steps: the roll, action-1 marks (the others pass), action 2."""
    steps: list = [Do(roll)]
    marked = {mark.player for mark in first}
    steps += [Do(mark) for mark in first]
    steps += [Do(Pass(name)) for name in (roller, *others) if name not in marked]
    steps.append(Do(second if second is not None else Pass(roller)))
    return steps


def solo(roll: R, first: Mark | None = None, second: Mark | None = None) -> list:
    """A turn of Sam playing alone."""
    return turn("Sam", (), roll, (first,) if first else (), second)


def _event(game: Game, event: object):
    return event.on(game) if isinstance(event, R) else event


ROW_FACTS = ("crosses", "marks", "counted", "points", "doubled")  # Check fields read per row
SWAP_LETTERS = {"used": "u", "passed": "p", "open": "."}


def _check(game: Game, check: Check, where: str) -> None:
    report = game_report(game)
    sheet = report["players"][check.player]
    for fact in ROW_FACTS:
        for row, expected in getattr(check, fact).items():
            actual = sheet["rows"][row][fact]
            assert actual == expected, f"{where}: {row} {fact} is {actual!r}, not {expected!r}"
    for row, numbers in check.bonus.items():
        assert sheet["bonus_rows"][row]["marks"] == numbers, f"{where}: {row} boxes"
    swaps = "".join(SWAP_LETTERS[swap["state"]] for swap in sheet.get("swaps", []))
    wanted = {
        "swaps": (check.swaps, swaps),
        "steps": (check.steps, sheet.get("steps", {}).get("crosses")),
        "locked": (None if check.locked is None else list(check.locked), report["locked"]),
        "total": (check.total, sheet["total"]),
        "penalties": (check.penalties, sheet["penalties"]),
        "over": (check.over, report["over"]),
    }
    for what, (expected, actual) in wanted.items():
        if expected is not None:
            assert actual == expected, f"{where}: {what} is {actual!r}, not {expected!r}"
    legal = game.legal_marks(check.player)
    for mark in check.offered:
        assert mark in legal, f"{where}: {mark} is not offered"
    for mark in check.not_offered:
        assert mark not in legal, f"{where}: {mark} is offered"
