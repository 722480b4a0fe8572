"""The news a journal's events make, checking that what a tower printed is in that order, and
a saved game written into a state directory as the tower would have left it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from firmware_py.journal.journal import Journal, is_empty, read_game, seat_records
from firmware_py.journal.lines import event_to_line, parse_line
from firmware_py.rules import Game, Start
from firmware_py.seating import SeatSpec
from firmware_py.table.news_words import describe

EVENT_NEWS = re.compile(r"^\S+ (rolls|crosses|passes|takes it back)")


def journal_news(journal: Journal) -> list[str]:
    """The news each journalled event makes, replaying every game in order."""
    news = []
    for path in journal.games():
        if is_empty(path):
            continue  # killed between creating the file and writing its start: no game
        read_game(path, repair=True)  # replays, or raises: a power cut never corrupts a log
        lines = [line for line in path.read_text().splitlines() if line.strip()]
        game = Game.start(parse_line(lines[0]))
        for line in lines[1:]:
            event = parse_line(line)
            news.append(describe(event, game))
            game.apply(event)
    return news


def is_in_order_within(printed: list[str], journalled: list[str]) -> bool:
    position = iter(journalled)
    return all(line in position for line in printed)


def saved_game(state: Path, seats: list[SeatSpec], *events: Any) -> Path:
    """A game of `seats` in the journal, as if the tower had played it up to `events`."""
    state.mkdir(parents=True, exist_ok=True)
    log = state / "game-000001.jsonl"
    lines = [Start("classic", tuple(seat.name for seat in seats)), *events]
    log.write_text("".join(event_to_line(event) for event in lines))
    log.with_suffix(".seats.json").write_text(json.dumps(seat_records(seats)))
    return log


def journal_lines(log: Path) -> list[dict]:
    """A game log's lines, each as the JSON object it holds."""
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
