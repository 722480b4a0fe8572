"""The simulated tower in a terminal, as a person meets it: `qwixx-tower run` as a real process
on a pseudo-terminal, its screen read through a terminal emulator (pyte)."""

from __future__ import annotations

import time

from tower_terminal import TowerTerminal

from firmware_py.journal import Journal


def test_end_of_input_on_the_keyboard_presses_nothing_and_the_tower_goes_on(tmp_path):
    """Ctrl-D used to press the roll button (an empty line); now the keyboard is closed."""
    tower = TowerTerminal(["--human", "Ann", "--pace", "0.05", "--state-dir", str(tmp_path)])
    try:
        tower.wait_for("press to start")
        tower.type("\x04")  # Ctrl-D: end of input
        tower.wait_for("the keyboard is closed")
        time.sleep(0.5)
        tower.read()
        assert Journal(tmp_path).games() == []  # no game was started by it
        assert tower.process.poll() is None  # the tower goes on
    finally:
        assert tower.stop() == 0
