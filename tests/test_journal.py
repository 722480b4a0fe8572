"""The journal: acknowledged events survive a pulled plug; a torn last line is dropped."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from firmware_py.gamelog import replay
from firmware_py.journal import GameLog, Journal, JournalError, read_game
from firmware_py.rules import Mark, Pass, Roll, Start, game_report
from firmware_py.seating import PAD, SeatSpec

START = Start("classic", ("Ann", "Ben"))
TURN = [
    Roll((4, 1), {"red": 6, "yellow": 2, "green": 3, "blue": 6}),
    Mark("Ann", "red", 5),
    Pass("Ben"),
    Mark("Ann", "blue", 10),  # the rulebook's action 2: white 4 + blue 6
]


def test_every_appended_event_is_on_disk_before_append_returns(tmp_path):
    journal = Journal(tmp_path)
    game_log = journal.begin(START)
    for count, event in enumerate(TURN, start=2):
        game_log.append(event)
        # read through another handle while the log is still open: nothing waits in a buffer
        assert len(game_log.path.read_text().splitlines()) == count
    resumed = journal.resume_latest()
    assert resumed is not None
    assert resumed.game.player("Ann").crosses(0) == 1
    assert resumed.game.active_name == "Ben"


def test_each_game_gets_its_own_numbered_file(tmp_path):
    journal = Journal(tmp_path)
    first = journal.begin(START)
    second = journal.begin(START)
    assert [p.name for p in journal.games()] == ["game-000001.jsonl", "game-000002.jsonl"]
    assert first.path != second.path


def test_a_torn_last_line_is_dropped_and_the_game_goes_on(tmp_path):
    journal = Journal(tmp_path)
    with journal.begin(START) as game_log:
        for event in TURN[:2]:
            game_log.append(event)
    path = journal.games()[-1]
    with open(path, "a", encoding="utf-8") as file:
        file.write('{"event": "pass", "pla')  # the power went out mid-write
    resumed = journal.resume_latest()
    assert resumed is not None and resumed.dropped_torn_line
    assert resumed.events == 3
    # the file is repaired, so the next append starts on a clean line
    with GameLog(path) as game_log:
        game_log.append(Pass("Ben"))
    assert read_game(path).game.phase == "action2"


def test_a_finished_game_is_not_resumed(tmp_path):
    journal = Journal(tmp_path)
    with journal.begin(Start("classic", ("Solo",))) as game_log:
        for _ in range(4):  # four turns of nothing: four penalties end the game
            game_log.append(Roll((1, 1), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
            game_log.append(Pass("Solo"))
            game_log.append(Pass("Solo"))
    assert journal.resume_latest() is None
    assert read_game(journal.games()[-1]).game.reason == "penalties"


def test_a_corrupt_line_inside_a_log_is_reported_with_file_and_line(tmp_path):
    path = tmp_path / "game-000001.jsonl"
    path.write_text('{"event": "start", "variant": "classic", "players": ["A"]}\nnot json\n{}\n')
    with pytest.raises(JournalError, match=r"game-000001\.jsonl: line 2: not valid JSON"):
        read_game(path)


def test_a_full_disk_is_a_journal_error_not_a_crash():
    game_log = GameLog(Path("/dev/full"))
    with pytest.raises(JournalError, match="No space left on device"):
        game_log.append(Pass("Ann"))
    game_log.close()


def test_a_state_directory_that_cannot_be_created_is_a_journal_error(tmp_path):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    with pytest.raises(JournalError, match="cannot create a game log"):
        Journal(blocker / "games").begin(START)


def test_the_journal_is_the_spec_game_log(tmp_path):
    journal = Journal(tmp_path)
    with journal.begin(START) as game_log:
        for event in TURN:
            game_log.append(event)
    lines = journal.games()[0].read_text().splitlines()
    start = json.loads(lines[0])
    assert datetime.fromisoformat(start.pop("time")).utcoffset() == timedelta(0)  # when begun
    assert start == {"event": "start", "variant": "classic", "players": ["Ann", "Ben"]}
    assert game_report(replay(lines))["turn"] == {"active": "Ben", "phase": "roll"}


def test_a_note_of_lucky_numbers_holds_until_a_game_begins_after_it(tmp_path):
    """The lucky numbers of a game not yet begun are noted; once a game log is newer than the
    note (its removal was cut short), the note is stale and is not offered again."""
    journal = Journal(tmp_path)
    journal.begin(START)  # an earlier game
    seats = [SeatSpec("Ann", PAD, "pad-A"), SeatSpec("Bot", "computer")]
    journal.note_draft("longo", seats, {"Ann": [4], "Bot": [2, 9]})
    noted = journal.noted_draft()
    assert noted["variant"] == "longo" and noted["lucky"] == {"Ann": [4], "Bot": [2, 9]}
    assert noted["seats"][0] == {"name": "Ann", "kind": PAD, "pad": "pad-A"}
    journal.begin(Start("longo", ("Ann", "Bot"), {"Ann": [4, 5], "Bot": [2, 9]}))
    assert journal.noted_draft() is None
    journal.forget_draft()
    assert not (tmp_path / "lucky-draft.json").exists()
    journal.forget_draft()  # nothing to forget is fine too
