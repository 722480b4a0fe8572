"""The journal in figures: each game summed up, and every player's history across games.

A game log is read once into a `GameSummary` (who played which sheet, each player's total,
penalties and crossed cells, the winners); the index keeps these (`journal/index.py`), and the
figures here are computed from them: per player (games, wins, the mean, best and trend per
sheet, head to head against each other player, a heat-map of their sheet: each number how
often crossed, skipped, left open) and the table's last games. Only finished games count: an
abandoned, unfinished, unreadable or quarantined game is left out of the figures, and counted
so that the figures can say so (`Leftout`).

A player is a name as seated, names that look alike being one player: the same rule that
numbers a second "Ann" at the table ("Ann 2"). What looks alike is the seats' rule
(`seats/names.py`, `looks`), handed in by whoever asks (`Looks`): the journal knows no seats.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from firmware_py.journal.lines import LogError, recorded_at, replay
from firmware_py.rules import Event, Game, Refused, Roll, Start
from firmware_py.story import GameStory, story_of
from sheets import COLOURS, SheetError, load_sheet

log = logging.getLogger(__name__)

OVER, UNFINISHED, ABANDONED = "over", "unfinished", "abandoned"
UNREADABLE, QUARANTINED = "unreadable", "quarantined"
TREND_GAMES = 10  # the trend compares a player's last games with as many before them
Looks = Callable[[str], Iterable[Hashable]]  # what a name looks like (names alike share one)


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One player's end of one game: total, penalties, the cells crossed in each row (a bit
    per position, 0 the leftmost; the lock not included) and the rows whose lock they crossed
    (a bit per row)."""

    name: str
    total: int
    penalties: int
    rows: tuple[int, ...]
    locked: int = 0


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One game log summed up: its number, when it began (ISO 8601, "" if the log does not
    say), the sheet, whether it counts (`state`: OVER; else why not), the players at its end,
    the winners and the number of rolls."""

    number: int
    began: str
    variant: str
    state: str
    players: tuple[SeatSummary, ...] = ()
    winners: tuple[str, ...] = ()
    rolls: int = 0
    why: str = ""  # why an unreadable game could not be read

    @property
    def counts(self) -> bool:
        """Whether the game is in the figures: finished, neither abandoned nor unreadable."""
        return self.state == OVER


def summary_of(number: int, game: Game, rolls: int, began: str = "", *,
               abandoned: bool = False) -> GameSummary:  # fmt: skip
    """A game read from its log, summed up."""
    state = OVER if game.over else ABANDONED if abandoned else UNFINISHED
    players = tuple(
        SeatSummary(
            player.name,
            game.total(player.name),
            player.penalties,
            tuple(row & ~bit for row, bit in zip(player.rows, player.lock_bits, strict=True)),
            sum(1 << row for row in range(len(COLOURS)) if player.has_locked(row)),
        )
        for player in game.players
    )
    winners = tuple(game.winners()) if game.over else ()
    return GameSummary(number, began, game.sheet.name, state, players, winners, rolls)


def unreadable(number: int, why: str, state: str = UNREADABLE) -> GameSummary:
    """A game log that cannot be read (or was set aside in quarantine/): never in the figures."""
    return GameSummary(number, "", "", state, why=why)


def read_summary(path: Path, number: int, data: bytes, *, abandoned: bool) -> GameSummary:
    """The summary of the log `data` read from `path` (a torn last line left out, as the
    journal does); an unreadable summary when it does not replay."""
    end = data.rfind(b"\n") + 1
    lines = data[:end].splitlines(keepends=True)
    events: list[Start | Event] = []
    try:
        game = replay(lines, events)
    except LogError as error:
        return unreadable(number, f"{path.name}: {error}")
    when = recorded_at(lines[0]) if lines else None
    began = when.isoformat() if when else ""
    rolls = sum(1 for event in events if isinstance(event, Roll))
    return summary_of(number, game, rolls, began, abandoned=abandoned)


def story_of_log(path: Path, lines: Sequence[bytes], number: int | None = None) -> GameStory | None:
    """The story of a game log's lines (`story.story_of`); None, said in the log, when they do
    not replay (the table still shows the game's end without it)."""
    events: list[Start | Event] = []
    try:
        replay(lines, events)
        found = number if number is not None else _number(path)
        return story_of(events, found)
    except (LogError, Refused, SheetError, TypeError, IndexError) as error:
        log.warning("%s: no story of the game: %s", path.name, error)
        return None


def _number(path: Path) -> int:
    digits = path.stem.rpartition("-")[2]
    return int(digits) if digits.isdigit() else 0


# ---- who is who: names that look alike are one player ------------------------------------------


class Players:
    """The players of a set of games: each name as seated, names that look alike (`looks`)
    grouped as one player, shown by the spelling seated most often (the first of equals)."""

    def __init__(self, names: Iterable[str], looks: Looks) -> None:
        self.looks = looks
        counts = Counter(names)
        self._group: dict[str, int] = {}
        self._by_look: dict[Hashable, int] = {}
        parent: list[int] = []
        for name in counts:
            mine = [self._by_look[key] for key in looks(name) if key in self._by_look]
            group = _root(parent, mine[0]) if mine else len(parent)
            if not mine:
                parent.append(group)
            for other in mine[1:]:
                parent[_root(parent, other)] = group
            self._group[name] = group
            for key in looks(name):
                self._by_look.setdefault(key, group)
        self._group = {name: _root(parent, group) for name, group in self._group.items()}
        self._by_look = {key: _root(parent, group) for key, group in self._by_look.items()}
        spellings: dict[int, Counter[str]] = {}
        for name, count in counts.items():
            spellings.setdefault(self._group[name], Counter())[name] += count
        self._shown = {group: names.most_common(1)[0][0] for group, names in spellings.items()}

    def shown(self, name: str) -> str:
        """How the player seated as `name` is shown (their most seated spelling)."""
        return self._shown[self._group[name]]

    def find(self, typed: str) -> str | None:
        """The player a typed name names (it looks like one of theirs), shown; else None."""
        for key in self.looks(typed):
            if key in self._by_look:
                return self._shown[self._by_look[key]]
        return None

    def everyone(self) -> list[str]:
        return sorted(self._shown.values(), key=str.casefold)


def _root(parent: list[int], group: int) -> int:
    while parent[group] != group:
        parent[group] = parent[parent[group]]
        group = parent[group]
    return group


# ---- a player's figures -----------------------------------------------------------------------


@dataclass(frozen=True)
class SheetFigures:
    """A player's games on one sheet: how many, the mean and best total, and their totals in
    order (the trend's last games from them)."""

    variant: str
    games: int
    mean: float
    best: int
    totals: tuple[int, ...]

    def trend(self, games: int = TREND_GAMES) -> tuple[float, float] | None:
        """The mean of the last `games` totals and of as many before them; None until the
        player has played twice as many on this sheet."""
        if len(self.totals) < 2 * games:
            return None
        last, before = self.totals[-games:], self.totals[-2 * games : -games]
        return sum(last) / games, sum(before) / games


@dataclass(frozen=True)
class Rival:
    """A player's games against another: together, ahead of them, behind, level."""

    name: str
    games: int = 0
    ahead: int = 0
    behind: int = 0
    level: int = 0


@dataclass(frozen=True)
class HeatMap:
    """How often each cell of a sheet was crossed, skipped (left of a later cross, never to be
    crossed) or left open (right of the last cross) in a player's games on it: for each row
    (COLOURS order), per position, the three counts."""

    variant: str
    games: int
    cells: tuple[tuple[tuple[int, int, int], ...], ...]

    def numbers(self) -> tuple[tuple[int, ...], ...]:
        """The numbers printed in each row, as the counts' positions go."""
        return tuple(row.numbers for row in load_sheet(self.variant).rows)


@dataclass(frozen=True)
class PlayerHistory:
    """One player's figures over the games that count."""

    name: str
    games: int
    wins: int
    sheets: tuple[SheetFigures, ...]
    rivals: tuple[Rival, ...]
    heat: tuple[HeatMap, ...]
    last: tuple[tuple[int, str, int, bool], ...] = ()  # recent games: number, sheet, total, won
    seated_as: tuple[str, ...] = ()  # every spelling the player was seated by

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class Leftout:
    """The games the figures leave out, counted by why: abandoned, unfinished, unreadable, in
    quarantine/ (each a game number list, so that the pages can say which)."""

    abandoned: tuple[int, ...] = ()
    unfinished: tuple[int, ...] = ()
    unreadable: tuple[int, ...] = ()
    quarantined: tuple[int, ...] = ()

    def words(self) -> str:
        """The games left out in one sentence ("" when none is)."""
        parts = [
            _counted(len(numbers), why)
            for numbers, why in (
                (self.abandoned, "abandoned"),
                (self.unfinished, "unfinished"),
                (self.unreadable, "unreadable"),
                (self.quarantined, "set aside in quarantine/"),
            )
            if numbers
        ]
        return f"Left out of the figures: {', '.join(parts)}." if parts else ""


def _counted(count: int, why: str) -> str:
    return f"{count} {'game' if count == 1 else 'games'} {why}"


def left_out(summaries: Iterable[GameSummary]) -> Leftout:
    groups: dict[str, list[int]] = {ABANDONED: [], UNFINISHED: [], UNREADABLE: [], QUARANTINED: []}
    for summary in summaries:
        if summary.state in groups:
            groups[summary.state].append(summary.number)
    return Leftout(*(tuple(groups[state]) for state in (ABANDONED, UNFINISHED, UNREADABLE,
                                                          QUARANTINED)))  # fmt: skip


@dataclass
class _Tally:
    """A player's figures as they are counted, game by game."""

    played: int = 0
    won: int = 0
    totals: dict[str, list[int]] = field(default_factory=dict)
    rivals: dict[str, list[int]] = field(default_factory=dict)  # games, ahead, behind, level
    # per sheet, per row: how many games ended with each set of crossed cells (a bit mask)
    heat: dict[str, list[Counter[int]]] = field(default_factory=dict)
    last: list[tuple[int, str, int, bool]] = field(default_factory=list)
    spellings: set[str] = field(default_factory=set)


def player_history(summaries: Sequence[GameSummary], players: Players, name: str,
                   recent: int = TREND_GAMES) -> PlayerHistory | None:  # fmt: skip
    """The figures of the player `name` names (names alike are one player) over the games that
    count, oldest first; None when they played none of them."""
    who = players.find(name)
    return None if who is None else every_history(summaries, players, recent).get(who)


def _count(tally: _Tally, summary: GameSummary, seat: SeatSummary, players: Players) -> None:
    won = seat.name in summary.winners
    tally.played += 1
    tally.won += won
    tally.spellings.add(seat.name)
    tally.totals.setdefault(summary.variant, []).append(seat.total)
    tally.last.append((summary.number, summary.variant, seat.total, won))
    for other in summary.players:
        if other is seat:
            continue
        record = tally.rivals.setdefault(players.shown(other.name), [0, 0, 0, 0])
        record[0] += 1
        record[1 if seat.total > other.total else 2 if seat.total < other.total else 3] += 1
    _heat(tally, summary.variant, seat)


def _heat(tally: _Tally, variant: str, seat: SeatSummary) -> None:
    """The player's crosses of one game into their heat-map of its sheet: counted by the
    row's crossed cells as a whole (a dictionary step a row, where a step a cell took most
    of the figures' time), spread over the cells at the end (`_cells`)."""
    heat = tally.heat.get(variant)
    if heat is None:
        heat = tally.heat[variant] = [Counter() for _ in COLOURS]
    for row, crossed in enumerate(seat.rows[: len(heat)]):
        heat[row][crossed] += 1


def _heat_map(variant: str, games: int, rows: list[Counter[int]]) -> HeatMap | None:
    try:
        sheet = load_sheet(variant)
    except SheetError:
        return None
    cells = tuple(_cells(masks, len(row.numbers)) for masks, row in zip(rows, sheet.rows,
                                                                         strict=False))  # fmt: skip
    return HeatMap(variant, games, cells)


def _cells(masks: Counter[int], width: int) -> tuple[tuple[int, int, int], ...]:
    """Each cell of a row: in how many games crossed, skipped (left of the row's last cross)
    or left open (right of it)."""
    counts = [[0, 0, 0] for _ in range(width)]
    for crossed, games in masks.items():
        last = crossed.bit_length() - 1
        for position, cell in enumerate(counts):
            cell[0 if crossed >> position & 1 else 1 if position < last else 2] += games
    return tuple((cell[0], cell[1], cell[2]) for cell in counts)


def _history_of(who: str, tally: _Tally, recent: int) -> PlayerHistory:
    sheets = tuple(
        SheetFigures(variant, len(totals), sum(totals) / len(totals), max(totals), tuple(totals))
        for variant, totals in sorted(tally.totals.items(), key=lambda item: -len(item[1]))
    )
    rivals = tuple(
        Rival(name, *record)
        for name, record in sorted(tally.rivals.items(), key=lambda item: (-item[1][0], item[0]))
    )
    maps = (
        _heat_map(variant, len(tally.totals[variant]), rows)
        for variant, rows in sorted(tally.heat.items(), key=lambda i: -len(tally.totals[i[0]]))
    )
    heat = tuple(found for found in maps if found is not None)
    return PlayerHistory(who, tally.played, tally.won, sheets, rivals, heat,
                         tuple(tally.last[-recent:]), tuple(sorted(tally.spellings)))  # fmt: skip


def every_history(summaries: Sequence[GameSummary], players: Players,
                  recent: int = TREND_GAMES) -> dict[str, PlayerHistory]:  # fmt: skip
    """Every player's figures (by the name they are shown by) in one pass over the games that
    count: what a page then shows is a look-up, however old the tower."""
    tallies: dict[str, _Tally] = {}
    for summary in summaries:
        if not summary.counts:
            continue
        counted = set()  # a player twice in one game (names alike) counts once, as its first
        for seat in summary.players:
            who = players.shown(seat.name)
            if who not in counted:
                counted.add(who)
                _count(tallies.setdefault(who, _Tally()), summary, seat, players)
    return {who: _history_of(who, tally, recent) for who, tally in tallies.items()}


def lines_of(histories: Iterable[PlayerHistory]) -> list[PlayerLine]:
    """Every player in a line, most games first (then by name)."""
    lines = [PlayerLine(h.name, h.games, h.wins, h.sheets) for h in histories]
    return sorted(lines, key=lambda line: (-line.games, line.name.casefold()))


@dataclass(frozen=True)
class PlayerLine:
    """A player in the table of everyone: games, wins, and their most played sheet's mean and
    best."""

    name: str
    games: int
    wins: int
    sheets: tuple[SheetFigures, ...]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def everyone(summaries: Sequence[GameSummary], players: Players) -> list[PlayerLine]:
    """Every player of the games that count, most games first (then by name)."""
    return lines_of(every_history(summaries, players).values())


def last_games(summaries: Sequence[GameSummary], count: int, before: int | None = None
               ) -> list[GameSummary]:  # fmt: skip
    """The last `count` games (newest first) numbered below `before` (any when None),
    whatever their state: the pages say which count and why not."""
    found = []
    for summary in reversed(summaries):
        if before is None or summary.number < before:
            found.append(summary)
            if len(found) == count:
                break
    return found


def names_in(summaries: Iterable[GameSummary]) -> Iterable[str]:
    """Every name seated in a game that counts, once a game it was seated."""
    return (seat.name for summary in summaries if summary.counts for seat in summary.players)
