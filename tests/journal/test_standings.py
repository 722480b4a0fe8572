"""The history's answers from the index: a game's story read from its own log when it counts,
in words why not when it does not, and figures that follow the journal as it grows."""

from __future__ import annotations

import shutil

from support.paths import GOLDEN

from firmware_py.journal.index import HistoryIndex
from firmware_py.journal.standings import Standings
from firmware_py.seats.names import looks

KNOWN = GOLDEN / "story-game.jsonl"  # Ann 29, Ben 47, Cleo 43: Ben won


def standings_of(directory) -> Standings:
    index = HistoryIndex(directory)
    index.refresh()
    return Standings(index, looks)


def test_a_finished_games_story_is_read_from_its_log(tmp_path):
    shutil.copyfile(KNOWN, tmp_path / "game-000001.jsonl")
    answer = standings_of(tmp_path).game(1)
    assert answer.story is not None and answer.story.number == 1
    assert answer.story.totals[-1] == (29, 47, 43)


def test_a_game_that_does_not_count_or_does_not_exist_says_why_in_words(tmp_path):
    lines = KNOWN.read_text().splitlines(keepends=True)
    (tmp_path / "game-000001.jsonl").write_text("".join(lines[:10]))  # left half-way
    (tmp_path / "game-000001.abandoned").touch()
    figures = standings_of(tmp_path)
    assert figures.game(1).why == "game 1 was abandoned before its end: it is not in the figures"
    assert figures.game(7).why == "there is no game 7 in the journal"
    assert figures.everyone() == [] and "1 game abandoned" in figures.left_out().words()


def test_the_figures_follow_the_journal_as_games_are_added(tmp_path):
    """The figures are computed afresh by `update` once the index has read a new game; till
    then the last ones are shown."""
    shutil.copyfile(KNOWN, tmp_path / "game-000001.jsonl")
    figures = standings_of(tmp_path)
    assert figures.player("ben").games == 1
    shutil.copyfile(KNOWN, tmp_path / "game-000002.jsonl")
    figures.index.refresh()
    assert figures.player("BEN").games == 1  # the figures shown while the next are computed
    figures.update()
    assert figures.player("BEN").games == 2
    assert [line.games for line in figures.everyone()] == [2, 2, 2]
