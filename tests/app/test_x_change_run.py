"""Qwixx X-Change at the tower as a family meets it: `qwixx-tower sheets`, whole games of
computer players at every level through the real `run` process, their journals replayed, and
`history` listing them; a journal with a field used twice refused in words (docs/rules.md,
"X-Change")."""

from __future__ import annotations

import pytest
from support.spawn import qwixx_tower as qwixx
from support.whole_games import play_whole_game


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
    played = play_whole_game(tmp_path, "x-change", "Qwixx X-Change")
    for player in played.state["players"].values():
        assert [field["field"] for field in player["swaps"]] == list(range(1, 10))
    swapped = [event for event in played.events if "swap" in event]
    assert swapped, "nobody used a swap field in a whole game"
    assert "with X-Change field" in played.output  # the news says which field a cross used


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
