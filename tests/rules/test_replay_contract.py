"""The game-log contract of shared/spec/game-log.md: `replay` and `qwixx-tower replay`.

Output keys and types, exit codes, `line N: REASON` with physical line numbers, and every way a
log can be malformed or break a rule.
"""

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.rules import (
    CLASSIC_POINTS,
    COLOURS,
    build,
    play_turn,
    recording_game,
)

from firmware_py.journal.lines import LogError, event_to_line, replay
from firmware_py.rules import Mark, Pass, Roll, Start, Undo, game_report

START = '{"event": "start", "variant": "classic", "players": ["Ann", "Ben"]}'
ROLL = '{"event": "roll", "dice": {"white": [4, 1], "red": 6, "yellow": 2, "green": 3, "blue": 6}}'
TOP_KEYS = {"variant", "over", "reason", "turn", "locked", "players", "winners"}
PLAYER_KEYS = {"rows", "penalties", "total"}
ROW_KEYS = {"marks", "crosses", "locked", "points"}


def qwixx_tower(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """The installed command (`.venv/bin/qwixx-tower`), as a user runs it."""
    script = Path(sys.executable).with_name("qwixx-tower")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "firmware_py.app.cli"]
    return subprocess.run(
        [*command, *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="replace",
        check=False,
    )


def roll_line(white, **faces) -> str:
    return json.dumps({"event": "roll", "dice": {"white": list(white), **faces}})


ONES = {"red": 1, "yellow": 1, "green": 1, "blue": 1}


def log_text(game) -> str:
    return "".join(event_to_line(event) for event in game.log)


def replay_error(lines: list[str]) -> LogError:
    with pytest.raises(LogError) as info:
        replay(lines)
    error = info.value
    assert str(error) == f"line {error.line}: {error.reason}"
    assert error.reason.strip()
    return error


def finished_game():
    """A classic game that ends when Ann locks red and Ben locks yellow in one action 1."""
    game = recording_game("classic", ["Ann", "Ben"])
    build(
        game,
        {"Ann": [("red", n) for n in range(2, 7)], "Ben": [("yellow", n) for n in range(2, 7)]},
    )
    play_turn(game, {"Ann": ("red", 12), "Ben": ("yellow", 12)})
    assert game.phase == "over"
    return game


def check_shape(state: dict, players: list[str], exact: bool) -> None:
    """The spec's output keys and types; variants may add keys (`exact` False)."""
    assert set(state) == TOP_KEYS
    assert isinstance(state["variant"], str)
    assert isinstance(state["over"], bool)
    assert state["reason"] in (None, "penalties", "locks")
    assert set(state["turn"]) == {"active", "phase"}
    assert state["turn"]["active"] in players
    assert state["turn"]["phase"] in ("roll", "action1", "action2", "over")
    assert isinstance(state["locked"], list)
    assert all(colour in COLOURS for colour in state["locked"])
    assert sorted(state["players"]) == sorted(players)
    for player in state["players"].values():
        keys = set(player)
        assert keys == PLAYER_KEYS if exact else keys >= PLAYER_KEYS
        assert set(player["rows"]) == set(COLOURS)
        for row in player["rows"].values():
            assert set(row) == ROW_KEYS
            assert all(type(n) is int for n in row["marks"])
            assert type(row["crosses"]) is int
            assert type(row["locked"]) is bool
            assert type(row["points"]) is int
        assert type(player["penalties"]) is int
        assert type(player["total"]) is int
    assert isinstance(state["winners"], list)
    assert set(state["winners"]) <= set(players)


# ---- a whole game through the command ---------------------------------------------------------


def test_replay_of_a_finished_game_prints_the_spec_output(tmp_path):
    """Spec, `qwixx-tower replay` output: "Exit status 0 and one JSON object on standard output"
    with variant, over, reason, turn, locked, players (rows with marks, crosses, locked, points;
    penalties; total) and winners. Scores from the classic table (seed 000); the lock cross
    counts (Gamewright, seed 001: "including any locks marked with a cross")."""
    game = finished_game()
    log = tmp_path / "game.jsonl"
    log.write_text(log_text(game), encoding="utf-8")
    result = qwixx_tower("replay", str(log))
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    check_shape(state, ["Ann", "Ben"], exact=True)

    assert state["variant"] == "classic"
    assert state["over"] is True
    assert state["reason"] == "locks"
    assert state["turn"]["phase"] == "over"
    assert state["locked"] == ["red", "yellow"]
    for name, colour in (("Ann", "red"), ("Ben", "yellow")):
        player = state["players"][name]
        assert player["rows"][colour] == {
            "marks": [2, 3, 4, 5, 6, 12],
            "crosses": 7,
            "locked": True,
            "points": CLASSIC_POINTS[7],
        }
        for other in COLOURS:
            if other != colour:
                assert player["rows"][other] == {
                    "marks": [],
                    "crosses": 0,
                    "locked": False,
                    "points": 0,
                }
        assert player["penalties"] == 0
        assert player["total"] == CLASSIC_POINTS[7]
    assert sorted(state["winners"]) == ["Ann", "Ben"]  # a tie: both have the highest total
    assert state == game_report(game)


def test_replay_reads_standard_input_and_reports_a_game_in_progress():
    """Spec: `qwixx-tower replay FILE` "(or - for standard input)"; `reason` is null "while the
    game goes on"; `turn.phase` "action1" during action 1."""
    result = qwixx_tower("replay", "-", stdin=f"{START}\n{ROLL}\n")
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    check_shape(state, ["Ann", "Ben"], exact=True)
    assert state["over"] is False
    assert state["reason"] is None
    assert state["turn"] == {"active": "Ann", "phase": "action1"}
    assert state["locked"] == []


def test_a_rule_breaking_line_exits_2_with_line_n_and_the_rule_on_stderr(tmp_path):
    """Spec: "Exit status 2 for a log that is malformed or breaks a rule: nothing on standard
    output, and on standard error a first line `line N: REASON` ... (e.g. `line 9: Ben cannot
    lock red: needs 5 crosses in red first, has 4`)"."""
    game = recording_game("classic", ["Ann", "Ben"])
    build(game, {"Ann": [("blue", 12), ("blue", 11)], "Ben": [("red", n) for n in (2, 3, 4, 5)]})
    game.apply(Roll((6, 6), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
    lines = log_text(game) + event_to_line(Mark("Ben", "red", 12))
    bad = len(lines.splitlines())
    log = tmp_path / "game.jsonl"
    log.write_text(lines, encoding="utf-8")
    result = qwixx_tower("replay", str(log))
    assert result.returncode == 2
    assert result.stdout == ""
    first = result.stderr.splitlines()[0]
    assert first == f"line {bad}: Ben cannot lock red: needs 5 crosses in red first, has 4"


def test_a_malformed_line_exits_2_with_line_n_on_stderr_from_standard_input():
    """Spec: exit status 2, nothing on standard output, `line N: REASON` first on stderr."""
    result = qwixx_tower("replay", "-", stdin=f"{START}\n{{not json\n")
    assert result.returncode == 2
    assert result.stdout == ""
    assert re.match(r"line 2: \S", result.stderr.splitlines()[0])


def test_line_numbers_count_blank_lines(tmp_path):
    """Spec: "JSON Lines: UTF-8, one JSON object per line, blank lines ignored"; `line N` is the
    line of the file, blank lines included."""
    text = (
        f"\n{START}\n\n   \n{ROLL}\n\n"
        + '{"event": "mark", "player": "Ann", "row": "red", "number": 6}\n'
    )
    log = tmp_path / "game.jsonl"
    log.write_text(text, encoding="utf-8")
    result = qwixx_tower("replay", str(log))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("line 7: ")
    error = replay_error(text.splitlines(keepends=True))
    assert error.line == 7


def test_blank_lines_alone_do_not_disturb_a_good_log():
    """Spec: "blank lines ignored"."""
    game = replay(["", START, "", "  ", ROLL, ""])
    assert game_report(game)["turn"] == {"active": "Ann", "phase": "action1"}


def test_a_log_that_is_not_utf_8_exits_2_with_line_n(tmp_path):
    """Spec, File: "JSON Lines: UTF-8"; a log that is malformed exits 2 with nothing on standard
    output and "on standard error a first line `line N: REASON`". Line 3 holds bytes that are not
    UTF-8."""
    log = tmp_path / "game.jsonl"
    log.write_bytes(
        START.encode() + b"\n" + ROLL.encode() + b'\n{"event": "pass", "player": "B\xffn"}\n'
    )
    result = qwixx_tower("replay", str(log))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines()[0].startswith("line 3: ")


def test_an_empty_log_exits_2(tmp_path):
    """Spec: "Line 1 starts the game": a log without a start event is malformed."""
    log = tmp_path / "empty.jsonl"
    log.write_text("", encoding="utf-8")
    result = qwixx_tower("replay", str(log))
    assert result.returncode == 2
    assert result.stdout == ""
    assert re.match(r"line \d+: \S", result.stderr.splitlines()[0])


# ---- what makes a line bad -------------------------------------------------------------------


MARK = '{"event": "mark", "player": "Ann", "row": "red", "number": 5}'
BAD_LINES = {
    "malformed JSON": ('{"event": "mark", "player": "Ann",', ()),
    "a JSON list": ('["mark", "Ann", "red", 5]', ()),
    "a JSON string": ('"pass"', ()),
    "no event": ('{"player": "Ann"}', ("event",)),
    "unknown event": ('{"event": "shout", "player": "Ann"}', ("shout",)),
    "event not text": ('{"event": 3, "player": "Ann"}', ("event",)),
    "mark without number": ('{"event": "mark", "player": "Ann", "row": "red"}', ("number",)),
    "mark without row": ('{"event": "mark", "player": "Ann", "number": 5}', ("row",)),
    "mark without player": ('{"event": "mark", "row": "red", "number": 5}', ("player",)),
    "pass without player": ('{"event": "pass"}', ("player",)),
    "undo without player": ('{"event": "undo"}', ("player",)),
    "number as text": (
        '{"event": "mark", "player": "Ann", "row": "red", "number": "5"}',
        ("number",),
    ),
    "player as number": ('{"event": "pass", "player": 1}', ("player",)),
    "row as number": ('{"event": "mark", "player": "Ann", "row": 0, "number": 5}', ("row",)),
    "lucky not true/false": (
        '{"event": "mark", "player": "Ann", "row": "red", "number": 5, "lucky": "yes"}',
        ("lucky",),
    ),
    "unknown player": ('{"event": "pass", "player": "Zoe"}', ("Zoe",)),
    "unknown row": ('{"event": "mark", "player": "Ann", "row": "pink", "number": 5}', ("pink",)),
    "wrong number": ('{"event": "mark", "player": "Ann", "row": "red", "number": 6}', ("5",)),
    "a second roll": (ROLL, ("roll",)),
    "a second start": (START, ("start",)),
}


@pytest.mark.parametrize("case", list(BAD_LINES))
def test_a_bad_line_after_the_roll_is_refused_at_its_line(case):
    """Spec: every later line is one event of the listed kinds with their fields; "Exit status 2
    for a log that is malformed or breaks a rule ... `line N: REASON`"."""
    text, words = BAD_LINES[case]
    error = replay_error([START, "", ROLL, text, MARK])
    assert error.line == 4
    for word in words:
        assert word.lower() in error.reason.lower()


BAD_ROLLS = {
    "no dice": ('{"event": "roll"}', ("dice",)),
    "dice as a list": ('{"event": "roll", "dice": [4, 1, 6, 2, 3, 6]}', ("dice",)),
    "one white die": (
        '{"event": "roll", "dice": {"white": [4], "red": 6, "yellow": 2, "green": 3, "blue": 6}}',
        ("white",),
    ),
    "no white dice": (
        '{"event": "roll", "dice": {"red": 6, "yellow": 2, "green": 3, "blue": 6}}',
        ("white",),
    ),
    "missing blue die": (
        '{"event": "roll", "dice": {"white": [4, 1], "red": 6, "yellow": 2, "green": 3}}',
        ("blue",),
    ),
    "a seven on a d6": (
        '{"event": "roll", "dice": {"white": [4, 1], "red": 7, "yellow": 2, "green": 3, '
        '"blue": 6}}',
        ("7",),
    ),
    "a white seven on a d6": (
        '{"event": "roll", "dice": {"white": [7, 1], "red": 6, "yellow": 2, "green": 3, '
        '"blue": 6}}',
        ("7",),
    ),
    "a zero": (
        '{"event": "roll", "dice": {"white": [4, 1], "red": 6, "yellow": 0, "green": 3, '
        '"blue": 6}}',
        ("0",),
    ),
    "a face as text": (
        '{"event": "roll", "dice": {"white": [4, 1], "red": "6", "yellow": 2, "green": 3, '
        '"blue": 6}}',
        (),
    ),
}


@pytest.mark.parametrize("case", list(BAD_ROLLS))
def test_a_bad_roll_is_refused_at_its_line(case):
    """Spec, roll: "dice holds exactly the dice still in play: both white dice and each colour
    die whose colour is not locked ... Faces are 1..6"."""
    text, words = BAD_ROLLS[case]
    error = replay_error([START, text])
    assert error.line == 2
    for word in words:
        assert word.lower() in error.reason.lower()


def test_a_nine_on_a_longo_d8_is_refused_and_an_eight_is_fine():
    """Spec, roll: "Faces are 1..6 (1..8 for longo)"."""
    start = '{"event": "start", "variant": "longo", "players": ["Ann"], "lucky": {"Ann": [5, 10]}}'
    good = (
        '{"event": "roll", "dice": {"white": [8, 8], "red": 8, "yellow": 1, "green": 8, "blue": 7}}'
    )
    bad = (
        '{"event": "roll", "dice": {"white": [8, 9], "red": 8, "yellow": 1, "green": 8, "blue": 7}}'
    )
    assert replay([start, good]).phase == "action1"
    error = replay_error([start, bad])
    assert error.line == 2
    assert "9" in error.reason


def test_a_roll_with_the_die_of_a_locked_row_is_refused():
    """Classic (seed 000): the die of a locked row "is immediately removed from the game"; spec:
    the roll holds "each colour die whose colour is not locked"."""
    game = recording_game("classic", ["Ann", "Ben"])
    build(
        game,
        {"Ann": [("red", n) for n in (2, 3, 4, 5, 6, 12)], "Ben": [("blue", n) for n in (12, 11)]},
    )
    assert game_report(game)["locked"] == ["red"]
    lines = log_text(game).splitlines()
    error = replay_error([*lines, ROLL])
    assert error.line == len(lines) + 1
    assert "red" in error.reason
    without_red = '{"event": "roll", "dice": {"white": [4, 1], "yellow": 2, "green": 3, "blue": 6}}'
    assert replay([*lines, without_red]).phase == "action1"


BAD_STARTS = {
    "first line a roll": (ROLL, ("start",)),
    "first line a mark": (MARK, ("start",)),
    "unknown variant": (
        '{"event": "start", "variant": "qwinto", "players": ["Ann", "Ben"]}',
        ("qwinto",),
    ),
    "no variant": ('{"event": "start", "players": ["Ann", "Ben"]}', ("variant",)),
    "no players": ('{"event": "start", "variant": "classic"}', ("players",)),
    "players as text": ('{"event": "start", "variant": "classic", "players": "Ann, Ben"}', ()),
    "no players at all": ('{"event": "start", "variant": "classic", "players": []}', ()),
    "six players": (
        '{"event": "start", "variant": "classic", "players": ["A", "B", "C", "D", "E", "F"]}',
        (),
    ),
    "a duplicate name": (
        '{"event": "start", "variant": "classic", "players": ["Ann", "Ben", "Ann"]}',
        ("Ann",),
    ),
    "an empty name": ('{"event": "start", "variant": "classic", "players": ["Ann", ""]}', ()),
    "a name that is not text": ('{"event": "start", "variant": "classic", "players": [1, 2]}', ()),
    "longo without lucky numbers": (
        '{"event": "start", "variant": "longo", "players": ["Ann", "Ben"]}',
        ("lucky",),
    ),
    "longo with one player's lucky numbers": (
        '{"event": "start", "variant": "longo", "players": ["Ann", "Ben"], '
        '"lucky": {"Ann": [5, 10]}}',
        ("lucky",),
    ),
    "longo with equal lucky numbers": (
        '{"event": "start", "variant": "longo", "players": ["Ann"], "lucky": {"Ann": [5, 5]}}',
        ("lucky",),
    ),
    "longo with a lucky 17": (
        '{"event": "start", "variant": "longo", "players": ["Ann"], "lucky": {"Ann": [5, 17]}}',
        ("lucky",),
    ),
}


@pytest.mark.parametrize("case", list(BAD_STARTS))
def test_a_bad_first_line_is_refused_at_line_1(case):
    """Spec, start: "Line 1 starts the game"; "variant: a sheet name"; "players: 1 to 5 distinct
    non-empty names"; "longo also needs "lucky": ... each player's two distinct lucky numbers
    (2..16)"."""
    text, words = BAD_STARTS[case]
    error = replay_error([text, ROLL])
    assert error.line == 1
    for word in words:
        assert word.lower() in error.reason.lower()


def test_the_first_event_after_blank_lines_must_be_a_start():
    """Spec: blank lines are ignored, and the first event starts the game."""
    error = replay_error(["", "", ROLL])
    assert error.line == 3
    assert "start" in error.reason.lower()


# ---- the journal side: events to lines and back -------------------------------------------------


def test_event_lines_have_the_spec_shapes():
    """Spec, Events: the JSON of start, roll, mark (with "lucky": true and "choice": {"row": ...}
    where used), pass and undo."""
    lines = [
        event_to_line(Start("longo", ("Ann", "Ben"), {"Ann": (5, 10), "Ben": (6, 11)})),
        event_to_line(Roll((4, 1), {"red": 6, "yellow": 2, "green": 3, "blue": 6})),
        event_to_line(Mark("Ben", "yellow", 5)),
        event_to_line(Mark("Ann", "green", 16, lucky=True)),
        event_to_line(Mark("Ann", "green", 9, choice="red")),
        event_to_line(Pass("Cleo")),
        event_to_line(Undo("Ben")),
    ]
    for line in lines:
        assert line.endswith("\n") and "\n" not in line[:-1]
    data = [json.loads(line) for line in lines]
    assert data[0] == {
        "event": "start",
        "variant": "longo",
        "players": ["Ann", "Ben"],
        "lucky": {"Ann": [5, 10], "Ben": [6, 11]},
    }
    assert data[1] == {
        "event": "roll",
        "dice": {"white": [4, 1], "red": 6, "yellow": 2, "green": 3, "blue": 6},
    }
    assert data[2] == {"event": "mark", "player": "Ben", "row": "yellow", "number": 5}
    assert data[3] == {
        "event": "mark",
        "player": "Ann",
        "row": "green",
        "number": 16,
        "lucky": True,
    }
    assert data[4]["choice"] == {"row": "red"}
    assert data[5] == {"event": "pass", "player": "Cleo"}
    assert data[6] == {"event": "undo", "player": "Ben"}


def test_the_spec_examples_replay():
    """Spec, Events: the example lines of start, roll, mark and pass, in that order, replay to a
    game in action 2 of Ann's turn with Ben's yellow 5."""
    lines = [
        '{"event": "start", "variant": "classic", "players": ["Ann", "Ben", "Cleo"]}',
        ROLL,
        '{"event": "mark", "player": "Ben", "row": "yellow", "number": 5}',
        '{"event": "pass", "player": "Cleo"}',
        '{"event": "pass", "player": "Ann"}',
    ]
    state = game_report(replay(lines))
    check_shape(state, ["Ann", "Ben", "Cleo"], exact=True)
    assert state["turn"] == {"active": "Ann", "phase": "action2"}
    assert state["players"]["Ben"]["rows"]["yellow"]["marks"] == [5]


def test_undo_lines_replay():
    """Spec, undo: "Takes back the player's own last decision ... while the action it belongs to
    is still open." An undone mark leaves no trace in the replayed state."""
    lines = [
        START,
        ROLL,
        '{"event": "mark", "player": "Ben", "row": "yellow", "number": 5}',
        '{"event": "undo", "player": "Ben"}',
        '{"event": "mark", "player": "Ben", "row": "green", "number": 5}',
    ]
    state = game_report(replay(lines))
    assert state["players"]["Ben"]["rows"]["yellow"]["marks"] == []
    assert state["players"]["Ben"]["rows"]["green"]["marks"] == [5]
    error = replay_error([*lines, '{"event": "undo", "player": "Ann"}'])
    assert error.line == 6


@pytest.mark.parametrize("variant", ["classic", "longo", "mixx-a", "mixx-b", "bonus-a", "bonus-b"])
def test_a_journal_replays_to_the_same_state_in_every_variant(variant):
    """Spec: "The tower records every accepted event in this format (its journal), and
    `qwixx-tower replay FILE` reads such a file ... and prints the resulting game state." Variants
    add keys but never change the spec's."""
    game = recording_game(variant, ["Ann", "Ben", "Cleo"])
    steps = {
        "Ann": [("red", n) for n in (2, 4, 5, 7)],
        "Ben": [("yellow", n) for n in (2, 4, 6)],
        "Cleo": [("blue", n) for n in (12, 11, 9)],
    }
    if variant == "mixx-b":
        steps = {
            "Ann": [("red", n) for n in (10, 6, 2, 8)],
            "Ben": [("yellow", n) for n in (9, 12, 4)],
            "Cleo": [("blue", n) for n in (5, 7, 11)],
        }
    build(game, steps)
    game.apply(Roll((3, 3), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
    game.apply(Pass("Cleo"))
    replayed = replay(log_text(game).splitlines(keepends=True))
    state = game_report(replayed)
    assert state == game_report(game)
    check_shape(state, ["Ann", "Ben", "Cleo"], exact=variant in ("classic", "mixx-a", "mixx-b"))
    assert state["variant"] == variant
    assert state["turn"]["phase"] == "action1"
    assert replayed.waiting_for() == ["Ann", "Ben"]


def test_replay_of_lucky_and_choice_marks():
    """Spec: `"lucky": true` marks an action-1 lucky cross (Longo), and `"choice": {"row": ...}`
    carries the bonus-b circle's row when rows tie."""
    longo = [
        '{"event": "start", "variant": "longo", "players": ["Laura"], "lucky": {"Laura": [6, 11]}}',
        roll_line((5, 1), **ONES),
        '{"event": "mark", "player": "Laura", "row": "green", "number": 16, "lucky": true}',
    ]
    state = game_report(replay(longo))
    assert state["players"]["Laura"]["rows"]["green"]["marks"] == [16]
    assert state["turn"]["phase"] == "action2"

    lines = [
        '{"event": "start", "variant": "bonus-b", "players": ["Ann"]}',
        roll_line((6, 5), **ONES),
        '{"event": "mark", "player": "Ann", "row": "yellow", "number": 11}',
        '{"event": "pass", "player": "Ann"}',
        roll_line((5, 4), **ONES),
    ]
    circle = '{"event": "mark", "player": "Ann", "row": "green", "number": 9}'
    error = replay_error([*lines, circle])
    assert error.line == 6
    assert "choice" in error.reason.lower()
    chosen = circle[:-1] + ', "choice": {"row": "blue"}}'
    state = game_report(replay([*lines, chosen]))
    assert state["players"]["Ann"]["rows"]["blue"]["marks"] == [12, 11]
    assert state["players"]["Ann"]["rows"]["red"]["marks"] == []


def test_a_game_over_log_refuses_a_further_event():
    """Spec: "Any event after the game is over is refused." """
    game = finished_game()
    lines = log_text(game).splitlines()
    error = replay_error(
        [*lines, '{"event": "roll", "dice": {"white": [1, 1], "green": 1, "blue": 1}}']
    )
    assert error.line == len(lines) + 1
    assert "over" in error.reason.lower()


# ---- any malformed line exits 2, never a crash ------------------------------------------------


def test_lucky_numbers_of_the_wrong_type_exit_2_with_line_1():
    """Spec, start: "lucky": {"Ann": [5, 10], ...}: "each player's two distinct lucky numbers
    (2..16)"; a log that is malformed exits 2 with `line N: REASON` on standard error."""
    text = (
        '{"event": "start", "variant": "longo", "players": ["Ann"], "lucky": {"Ann": [[5], 10]}}\n'
    )
    result = qwixx_tower("replay", "-", stdin=text)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines()[0].startswith("line 1: ")


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "Ann", "red", "green", "white", "classic", "longo", "mark"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)

GOOD_LOGS = [
    [
        {
            "event": "start",
            "variant": "longo",
            "players": ["Ann", "Ben"],
            "lucky": {"Ann": [6, 11], "Ben": [2, 3]},
        },
        {"event": "roll", "dice": {"white": [5, 1], "red": 2, "yellow": 3, "green": 4, "blue": 5}},
        {"event": "mark", "player": "Ann", "row": "green", "number": 16, "lucky": True},
        {"event": "undo", "player": "Ann"},
        {"event": "mark", "player": "Ben", "row": "red", "number": 6},
        {"event": "pass", "player": "Ann"},
        {"event": "mark", "player": "Ann", "row": "red", "number": 7},
    ],
    [
        {"event": "start", "variant": "bonus-b", "players": ["Ann"]},
        {"event": "roll", "dice": {"white": [6, 5], "red": 1, "yellow": 1, "green": 1, "blue": 1}},
        {"event": "mark", "player": "Ann", "row": "yellow", "number": 11},
        {"event": "pass", "player": "Ann"},
        {"event": "roll", "dice": {"white": [5, 4], "red": 1, "yellow": 1, "green": 1, "blue": 1}},
        {"event": "mark", "player": "Ann", "row": "green", "number": 9, "choice": {"row": "red"}},
    ],
]


def _paths(value, prefix=()):
    """Every place in a JSON value that a fuzzed value can replace."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


def _replace(value, path, new):
    if not path:
        return new
    value = copy.deepcopy(value)
    target = value
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return value


@settings(max_examples=300, deadline=None)
@given(
    log=st.sampled_from(GOOD_LOGS),
    data=st.data(),
    new=JSON_VALUES,
)
def test_any_malformed_field_is_refused_with_its_line_and_never_crashes(log, data, new):
    """Spec: "Exit status 2 for a log that is malformed or breaks a rule: ... `line N: REASON`".
    Any field of a good log replaced by any JSON value either still replays or is refused at that
    line with a LogError: never another exception (which would crash the command)."""
    assert replay([json.dumps(event) for event in log])  # the log itself is good
    line = data.draw(st.integers(0, len(log) - 1))
    path = data.draw(st.sampled_from(list(_paths(log[line]))))
    events = [*log[:line], _replace(log[line], path, new), *log[line + 1 :]]
    lines = [json.dumps(event) for event in events]
    try:
        replay(lines)
    except LogError as error:
        assert 1 <= error.line <= len(lines)
        assert str(error) == f"line {error.line}: {error.reason}"
