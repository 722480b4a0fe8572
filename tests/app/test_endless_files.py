"""Files with no end, or of gigabytes, given to the tower: each gets one sentence, and the
tower starts. `--config /dev/zero`, `replay /dev/zero` and a game log of gigabytes (a damaged
card, a careless copy) were read whole, until memory ran out: a MemoryError traceback here, and
on a Pi the OOM killer, again at every start under systemd. Each process runs with a gigabyte
of memory past its start (`support.memory`), so old code fails here as it would on a Pi."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import spawn
from support.memory import as_on_a_pi

TOWER = [sys.executable, "-m", "firmware_py.app.cli"]
GIGABYTES = 3_000_000_000  # a sparse file: no disk is used


def qwixx(*args: str, stdin: int | None = None) -> subprocess.CompletedProcess[str]:
    return spawn.run([*TOWER, *args], stdin=stdin, capture_output=True, text=True,
                     preexec_fn=as_on_a_pi, check=False)  # fmt: skip


def one_sentence(result: subprocess.CompletedProcess[str]) -> str:
    """The single line a failed command said; no traceback."""
    assert result.returncode == 2, result.stderr
    said = (result.stdout + result.stderr).strip()
    assert "Traceback" not in said and len(said.splitlines()) == 1, said
    return said


@pytest.mark.parametrize("command", ["run", "doctor", "league"])
def test_a_configuration_that_never_ends_is_said_in_one_sentence(command):
    said = one_sentence(qwixx(command, "--config", "/dev/zero"))
    assert said.endswith("zero: longer than 1 MB, which no configuration or sheet is: "
                         "is it the right file?")  # fmt: skip


def test_replay_of_a_file_that_never_ends_exits_2_naming_the_line():
    assert one_sentence(qwixx("replay", "/dev/zero")) == (
        "line 1: longer than any event line (at most 100,000 bytes)"
    )
    with open("/dev/zero", "rb") as endless:
        result = qwixx("replay", "-", stdin=endless.fileno())
    assert one_sentence(result) == "line 1: longer than any event line (at most 100,000 bytes)"


def test_an_organiser_password_file_that_never_ends_is_said(tmp_path):
    config = tmp_path / "league.toml"
    config.write_text(f'[mqtt]\nhost = "localhost"\nport = 1\n[league]\nport = 0\n'
                      f'database = "{tmp_path / "league.sqlite"}"\n'
                      'organiser_password_file = "/dev/zero"\n')  # fmt: skip
    said = one_sentence(qwixx("league", "--config", str(config)))
    assert "the organiser's password file /dev/zero: it is not a regular file" in said


def sparse_game_log(state: Path, number: int = 1) -> Path:
    path = state / f"game-{number:06d}.jsonl"
    with path.open("wb") as log:
        log.truncate(GIGABYTES)
    return path


def test_history_names_a_game_log_of_gigabytes_and_lists_the_rest(tmp_path):
    sparse_game_log(tmp_path)
    result = qwixx("history", "--state-dir", str(tmp_path))
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert result.stdout.splitlines() == [
        "game-000001  unreadable: game-000001.jsonl: it is too large (3 GB; at most 16 MB)"
    ]


def test_at_start_a_game_log_of_gigabytes_is_set_aside_and_a_game_is_played(tmp_path):
    sparse_game_log(tmp_path)
    result = qwixx("run", "--plain", "--state-dir", str(tmp_path), "--games", "1", "--pace", "0")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "game 1 could not be read: moved to quarantine/" in result.stdout + result.stderr
    assert "it is too large (3 GB; at most 16 MB)" in result.stderr
    assert os.stat(tmp_path / "quarantine" / "game-000001.jsonl").st_size == GIGABYTES
    assert (tmp_path / "game-000002.jsonl").stat().st_size > 0  # the new game, played
