"""A finished game in figures, as plain data: its breakdown and its story.

The breakdown is each player's sheet summed up (points and crosses per row, penalties, bonus
points, the total) and who locked which row; the story is every player's total after each
roll, with the locks and penalties marked where they happened. Both are values the table's
view carries at game over (`TableView.story`), so every surface draws the same figures: the
main display's bars, the terminal's blocks, the phones' SVG, and the history of past games,
which reads them from the journal's logs (`story_of` replays a log's events).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from firmware_py.rules import Event, Game, Roll, Start, scoring
from sheets import COLOURS

LOCK, PENALTY = "lock", "penalty"  # what a mark on the story says happened


@dataclass(frozen=True)
class RowFigures:
    """One row of a player's sheet at the end: crosses (the lock's included), points, and
    whether this player crossed its lock."""

    colour: str
    crosses: int
    points: int
    locked: bool = False


@dataclass(frozen=True)
class PlayerFigures:
    """One player's sheet summed up: the rows, the penalties and what they cost, bonus points
    (a bonus sheet's rewards), and the total they add up to."""

    name: str
    rows: tuple[RowFigures, ...]
    penalties: int
    penalty_points: int  # what the penalties cost, as a positive number
    bonus_points: int
    total: int


@dataclass(frozen=True)
class Breakdown:
    """Every player's figures (seat order), the winners, and each row locked, in the order
    they locked, with the players who crossed its lock."""

    title: str
    variant: str
    players: tuple[PlayerFigures, ...]
    winners: tuple[str, ...]
    locks: tuple[tuple[str, tuple[str, ...]], ...] = ()
    reason: str = ""  # why the game ended: "locks", "penalties", "" (not over)

    def ranked(self) -> tuple[PlayerFigures, ...]:
        """The players, highest total first (seat order among equals)."""
        return tuple(sorted(self.players, key=lambda player: -player.total))

    def most_points(self) -> int:
        """The largest row score anyone has: where a chart's bars end."""
        return max([1, *(row.points for player in self.players for row in player.rows)])


@dataclass(frozen=True)
class StoryMark:
    """Something the story marks: after roll `roll` (1, the first), `player` locked the
    `colour` row, or took a penalty."""

    roll: int
    player: str
    kind: str  # LOCK or PENALTY
    colour: str = ""


@dataclass(frozen=True)
class GameStory:
    """A game as it went: the breakdown at its end, every player's total (seat order) before
    the first roll and after each roll, and the locks and penalties, roll by roll."""

    breakdown: Breakdown
    totals: tuple[tuple[int, ...], ...]
    marks: tuple[StoryMark, ...] = ()
    number: int = 0  # the game's number in the journal (0: not known)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(player.name for player in self.breakdown.players)

    @property
    def rolls(self) -> int:
        return len(self.totals) - 1

    def line_of(self, name: str) -> tuple[int, ...]:
        """One player's total after each roll, the start (0) first."""
        seat = self.names.index(name)
        return tuple(totals[seat] for totals in self.totals)

    def lowest(self) -> int:
        """The lowest total on the story (penalties take it below 0): the chart's floor."""
        return min(min(totals) for totals in self.totals)

    def highest(self) -> int:
        return max(1, max(max(totals) for totals in self.totals))


def breakdown_of(game: Game) -> Breakdown:
    """The breakdown of `game` as it stands (at its end, the final one)."""
    sheet = game.sheet
    players = tuple(_player_figures(game, seat) for seat in range(len(game.players)))
    locks = tuple(
        (COLOURS[row], tuple(p.name for p in game.players if p.has_locked(row)))
        for row in game.locked
    )
    winners = tuple(game.winners()) if game.over else ()
    return Breakdown(sheet.title, sheet.name, players, winners, locks, game.reason or "")


def _player_figures(game: Game, seat: int) -> PlayerFigures:
    sheet, player = game.sheet, game.players[seat]
    rows = tuple(
        RowFigures(
            COLOURS[row],
            scoring.row_crosses(sheet, player, row),
            scoring.row_points(sheet, player, row),
            player.has_locked(row),
        )
        for row in range(len(sheet.rows))
    )
    return PlayerFigures(
        player.name,
        rows,
        player.penalties,
        scoring.penalty_points(sheet, player),
        scoring.reward_points(sheet, player),
        scoring.total(sheet, player),
    )


def story_of(events: Sequence[Start | Event], number: int = 0) -> GameStory:
    """The story of a game log's events (its start first), replayed by the referee: every
    player's total after each roll (a roll's point is taken when the next roll comes, or at
    the end), with the locks and penalties of each roll. `Refused` if an event breaks a rule."""
    start = events[0]
    if not isinstance(start, Start):
        raise TypeError("a game's events begin with its start")
    game = Game.start(start)
    points = [_totals(game)]
    marks: list[StoryMark] = []
    before = _marked(game)
    rolls = 0
    for event in events[1:]:
        if isinstance(event, Roll):
            if rolls:
                points.append(_totals(game))
                marks += _new_marks(before, game, rolls)
                before = _marked(game)
            rolls += 1
        game.apply(event)  # type: ignore[arg-type]  # (a second start is refused)
    if rolls:
        points.append(_totals(game))
        marks += _new_marks(before, game, rolls)
    return GameStory(breakdown_of(game), tuple(points), tuple(marks), number)


def _totals(game: Game) -> tuple[int, ...]:
    return tuple(scoring.total(game.sheet, player) for player in game.players)


Marked = tuple[tuple[int, int], ...]  # per seat: penalties, and the mask of rows locked


def _marked(game: Game) -> Marked:
    return tuple(
        (player.penalties, sum(1 << row for row in range(len(COLOURS)) if player.has_locked(row)))
        for player in game.players
    )


def _new_marks(before: Marked, game: Game, roll: int) -> list[StoryMark]:
    """The locks and penalties `game` has that it had not at `before`, as marks of `roll`."""
    marks: list[StoryMark] = []
    for seat, ((penalties, locks), (now_penalties, now_locks)) in enumerate(
        zip(before, _marked(game), strict=True)
    ):
        name = game.players[seat].name
        fresh = now_locks & ~locks
        marks += [StoryMark(roll, name, LOCK, colour) for row, colour in enumerate(COLOURS)
                  if fresh >> row & 1]  # fmt: skip
        marks += [StoryMark(roll, name, PENALTY)] * (now_penalties - penalties)
    return marks
