"""Put the pad firmware on a Raspberry Pi Pico that runs MicroPython: `qwixx-tower pad install`.

`install(port)` copies the firmware files (FILES, from firmware_py/pad/) to the Pico's flash with
mpremote, MicroPython's own tool (`pip install mpremote`), run as `python -m mpremote` by the
tower's interpreter, then resets the board, which starts main.py. A pad already running the
firmware ignores Ctrl-C on its cable, so mpremote cannot reach its REPL: hold the pad's undo
button while plugging it in, and main.py leaves the REPL alone.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import TextIO

PAD_DIR = Path(__file__).resolve().parent / "pad"
FILES = ("protocol.py", "towerlink.py", "padapp.py", "padscreen.py", "board_pico.py", "main.py")
TIMEOUT = 120.0  # seconds for the whole copy; a Pico takes a few
# mpremote's own `reset` shortcut, spelt out so that older mpremote releases do the same
RESET = "import time, machine; time.sleep_ms(100); machine.reset()"

HOLD_UNDO = (
    "unplug the pad, hold its undo button while plugging it in again (the firmware then leaves "
    "the REPL to mpremote), and try again"
)
EXPLANATIONS = (  # words in mpremote's error, and what they mean for a pad
    ("could not enter raw repl", "the pad did not answer as a MicroPython REPL: " + HOLD_UNDO),
    ("failed to access", "the port is in use, perhaps by the tower: stop it first"),
    ("no device found", "no such serial port"),
    ("permission denied", "no permission to open the port: join the dialout group"),
)


def install(port: str, *, out: TextIO | None = None, timeout: float = TIMEOUT) -> int:
    """Copy the firmware to the Pico on `port` and reset it; 0 when done, else 1 or 2 (the
    problem is printed to `out`, standard error by default)."""
    out = out or sys.stderr
    problem = _problem_before(port)
    if problem:
        print(f"pad install: {problem}", file=out)
        return 2
    try:
        result = subprocess.run(
            mpremote_command(port), capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        print(f"pad install: {port} did not finish within {timeout:.0f} s; {HOLD_UNDO}", file=out)
        return 1
    if result.returncode != 0:
        print(f"pad install: {port}: {explain(result.stdout + result.stderr)}", file=out)
        return 1
    print(f"pad install: {len(FILES)} files copied to {port}; the pad restarts with them", file=out)
    return 0


def mpremote_command(port: str) -> list[str]:
    """The mpremote call: connect, enter the REPL without a soft reset (`resume`), copy each
    file to the board's root by name, then reset the board (not waiting for it to answer)."""
    command = [sys.executable, "-m", "mpremote", "connect", port, "resume"]
    for name in FILES:
        command += ["fs", "cp", str(PAD_DIR / name), f":{name}", "+"]
    return [*command, "exec", "--no-follow", RESET]


def explain(output: str) -> str:
    """mpremote's complaint in a pad builder's words (its last line, if not one we know)."""
    lowered = output.lower()
    for words, meaning in EXPLANATIONS:
        if words in lowered:
            return meaning
    lines = [line for line in output.splitlines() if line.strip()]
    return lines[-1] if lines else "mpremote failed without saying why"


def _problem_before(port: str) -> str:
    """What is wrong before trying: mpremote missing, a device path that is not there."""
    if importlib.util.find_spec("mpremote") is None:
        return f"mpremote is not installed: {sys.executable} -m pip install mpremote"
    if "/" in port and not Path(port).exists():
        return f"no serial port {port}: is the pad plugged in? (ls /dev/ttyACM* /dev/qwixx-pad-*)"
    missing = [name for name in FILES if not (PAD_DIR / name).is_file()]
    if missing:
        return f"firmware files missing from {PAD_DIR}: {', '.join(missing)}"
    return ""
