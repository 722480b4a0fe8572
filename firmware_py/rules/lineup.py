"""Who plays a new game: the players in seat order, (Longo) each one's lucky numbers and
(Connected) each one's pad, or `Refused` with what is wrong with them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sheets import Pad, Sheet

from .errors import Refused

MAX_PLAYERS = 5


def check_players(players: Sequence[str]) -> None:
    """One to five players, each a different non-empty name."""
    if not isinstance(players, (list, tuple)) or not 1 <= len(players) <= MAX_PLAYERS:
        raise Refused(f"a game needs 1 to {MAX_PLAYERS} players, in seat order")
    for name in players:
        if not is_player_name(name):
            raise Refused(f"player names must be non-empty text, not {name!r}")
        if players.count(name) > 1:
            raise Refused(f"two players are named {name!r}; names must differ")


def is_player_name(name: object) -> bool:
    """Whether a game can hold a player of this name: text, not blank. (What else a door asks
    of a name, seats.names checks as a person types it.)"""
    return isinstance(name, str) and bool(name.strip())


def lucky_numbers_of(
    sheet: Sheet, players: Sequence[str], lucky: Mapping[str, Sequence[int]] | None
) -> dict[str, tuple[int, ...]]:
    """Longo: each player's distinct lucky numbers, in range; other sheets have none."""
    if not sheet.has_lucky_numbers:
        if lucky:
            raise Refused(f"{sheet.name} sheets have no lucky numbers")
        return {}
    low, high = sheet.lucky_range
    count = sheet.lucky_numbers
    if not isinstance(lucky, Mapping):
        raise Refused(f"a {sheet.name} game needs each player's {count} lucky numbers")
    for name in lucky:
        if name not in players:
            raise Refused(f"lucky numbers are given for {name!r}, who is not a player")
    result = {}
    for name in players:
        numbers = lucky.get(name)
        if (
            not isinstance(numbers, (list, tuple))
            or len(numbers) != count
            or any(type(n) is not int or not low <= n <= high for n in numbers)
            or len(set(numbers)) != count
        ):
            raise Refused(
                f"{name} needs {count} different lucky numbers from {low} to {high}, "
                f"not {numbers!r}"
            )
        result[name] = tuple(numbers)
    return result


def seat_pads(sheet: Sheet, players: Sequence[str]) -> dict[str, str] | None:
    """Connected: the pad each player plays when nobody says otherwise, by name: seat k plays
    the sheet file's pad k, round again past the last (None on sheets without pads). The
    start line records them, so that a log replays the same after a sheet file gains pads."""
    if not sheet.pads:
        return None
    return {name: pad.name for seat, name in enumerate(players) if (pad := sheet.pad_of(seat))}


def pads_of(
    sheet: Sheet, players: Sequence[str], pads: Mapping[str, str] | None
) -> list[Pad | None]:
    """Each player's pad, in seat order: the ones the start line names, else the seat rule."""
    if not sheet.pads:
        if pads:
            raise Refused(f"{sheet.name} sheets have no pads")
        return [None] * len(players)
    if pads is None:
        return [sheet.pad_of(seat) for seat in range(len(players))]
    by_name = {pad.name: pad for pad in sheet.pads}
    for name in pads:
        if name not in players:
            raise Refused(f"a pad is given for {name!r}, who is not a player")
    chosen: list[Pad | None] = []
    for name in players:
        letter = pads.get(name)
        if letter not in by_name:
            known = ", ".join(by_name)
            raise Refused(f"{name} needs one of the pads of {sheet.name} ({known}), not {letter!r}")
        chosen.append(by_name[letter])
    return chosen
