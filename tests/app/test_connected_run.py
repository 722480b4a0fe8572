"""Qwixx Connected (the Steps and the Chain) at the tower as a family meets it: the
configuration, `qwixx-tower sheets`, whole games of computer players at every level through
the real `run` process, their journals replayed, and `history` listing them (docs/rules.md,
"Connected")."""

from __future__ import annotations

import pytest
from support.spawn import qwixx_tower as qwixx
from support.whole_games import play_whole_game

from firmware_py.app.config import parse_config

SHEETS = {"connected-steps": "Qwixx Connected Steps", "connected-chain": "Qwixx Connected Chain"}


@pytest.mark.parametrize("variant", SHEETS)
def test_the_configuration_takes_the_connected_sheets(variant):
    assert parse_config({"tower": {"variant": variant}}, source="c.toml").variant == variant


def test_sheets_lists_both_and_shows_their_pads():
    listed = qwixx("sheets").stdout.splitlines()
    assert "connected-chain Qwixx Connected Chain" in listed
    assert "connected-steps Qwixx Connected Steps" in listed
    chain = qwixx("sheets", "show", "connected-chain").stdout.splitlines()
    assert "pad A chain a: red 6 - yellow 6" in chain
    assert "pad A chain f: green 4 - blue 4" in chain
    assert chain[2] == "red     2   3   4   5   6a  7   8   9  10  11b 12  [lock]"
    assert chain[4] == "green  12  11c 10   9e  8   7   6d  5   4f  3   2  [lock]"
    assert all(len(line) <= 100 for line in chain)
    steps = qwixx("sheets", "show", "connected-steps").stdout
    assert "pad A stair: red 2 3 4, yellow 5 6 7, green 6 5 4, blue 3 2" in steps
    assert "blue   12  11  10   9   8   7   6   5   4   3s  2s  [lock]" in steps
    assert "as a fifth row" in steps


@pytest.mark.parametrize("variant", SHEETS)
def test_random_whole_games_of_every_level_replay_to_what_the_run_announced(tmp_path, variant):
    """Three computer players, one of each level, play a game through `run`; the journal
    replays to the scores announced, every player on pad A as its start line says, and
    `history` lists it."""
    played = play_whole_game(tmp_path, variant, SHEETS[variant])
    assert {player["pad"] for player in played.state["players"].values()} == {"A"}
    pads = {name: player["pad"] for name, player in played.state["players"].items()}
    assert played.events[0]["pads"] == pads  # the start line says who plays which pad
    if variant == "connected-steps":
        stairs = [player["steps"] for player in played.state["players"].values()]
        assert all(0 <= stair["crosses"] <= 11 for stair in stairs)


def test_the_news_says_what_the_chain_crossed(tmp_path):
    """Over a few games someone crosses a circled cell, and the news says the chain's cross."""
    for game in range(3):
        played = play_whole_game(tmp_path / str(game), "connected-chain", SHEETS["connected-chain"])
        if " and the chain crosses " in played.output:
            return
    pytest.fail("in three whole games nobody crossed a circled cell")


def test_a_journal_crossing_left_of_a_chain_cross_is_refused_in_words(tmp_path):
    """Red 6 crosses yellow 6 by the chain; yellow 3 is then left of a cross and refused."""
    journal = tmp_path / "game.jsonl"
    journal.write_text(
        '{"event": "start", "variant": "connected-chain", "players": ["Ann"]}\n'
        '{"event": "roll", "dice": {"white": [3, 3], "red": 1, "yellow": 1, "green": 1, '
        '"blue": 1}}\n'
        '{"event": "mark", "player": "Ann", "row": "red", "number": 6}\n'
        '{"event": "pass", "player": "Ann"}\n'
        '{"event": "roll", "dice": {"white": [1, 2], "red": 1, "yellow": 1, "green": 1, '
        '"blue": 1}}\n'
        '{"event": "mark", "player": "Ann", "row": "yellow", "number": 3}\n'
    )
    result = qwixx("replay", str(journal))
    assert result.returncode == 2 and result.stdout == ""
    assert "line 6: Ann cannot cross yellow 3" in result.stderr
    assert "Traceback" not in result.stderr
