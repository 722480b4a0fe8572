"""The JSON the tower publishes about the table: its state, and the events of a game.

Both are read from the table's published views and from the games they carry, as the sound
presenter reads them: a roll landed (the game went from waiting for a roll to action 1), a
player's sheet has a new cross, penalties went up, `new_locks`, `ended`. Nothing here does I/O;
docs/home-assistant.md shows every field.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from firmware_py.rules import ACTION1, Game
from firmware_py.rules import ROLL as WAITING_FOR_ROLL
from firmware_py.seating import MAX_SEATS
from firmware_py.view import ERROR, MENU, TableView
from sheets import COLOURS, load_sheet, sheet_names

EVENT_TYPES = ("roll", "cross", "lock", "penalty", "game_over")
BETWEEN_GAMES = ("attract", "lucky")  # the table's phases without a game on
EMPTY_SEAT: dict[str, Any] = {"name": None, "score": None, "penalties": None}
Payload = dict[str, Any]
VARIANTS = {load_sheet(name).title: name for name in sheet_names()}  # title -> name


def game_on(view: TableView) -> Game | None:
    """The game the view shows (on, or just over), None between games."""
    return view.game if view.phase not in BETWEEN_GAMES else None


def state_of(view: TableView, game_id: str | None) -> Payload:
    """The table now: its phase, the game's id, whose roll, the white sum, the leader, the
    locks, the winners, and always MAX_SEATS seats (an empty seat's fields are null)."""
    game = game_on(view)
    state: Payload = {
        "state": str(view.phase),
        "variant": variant_of(view),
        "game": None,
        "active": None,
        "white_sum": None,
        "leader": None,
        "locked": [],
        "winners": [],
    }
    if game is not None:
        state.update(game=game_id, variant=game.sheet.name, locked=locked_rows(game))
        state.update(
            active=None if game.over else game.active_name,
            white_sum=sum(game.dice.white) if game.dice else None,
            leader=joined(leaders(game)),
            winners=game.winners() if game.over else [],
        )
    state["seats"] = seats_of(view, game)
    return state


def covers_the_table(view: TableView) -> bool:
    """True for a view between games that covers the table (the menu, an alert): it carries no
    seats, and the last ones stand."""
    return game_on(view) is None and view.screen in (MENU, ERROR)


def seats_of(view: TableView, game: Game | None) -> list[Payload]:
    """Each seat's player, score and penalties, padded with empty seats to MAX_SEATS."""
    if game is not None:
        seats = [
            {"name": p.name, "score": game.total(p.name), "penalties": p.penalties}
            for p in game.players
        ]
    else:
        seats = [{"name": seat.name, "score": None, "penalties": None} for seat in view.seats]
    return (seats + [dict(EMPTY_SEAT) for _ in range(MAX_SEATS)])[:MAX_SEATS]


def variant_of(view: TableView) -> str | None:
    """The variant's name ("longo") from the title the displays show ("Qwixx Longo")."""
    return VARIANTS.get(view.title)


def leaders(game: Game) -> list[str]:
    """The players with the highest total so far (all of them at the start)."""
    totals = {player.name: game.total(player.name) for player in game.players}
    best = max(totals.values())
    return [name for name, total in totals.items() if total == best]


def locked_rows(game: Game) -> list[str]:
    return [COLOURS[row] for row in game.locked]


def events_between(before: Game, view: TableView, game_id: str | None) -> list[Payload]:
    """What happened from `before` to the view's game, in the order it happened: the roll,
    crosses, penalties, locks, the end."""
    game = view.game
    if game is None or [p.name for p in before.players] != [p.name for p in game.players]:
        return []  # (another game: nothing to compare with)
    found = []
    if before.phase is WAITING_FOR_ROLL and game.phase is ACTION1 and game.dice is not None:
        found.append(roll_event(game))
    found += crosses(before, game)
    found += [
        {"event_type": "penalty", "player": new.name, "penalties": new.penalties}
        for old, new in zip(before.players, game.players, strict=True)
        if new.penalties > old.penalties
    ]
    found += [lock_event(game, colour) for colour in view.new_locks]
    if view.ended:
        found.append(game_over_event(game))
    when = now()
    return [{**event, "game": game_id, "time": when} for event in found]


def roll_event(game: Game) -> Payload:
    assert game.dice is not None  # (a roll landed)
    white = game.dice.white
    colours = {
        colour: face for colour, face in game.dice.colours.items() if colour in game.dice_in_play()
    }
    return {
        "event_type": "roll",
        "player": game.active_name,
        "sum": white[0] + white[1],
        "white": list(white),
        "dice": colours,
    }


def crosses(before: Game, game: Game) -> list[Payload]:
    """Each number crossed since `before` (bonus crosses a variant makes by itself included;
    a lock cross is the lock event's); a Big Points box by its bonus row ("red-yellow"), a
    Double sheet's second cross as its number crossed again."""
    found = []
    names = game.sheet.row_names  # the colour rows, then Big Points' bonus rows
    for old, new in zip(before.players, game.players, strict=True):
        for row, (was, now_mask) in enumerate(zip(old.rows, new.rows, strict=True)):
            added = now_mask & ~was & ~new.lock_bits[row]
            # past the named rows, a Double sheet's second crosses: its row's number again
            name = names[row] if row < len(names) else COLOURS[row - len(names)]
            numbers = game.sheet.row_numbers(names.index(name))
            found += [
                {
                    "event_type": "cross",
                    "player": new.name,
                    "row": name,
                    "number": numbers[position],
                }
                for position in range(added.bit_length())
                if added >> position & 1
            ]
    return found


def lock_event(game: Game, colour: str) -> Payload:
    """A row closed for everyone; `player` is who crossed its lock ("Ann and Ben" if two did
    in one action 1), `players` the same as a list."""
    row = COLOURS.index(colour)
    names = [player.name for player in game.players if player.has_locked(row)]
    return {"event_type": "lock", "row": colour, "player": joined(names), "players": names}


def game_over_event(game: Game) -> Payload:
    winners = game.winners()
    return {
        "event_type": "game_over",
        "winner": joined(winners),
        "winners": winners,
        "scores": {p.name: game.total(p.name) for p in game.players},
        "reason": str(game.reason) if game.reason else None,
    }


def joined(names: list[str]) -> str:
    """Names as a sentence says them: "Ann", "Ann and Ben", "Ann, Ben and Cleo"."""
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 2 else names)


def now() -> str:
    """This moment in UTC to the millisecond: when the tower saw the event."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")
