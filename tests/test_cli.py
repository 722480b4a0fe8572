"""The `qwixx-tower` command as a user meets it: sheets, run, replay exit codes."""

import json
import subprocess
import sys

from sheets import sheet_names


def qwixx(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "firmware_py.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_sheets_lists_every_variant_of_the_spec():
    listed = qwixx("sheets").stdout.split()
    for name in ("classic", "longo", "mixx-a", "mixx-b", "bonus-a", "bonus-b"):
        assert name in listed
    assert set(sheet_names()) <= set(listed)


def test_sheets_show_prints_the_rows_as_printed():
    lines = qwixx("sheets", "show", "mixx-b").stdout.splitlines()
    red = lines[2].split()
    assert red == ["red", "10", "6", "2", "8", "3", "4", "12", "5", "9", "7", "11", "[lock]"]


def test_output_piped_into_a_reader_that_stops_early_ends_quietly():
    """`qwixx-tower replay game.jsonl | head` must not answer with a Python traceback."""
    command = [sys.executable, "-m", "firmware_py.cli", "sheets", "show", "longo"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as child:
        child.stdout.close()  # the reader is gone before the tower writes a line
        errors = child.stderr.read().decode()
    assert "Traceback" not in errors and "BrokenPipeError" not in errors
    assert child.returncode == 1


def test_sheets_show_unknown_sheet_says_which_exist():
    result = qwixx("sheets", "show", "qwinto")
    assert result.returncode == 2
    assert "unknown variant 'qwinto'" in result.stderr
    assert "classic" in result.stderr


def test_run_plays_a_game_whose_journal_replays_to_the_announced_scores(tmp_path):
    result = qwixx(
        "run", "--plain", "--pace", "0.01", "--games", "1", "--players", "Ann,Ben",
        "--state-dir", str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    final = [line for line in result.stdout.splitlines() if line.startswith("Game over")]
    assert len(final) == 1
    replayed = qwixx("replay", str(tmp_path / "game-000001.jsonl"))
    assert replayed.returncode == 0, replayed.stderr
    state = json.loads(replayed.stdout)
    assert state["over"] is True
    for name, player in state["players"].items():
        assert f"{name} {player['total']}" in final[0]


def test_run_with_look_ahead_computer_players_finishes_its_game(tmp_path):
    result = qwixx(
        "run", "--plain", "--pace", "0.01", "--games", "1", "--players", "Ann,Ben",
        "--look-ahead", "5", "--state-dir", str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert [line for line in result.stdout.splitlines() if line.startswith("Game over")]


def test_run_with_a_broken_configuration_says_which_key_and_exits_2(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("[button]\npin = 40\n")
    result = qwixx("run", "--config", str(config), "--plain", "--state-dir", str(tmp_path))
    assert result.returncode == 2
    assert "[button] pin: must be a GPIO number from 0 to 27, not 40" in result.stderr


def test_replay_reads_standard_input():
    start = '{"event": "start", "variant": "classic", "players": ["Ann"]}\n'
    result = qwixx("replay", "-", stdin=start)
    assert result.returncode == 0
    assert json.loads(result.stdout)["turn"] == {"active": "Ann", "phase": "roll"}


def test_replay_of_a_missing_file_exits_2_with_a_reason():
    result = qwixx("replay", "/nonexistent/game.jsonl")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "cannot read /nonexistent/game.jsonl" in result.stderr


def test_history_lists_each_journalled_game_with_scores(tmp_path):
    from firmware_py.journal import Journal
    from firmware_py.rules import Pass, Roll, Start

    journal = Journal(tmp_path)
    with journal.begin(Start("classic", ("Solo",))) as game_log:
        for _ in range(4):
            game_log.append(Roll((1, 1), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
            game_log.append(Pass("Solo"))
            game_log.append(Pass("Solo"))
    journal.begin(Start("longo", ("Ann", "Ben"), {"Ann": (5, 10), "Ben": (6, 11)})).close()
    lines = qwixx("history", "--state-dir", str(tmp_path)).stdout.splitlines()
    assert lines[0].split() == ["game-000001", "classic", "won", "by", "Solo", "Solo", "-20"]
    assert "unfinished" in lines[1] and "Ann 0, Ben 0" in lines[1]


def test_history_of_an_empty_state_directory_says_so(tmp_path):
    result = qwixx("history", "--state-dir", str(tmp_path / "none"))
    assert result.returncode == 0
    assert "no games yet" in result.stdout
