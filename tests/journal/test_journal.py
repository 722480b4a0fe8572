"""The journal: acknowledged events survive a pulled plug; a torn last line is dropped."""

from __future__ import annotations

import errno
import json
import os
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from firmware_py.journal import journal as journal_module
from firmware_py.journal.disk import plain_reason
from firmware_py.journal.history import history_lines
from firmware_py.journal.journal import GameLog, Journal, JournalError, disk, read_game
from firmware_py.journal.lines import replay
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


# ---- what is in the state directory never stops the tower ------------------------------------

GOOD_LINES = [
    '{"event": "start", "variant": "classic", "players": ["Ann", "Ben"]}\n',
    '{"event": "roll", "dice": {"white": [4, 1], "red": 6, "yellow": 2, "green": 3, "blue": 6}}\n',
    '{"event": "mark", "player": "Ann", "row": "red", "number": 5}\n',
]


def write_game(path: Path, lines: list[str], tail: bytes = b"") -> bytes:
    data = "".join(lines).encode() + tail
    path.write_bytes(data)
    return data


def test_bytes_that_are_not_utf8_are_a_journal_error_naming_the_line(tmp_path):
    path = tmp_path / "game-000001.jsonl"
    write_game(path, GOOD_LINES, b"\xff\xfe\n")
    with pytest.raises(JournalError, match=r"game-000001\.jsonl: line 4: not UTF-8 text"):
        read_game(path)


def test_an_unreadable_newest_game_is_moved_to_quarantine_unchanged_and_not_resumed(tmp_path):
    journal = Journal(tmp_path)
    with journal.begin(START) as game_log:
        game_log.append(TURN[0])
    bad = tmp_path / "game-000002.jsonl"
    data = write_game(bad, GOOD_LINES, b"\xff\xfe\n")
    found = journal.tidy()
    assert [(entry.name, entry.moved_to) for entry in found] == [
        ("game-000002.jsonl", tmp_path / "quarantine" / "game-000002.jsonl")
    ]
    assert "line 4: not UTF-8 text" in found[0].reason
    assert (tmp_path / "quarantine" / "game-000002.jsonl").read_bytes() == data  # for inspection
    assert journal.resume_latest() is None  # the older game was superseded: never resumed
    with journal.begin(START) as game_log:  # the number of the game set aside is not reused
        assert game_log.path.name == "game-000003.jsonl"


def test_a_line_of_brackets_nested_too_deeply_is_set_aside_at_start_not_a_stopped_tower(tmp_path):
    """Found by fuzzing (tests/fuzz/found/game_log/): a line of 100,000 '[' (a disk's garbage
    or a careless edit) ended the start in Python's RecursionError, so the tower never came up
    while the file stayed; now the log is set aside in words, kept, and the tower starts."""
    bad = tmp_path / "game-000001.jsonl"
    data = write_game(bad, GOOD_LINES, b"[" * 100_000 + b"\n")
    journal = Journal(tmp_path)
    found = journal.tidy()
    assert [entry.name for entry in found] == ["game-000001.jsonl"]
    assert "line 4: not valid JSON (nested too deeply)" in found[0].reason
    assert (tmp_path / "quarantine" / "game-000001.jsonl").read_bytes() == data
    assert journal.resume_latest() is None


def test_directories_where_files_belong_are_set_aside(tmp_path):
    for name in ("game-000003.jsonl", "lucky-draft.json", "game-000004.seats.json"):
        (tmp_path / name).mkdir()
    journal = Journal(tmp_path)
    found = journal.tidy()
    assert [entry.name for entry in found] == [
        "game-000003.jsonl",
        "game-000004.seats.json",
        "lucky-draft.json",
    ]
    assert all(entry.reason == "it is a directory, not a file" for entry in found)
    assert sorted(p.name for p in (tmp_path / "quarantine").iterdir()) == [e.name for e in found]
    assert journal.noted_draft() is None
    assert journal.begin(START).path.name == "game-000004.jsonl"


def test_a_fifo_named_like_a_game_is_set_aside_without_waiting_for_a_writer(tmp_path):
    os.mkfifo(tmp_path / "game-000001.jsonl")
    assert [entry.reason for entry in Journal(tmp_path).tidy()] == ["it is not a regular file"]
    assert list(history_lines(tmp_path)) == [
        "game-000001  unreadable, kept in quarantine/: game-000001.jsonl: it is not a regular file"
    ]


def test_a_link_is_a_log_when_it_leads_to_one_and_set_aside_when_it_leads_nowhere(tmp_path):
    """Start-up tells logs from the directory's listing without looking at each: a link
    named like a log is still followed."""
    kept = tmp_path / "kept"
    kept.mkdir()
    with Journal(kept).begin(START) as game_log:
        game_log.append(TURN[0])
    (tmp_path / "game-000001.jsonl").symlink_to(game_log.path)
    (tmp_path / "game-000002.jsonl").symlink_to(tmp_path / "gone.jsonl")
    journal = Journal(tmp_path)
    found = journal.tidy()
    assert [(entry.name, entry.reason) for entry in found] == [
        ("game-000002.jsonl", "No such file or directory")
    ]
    assert journal.resume_latest() is None  # superseded by the game set aside
    assert [p.name for p in journal.games()] == ["game-000001.jsonl"]


def test_empty_game_files_at_the_end_are_removed_and_older_ones_left_as_no_game(tmp_path):
    """Only the newest files can be left empty by a stop (an older one is one that could not
    be removed then): start-up looks at the size of those alone."""
    journal = Journal(tmp_path)
    (tmp_path / "game-000001.jsonl").write_bytes(b"")
    with journal.begin(START) as game_log:
        game_log.append(TURN[0])
    for number in (3, 4):
        (tmp_path / f"game-00000{number}.jsonl").write_bytes(b"")
    assert journal.tidy() == []
    names = [p.name for p in journal.games()]
    assert names == ["game-000001.jsonl", "game-000002.jsonl"]
    assert journal.resume_latest().path.name == "game-000002.jsonl"
    assert [line.split()[0] for line in history_lines(tmp_path)] == ["game-000002"]
    assert journal.begin(START).path.name == "game-000003.jsonl"


def test_a_game_file_left_empty_is_removed_and_the_game_before_it_resumed(tmp_path):
    """The tower was stopped between creating a game's file and writing its start: no game."""
    journal = Journal(tmp_path)
    with journal.begin(START) as game_log:
        game_log.append(TURN[0])
    (tmp_path / "game-000002.jsonl").write_bytes(b"")
    [line] = history_lines(tmp_path)  # history does not call it unreadable
    assert line.startswith("game-000001 ") and line.endswith("classic unfinished Ann 0, Ben 0")
    assert journal.resume_latest().path.name == "game-000001.jsonl"
    assert journal.tidy() == []  # nothing to tell anyone
    assert [p.name for p in journal.games()] == ["game-000001.jsonl"]


def test_what_cannot_be_moved_aside_is_left_in_place_and_skipped(tmp_path):
    (tmp_path / "quarantine").write_text("a file where the folder would go")
    journal = Journal(tmp_path)
    with journal.begin(START) as game_log:
        game_log.append(TURN[0])
    write_game(tmp_path / "game-000002.jsonl", ["not json\n"])
    found = journal.tidy()
    assert [(entry.name, entry.moved_to) for entry in found] == [("game-000002.jsonl", None)]
    assert (tmp_path / "game-000002.jsonl").exists()
    assert journal.resume_latest() is None  # neither the bad game nor the one it superseded


def test_history_lists_every_unreadable_game_as_such_and_never_crashes(tmp_path):
    journal = Journal(tmp_path)
    with journal.begin(START) as game_log:
        game_log.append(TURN[0])
    write_game(tmp_path / "game-000002.jsonl", GOOD_LINES, b"\xff\xfe\n")
    (tmp_path / "game-000003.jsonl").mkdir()
    write_game(tmp_path / "game-000004.jsonl", ['{"event": "roll", "dice": {}}\n'])
    lines = list(history_lines(tmp_path))
    assert lines[0].startswith("game-000001 ") and " classic " in lines[0]
    assert lines[1:] == [
        "game-000002  unreadable: game-000002.jsonl: line 4: not UTF-8 text (byte 1 of the line)",
        "game-000003  unreadable: game-000003.jsonl: it is a directory, not a file",
        'game-000004  unreadable: game-000004.jsonl: line 1: a roll needs "white": '
        "a list of the two white dice",
    ]


def test_history_of_a_directory_that_cannot_be_read_says_so(tmp_path):
    blocker = tmp_path / "state"
    blocker.write_text("not a directory")
    assert list(history_lines(blocker)) == [f"cannot read {blocker}: Not a directory"]


# ---- saving fails: clear reasons, nothing half-written -----------------------------------------


def no_space(fd, data):
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_start_that_cannot_be_written_leaves_no_empty_game_file(tmp_path, monkeypatch):
    monkeypatch.setattr(disk, "write_all", no_space)
    with pytest.raises(JournalError, match="No space left on device"):
        Journal(tmp_path).begin(START)
    assert Journal(tmp_path).games() == []


def test_a_new_game_never_writes_into_a_file_that_is_already_there(tmp_path, monkeypatch):
    existing = write_game(tmp_path / "game-000001.jsonl", GOOD_LINES)
    monkeypatch.setattr(Journal, "_next_number", lambda self: 1)  # a directory it could not list
    with pytest.raises(JournalError, match="cannot create a game log"):
        Journal(tmp_path).begin(START)
    assert (tmp_path / "game-000001.jsonl").read_bytes() == existing


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (errno.ENOSPC, "the disk is full"),
        (errno.EROFS, "/srv/games is read-only"),
        (errno.EIO, "the disk fails (input/output error)"),
        (errno.EACCES, "the tower has no permission for /srv/games"),
        (errno.ENOTDIR, "/srv/games is not a directory"),
    ],
)
def test_why_saving_failed_is_said_in_plain_words(code, words):
    try:
        try:
            raise OSError(code, os.strerror(code))
        except OSError as error:
            raise JournalError("cannot save") from error
    except JournalError as error:
        assert plain_reason(error, Path("/srv/games")) == words
    if code == errno.EROFS:
        assert plain_reason(OSError(code, "x")) == "the disk is read-only"


def test_the_probe_says_when_a_directory_cannot_take_a_file(tmp_path):
    Journal(tmp_path).probe()
    assert list(tmp_path.iterdir()) == []  # the probe leaves nothing behind
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(JournalError) as raised:
        Journal(blocker).probe()
    assert plain_reason(raised.value, blocker) == f"{blocker} is not a directory"


# ---- the log moved, deleted, replaced or changed while its game is on -------------------------


def test_a_log_deleted_mid_game_is_written_again_and_loses_no_event(tmp_path):
    journal = Journal(tmp_path)
    game_log = journal.begin(START)
    game_log.append(TURN[0])
    game_log.path.unlink()
    assert game_log.append(TURN[1]) == journal_module.REWRITTEN
    for event in TURN[2:]:
        assert game_log.append(event) is None
    game_log.close()
    assert read_game(game_log.path).events == 1 + len(TURN)


def test_a_log_replaced_mid_game_is_kept_aside_and_written_again(tmp_path):
    journal = Journal(tmp_path)
    game_log = journal.begin(START)
    game_log.append(TURN[0])
    stranger = tmp_path / "elsewhere.jsonl"
    stranger.write_text("someone else's file\n")
    os.replace(stranger, game_log.path)
    assert game_log.append(TURN[1]) == journal_module.REPLACED
    game_log.close()
    assert read_game(game_log.path).events == 3
    assert (tmp_path / "quarantine" / "game-000001.jsonl").read_text() == "someone else's file\n"


def test_a_log_written_into_by_something_else_is_kept_aside_and_written_again(tmp_path):
    journal = Journal(tmp_path)
    game_log = journal.begin(START)
    with open(game_log.path, "ab") as file:
        file.write(b"\xff\xfe garbage\n")
    game_log.append(TURN[0])
    game_log.close()
    assert read_game(game_log.path).events == 2
    assert (tmp_path / "quarantine" / "game-000001.jsonl").read_bytes().endswith(b"garbage\n")


def test_a_log_that_cannot_be_written_again_is_a_journal_error_and_keeps_nothing_half(
    tmp_path, monkeypatch
):
    journal = Journal(tmp_path)
    game_log = journal.begin(START)
    game_log.path.unlink()
    monkeypatch.setattr(disk, "write_all", no_space)
    with pytest.raises(JournalError) as raised:
        game_log.append(TURN[0])
    assert plain_reason(raised.value) == "the disk is full"
    assert not game_log.path.exists()
    monkeypatch.undo()
    game_log.append(TURN[0])  # space again: the whole game is written again
    game_log.close()
    assert read_game(game_log.path).events == 2


def test_a_new_game_does_not_read_the_whole_state_directory_again(tmp_path, monkeypatch):
    """A kiosk keeps every game it played: after years, thousands of logs. The next game's
    number is counted on, not found by listing them all (which cost time and memory that
    grew with every game kept: pathlib interns each name, issue 12's soak)."""
    journal = Journal(tmp_path)
    for _ in range(30):
        journal.begin(START).close()
    listed: list[str] = []
    listdir = os.listdir
    monkeypatch.setattr(os, "listdir", lambda path=".": listed.append(str(path)) or listdir(path))
    with journal.begin(START) as game_log:
        assert game_log.path.name == "game-000031.jsonl"
    assert listed == []


def test_a_game_file_put_in_the_way_is_left_alone_and_the_game_takes_the_next_number(tmp_path):
    """Someone copies a game log into the state directory, under the number the journal
    counted on for the next game: the file is left as it is, and the game takes the next
    free number."""
    journal = Journal(tmp_path)
    journal.begin(START).close()
    stranger = tmp_path / "game-000002.jsonl"
    stranger.write_bytes(b"someone else's\n")
    with journal.begin(START) as game_log:
        assert game_log.path.name == "game-000003.jsonl"
    assert stranger.read_bytes() == b"someone else's\n"
