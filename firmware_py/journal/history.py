"""`qwixx-tower history`: the games in the journal, one line each, newest last.

A log that cannot be read (not UTF-8, a line that breaks the rules, a directory, no permission)
is listed as unreadable with the reason, and so are the logs the tower set aside in
quarantine/. A game file left empty (the tower stopped before its game began) is no game.
The sheet and the state take as many columns as the longest of them listed, and the scores go
on below their column where a line would pass 80 columns (a terminal's width).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from firmware_py.journal.disk import QUARANTINE
from firmware_py.journal.journal import Journal, JournalError, is_abandoned, is_empty, read_game
from firmware_py.journal.lines import recorded_at
from firmware_py.words import DAY_AND_CLOCK

WIDTH = 80  # a terminal's columns
SCORES_ROOM = 16  # columns the scores keep beside the rest at least, else they go below it


def history_lines(state_dir: Path) -> Iterator[str]:
    """One line per game log: number, variant, state, and every player's total."""
    journal = Journal(state_dir)
    try:
        games = journal.games()
    except JournalError as error:
        yield str(error)
        return
    kept = [(path, "") for path in games] + [(path, QUARANTINE) for path in journal.quarantined()]
    rows = [_row(path, folder) for path, folder in sorted(kept, key=lambda entry: entry[0].name)
            if not is_empty(path)]  # fmt: skip
    games_read = [row for row in rows if isinstance(row, tuple)]
    sheet = max((len(row[2]) for row in games_read), default=0)
    state = max((len(row[3]) for row in games_read), default=0)
    for row in rows:
        if isinstance(row, str):
            yield row
        else:
            yield from _lines(row, sheet, state)


def game_title(path: Path, players: Iterable[str], variant: str) -> str:
    """A game as the table names it: 'game 7: Ann, Ben, Cleo, classic'."""
    number = path.stem.rpartition("-")[2].lstrip("0") or "0"
    return f"game {number}: {', '.join(players)}, {variant}"


Row = tuple[str, str, str, str, list[str]]  # name, began, sheet, state, "Ann 40" each player


def _row(path: Path, folder: str = "") -> Row | str:
    """A game's columns, or the line that says why it cannot be read."""
    name = path.name.removesuffix(".jsonl")
    try:
        game = read_game(path).game
    except (JournalError, OSError) as error:
        where = f", kept in {folder}/" if folder else ""
        return f"{name:<12} unreadable{where}: {error}"
    if game.over:
        state = "won by " + " and ".join(game.winners())
    else:
        state = "abandoned" if is_abandoned(path) else "unfinished"
    scores = [f"{p.name} {game.total(p.name)}" for p in game.players]
    return name, _began(path), game.sheet.name, state, scores


def _lines(row: Row, sheet: int, state: int) -> Iterator[str]:
    """A game's line, its columns `sheet` and `state` wide; the scores that would pass
    WIDTH go on below, under the first (or indented, where their column is too far right)."""
    name, began, sheet_name, state_words, scores = row
    head = f"{name:<12} {began:<20} {sheet_name:<{sheet}} {state_words:<{state}} "
    indent = len(head) if len(head) <= WIDTH - SCORES_ROOM else 4
    line = head
    for index, score in enumerate(scores):
        shown = score + ("," if index < len(scores) - 1 else "")
        if line.strip() and line != head and len(line) + len(shown) > WIDTH:
            yield line.rstrip()
            line = " " * indent
        line += shown + " "
    yield line.rstrip()


def _began(path: Path) -> str:
    """When the game began, in the tower's local time ('Sun 2026-11-22 19:04'), from its
    start event; blank for a log from before the time was written."""
    try:
        with path.open("rb") as log:
            when = recorded_at(log.readline())
    except OSError:
        when = None
    return when.astimezone().strftime(DAY_AND_CLOCK) if when else ""
