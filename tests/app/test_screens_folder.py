"""`run --screens DIR` writes every frame of every display as a numbered PNG. A second run
into the same folder numbers on after the first: issue 24, it numbered from 1 again and wrote
over the frames of the run before."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from support import HANG, spawn


def play_one_game(screens: Path, state: Path) -> None:
    command = [sys.executable, "-m", "firmware_py.app.cli", "run", "--plain", "--pace", "0",
               "--games", "1", "--screens", str(screens), "--state-dir", str(state)]  # fmt: skip
    result = spawn.run(command, capture_output=True, text=True, timeout=HANG,
                            stdin=subprocess.DEVNULL)  # fmt: skip
    assert result.returncode == 0, result.stderr


def test_a_second_run_numbers_its_frames_on_after_the_first(tmp_path):
    screens = tmp_path / "frames"
    play_one_game(screens, tmp_path / "state")
    first = {path.name: path.read_bytes() for path in screens.glob("main-*.png")}
    play_one_game(screens, tmp_path / "state")
    both = {path.name: path.read_bytes() for path in screens.glob("main-*.png")}
    assert first and len(both) > len(first)
    assert all(both[name] == picture for name, picture in first.items())  # none written over
    numbers = sorted(int(name[len("main-") : -len(".png")]) for name in both)
    assert numbers == list(range(1, len(numbers) + 1))  # one count, on from the first run
