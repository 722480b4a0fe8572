"""The news a journal's events make, and checking that what a tower printed is in that order."""

from __future__ import annotations

import re

from firmware_py.journal.journal import Journal, is_empty, read_game
from firmware_py.journal.lines import parse_line
from firmware_py.rules import Game
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
