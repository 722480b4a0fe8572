"""The tower in a league's tournament, when [mqtt] commands names "tournament"
(docs/league.md, "Tournaments"): the league tells each tower its table for the round on
`prefix/TOWER/tournament` (retained, so a tower that restarts hears it again), and the tower
seats the round's players, shows the round, its players and the time (the main display, the
terminal and the phones show it as the set-up's message), and starts the round's game when the
organiser has started the round. At the tournament's end the league sends its top players in
place of the seating, and the tower shows them the same way until its next game begins. Only
between games: a table still playing its game (a late table, or the round's own game carried on
after a restart) finishes it first.

Each round's game is started once: the tower notes which game number it began for which round
(`tournament-rounds.json` beside the journal, written durably), so the retained message heard
again after a restart starts nothing new, and the game's result carries the round's tag (the
league counts the first tagged game of each table). A message that is not a seating is
refused, counted by the inbox and ignored.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from firmware_py.errors import TowerError
from firmware_py.journal.disk import read_regular
from firmware_py.journal.journal import Journal, JournalError, number_of, write_durably
from firmware_py.json_text import json_value
from firmware_py.seating import (
    COMPUTER,
    DRAWN,
    LEVELS,
    MAX_SEATS,
    NAME_LENGTH,
    PHONE,
    SeatSpec,
)
from firmware_py.words import local_time, moment

log = logging.getLogger(__name__)

END_SHOWN_FOR = timedelta(hours=12)  # the evening's final standings, not a week's greeting
MAX_SEATING = 2048  # bytes: five players' seating is about 400
NOTE = "tournament-rounds.json"
BETWEEN_GAMES = ("attract", "game over")
Key = tuple[int, int]  # (tournament, round)


class NotASeating(TowerError):
    """A message on the tournament topic that is not the league's seating."""


@dataclass(frozen=True)
class RoundSeating:
    """This table in a tournament's round: who plays here (a computer's level, or None for a
    person), when the tables were drawn and when the round was started (ISO times, or None)."""

    tournament: int
    name: str
    round: int
    rounds: int
    players: tuple[tuple[str, str | None], ...]
    drawn: str | None
    started: str | None

    @property
    def key(self) -> Key:
        return (self.tournament, self.round)


@dataclass(frozen=True)
class TournamentEnd:
    """The tournament ended: its top players (place, name, points in words) and when."""

    tournament: int
    name: str
    ended: str | None
    top: tuple[tuple[int, str, str], ...]


def read_seating(words: str) -> RoundSeating | TournamentEnd | None:
    """The league's message, checked (NotASeating); None for an empty one (no tournament)."""
    if not words:
        return None
    try:
        data = json_value(words)
    except ValueError as error:
        raise NotASeating("not JSON") from error
    if not isinstance(data, dict):
        raise NotASeating("not a JSON object")
    if "final" in data:
        return _end(data)
    numbers: list[Any] = [data.get(key) for key in ("tournament", "round", "rounds")]
    if not all(type(n) is int and 0 <= n < 1_000_000 for n in numbers):
        raise NotASeating("no tournament, round and rounds")
    tournament, round_, rounds = (int(n) for n in numbers)  # (checked: ints)
    players = _players(data.get("players"))
    drawn, started = _time(data.get("drawn")), _time(data.get("started"))
    name = _name(data.get("name"), 40)
    return RoundSeating(tournament, name, round_, rounds, players, drawn, started)


def _end(data: dict[str, Any]) -> TournamentEnd:
    number, final = data.get("tournament"), data.get("final")
    if type(number) is not int or not 0 <= number < 1_000_000:
        raise NotASeating("no tournament")
    if not isinstance(final, list) or len(final) > MAX_SEATS:
        raise NotASeating("the top players are not a list of at most five")
    top = []
    for one in final:
        place = one.get("place") if isinstance(one, dict) else None
        if type(place) is not int or not 0 < place <= MAX_SEATS:
            raise NotASeating("a top player without a place")
        points = _name(one.get("points"), 8)
        if not all(c in "0123456789." for c in points):
            raise NotASeating("points that are not a number")
        top.append((place, _name(one.get("name"), NAME_LENGTH), points))
    return TournamentEnd(number, _name(data.get("name"), 40), _time(data.get("ended")), tuple(top))


def end_words(end: TournamentEnd) -> str:
    """The tournament's end, in words: 'Friday cup is over: 1. Ann 9, 2. Ben 8.5, ...'."""
    named = ", ".join(f"{place}. {name} {points}" for place, name, points in end.top)
    ended = f" (ended at {local_time(end.ended)})" if end.ended else ""
    return f"{end.name} is over{ended}: {named or 'nobody placed'}"


def _players(players: Any) -> tuple[tuple[str, str | None], ...]:
    if not isinstance(players, list) or len(players) > MAX_SEATS:
        raise NotASeating("the players are not a list of at most five")
    seated = []
    for one in players:
        if not isinstance(one, dict) or one.get("computer") not in (*LEVELS, None):
            raise NotASeating("a player without a name or with an unknown level")
        seated.append((_name(one.get("name"), NAME_LENGTH), one.get("computer")))
    if len({name for name, _ in seated}) != len(seated):
        raise NotASeating("one player twice at the table")
    return tuple(seated)


def _name(name: Any, longest: int) -> str:
    """A name as the league cleaned it (the league checks names as the seats do): printable,
    without spaces around it, not too long."""
    if not isinstance(name, str) or not name.isprintable() or name != name.strip():
        raise NotASeating("a name that is not as the league cleans names")
    if not 0 < len(name) <= longest:
        raise NotASeating("a name that is empty or too long")
    return name


def long_over(end: TournamentEnd, now: datetime) -> bool:
    """The end is older than END_SHOWN_FOR: the league keeps it retained on the bus, and a
    tower restarted the next day would show last night's winners until its first game."""
    if end.ended is None:
        return False
    ended = moment(end.ended)
    if ended is None:
        return False
    if ended.tzinfo is None:
        ended = ended.replace(tzinfo=UTC)
    return now - ended > END_SHOWN_FOR


def _time(value: Any) -> str | None:
    if value is None:
        return None
    if moment(value) is None:
        raise NotASeating("a time that is not an ISO time")
    return str(value)


def seats_of(seating: RoundSeating) -> list[SeatSpec]:
    """The round's seats: a computer player at its level; a person's seat waits for the phone
    that joins with their name (a person who never joins sits the game out, as a player whose
    device left)."""
    return [SeatSpec(name, COMPUTER, level=level) if level else SeatSpec(name, PHONE, DRAWN)
            for name, level in seating.players]  # fmt: skip


def round_words(seating: RoundSeating) -> str:
    """What the table shows of its round, in words."""
    head = f"{seating.name}, round {seating.round} of {seating.rounds}"
    if not seating.players:
        return f"{head}: this table sits this round out"
    names = ", ".join(name for name, _ in seating.players)
    if seating.started:
        return f"{head}: {names}; begun at {local_time(seating.started)}"
    return f"{head}: {names}; drawn at {local_time(seating.drawn)}, the organiser starts it"


class RoundSeats(Protocol):
    """What a tournament may ask of the table between games: the round's seats and words
    shown, the displays woken, the roll button pressed (which starts the game)."""

    def seat_round(self, seats: list[SeatSpec] | None, words: str) -> None: ...
    def touched(self) -> None: ...
    def go_on(self) -> None: ...
    def tell(self, words: str) -> None: ...


class TournamentRounds:
    """The league's seating for this table, and the rounds' games begun here."""

    def __init__(self, table: RoundSeats, journal: Journal) -> None:
        self.table, self.journal = table, journal
        self.path = journal.directory / NOTE
        self.games: dict[int, Key] = self._read_note()  # game number: its round
        self.seating: RoundSeating | TournamentEnd | None = None
        self._shown: RoundSeating | TournamentEnd | None = None
        self._starting: tuple[Key, int] | None = None  # a round's start pressed: the number before
        self._busy = False

    def take(self, words: str) -> bool:
        """The league's message; False when it is not one (the inbox counts it)."""
        try:
            seating = read_seating(words)
        except NotASeating as why:
            log.info("a tournament message refused: %s", why)
            return False
        if isinstance(seating, TournamentEnd) and long_over(seating, datetime.now(UTC)):
            log.info("%s ended long ago: its standings are not shown again", seating.name)
            return True  # (a tower switched on the next day greets no one with them)
        if seating != self.seating:
            self.seating, self._starting = seating, None
        return True

    def see(self, phase: str) -> None:
        """Each change of the table (and each message): between games, what waits is done."""
        if self._busy:
            return
        self._busy = True
        try:
            self._note_begun()
            if phase in BETWEEN_GAMES and self.seating is not None:
                self._between_games(self.seating)
        finally:
            self._busy = False

    def _between_games(self, seating: RoundSeating | TournamentEnd) -> None:
        if isinstance(seating, TournamentEnd):  # its top players, shown (seats unchanged)
            if seating != self._shown:
                self._shown = seating
                self.table.tell(end_words(seating))
                self.table.seat_round(None, end_words(seating))
            return
        if seating.key in self.games.values():
            return  # this round's game was begun here (and is over, or set aside)
        if seating != self._shown:
            self._shown = seating
            self.table.tell(round_words(seating))
            self.table.seat_round(seats_of(seating), round_words(seating))
        if seating.started and seating.players and self._starting is None:
            self._starting = (seating.key, self._newest())
            self.table.tell(f"{seating.name}: round {seating.round} begins")
            self.table.touched()
            self.table.go_on()
            self._note_begun()

    def _note_begun(self) -> None:
        """The round's game, once it began (at once, or after lucky numbers): noted."""
        if self._starting is None or self._newest() <= self._starting[1]:
            return
        key, self._starting = self._starting[0], None
        self.games[self._newest()] = key
        try:
            write_durably(self.path, [[number, *key] for number, key in self.games.items()])
        except JournalError as error:
            log.warning("%s", error)

    def _newest(self) -> int:
        current = self.journal.current_game
        return (number_of(current.name) or 0) if current is not None else 0

    def tag(self, number: int) -> dict[str, int] | None:
        """The round a game was begun for, as its result says it."""
        key = self.games.get(number)
        return {"tournament": key[0], "round": key[1]} if key else None

    def _read_note(self) -> dict[int, Key]:
        try:
            rows = json_value(read_regular(self.path))
            return {int(number): (int(t), int(r)) for number, t, r in rows}
        except (OSError, ValueError, TypeError):
            return {}
