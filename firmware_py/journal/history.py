"""`qwixx-tower history`: the games in the journal, one line each, newest last.

A log that cannot be read (not UTF-8, a line that breaks the rules, a directory, no permission)
is listed as unreadable with the reason, and so are the logs the tower set aside in
quarantine/. A game file left empty (the tower stopped before its game began) is no game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from firmware_py.journal.disk import QUARANTINE
from firmware_py.journal.journal import Journal, JournalError, is_abandoned, is_empty, read_game
from firmware_py.journal.lines import recorded_at


def history_lines(state_dir: Path) -> Iterator[str]:
    """One line per game log: number, variant, state, and every player's total."""
    journal = Journal(state_dir)
    try:
        games = journal.games()
    except JournalError as error:
        yield str(error)
        return
    kept = [(path, "") for path in games] + [(path, QUARANTINE) for path in journal.quarantined()]
    for path, folder in sorted(kept, key=lambda entry: entry[0].name):
        if not is_empty(path):
            yield _line(path, folder)


def game_title(path: Path, players: Iterable[str], variant: str) -> str:
    """A game as the table names it: 'game 7: Ann, Ben, Cleo, classic'."""
    number = path.stem.rpartition("-")[2].lstrip("0") or "0"
    return f"game {number}: {', '.join(players)}, {variant}"


def _line(path: Path, folder: str = "") -> str:
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
    scores = ", ".join(f"{p.name} {game.total(p.name)}" for p in game.players)
    return f"{name:<12} {_began(path):<20} {game.sheet.name:<10} {state:<24} {scores}"


def _began(path: Path) -> str:
    """When the game began, in the tower's local time ('Sun 2026-11-22 19:04'), from its
    start event; blank for a log from before the time was written."""
    try:
        with path.open("rb") as log:
            when = recorded_at(log.readline())
    except OSError:
        when = None
    return when.astimezone().strftime("%a %Y-%m-%d %H:%M") if when else ""
