"""Qwixx X-Change at the tower as a family meets it: `qwixx-tower sheets`, whole games of
computer players at every level through the real `run` process, their journals replayed, and
`history` listing them; a journal with a field used twice refused in words (docs/rules.md,
"X-Change")."""

from __future__ import annotations

import json
import sys

import pytest
from support import spawn
from support.tower import Tower


def qwixx(*args: str):
    return spawn.run(
        [sys.executable, "-m", "firmware_py.app.cli", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_sheets_lists_and_shows_the_swap_fields():
    assert "x-change" in qwixx("sheets").stdout
    lines = qwixx("sheets", "show", "x-change").stdout.splitlines()
    assert [line.split()[0] for line in lines[2:7]] == ["red", "yellow", "green", "blue", "swap"]
    assert lines[6] == "swap   8/5 9/7 11/3 7/4 10/3 8/6 10/5 11/9 6/4  (X-Change fields)"
    assert all(len(line) <= 100 for line in lines)


@pytest.mark.parametrize("game", [1, 2])
def test_random_whole_games_of_every_level_replay_to_what_the_run_announced(tmp_path, game):
    """Three computer players, one of each level, play an X-Change game through `run`; the
    journal replays to the scores announced, with swap fields used, and `history` lists it."""
    args = ["--plain", "--pace", "0", "--games", "1", "--variant", "x-change"]  # random dice
    for level in ("Ann=easy", "Ben=medium", "Cleo=hard"):
        args += ["--level", level]
    with Tower(*args, "--state-dir", str(tmp_path)) as tower:
        assert tower.wait_for_exit() == 0, tower.output
        output = tower.output
    assert "New game of Qwixx X-Change: Ann, Ben, Cleo" in output
    final = [line for line in output.splitlines() if line.startswith("Game over")]
    assert len(final) == 1, output
    journal = tmp_path / "game-000001.jsonl"
    replayed = qwixx("replay", str(journal))
    assert replayed.returncode == 0, replayed.stderr
    state = json.loads(replayed.stdout)
    assert state["variant"] == "x-change" and state["over"] is True
    for name, player in state["players"].items():
        assert f"{name} {player['total']}" in final[0]
        assert [field["field"] for field in player["swaps"]] == list(range(1, 10))
    events = [json.loads(line) for line in journal.read_text().splitlines()]
    swapped = [event for event in events if "swap" in event]
    assert swapped, "nobody used a swap field in a whole game"
    assert "with X-Change field" in output  # the news says which field a cross used
    history = qwixx("history", "--state-dir", str(tmp_path))
    assert history.returncode == 0 and "x-change" in history.stdout


def test_a_journal_with_a_field_used_twice_is_refused_in_words(tmp_path):
    journal = tmp_path / "game.jsonl"
    dice = '"white": [5, 6], "red": 1, "yellow": 1, "green": 1, "blue": 1'
    roll = '{"event": "roll", "dice": {' + dice + "}}\n"
    journal.write_text(
        '{"event": "start", "variant": "x-change", "players": ["Ann"]}\n'
        + roll
        + '{"event": "mark", "player": "Ann", "row": "red", "number": 3, "swap": 3}\n'
        + '{"event": "pass", "player": "Ann"}\n'
        + roll
        + '{"event": "mark", "player": "Ann", "row": "yellow", "number": 3, "swap": 3}\n'
    )
    result = qwixx("replay", str(journal))
    assert result.returncode == 2 and result.stdout == ""
    assert "line 6: Ann has already used X-Change field 3 (11 and 3)" in result.stderr
    assert "Traceback" not in result.stderr
