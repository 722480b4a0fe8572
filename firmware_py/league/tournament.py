"""A tournament on the league (docs/league.md, "Tournaments"): the organiser enters the players
and the number of rounds; before each round the league draws the tables again across the towers
on the bus, tells each tower its seating (retained on `prefix/TOWER/tournament`, so a tower that
restarts hears it again), and, when the organiser starts the round, marks it started there too.
Each tower tags the game it started for the round in its result; the first such game of each
table counts, and its places among the players drawn there become placement points
(`draw.placement_points`). A round closes when every table reported; only then is the next
drawn. A player who leaves is drawn no more and earns nothing in the rounds left; a player
drawn who did not play the table's game (never joined it) earns nothing in that round.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction

from firmware_py.errors import TowerError
from firmware_py.league.by_hand import BY_HAND, HandRefused, hand_scores
from firmware_py.league.draw import TooFewTables, draw_round
from firmware_py.league.final_standings import end_message
from firmware_py.league.incoming import TOWER, Result
from firmware_py.league.round_points import CLOSED, round_points, round_tag, scored_points
from firmware_py.league.tournament_record import read_record, record_message, restore
from firmware_py.league.tournament_store import (
    MAX_ROUNDS,
    Entrant,
    Header,
    RoundTable,
    TournamentStore,
)
from firmware_py.seats.names import MAX_NAME, clean_name, looks_alike, why_not_name

MAX_TOWERS = 256  # as the league keeps
MAX_ENTRANTS = 100  # twenty towers of five
LEVELS = ("easy", "medium", "hard")
Clock = Callable[[], datetime]


class NotNow(TowerError):
    """An organiser's action that cannot be done now, said in the organiser's words."""


@dataclass(frozen=True)
class Total:
    """A player's points so far, and each round's (None: not drawn, or not reported yet)."""

    name: str
    points: Fraction
    rounds: tuple[Fraction | None, ...]
    left_after: int | None
    scored: int = 0  # Qwixx points of their tables' games counted: the tie-break

    @property
    def standing(self) -> tuple[Fraction, int]:
        """What ranks them: placement points, then Qwixx points scored (docs/league.md)."""
        return self.points, self.scored


def _drawn_from(header: Header, online: list[str]) -> list[str]:
    """The towers on the bus a round is drawn across: the tournament's own, if it names any."""
    return [tower for tower in online if not header.towers or tower in header.towers]


def _now(clock: Clock) -> str:
    return clock().astimezone(UTC).isoformat(timespec="seconds")


def read_towers(typed: str) -> list[str]:
    """The towers the organiser named ("t1 t2, t3"); NotNow for one that cannot be a tower."""
    towers = typed.replace(",", " ").split()
    for tower in towers:
        if not TOWER.fullmatch(tower):
            raise NotNow(f"{tower[:40]!r} is not a tower's id (letters, digits, - and _)")
    if len(towers) > MAX_TOWERS:
        raise NotNow(f"at most {MAX_TOWERS} towers")
    return list(dict.fromkeys(towers))


def read_entrants(lines: str) -> list[Entrant]:
    """The players typed by the organiser, one a line: "Ann", or "Robo (hard)" for a
    computer player at a level. NotNow with the line that is wrong."""
    entrants: list[Entrant] = []
    for line in lines.splitlines():
        typed = line.strip()
        if not typed:
            continue
        level = None
        for one in LEVELS:
            if typed.endswith(f"({one})"):
                typed, level = typed[: -len(one) - 2].strip(), one
        name = clean_name(typed)  # (what nobody can see taken out, as at every door)
        why = why_not_name(name) or (
            f"a name is at most {MAX_NAME} characters" if len(typed.strip()) > MAX_NAME else None
        )
        if why:
            raise NotNow(f"{line.strip()[:40]!r}: {why}")
        for other in entrants:
            if looks_alike(other.name, name):
                raise NotNow(f"{other.name!r} and {name!r} look alike: tell them apart")
        entrants.append(Entrant(name, level))
    if not 3 <= len(entrants) <= MAX_ENTRANTS:
        raise NotNow(f"a tournament needs 3 to {MAX_ENTRANTS} players, one a line")
    return entrants


class Tournament:
    """The latest tournament, its rounds, and what the towers must hear of it (`outbox`)."""

    def __init__(self, store: TournamentStore, clock: Clock = lambda: datetime.now(UTC),
                 chance: random.Random | None = None) -> None:  # fmt: skip
        self.store, self.clock = store, clock
        self.chance = chance or random.SystemRandom()
        self.outbox: dict[str, bytes] = {}  # tower: its seating message, waiting to go
        self.changed = asyncio.Event()  # the outbox or the record has something new
        self.key: bytes | None = None  # the organiser's password: signs the record
        self.record_sent: bytes | None = None  # the record the broker holds, as last sent

    @property
    def header(self) -> Header | None:
        return self.store.current()

    def running(self) -> Header | None:
        header = self.store.current()
        return header if header is not None and header.ended is None else None

    def create(self, name: str, rounds: int, entrants: list[Entrant],
               towers: list[str] | None = None) -> int:  # fmt: skip
        """A new tournament; its tables drawn at `towers` only (None: every one on the bus)."""
        if self.running() is not None:
            raise NotNow("a tournament is running: end it first")
        if not 1 <= rounds <= MAX_ROUNDS:
            raise NotNow(f"a tournament has 1 to {MAX_ROUNDS} rounds")
        title = clean_name(name)[:40] or "Tournament"
        number = self.store.create(title, rounds, _now(self.clock), entrants, towers or [])
        self.changed.set()
        return number

    def rounds(self) -> dict[int, list[RoundTable]]:
        header = self.header
        return self.store.tables(header.id) if header else {}

    def round_now(self) -> tuple[int, list[RoundTable]]:
        """The latest round drawn and its tables (0 and none before the first draw)."""
        rounds = self.rounds()
        last = max(rounds, default=0)
        return last, rounds.get(last, [])

    def draw(self, towers: list[str]) -> int:
        """The next round's tables drawn across `towers` (those on the bus), told to them."""
        header = self._running()
        last, tables = self.round_now()
        if tables and not all(table.game for table in tables):
            raise NotNow(f"round {last} is still being played: its tables have not all reported")
        if last >= header.rounds:
            raise NotNow(f"all {header.rounds} rounds are played: end the tournament")
        players = [one.name for one in self.store.entrants(header.id) if one.left_after is None]
        towers = _drawn_from(header, towers)
        try:
            seating = draw_round(players, sorted(towers), self.chance)
        except TooFewTables as why:
            raise NotNow(str(why)) from why
        self.store.seat(header.id, last + 1, seating, _now(self.clock))
        self._tell(towers)
        return last + 1

    def start(self) -> int:
        """The round drawn last begins at every table."""
        header = self._running()
        last, tables = self.round_now()
        if not tables:
            raise NotNow("draw the first round's tables first")
        if all(table.started for table in tables):
            raise NotNow(f"round {last} has begun already")
        self.store.start(header.id, last, _now(self.clock))
        self._tell([table.tower for table in tables])
        return last

    def close_round(self) -> list[str]:
        """The round begun closed although tables have not reported (a tower that broke down):
        their players earn MEAN each (no fault of theirs), and a result that comes later for
        them counts nothing. The towers closed, by name."""
        header = self._running()
        last, tables = self.round_now()
        if not tables or not all(table.started for table in tables):
            raise NotNow("only a round that has begun can be closed")
        waiting = [table.tower for table in tables if not table.game]
        if not waiting:
            raise NotNow(f"every table of round {last} has reported")
        for tower in waiting:
            self.store.keep_game(header.id, last, tower, CLOSED, {})
        self.changed.set()
        return waiting

    def by_hand(self, tower: str, typed: dict[str, str]) -> dict[str, int]:
        """The result of `tower`'s table in the round now, typed by the organiser (its tower
        broke down; played on paper): checked, kept once, its scores by name."""
        header = self._running()
        last, tables = self.round_now()
        try:
            scores = hand_scores(tables, tower, typed)
        except HandRefused as why:
            raise NotNow(str(why)) from why
        self.store.keep_game(header.id, last, tower, BY_HAND, scores)
        self.changed.set()
        return scores

    def leave(self, name: str) -> None:
        """A player leaves: their rounds from the next one drawn are not theirs."""
        header = self._running()
        last, tables = self.round_now()
        unplayed = any(name in table.players and not table.started for table in tables)
        if not self.store.leave(header.id, name, last - 1 if unplayed else last):
            raise NotNow(f"{name!r} is not a player still in the tournament")
        self.changed.set()

    def end(self, online: list[str]) -> None:
        """The tournament ended, its top players told to every tower that had a table and to
        every tower on the bus it draws from (one that sat every round out heard the rounds)."""
        header = self._running()
        self.store.end(header.id, _now(self.clock))
        seated = {table.tower for tables in self.rounds().values() for table in tables}
        self._tell(sorted(seated | set(_drawn_from(header, online))))

    def _running(self) -> Header:
        header = self.running()
        if header is None:
            raise NotNow("no tournament is running: create one first")
        return header

    def take(self, result: Result, payload: bytes) -> bool:
        """A tower's result: kept as its table's game of the round it is tagged with, when it
        is the first from the tower seated there; False when it is no round's game."""
        tag = round_tag(payload)
        header = self.header
        if tag is None or header is None or tag[0] != header.id:
            return False
        tables = self.store.tables(header.id, only=tag[1]).get(tag[1], [])
        table = next((one for one in tables if one.tower == result.tower), None)
        if table is None or table.started is None:
            return False
        drawn = set(table.players)
        scores = {one.name: one.score for one in result.players if one.name in drawn}
        kept = self.store.keep_game(header.id, tag[1], result.tower, result.id, scores)
        if kept:
            self.changed.set()  # (the record on the broker)
        return kept

    def totals(self) -> list[Total]:
        """Every entrant's points, best first (ties by name)."""
        header = self.header
        if header is None:
            return []
        rounds = self.rounds()
        earned: dict[str, list[Fraction | None]] = {
            one.name: [None] * header.rounds for one in self.store.entrants(header.id)
        }
        for number, tables in rounds.items():
            for table in tables:
                for name, points in round_points(table).items():
                    if name in earned and number <= header.rounds:
                        earned[name][number - 1] = points
        left = {one.name: one.left_after for one in self.store.entrants(header.id)}
        scored = scored_points(rounds)
        totals = [Total(name, sum((p for p in got if p), Fraction(0)), tuple(got), left[name],
                        scored.get(name, 0)) for name, got in earned.items()]  # fmt: skip
        return sorted(totals, key=lambda one: (-one.points, -one.scored, one.name))

    def _tell(self, towers: list[str]) -> None:
        for tower in towers:
            self.outbox[tower] = self.seating_message(tower)
        self.changed.set()

    def record(self) -> bytes | None:
        """The tournament's signed record for the broker (None: nothing to keep there)."""
        return record_message(self.store, self.key) if self.key else None

    def read_back(self, payload: bytes) -> bool:
        """The record heard on the broker into an emptied file; RecordRefused if forged."""
        restored = restore(self.store, read_record(payload, self.key))
        if restored:
            self._tell(list(self.messages()))
        return restored

    def messages(self) -> dict[str, bytes]:
        """Every tower of the tournament's message (at each connection, again)."""
        towers = {table.tower for tables in self.rounds().values() for table in tables}
        return {tower: self.seating_message(tower) for tower in sorted(towers)}

    def seating_message(self, tower: str) -> bytes:
        """What `tower` hears (retained): its table in the latest round, or the top players
        once the tournament ended (`final_standings`)."""
        header = self.header
        if header is None:
            return b""
        if header.ended is not None:
            return end_message(header, self.totals())
        last, tables = self.round_now()
        table = next((one for one in tables if one.tower == tower), None)
        levels = {one.name: one.computer for one in self.store.entrants(header.id)}
        players = [{"name": name, "computer": levels.get(name)}
                   for name in (table.players if table else ())]  # fmt: skip
        message = {"tournament": header.id, "name": header.name, "round": last,
                   "rounds": header.rounds, "players": players,
                   "drawn": table.drawn if table else None,
                   "started": table.started if table else None}  # fmt: skip
        return json.dumps(message).encode()
