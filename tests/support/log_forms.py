"""What docs/game-log.md documents, read from the page itself: the event kinds, keys and names
that a line or `replay`'s output may use. A referee outside the tower has only that page (and
the sheet files it names), so whatever the tower writes or prints must be named there."""

from __future__ import annotations

import functools
import re
from pathlib import Path

GAME_LOG_DOC = Path(__file__).resolve().parents[2] / "docs" / "game-log.md"


@functools.cache
def documented_names() -> frozenset[str]:
    """Every name the page gives in `code`, as a JSON key ("key": ...) or as an event kind of
    its examples ("event": "mark")."""
    text = GAME_LOG_DOC.read_text(encoding="utf-8")
    in_code = re.findall(r'`"?([a-z][a-z0-9_-]*)"?`', text)
    as_keys = re.findall(r'"([a-z][a-z0-9_-]*)":', text)
    events = re.findall(r'"event": "([a-z]+)"', text)
    return frozenset(in_code + as_keys + events)


def undocumented_in_line(line: dict) -> set[str]:
    """The names a game-log line uses that the page does not: its event kind, its keys, the
    sheet it starts, the row it names."""
    used = {line.get("event", ""), *line}
    if line.get("event") == "start":
        used.add(line.get("variant", ""))
    if line.get("event") == "mark":
        used.add(line.get("row", ""))
    return used - documented_names()


def undocumented_in_report(report: dict) -> set[str]:
    """The keys `replay`'s output uses, top, player and row, that the page does not name."""
    used = set(report)
    for player in report["players"].values():
        used |= set(player)
        for row in player["rows"].values():
            used |= set(row)
    return used - documented_names()
