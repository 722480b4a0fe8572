"""Points: the score table per row, variant rewards, penalties, winners."""

from __future__ import annotations

from sheets import Sheet

from .connections import step_points
from .doubles import crosses_in
from .player import PlayerSheet


def row_points(sheet: Sheet, player: PlayerSheet, row: int) -> int:
    """A row's score on the sheet's table, by its crosses (the lock cross included)."""
    if sheet.bonus_rows:
        return sheet.score[counted_crosses(sheet, player, row)]
    if sheet.has_doubles:  # second crosses count; the table stops at 16 crosses ("136")
        return sheet.score[min(crosses_in(player, row), len(sheet.score) - 1)]
    return sheet.score[player.crosses(row)]


def row_crosses(sheet: Sheet, player: PlayerSheet, row: int) -> int:
    """A colour row's own crosses, the lock cross included (on a Double sheet, second crosses
    too)."""
    return crosses_in(player, row) if sheet.has_doubles else player.crosses(row)


def counted_crosses(sheet: Sheet, player: PlayerSheet, row: int) -> int:
    """Big Points: the crosses a colour row scores by: its own and those of the bonus rows
    beside it ("crosses in bonus boxes count for both adjacent colour-rows"), at most as many
    as the score table lists (15: "maximum 120")."""
    crosses = player.crosses(row)
    for k, bonus in enumerate(sheet.bonus_rows):
        if row in bonus.between:
            crosses += player.crosses(len(sheet.rows) + k)
    return min(crosses, len(sheet.score) - 1)


def has_reward(sheet: Sheet, player: PlayerSheet, effect: str) -> bool:
    return any(
        player.rewards >> k & 1 and reward.effect == effect
        for k, reward in enumerate(sheet.rewards)
    )


def reward_points(sheet: Sheet, player: PlayerSheet) -> int:
    """Bonus-b points: the extra-points symbol, and the fewest-crosses row counted twice."""
    points = 0
    for k, reward in enumerate(sheet.rewards):
        if not player.rewards >> k & 1:
            continue
        if reward.effect == "extra-points":
            points += reward.points
        elif reward.effect == "double-fewest-row":
            points += row_points(sheet, player, player.fewest_crosses_rows()[0])
    return points


def penalty_points(sheet: Sheet, player: PlayerSheet) -> int:
    """What the player's penalties cost; nothing once bonus-b's star is earned."""
    if has_reward(sheet, player, "penalties-free"):
        return 0
    return player.penalties * sheet.penalty_points


def total(sheet: Sheet, player: PlayerSheet) -> int:
    rows = sum(row_points(sheet, player, row) for row in range(len(sheet.rows)))
    points = rows + reward_points(sheet, player) - penalty_points(sheet, player)
    return points + step_points(sheet, player) if sheet.pads else points  # Connected: the stair


def winners(sheet: Sheet, players: list[PlayerSheet]) -> list[str]:
    """The players with the highest total, in seat order."""
    return highest({player.name: total(sheet, player) for player in players})


def highest(totals: dict[str, int]) -> list[str]:
    """The names with the highest of `totals`, in the order given (seat order)."""
    best = max(totals.values())
    return [name for name, points in totals.items() if points == best]
