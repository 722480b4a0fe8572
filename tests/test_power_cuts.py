"""The hard way: kill the tower with SIGKILL at random moments and start it again. Every event
the table was told about (printed after its fsync) is still in the journal, in order, and the
journal always replays: nothing is lost and nothing is applied twice."""

from __future__ import annotations

import os
import random
import re
import select
import signal
import subprocess
import sys
import time

from firmware_py.gamelog import parse_line
from firmware_py.history import history_lines
from firmware_py.journal import Journal, is_empty, read_game
from firmware_py.news import describe
from firmware_py.rules import Game, Start

EVENT_NEWS = re.compile(r"^\S+ (rolls|crosses|passes|takes it back)")
KILLS = 6


def start_tower(state_dir) -> subprocess.Popen:
    command = [sys.executable, "-m", "firmware_py.cli", "run", "--plain", "--pace", "0.01"]
    command += ["--players", "Ann,Ben,Cleo", "--state-dir", str(state_dir)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def news_until_killed(tower: subprocess.Popen, seconds: float) -> list[str]:
    """Read what the tower announces for `seconds`, then pull the plug."""
    lines, deadline = [], time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([tower.stdout], [], [], left)
        if ready:
            lines.append(tower.stdout.readline().rstrip("\n"))
    os.kill(tower.pid, signal.SIGKILL)
    tower.wait()
    lines += tower.stdout.read().splitlines()  # already printed before the kill
    return lines


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


def test_sigkill_at_random_moments_loses_no_acknowledged_event(tmp_path):
    rng = random.Random(20261122)
    printed: list[str] = []
    for _ in range(KILLS):
        lines = news_until_killed(start_tower(tmp_path), rng.uniform(0.8, 2.0))
        printed += [line for line in lines if EVENT_NEWS.match(line)]
    journalled = journal_news(Journal(tmp_path))
    assert len(printed) > 50, "the tower hardly played; the test proves nothing"
    assert is_in_order_within(printed, journalled)
    first = parse_line(Journal(tmp_path).games()[0].read_text().splitlines()[0])
    assert type(first) is Start
    assert Journal(tmp_path).tidy() == []  # a power cut leaves nothing to set aside
    assert not any(is_empty(path) for path in Journal(tmp_path).games())
    assert not any("unreadable" in line for line in history_lines(tmp_path))


def test_a_kill_between_creating_a_game_file_and_writing_its_start_leaves_no_trace(tmp_path):
    """The file of a new game exists before its start event is in it: a kill in between leaves
    it empty. The next start removes it quietly; it was never a game."""
    (tmp_path / "game-000001.jsonl").write_bytes(b"")
    lines = news_until_killed(start_tower(tmp_path), 4.0)  # start-up, then the first game
    assert not any("could not be read" in line for line in lines)
    games = Journal(tmp_path).games()
    assert games[0].name == "game-000001.jsonl"  # the number is the first game's again
    assert all(path.stat().st_size > 0 for path in games)
    assert not any("unreadable" in line for line in history_lines(tmp_path))
