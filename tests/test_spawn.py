"""The suite's tower processes (`support.spawn`): a tower that does not end in time is killed,
and the failure says what it had written, so a rare hang under load can be read afterwards."""

from __future__ import annotations

import subprocess
import sys

import pytest
from support import spawn


def test_a_tower_that_does_not_end_in_time_is_killed_and_its_last_words_are_said(tmp_path):
    command = [sys.executable, "-m", "firmware_py.app.cli", "run", "--state-dir", str(tmp_path),
               "--players", "Ann,Bob", "--pace", "600"]  # fmt: skip
    with pytest.raises(subprocess.TimeoutExpired) as hung:
        spawn.run(
            command, capture_output=True, text=True, timeout=30
        )  # (a loaded machine may take seconds to start it)
    said = str(hung.value)
    assert "it was killed" in said
    assert "Ann and Bob are computer players" in said  # what the tower wrote before it hung
    assert "Ann and Bob are computer players" in hung.value.output
