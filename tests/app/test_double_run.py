"""Qwixx Double A and B at the tower as a family meets them: `qwixx-tower sheets`, whole games
of computer players at every level through the real `run` process, their journals replayed,
and `history` listing them (docs/rules.md, "Double A and Double B")."""

from __future__ import annotations

import json

import pytest
from support.spawn import qwixx_tower as qwixx
from support.tower import Tower


def test_sheets_show_marks_the_printed_double_cells():
    lines = qwixx("sheets", "show", "double-b").stdout.splitlines()
    assert lines[2].split()[:5] == ["red", "2", "3x2", "4", "5x2"]
    assert lines[4].split()[:3] == ["green", "12", "11x2"]
    assert "after at least 7 crosses" in "\n".join(lines)
    assert lines[-1].endswith("16x=136")


def test_sheets_show_says_the_latest_number_may_be_crossed_again():
    text = qwixx("sheets", "show", "double-a").stdout
    assert "x2" not in text.split("Dice:")[0]  # no cell printed double on sheet A
    assert "crossed last in a row may be crossed once more" in text


@pytest.mark.parametrize("variant", ["double-a", "double-b"])
def test_random_whole_games_of_every_level_replay_to_what_the_run_announced(tmp_path, variant):
    """Three computer players, one of each level, play a Double game through `run` with random
    dice; the journal replays to the scores announced, with cells crossed twice, and `history`
    lists it."""
    args = ["--plain", "--pace", "0", "--games", "1", "--variant", variant]
    for level in ("Ann=easy", "Ben=medium", "Cleo=hard"):
        args += ["--level", level]
    with Tower(*args, "--state-dir", str(tmp_path)) as tower:
        assert tower.wait_for_exit() == 0, tower.output
        output = tower.output
    title = "Qwixx Double A" if variant == "double-a" else "Qwixx Double B"
    assert f"New game of {title}: Ann, Ben, Cleo" in output
    final = [line for line in output.splitlines() if line.startswith("Game over")]
    assert len(final) == 1, output
    replayed = qwixx("replay", str(tmp_path / "game-000001.jsonl"))
    assert replayed.returncode == 0, replayed.stderr
    state = json.loads(replayed.stdout)
    assert state["variant"] == variant and state["over"] is True
    doubled = 0
    for name, player in state["players"].items():
        assert f"{name} {player['total']}" in final[0]
        doubled += sum(len(row["doubled"]) for row in player["rows"].values())
    assert doubled, "nobody crossed a cell twice in a whole game"
    history = qwixx("history", "--state-dir", str(tmp_path))
    assert history.returncode == 0 and variant in history.stdout


def test_a_journal_with_a_third_cross_is_refused_in_words(tmp_path):
    journal = tmp_path / "game.jsonl"
    dice = '"white": [4, 1], "red": 6, "yellow": 2, "green": 3, "blue": 6'
    roll = '{"event": "roll", "dice": {' + dice + "}}\n"
    mark = '{"event": "mark", "player": "Ann", "row": "red", "number": 5}\n'
    journal.write_text(
        '{"event": "start", "variant": "double-a", "players": ["Ann", "Ben"]}\n'
        + roll + mark + '{"event": "pass", "player": "Ben"}\n{"event": "pass", "player": "Ann"}\n'
        + roll + mark + '{"event": "pass", "player": "Ben"}\n{"event": "pass", "player": "Ben"}\n'
        + roll + mark
    )  # fmt: skip
    result = qwixx("replay", str(journal))
    assert result.returncode == 2 and result.stdout == ""
    assert "line 11: Ann has already crossed red 5 twice" in result.stderr
    assert "Traceback" not in result.stderr
