"""What the table says happened: each event, and the end of a game, in words."""

from __future__ import annotations

from firmware_py.rules import EndReason, Event, Game, Mark, Pass, Refused, Roll
from firmware_py.rules.connections import chain_words
from firmware_py.rules.doubles import twice_words
from firmware_py.rules.player import PlayerSheet
from sheets import COLOURS


def describe(event: Event, game: Game) -> str:
    """One event in words, for the table's news (`game` as it was before the event)."""
    if isinstance(event, Roll):
        dice = ", ".join(f"{c} {f}" for c, f in event.colours.items())
        return f"{game.active_name} rolls white {event.white[0]}+{event.white[1]}; {dice}"
    if isinstance(event, Mark):
        lucky = " (lucky)" if event.lucky else ""
        again = twice_words(game, event)  # Double: " again", " x2"
        crossed = f"{event.player} crosses {event.row} {event.number}{again}{lucky}"
        if event.swap is not None:  # X-Change: the field and what it traded
            crossed += " " + swap_words(event, game)
        chain = chain_words(game.sheet, game.player(event.player), event.row, event.number)
        return crossed + chain + bonus_words(bonus_crosses(event, game))
    if isinstance(event, Pass):
        return f"{event.player} passes"
    return f"{event.player} takes it back"


def mark_words(mark: Mark) -> str:
    """A mark as a choice to offer, told apart from every other choice of the same cell:
    "green 9", "green 9 (lucky)", "green 9 → 2 in red" (Bonus B: where its two bonus crosses go),
    "red 3 (swap field 3)" (X-Change: the field it uses)."""
    words = f"{mark.row} {mark.number}"
    if mark.lucky:
        words += " (lucky)"
    if mark.swap is not None:
        words += f" (swap field {mark.swap})"
    if mark.choice is not None:
        words += f" → 2 in {mark.choice}"
    return words


def swap_words(mark: Mark, game: Game) -> str:
    """ "with X-Change field 3 (11 for 3)": the field a swapped cross used, and the trade."""
    field = mark.swap
    assert field is not None  # (a swapped cross)
    return f"with X-Change field {field} ({game.white_sum} for {mark.number})"


def bonus_crosses(mark: Mark, game: Game) -> dict[str, int]:
    """The crosses `mark` sets off besides its own cell (Bonus A's bar, Bonus B's rewards), by
    row colour; none on sheets where no cross sets off another, or for a mark refused."""
    if game.plain or game.sheet.has_links:  # (Connected: the chain is told in its words)
        return {}
    trial = game.copy()
    try:
        trial.apply(mark)
    except Refused:
        return {}
    before, after = game.player(mark.player), trial.player(mark.player)
    counts: dict[str, int] = {}
    for row, colour in enumerate(COLOURS):
        added = _numbers_crossed(after, row) - _numbers_crossed(before, row)
        added -= colour == mark.row  # the mark's own cross
        if added > 0:
            counts[colour] = added
    return counts


def _numbers_crossed(player: PlayerSheet, row: int) -> int:
    return len(player.crossed_positions(row))  # the lock cross aside


def bonus_words(counts: dict[str, int]) -> str:
    """ " and earns 2 bonus crosses in red", or "" when the mark set off none."""
    total = sum(counts.values())
    if not total:
        return ""
    crosses = "bonus cross" if total == 1 else "bonus crosses"
    if len(counts) == 1:
        [(colour, count)] = counts.items()
        return f" and earns {count} {crosses} in {colour}"
    return f" and earns {total} {crosses}: " + ", ".join(f"{n} in {c}" for c, n in counts.items())


def final_words(game: Game) -> str:
    """The scores and the winners of a finished game."""
    scores = ", ".join(f"{p.name} {game.total(p.name)}" for p in game.players)
    why = "two rows are locked" if game.reason == EndReason.LOCKS else "a fourth penalty"
    return f"Game over ({why}): {scores}. Winner: {' and '.join(game.winners())}"
