"""The `qwixx-tower` command as a user meets it: sheets, run, replay exit codes."""

import json
import os
import re
import subprocess
import sys

import pytest
from support import spawn
from support.tower import Tower

from firmware_py.seating import PAD, SeatSpec
from sheets import sheet_names


def qwixx(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return spawn.run(
        [sys.executable, "-m", "firmware_py.app.cli", *args],
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
    command = [sys.executable, "-m", "firmware_py.app.cli", "sheets", "show", "longo"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as child:
        child.stdout.close()  # the reader is gone before the tower writes a line
        errors = child.stderr.read().decode()
    assert "Traceback" not in errors and "BrokenPipeError" not in errors
    assert child.returncode == 1


@pytest.mark.parametrize("name", sheet_names())
def test_sheets_show_fits_an_80_column_terminal_without_cutting_a_word(name):
    """A newcomer's 80x24 terminal: the rows stay whole, the rules' sentences wrap at words."""
    text = qwixx("sheets", "show", name).stdout
    assert all(len(line) < 80 for line in text.splitlines())
    sentences = " ".join(line.strip() for line in text.split("\n\n")[-2].splitlines())
    assert "Penalty: -5 each; the game ends at 4 penalties or 2 locked rows." in sentences


def test_sheets_show_takes_a_name_in_any_case_as_run_does():
    """`run --variant Longo` plays Longo, and `sheets show Longo` said it knew no such sheet."""
    result = qwixx("sheets", "show", "Longo")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Qwixx Longo (longo)")


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
    from firmware_py.journal.journal import Journal
    from firmware_py.rules import Pass, Roll, Start

    journal = Journal(tmp_path)
    with journal.begin(Start("classic", ("Solo",))) as game_log:
        for _ in range(4):
            game_log.append(Roll((1, 1), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
            game_log.append(Pass("Solo"))
            game_log.append(Pass("Solo"))
    journal.begin(Start("longo", ("Ann", "Ben"), {"Ann": (5, 10), "Ben": (6, 11)})).close()
    lines = qwixx("history", "--state-dir", str(tmp_path)).stdout.splitlines()
    words = lines[0].split()
    assert words[0] == "game-000001" and re.fullmatch(r"\w{3} \d{4}-\d\d-\d\d \d\d:\d\d",
                                                      " ".join(words[1:4]))  # fmt: skip
    assert words[4:] == ["classic", "won", "by", "Solo", "Solo", "-20"]
    assert "unfinished" in lines[1] and "Ann 0, Ben 0" in lines[1]


def test_history_says_when_each_game_began_in_local_time_and_who_won(tmp_path):
    """The start event's optional "time" (shared/spec/game-log.md) answers "who won on
    Sunday"; a log from before it was written replays and lists as before, without a date."""
    old = ['{"event": "start", "variant": "classic", "players": ["Solo"]}']
    new = ['{"event": "start", "variant": "classic", "players": ["Ann", "Ben"], '
           '"time": "2026-11-22T19:04:05+00:00"}']  # fmt: skip
    dice = '"dice": {"white": [1, 1], "red": 1, "yellow": 1, "green": 1, "blue": 1}'
    solo_passes = '{"event": "pass", "player": "Solo"}'
    turn = ['{"event": "roll", ' + dice + "}", solo_passes, solo_passes]
    old += turn * 4  # four penalties: Solo's game is over
    (tmp_path / "game-000001.jsonl").write_text("\n".join(old) + "\n")
    (tmp_path / "game-000002.jsonl").write_text("\n".join(new) + "\n")
    for path in sorted(tmp_path.iterdir()):
        assert qwixx("replay", str(path)).returncode == 0
    history = spawn.run(
        [sys.executable, "-m", "firmware_py.app.cli", "history", "--state-dir", str(tmp_path)],
        capture_output=True, text=True, check=True, env={**os.environ, "TZ": "Europe/Berlin"},
    ).stdout.splitlines()  # fmt: skip
    assert history[0].split()[:5] == ["game-000001", "classic", "won", "by", "Solo"]
    assert history[1].split()[:6] == ["game-000002", "Sun", "2026-11-22", "20:04", "classic",
                                      "unfinished"]  # fmt: skip


def test_history_lists_a_game_whose_time_no_clock_can_show_without_its_date(tmp_path):
    """A start time edited to year 1 ahead of UTC reads as ISO 8601 but overflows on the way
    to local time: `history` ended in a traceback. The game is listed as one without a time."""
    start = ('{"event": "start", "variant": "classic", "players": ["Ann"], '
             '"time": "0001-01-01T00:00:00+01:00"}\n')  # fmt: skip
    (tmp_path / "game-000001.jsonl").write_text(start)
    result = qwixx("history", "--state-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[:3] == ["game-000001", "classic", "unfinished"]


def test_history_of_an_empty_state_directory_says_so(tmp_path):
    result = qwixx("history", "--state-dir", str(tmp_path / "none"))
    assert result.returncode == 0
    assert "No games yet" in result.stdout


def test_history_of_a_file_given_as_the_state_directory_is_a_mistake_in_one_sentence(tmp_path):
    (tmp_path / "notes.txt").write_text("shopping list\n")
    result = qwixx("history", "--state-dir", str(tmp_path / "notes.txt"))
    assert result.returncode == 2
    assert result.stderr == f"{tmp_path / 'notes.txt'} is a file: the games are kept in a folder\n"


# ---- every command-line mistake: one sentence, exit status 2 ----------------------------------


def one_sentence_and_status_2(result: subprocess.CompletedProcess) -> str:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ["--variant", "nope"],
            "unknown variant 'nope': one of big-points, bonus-a, bonus-b, classic, "
            "connected-chain, connected-steps, double-a, double-b, longo",
        ),
        (["--pace", "-1"], "--pace: must be a number of seconds from 0 to 600, not '-1'"),
        (["--pace", "soon"], "--pace: must be a number of seconds from 0 to 600, not 'soon'"),
        (["--pace", "nan"], "--pace: must be a number of seconds from 0 to 600"),
        (["--look-ahead", "-5"], "--look-ahead: must be a whole number from 0 to 100000"),
        (["--games", "0"], "--games: must be a whole number from 1 to 1000000, not '0'"),
        (["--games", "٣"], "--games: must be a whole number from 1 to 1000000, not '٣'"),
        (["--games", "1_000"], "--games: must be a whole number from 1 to 1000000, not '1_000'"),
        (["--players", ""], "give 1 to 5 names separated by commas, not 0"),
        (["--players", ",,"], "give 1 to 5 names separated by commas, not 0"),
        (["--players", "A,B,C,D,E,F"], "give 1 to 5 names separated by commas, not 6"),
        (["--players", "Ann,Ben,ann"], "'Ann' is named twice"),
        (["--players", "Ann,B\x1bn"], "holds a control character"),
        (["--players", "Ann,Ben", "--human", "Zoe"], "--human Zoe: not one of the players"),
        (["--human", "A", "--human", "B", "--human", "C"], "at most 5 players, not 6"),
        (["--human", ""], "--human: a player needs a name, not ''"),
        (["--human", " "], "--human: a player needs a name, not ' '"),
        (["--human", "B\x1bn"], "holds a control character"),
        (["--human", "A" * 25], f"--human: '{'A' * 25}' is longer than 24 characters"),
        (["--colour", "red"], "unrecognized arguments: --colour red"),
    ],
)
def test_a_mistake_on_the_run_command_line_is_one_sentence_and_exit_status_2(tmp_path, args, words):
    result = qwixx("run", "--plain", "--state-dir", str(tmp_path), *args)
    assert words in one_sentence_and_status_2(result)
    assert list(tmp_path.iterdir()) == []  # nothing started, nothing journalled


def test_variant_names_are_matched_without_regard_to_case(tmp_path):
    result = qwixx(
        "run", "--plain", "--pace", "0", "--games", "1", "--variant", "Longo",
        "--players", "Ann", "--state-dir", str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "New game of Qwixx Longo: Ann" in result.stdout


def test_a_configuration_that_is_not_utf_8_or_not_toml_is_one_sentence(tmp_path):
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'[tower]\nvariant = "cl\xe4ssic"\n')
    assert "latin.toml: not UTF-8 text (byte 22): save it as UTF-8" in one_sentence_and_status_2(
        qwixx("run", "--plain", "--config", str(latin))
    )
    broken = tmp_path / "broken.toml"
    broken.write_text("[tower\n")
    assert "broken.toml: not valid TOML" in one_sentence_and_status_2(
        qwixx("run", "--plain", "--config", str(broken))
    )
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    assert "cannot read it" in one_sentence_and_status_2(qwixx("run", "--config", str(folder)))


def test_a_nul_character_anywhere_in_the_configuration_is_one_sentence(tmp_path):
    """TOML can write a NUL (\\u0000); a path or name holding one reached the system, which
    refused it with "ValueError: embedded null byte": `run` and `doctor` ended in tracebacks."""
    config = tmp_path / "config.toml"
    config.write_text('[tower]\nstate_dir = "/var/lib/qwixx\\u0000tower"\n')
    stderr = one_sentence_and_status_2(qwixx("run", "--config", str(config)))
    assert "[tower] state_dir: holds a NUL character" in stderr
    checked = qwixx("doctor", "--config", str(config))
    assert checked.returncode == 2 and "Traceback" not in checked.stderr
    assert "[!!] config.toml: [tower] state_dir: holds a NUL character" in checked.stdout


def test_screens_must_be_a_folder_the_tower_can_write_in(tmp_path):
    picture = tmp_path / "frame.png"
    picture.write_bytes(b"")
    stderr = one_sentence_and_status_2(qwixx("run", "--plain", "--screens", str(picture)))
    assert f"{picture} is a file: give a folder for the pictures" in stderr
    below_a_file = picture / "frames"
    stderr = one_sentence_and_status_2(qwixx("run", "--plain", "--screens", str(below_a_file)))
    assert f"cannot write pictures in {below_a_file}: Not a directory" in stderr
    stderr = one_sentence_and_status_2(qwixx("run", "--plain", "--screens", "/proc/frames"))
    assert "cannot write pictures in /proc/frames" in stderr


def test_a_state_directory_that_is_a_file_is_one_sentence(tmp_path):
    file = tmp_path / "games"
    file.write_text("")
    stderr = one_sentence_and_status_2(qwixx("run", "--plain", "--state-dir", str(file)))
    assert f"{file} is a file: the games are kept in a folder" in stderr
    below = file / "qwixx"  # issue 24: a folder below a file started, then could not save
    stderr = one_sentence_and_status_2(qwixx("run", "--plain", "--state-dir", str(below)))
    assert f"{file} is a file: the games are kept in a folder" in stderr


def test_an_unknown_command_is_one_sentence():
    assert "invalid choice: 'rn'" in one_sentence_and_status_2(qwixx("rn"))


def test_version_says_the_installed_version():
    result = qwixx("--version")
    assert result.returncode == 0
    assert re.fullmatch(r"qwixx-tower \d+\.\d+\.\d+\S*\n", result.stdout)


# ---- people first: the kiosk never plays against itself ----------------------------------------


QUIET = 1.0  # seconds after READY=1 in which a tower at --pace 0.02 would have started a game


@pytest.mark.parametrize(
    "table", ["", '[table]\ncomputer_players = ["Robo"]\n', "[table]\ncomputer_players = []\n"]
)
def test_the_kiosk_configuration_waits_for_people_and_starts_no_game_by_itself(tmp_path, table):
    """The bug of issue 11: `run --config empty.toml` seated three computer players that played
    about nine games in 20 s. Seats are people unless computer players are configured, and a
    game never starts by itself with nobody human at the table."""
    config = tmp_path / "config.toml"
    config.write_text(table)
    state = tmp_path / "state"
    with Tower("--config", str(config), "--pace", "0.02", "--state-dir", str(state)) as tower:
        tower.wait_ready()
        assert tower.quiet_for(QUIET, "^New game") is None, "a game started by itself"
        output = tower.stop()
    assert "New game" not in output
    history = qwixx("history", "--state-dir", str(state))
    assert "No games yet" in history.stdout


NOBODY = "Nobody can sit down at this table"


@pytest.mark.parametrize(
    ("table", "said"),
    [
        ("", True),
        ("[table]\ncomputer_players = []\n", True),
        ('[table]\ncomputer_players = ["Robo"]\n', False),
        ('[pads]\nports = ["/dev/null-pad"]\n', False),
    ],
)
def test_a_table_nobody_can_join_says_so_and_what_to_add(tmp_path, table, said):
    """A configuration with no computer players, no pads and no phones, run with nobody
    typing, used to wait in silence for ever: it says why nobody can join, and what to add."""
    config = tmp_path / "config.toml"
    config.write_text(table)
    with Tower("--config", str(config), "--state-dir", str(tmp_path / "state")) as tower:
        tower.wait_ready()
        if said:
            tower.wait_for(NOBODY)
        else:
            assert tower.quiet_for(QUIET, NOBODY) is None
        output = tower.stop()
    assert (NOBODY in output) is said
    if said:
        assert "computer_players" in output and "[pads] ports" in output and "[web]" in output


def test_without_a_configuration_computer_players_play_and_say_how_to_join(tmp_path):
    with Tower("--pace", "0", "--games", "1", "--state-dir", str(tmp_path)) as tower:
        assert tower.wait_for_exit() == 0, tower.output
        output = tower.output
    lines = output.splitlines()
    told = "Ann, Ben and Cleo are computer players: run with --human Ann to play"
    assert lines.index(told) < lines.index("New game of Qwixx: Ann, Ben, Cleo")
    assert "Game over" in output


def test_the_plain_terminal_names_the_level_chosen_for_a_computer_seat(tmp_path):
    """README, "Computer players": a level chosen is shown beside the seat's name."""
    args = ("--plain", "--pace", "0", "--games", "1", "--level", "Ben=hard")
    with Tower(*args, "--state-dir", str(tmp_path)) as tower:
        assert tower.wait_for_exit() == 0, tower.output
        lines = tower.output.splitlines()
    assert "Ann, Ben (hard) and Cleo are computer players: run with --human Ann to play" in lines


# ---- a saved game: carried on visibly, or set aside when the command line asks for another -----


def saved_game(state_dir, players=("Ann", "Ben", "Cleo"), seats=None) -> None:
    """An unfinished game in the journal, as a Ctrl-C leaves it, with the note of its seats
    (computer players unless `seats` says otherwise)."""
    from firmware_py.journal.journal import Journal
    from firmware_py.rules import Pass, Roll, Start

    journal = Journal(state_dir)
    with journal.begin(Start("classic", tuple(players))) as game_log:
        game_log.append(Roll((1, 1), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
        game_log.append(Pass(players[0]))
    journal.note_seats(game_log.path, seats or [SeatSpec(name) for name in players])


def play_one(state_dir, *args: str) -> subprocess.CompletedProcess:
    return qwixx("run", "--plain", "--pace", "0", "--games", "1", "--state-dir", str(state_dir),
                 *args)  # fmt: skip


def test_a_saved_game_carries_on_and_says_so(tmp_path):
    saved_game(tmp_path)
    result = play_one(tmp_path)
    assert result.returncode == 0, result.stderr
    assert "carrying on game 1: Ann, Ben, Cleo, classic" in result.stdout.splitlines()
    assert "New game" not in result.stdout
    assert "won by" in qwixx("history", "--state-dir", str(tmp_path)).stdout


def test_the_same_seats_on_the_command_line_carry_the_saved_game_on(tmp_path):
    saved_game(tmp_path)
    result = play_one(tmp_path, "--players", "Ann,Ben,Cleo", "--variant", "Classic")
    assert "carrying on game 1: Ann, Ben, Cleo, classic" in result.stdout.splitlines()


def test_new_on_the_command_line_sets_the_saved_game_aside_and_says_why(tmp_path):
    """The issue: `./dev run --human Ann` after Ctrl-C silently resumed the old seats; --new
    is the one way to start afresh, and the news says so."""
    saved_game(tmp_path)
    output = run_until(tmp_path, ["--new"])
    words = "set aside unfinished game 1: Ann, Ben, Cleo, classic (--new asked for a new game)"
    assert words + "; qwixx-tower history lists it" in output.splitlines(), output
    assert "carrying on" not in output and "New game of" in output
    history = qwixx("history", "--state-dir", str(tmp_path)).stdout.splitlines()
    assert "abandoned" in history[0] and len(history) == 2


@pytest.mark.parametrize(
    "args",
    [
        ["--variant", "longo", "--players", "Zoe,Yan"],
        ["--human", "Ann"],
        ["--players", "Ann,Ben"],
        ["--variant", "mixx-a"],
    ],
)
def test_a_restart_carries_the_saved_game_on_whatever_the_command_line(tmp_path, args):
    """Issue 24: a tower started with --players or --human set the unfinished game aside at
    every restart when pads had joined it (pads are not on the command line). The game the
    journal holds carries on, with its own seats (the pads' seats among them), and the news
    says how to start the players or variant asked for instead."""
    saved_game(tmp_path, seats=[SeatSpec("Ann", PAD, "pad-a"), SeatSpec("Ben"), SeatSpec("Cleo")])
    for _restart in range(2):
        output = run_until(tmp_path, args)
        lines = output.splitlines()
        assert "carrying on game 1: Ann, Ben, Cleo, classic" in lines, output
        assert "set aside" not in output and "New game of" not in output
        assert any(line.endswith("run with --new to start those instead") for line in lines)
    assert "abandoned" not in qwixx("history", "--state-dir", str(tmp_path)).stdout


def test_the_saved_games_computer_players_are_the_ones_named_in_how_to_play(tmp_path):
    """`run --players Dan,Eve` carried game 1 (Ann, Ben, Cleo) on and said "Dan and Eve are
    computer players: run with --human Dan to play", which seats nobody in that game."""
    saved_game(tmp_path)
    output = run_until(tmp_path, ["--players", "Dan,Eve"])
    lines = output.splitlines()
    assert "carrying on game 1: Ann, Ben, Cleo, classic" in lines, output
    assert "Ann, Ben and Cleo are computer players: run with --human Ann to play" in lines
    assert "Dan and Eve" not in output


@pytest.mark.parametrize(("note", "why"), [(None, "is missing"), ("{not json", "cannot be read")])
def test_a_saved_game_without_its_seats_note_carries_on_and_says_so(tmp_path, note, why):
    """A missing or broken note of who sat where set the game aside, without a word of why:
    the game carries on (its seats go to the first pads and phones that come) and says so."""
    saved_game(tmp_path)
    seats_note = tmp_path / "game-000001.seats.json"
    seats_note.unlink()
    if note is not None:
        seats_note.write_text(note)
    output = run_until(tmp_path, ["--human", "Ann"], until="who sat where")
    lines = output.splitlines()
    assert "carrying on game 1: Ann, Ben, Cleo, classic" in lines, output
    told = f"the note of who sat where in game 1 {why}: the players configured take their seats"
    said = [line for line in lines if line.endswith(told + ", the others the first pads that come")]
    assert len(said) == 1, output  # once: a warning in the log, not again as news (issue 39)
    assert "set aside" not in output


def run_until(state_dir, args: list[str], until: str = "^(New game of|carrying on)") -> str:
    """`run ARGS` until it is ready and has printed a line matching `until` (what it does with
    the saved game), then stopped as systemd stops it; what it printed."""
    with Tower("--pace", "0.05", "--state-dir", str(state_dir), *args) as tower:
        tower.wait_ready()
        tower.wait_for(until)
        return tower.stop()


def test_a_sheet_file_broken_by_hand_is_one_sentence_not_a_traceback(tmp_path, monkeypatch, capsys):
    """A maker lists their own Connected pads in a shipped sheet file and saves it as Latin-1:
    `run --variant` with it ended in a traceback; now one sentence names the file and the fix."""
    import sheets.loader
    from firmware_py.app.cli import main

    for shipped in sheets.loader.SHEET_DIR.glob("*.toml"):
        (tmp_path / shipped.name).write_bytes(shipped.read_bytes())
    (tmp_path / "double-b.toml").write_bytes(b'name = "Double B \xe4"\n')
    monkeypatch.setattr(sheets.loader, "SHEET_DIR", tmp_path)
    sheets.loader.load_sheet.cache_clear()
    try:
        assert main(["run", "--plain", "--variant", "double-b", "--state-dir", str(tmp_path)]) == 2
    finally:
        sheets.loader.load_sheet.cache_clear()
    said = capsys.readouterr().err
    assert said.startswith("double-b.toml: not UTF-8 text (byte 18): save it as UTF-8 (in ")
    assert len(said.splitlines()) == 1
