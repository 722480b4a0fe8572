"""What the table says happened: each event, and the end of a game, in words."""

from __future__ import annotations

from firmware_py.rules import EndReason, Event, Game, Mark, Pass, Roll


def describe(event: Event, game: Game) -> str:
    """One event in words, for the table's news (`game` as it was before the event)."""
    if isinstance(event, Roll):
        dice = ", ".join(f"{c} {f}" for c, f in event.colours.items())
        return f"{game.active_name} rolls white {event.white[0]}+{event.white[1]}; {dice}"
    if isinstance(event, Mark):
        lucky = " (lucky)" if event.lucky else ""
        return f"{event.player} crosses {event.row} {event.number}{lucky}"
    if isinstance(event, Pass):
        return f"{event.player} passes"
    return f"{event.player} takes it back"


def final_words(game: Game) -> str:
    """The scores and the winners of a finished game."""
    scores = ", ".join(f"{p.name} {game.total(p.name)}" for p in game.players)
    why = "two rows are locked" if game.reason == EndReason.LOCKS else "a fourth penalty"
    return f"Game over ({why}): {scores}. Winner: {' and '.join(game.winners())}"
