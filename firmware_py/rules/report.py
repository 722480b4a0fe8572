"""The game state as the JSON object of `qwixx-tower replay` (docs/game-log.md)."""

from __future__ import annotations

from typing import Any

from sheets import COLOURS

from . import scoring
from .connections import step_crosses, step_points
from .doubles import crosses_in, second_positions
from .game import Game
from .player import PlayerSheet


def game_report(game: Game) -> dict[str, Any]:
    """The spec's replay output: variant, end, turn, locks, every player's sheet, winners."""
    players = {player.name: player_report(game, player) for player in game.players}
    return {
        "variant": game.sheet.name,
        "over": game.over,
        "reason": game.reason,
        "turn": {"active": game.active_name, "phase": game.phase},
        "locked": [COLOURS[row] for row in game.locked],
        "players": players,
        "winners": scoring.highest({name: sheet["total"] for name, sheet in players.items()}),
    }


def player_report(game: Game, player: PlayerSheet) -> dict[str, Any]:
    sheet = game.sheet
    report = {
        "rows": {COLOURS[row]: row_report(game, player, row) for row in range(len(COLOURS))},
        "penalties": player.penalties,
        "total": scoring.total(sheet, player),
    }
    if sheet.has_lucky_numbers:
        report["lucky"] = list(player.lucky)
    if sheet.bonus_bar:
        report["bonus_bar"] = bonus_bar_report(game, player)
    if sheet.bonus_rows:
        report["bonus_rows"] = bonus_rows_report(game, player)
    if sheet.swaps:
        report["swaps"] = swaps_report(sheet.swaps, player)
    if player.pad is not None:  # Qwixx Connected: the pad played, and the stair's points
        report["pad"] = player.pad.name
    if player.pad is not None and player.pad.steps:
        report["steps"] = {
            "crosses": step_crosses(player),
            "points": step_points(sheet, player),
        }
    if sheet.rewards:
        report["rewards"] = [
            r.symbol for k, r in enumerate(sheet.rewards) if player.rewards >> k & 1
        ]
        report["reward_points"] = scoring.reward_points(sheet, player)
    return report


def row_report(game: Game, player: PlayerSheet, row: int) -> dict[str, Any]:
    numbers = game.sheet.rows[row].numbers
    report = {
        "marks": [numbers[p] for p in player.crossed_positions(row)],
        "crosses": player.crosses(row),
        "locked": player.has_locked(row),
        "points": scoring.row_points(game.sheet, player, row),
    }
    if game.sheet.bonus_rows:  # Big Points: the crosses the points are read for
        report["counted"] = scoring.counted_crosses(game.sheet, player, row)
    if game.sheet.has_doubles:  # Qwixx Double: second crosses count, and which cells hold them
        crosses = crosses_in(player, row)
        report["crosses"] = crosses
        report["counted"] = min(crosses, game.sheet.max_crosses())
        report["doubled"] = [numbers[p] for p in second_positions(player, row)]
    return report


def bonus_rows_report(game: Game, player: PlayerSheet) -> dict[str, Any]:
    """Big Points: each bonus row's crossed numbers, in the order crossed, and their count."""
    sheet, first = game.sheet, len(game.sheet.rows)
    return {
        bonus.name: {
            "marks": [bonus.numbers[p] for p in player.crossed_positions(first + k)],
            "crosses": player.crosses(first + k),
        }
        for k, bonus in enumerate(sheet.bonus_rows)
    }


def bonus_bar_report(game: Game, player: PlayerSheet) -> list[dict[str, Any]]:
    """Bonus-a: each bar box with its colour and state: crossed, forfeited or open."""
    boxes = []
    for box, colour in enumerate(game.sheet.bonus_bar):
        locked = game.closed >> COLOURS.index(colour) & 1 or player.has_locked(
            COLOURS.index(colour)
        )
        if player.bar_used >> box & 1:
            state = "crossed"
        elif box < player.bar_next or locked:
            state = "forfeited"
        else:
            state = "open"
        boxes.append({"colour": colour, "box": state})
    return boxes


def swaps_report(fields: tuple[tuple[int, int], ...], player: PlayerSheet) -> list[dict[str, Any]]:
    """X-Change: each swap field left to right, its two numbers and its state: used, passed
    (left of a used field, so gone) or open."""
    first = player.next_swap()
    report = []
    for k, pair in enumerate(fields):
        if player.swaps >> k & 1:
            state = "used"
        elif k < first:
            state = "passed"
        else:
            state = "open"
        report.append({"field": k + 1, "numbers": list(pair), "state": state})
    return report
