"""`qwixx-tower demo`: computer players play a whole game through real pad firmware (MicroPython)
on pseudo-terminal cables; joining the table and every decision cross the wire as button presses
and pad frames."""

from __future__ import annotations

import json
import os
import sys

from support import HANG, spawn
from support.terminal import TowerTerminal

from firmware_py.journal.journal import Journal
from firmware_py.journal.lines import parse_line
from firmware_py.rules import Mark, Pass


def test_the_demo_plays_a_game_through_the_pads_and_ends_with_the_scores(tmp_path):
    """At --pace 0, the quickest a person may ask for: its presses of the roll button once came
    within the button's debounce time of each other, and the demo waited for ever."""
    result = spawn.run(
        [sys.executable, "-m", "firmware_py.app.cli", "demo", "--plain", "--pace", "0",
         "--players", "Ann,Ben", "--state-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    joined = ["Ann joins the table", "Ben joins the table", "New game of Qwixx: Ann, Ben"]
    assert lines[:3] == joined, "a press on each pad in turn seats it; then the game starts"
    final = [line for line in lines if line.startswith("Game over")]
    assert len(final) == 1
    log = Journal(tmp_path).games()[0]
    replayed = spawn.run(
        [sys.executable, "-m", "firmware_py.app.cli", "replay", str(log)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    state = json.loads(replayed.stdout)
    assert state["over"]
    for name, player in state["players"].items():
        assert f"{name} {player['total']}" in final[0]
    decisions = [parse_line(line) for line in log.read_text().splitlines()[1:]]
    assert any(type(event) is Mark for event in decisions)  # marks made on the pads
    assert any(type(event) is Pass for event in decisions)
    assert result.stdout.count("│game over       │") == 2  # both pads show the end


def test_the_longo_demo_enters_the_lucky_numbers_on_the_pad_and_plays_to_the_end(tmp_path):
    result = spawn.run(
        [sys.executable, "-m", "firmware_py.app.cli", "demo", "--plain", "--pace", "0.05",
         "--variant", "longo", "--players", "Ann", "--state-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    start = json.loads(Journal(tmp_path).games()[0].read_text().splitlines()[0])
    ann = start["lucky"]["Ann"]
    assert f"Ann's lucky numbers: {ann[0]} and {ann[1]}" in lines  # chosen on the pad
    assert not [line for line in lines if line.startswith("The tower draws")]
    assert len([line for line in lines if line.startswith("Game over")]) == 1


def test_the_demo_in_a_terminal_ends_with_every_pad_showing_the_final_scores(tmp_path):
    """Drawn full screen, the demo used to end while the pads still showed "waiting for OK";
    now it waits for every pad to show the end, and leaves their screens in the terminal."""
    tower = TowerTerminal(["--pace", "0.05", "--players", "Ann,Ben", "--state-dir", str(tmp_path)],
                          columns=140, lines=60, command="demo")  # fmt: skip
    try:
        assert tower.wait_for_end(timeout=600) == 0
    finally:
        tower.stop()
    left = tower.raw.rpartition(b"\x1b[?1049l")[2].decode()  # after the drawn screen
    final = [line for line in left.splitlines() if line.startswith("Game over")]
    assert len(final) == 1
    assert left.count("│game over       │") == 2 and "waiting" not in left
    assert left.count("│Game over: ") == 2  # and who won, on each pad


def test_a_pad_firmware_that_stops_at_once_is_said_without_waiting(tmp_path):
    """A MicroPython that cannot run the pad (a broken install): the demo says that the pad's
    firmware stopped as soon as it has, instead of waiting out its bound for a slow machine."""
    broken = tmp_path / "bin" / "micropython"
    broken.parent.mkdir()
    broken.write_text("#!/bin/sh\nexit 1\n")
    broken.chmod(0o755)
    result = spawn.run(
        [sys.executable, "-m", "firmware_py.app.cli", "demo", "--plain", "--pace", "0",
         "--players", "Ann,Ben", "--state-dir", str(tmp_path / "state")],
        capture_output=True, text=True, timeout=HANG, check=False,
        env={**os.environ, "PATH": f"{broken.parent}{os.pathsep}{os.environ['PATH']}"},
    )  # fmt: skip
    assert result.returncode == 1
    assert "a pad's firmware stopped before it joined the table" in result.stderr
    assert "Traceback" not in result.stderr
