"""The kiosk's configuration on a machine that is not a Raspberry Pi: sentences, no tracebacks.

Someone trying `systemd/config.example.toml` on a laptop, or a Pi whose GPIO is not reachable,
must read what is missing and what to check; gpiozero's fallback warnings and its
`BadPinFactory` traceback must not reach them.
"""

from __future__ import annotations

import glob
import subprocess
import sys

import pytest
from support import HANG, spawn
from support.paths import ROOT

EXAMPLE = ROOT / "systemd" / "config.example.toml"

pytestmark = pytest.mark.skipif(
    bool(glob.glob("/dev/gpiochip*")), reason="this machine has GPIO chips: it is not off a Pi"
)


def qwixx(*args: str) -> subprocess.CompletedProcess[str]:
    return spawn.run(
        [sys.executable, "-m", "firmware_py.app.cli", *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=HANG,
        check=False,
    )


def test_doctor_says_in_one_line_that_no_gpio_chip_was_found(tmp_path):
    result = qwixx("doctor", "--config", str(EXAMPLE), "--state-dir", str(tmp_path))
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert "Falling back" not in result.stderr
    gpio = [line for line in result.stdout.splitlines() if "GPIO chip" in line]
    assert len(gpio) == 1
    assert gpio[0].startswith("[!!] GPIO: no GPIO chip was found")
    assert "remove [button] and [lights]" in gpio[0]
    assert "[ok] game journal" in result.stdout  # the other parts are still checked


def test_run_exits_with_the_same_sentence_and_no_traceback(tmp_path):
    result = qwixx(
        "run", "--config", str(EXAMPLE), "--plain", "--games", "1", "--pace", "0",
        "--state-dir", str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert "Falling back" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if "GPIO chip" in line]
    assert len(errors) == 1
    assert "no GPIO chip was found" in errors[0]
    assert not list(tmp_path.glob("game-*"))  # no game was started on pretend pins
