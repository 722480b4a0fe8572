"""Qwixx Big Points at the tower as a family meets it: `qwixx-tower sheets`, whole games of
computer players at every level through the real `run` process, their journals replayed, and
`history` listing them (docs/rules.md, "Big Points")."""

from __future__ import annotations

import pytest
from support.spawn import qwixx_tower as qwixx
from support.whole_games import play_whole_game


def test_sheets_show_draws_the_bonus_rows_between_their_rows():
    lines = qwixx("sheets", "show", "big-points").stdout.splitlines()
    rows = [line.split()[0] for line in lines[2:8]]
    assert rows == ["red", "bonus", "yellow", "green", "bonus", "blue"]
    assert lines[3].split()[1:12] == [str(n) for n in range(2, 13)]
    assert "(red-yellow bonus row)" in lines[3] and "(green-blue bonus row)" in lines[6]
    rules = " ".join(line.strip() for line in lines[9:])  # (sentences wrap at 80 columns)
    assert "after at least 5 crosses" in rules and "not towards a lock" in rules
    assert lines[-1].endswith("15x=120")


@pytest.mark.parametrize("game", [1, 2])
def test_random_whole_games_of_every_level_replay_to_what_the_run_announced(tmp_path, game):
    """Three computer players, one of each level, play a Big Points game through `run`; the
    journal replays to the scores announced, with bonus boxes crossed, and `history` lists it."""
    played = play_whole_game(tmp_path, "big-points", "Qwixx Big Points")
    for player in played.state["players"].values():
        assert set(player["bonus_rows"]) == {"red-yellow", "green-blue"}
    assert any(event.get("row") in ("red-yellow", "green-blue") for event in played.events), (
        "nobody crossed a bonus box in a whole game"
    )


def test_a_journal_with_a_box_crossed_without_its_neighbour_is_refused_in_words(tmp_path):
    journal = tmp_path / "game.jsonl"
    journal.write_text(
        '{"event": "start", "variant": "big-points", "players": ["Ann"]}\n'
        '{"event": "roll", "dice": {"white": [4, 1], "red": 6, "yellow": 2, "green": 3,'
        ' "blue": 6}}\n'
        '{"event": "mark", "player": "Ann", "row": "red-yellow", "number": 5}\n'
    )
    result = qwixx("replay", str(journal))
    assert result.returncode == 2 and result.stdout == ""
    assert "line 3: Ann cannot cross the bonus box red-yellow 5" in result.stderr
    assert "Traceback" not in result.stderr
