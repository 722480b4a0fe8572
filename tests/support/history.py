"""A tower whose journal holds a few known games, with the history's pages on its web server:
for the history's tests over HTTP (tests/seats/test_history_pages.py), in chromium
(tests/system/test_history_browser.py) and in WebKit (tests/system/test_phone_webkit.py)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

from firmware_py.app.web import history_pages
from firmware_py.journal.journal import Journal
from firmware_py.seats.phones.server import WebServer
from support.paths import GOLDEN
from support.web import web_tower

KNOWN = GOLDEN / "story-game.jsonl"  # Ann 29, Ben 47, Cleo 43: Ben won
HOSTILE = "<img src=x onerror=1>\"'&"  # a name a seat would take: 24 characters


def renamed_game(path: Path, old: str, new: str) -> None:
    """The known game with the player `old` seated as `new`."""
    lines = []
    for line in KNOWN.read_text().splitlines():
        event = json.loads(line)
        if "players" in event:
            event["players"] = [new if name == old else name for name in event["players"]]
        if event.get("player") == old:
            event["player"] = new
        lines.append(json.dumps(event))
    path.write_text("\n".join(lines) + "\n")


def more_of_the_known_game(games: Path) -> None:
    """Cleo's 3rd and 4th games (the known game again): enough for her trend chart."""
    for number in (4, 5):
        shutil.copyfile(KNOWN, games / f"game-{number:06d}.jsonl")


def history_tower(tmp_path: Path, more: Callable[[Path], None] | None = None):
    """A table whose journal holds the known game (1), the known game with Ann seated by a
    name that is markup (2) and a game abandoned half-way (3), and whatever `more` puts in the
    journal's folder; and its web server with the history's pages on a free port of 127.0.0.1
    (not started). The pages' figures are read from the journal first, as a tower that has
    been on a while has them: a page waits only WAIT (0.1 s) for the newest games, which a
    busy machine's first reading outlasts (the page then said "No games yet")."""
    games = tmp_path / "games"
    games.mkdir()
    shutil.copyfile(KNOWN, games / "game-000001.jsonl")
    renamed_game(games / "game-000002.jsonl", "Ann", HOSTILE)
    (games / "game-000003.jsonl").write_text("".join(KNOWN.read_text().splitlines(True)[:9]))
    (games / "game-000003.abandoned").touch()
    if more is not None:
        more(games)
    pages = history_pages(Journal(games))
    pages.standings.index.refresh()
    pages.standings.update()
    table, hub, _ = web_tower(tmp_path)
    return table, WebServer(hub, "127.0.0.1", 0, pages)
