"""Fixture tables for a sheet: steps played on a fresh game, each a do or an assert.

- `Do(event)`: the event is accepted;
- `Refuse(event, words)`: the event is refused with a reason holding `words`, and the game is
  exactly as before (its state, its replay report, every player's legal marks);
- `Check(player, ...)`: the replay report says so (crosses and points per row, the numbers
  holding two crosses, the total, penalties), and the marks named are offered or not.

Rolls are written `R(white1, white2, red=..)`: colour dice not named show 1, and only the dice
still in play are rolled.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from firmware_py.rules import Game, Mark, Pass, Refused, Roll, Start, game_report


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
    points: dict[str, int] = field(default_factory=dict)
    doubled: dict[str, list[int]] = field(default_factory=dict)
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


def play(variant: str, players: tuple[str, ...], steps: list) -> Game:
    """Play the steps on a fresh game of `variant`; fails at the first step that is not so."""
    game = Game.start(Start(variant, players))
    for number, step in enumerate(steps):
        where = f"step {number}: {step}"
        if isinstance(step, Do):
            game.apply(_event(game, step.event))
        elif isinstance(step, Refuse):
            _refused(game, _event(game, step.event), step.words, where)
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
    if isinstance(event, R):
        return Roll(event.white, {c: event.faces.get(c, 1) for c in game.dice_in_play()})
    return event


def _seen(game: Game) -> tuple:
    return game.state(), game_report(game), [game.legal_marks(p.name) for p in game.players]


def _refused(game: Game, event, words: tuple[str, ...], where: str) -> None:
    before = _seen(game)
    with pytest.raises(Refused) as refusal:
        game.apply(event)
    for word in words:
        assert word in refusal.value.reason, f"{where}: {word!r} not in {refusal.value.reason!r}"
    assert _seen(game) == before, f"{where}: the refusal changed the game"


def _check(game: Game, check: Check, where: str) -> None:
    report = game_report(game)
    sheet = report["players"][check.player]
    for row, crosses in check.crosses.items():
        assert sheet["rows"][row]["crosses"] == crosses, f"{where}: {row} crosses"
    for row, points in check.points.items():
        assert sheet["rows"][row]["points"] == points, f"{where}: {row} points"
    for row, numbers in check.doubled.items():
        assert sheet["rows"][row]["doubled"] == numbers, f"{where}: {row} doubled"
    wanted = {
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
