"""Each hardware problem is said once: as a warning in the log (standard error, with its
priority in the systemd journal), not again as a line of news on standard output, which shares
the journal with it under systemd. Issue 24: a display that did not answer was said four times;
issue 39: still twice in the journal (the warning and the news line). Drawn in a terminal,
where the log shows errors only, the news keeps it in sight (tests/show)."""

from __future__ import annotations

import subprocess
import sys

from support import HANG, spawn


def test_a_display_that_does_not_answer_is_said_once_in_the_journal(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[[displays]]\nrole = "main"\nchip = "sh1106"\nbus = 29\naddress = 0x3C\n')
    command = [sys.executable, "-m", "firmware_py.app.cli", "run", "--plain", "--config",
               str(config), "--players", "Ann", "--pace", "0", "--games", "1",
               "--state-dir", str(tmp_path / "state")]  # fmt: skip
    result = spawn.run(command, capture_output=True, text=True, timeout=HANG,
                            stdin=subprocess.DEVNULL)  # fmt: skip
    assert result.returncode == 0, result.stderr
    said = "the main display does not answer"
    assert result.stderr.count(said) == 1, result.stderr  # a warning, with its priority
    assert result.stdout.count(said) == 0, result.stdout  # not a second time as news
    assert "Ann" in result.stdout  # the news is printed: the game's


def test_drawn_in_a_terminal_the_problem_stays_in_sight_in_the_news(tmp_path):
    from support.terminal import TowerTerminal

    config = tmp_path / "config.toml"
    config.write_text('[[displays]]\nrole = "main"\nchip = "sh1106"\nbus = 29\naddress = 0x3C\n')
    tower = TowerTerminal(["--config", str(config), "--state-dir", str(tmp_path / "state"),
                           "--human", "Ann"], columns=100, lines=40)  # fmt: skip
    try:
        tower.wait_for("the main display does not answer")
    finally:
        tower.stop()
