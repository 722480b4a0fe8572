"""Qwixx Double A and B at the tower as a family meets them: `qwixx-tower sheets`, whole games
of computer players at every level through the real `run` process, their journals replayed,
and `history` listing them (docs/rules.md, "Double A and Double B")."""

from __future__ import annotations

import pytest
from support.spawn import qwixx_tower as qwixx
from support.whole_games import play_whole_game


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
    title = "Qwixx Double A" if variant == "double-a" else "Qwixx Double B"
    played = play_whole_game(tmp_path, variant, title)
    doubled = 0
    for player in played.state["players"].values():
        doubled += sum(len(row["doubled"]) for row in player["rows"].values())
    assert doubled, "nobody crossed a cell twice in a whole game"


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
