"""Each hardware problem is said once in each place: once in the log (standard error, the
systemd journal) and once in the news (standard output with --plain). Issue 24: a display
that did not answer was said four times."""

from __future__ import annotations

import subprocess
import sys

from support import HANG, spawn


def test_a_display_that_does_not_answer_is_said_once_in_the_log_and_once_in_the_news(
    tmp_path,
):
    config = tmp_path / "config.toml"
    config.write_text('[[displays]]\nrole = "main"\nchip = "sh1106"\nbus = 29\naddress = 0x3C\n')
    command = [sys.executable, "-m", "firmware_py.app.cli", "run", "--plain", "--config",
               str(config), "--players", "Ann", "--pace", "0", "--games", "1",
               "--state-dir", str(tmp_path / "state")]  # fmt: skip
    result = spawn.run(command, capture_output=True, text=True, timeout=HANG,
                            stdin=subprocess.DEVNULL)  # fmt: skip
    assert result.returncode == 0, result.stderr
    said = "the main display does not answer"
    assert result.stdout.count(said) == 1, result.stdout
    assert result.stderr.count(said) == 1, result.stderr
