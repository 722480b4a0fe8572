"""Longo's lucky numbers before the game: each player's two numbers, as printed on their sheet.

Each sheet shows its own lucky numbers, so players enter theirs (on a pad), or let the tower draw
them. `LuckyDraft` collects them one number at a time; the game starts once every player has
theirs. Refusals are in a player's words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from firmware_py.rules import Refused
from firmware_py.rules.lineup import check_players
from firmware_py.seating import SeatSpec, seat_from_record
from sheets import Sheet, load_sheet

Sample = Callable[[list[int], int], list[int]]  # (population, count) -> count different values


class DraftView(Protocol):
    """The lucky numbers being chosen, as the table's parts and doors read them (they change
    only through the table's lucky step)."""

    @property
    def sheet(self) -> Sheet: ...
    @property
    def count(self) -> int: ...
    @property
    def chosen(self) -> Mapping[str, Sequence[int]]: ...
    def missing(self) -> list[str]: ...
    def allowed(self, name: str) -> list[int]: ...
    def complete(self) -> bool: ...


class LuckyDraft:
    """The lucky numbers chosen so far, per player, for a sheet's `lucky_range`; numbers the
    tower draws come from `sample` (the tower's dice source, so nobody can predict them)."""

    def __init__(self, sheet: Sheet, names: list[str], sample: Sample) -> None:
        self.sheet = sheet
        self.sample = sample
        self.low, self.high = sheet.lucky_range
        self.count = sheet.lucky_numbers
        self.chosen: dict[str, list[int]] = {name: [] for name in names}

    def missing(self) -> list[str]:
        """The players still without all their numbers, in seat order."""
        return [name for name, numbers in self.chosen.items() if len(numbers) < self.count]

    def complete(self) -> bool:
        return not self.missing()

    def numbers(self) -> dict[str, tuple[int, ...]]:
        return {name: tuple(numbers) for name, numbers in self.chosen.items()}

    def allowed(self, name: str) -> list[int]:
        """The numbers `name` may still choose (none once they have them all)."""
        numbers = self.chosen[name]
        if len(numbers) >= self.count:
            return []
        return [n for n in range(self.low, self.high + 1) if n not in numbers]

    def choose(self, name: str, number: int) -> str | None:
        """Add one of `name`'s numbers; None when taken, else why not."""
        numbers = self.chosen[name]
        if len(numbers) >= self.count:
            return f"you have your {self.count} lucky numbers; undo takes one back"
        if not self.low <= number <= self.high:
            return f"lucky numbers go from {self.low} to {self.high}; {number} is not one"
        if number in numbers:
            return f"{number} is already your lucky number: choose a different one"
        numbers.append(number)
        return None

    def take_back(self, name: str) -> str | None:
        """Take back `name`'s last number; None when done, else why not."""
        if not self.chosen[name]:
            return "you have no lucky number to take back"
        self.chosen[name].pop()
        return None

    def draw(self, name: str) -> None:
        """The tower draws the numbers `name` still lacks."""
        spare = self.allowed(name)
        needed = self.count - len(self.chosen[name])
        self.chosen[name].extend(self.sample(spare, needed))


def draw_all(sheet: Sheet, names: list[str], sample: Sample) -> dict[str, tuple[int, ...]]:
    """Every player's lucky numbers drawn by the tower (a table with no pads to enter them)."""
    draft = LuckyDraft(sheet, names, sample)
    for name in names:
        draft.draw(name)
    return draft.numbers()


def _noted_lineup(records: list[dict[str, str]]) -> list[SeatSpec]:
    """The draft's seats read back as every seat note is (`seat_from_record`), and the players
    they seat checked as the rules check a game's (ValueError with the rules' words): a note
    the tower would start a game from but the rules refuse stopped the tower at every press."""
    seats = [seat_from_record(record) for record in records]
    known = [seat for seat in seats if seat is not None]
    if len(known) < len(seats):
        raise ValueError("a seat of the note is of no kind the tower knows, or has no name")
    try:
        check_players([seat.name for seat in known])
    except Refused as why:
        raise ValueError(why.reason) from None
    return known


def noted_requests(note: dict[str, Any]) -> list[tuple[str, str]]:
    """The (player, device request) pairs a draft's note keeps; [] in a note without them."""
    pairs = note.get("requests", [])
    if not isinstance(pairs, list):
        return []
    return [
        (pair[0], pair[1])
        for pair in pairs
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)
    ]


def draft_from_note(note: dict[str, Any], sample: Sample) -> tuple[list[SeatSpec], LuckyDraft]:
    """The seats and the numbers chosen so far, from the journal's note of a draft (see
    `Journal.note_draft`). A note that does not add up raises ValueError, KeyError, TypeError
    or SheetError."""
    seats = _noted_lineup(note["seats"])
    draft = LuckyDraft(load_sheet(note["variant"]), [seat.name for seat in seats], sample)
    for name, numbers in note["lucky"].items():
        for number in numbers:
            if name not in draft.chosen or draft.choose(name, number) is not None:
                raise ValueError(f"{name} cannot have lucky number {number!r}")
    return seats, draft
