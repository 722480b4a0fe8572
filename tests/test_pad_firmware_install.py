"""`qwixx-tower pad install`: the firmware copied with the real mpremote to a MicroPython REPL.

No Pico here: the REPL is the MicroPython unix port's, on a pseudo-terminal, which speaks the raw
REPL that mpremote drives; its working directory stands in for the Pico's flash. The cable is
the firmware tests' (tests/micropython/firmware_rig.py).
"""

from __future__ import annotations

import importlib.util
import io
import os
import subprocess
from pathlib import Path

import pytest

from firmware_py import padinstall

_spec = importlib.util.spec_from_file_location(
    "firmware_rig", Path(__file__).parent / "micropython" / "firmware_rig.py"
)
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


def test_install_copies_every_firmware_file_with_mpremote(cable, repl):
    pytest.importorskip("mpremote")
    out = io.StringIO()
    assert padinstall.install(str(cable.tower_path), out=out) == 0, out.getvalue()
    for name in padinstall.FILES:
        assert (repl / name).read_bytes() == (padinstall.PAD_DIR / name).read_bytes(), name
    assert sorted(p.name for p in repl.iterdir()) == sorted(padinstall.FILES)
    assert f"{len(padinstall.FILES)} files copied" in out.getvalue()


def test_install_explains_a_pad_running_the_firmware_which_ignores_ctrl_c(cable):
    pytest.importorskip("mpremote")
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


def test_install_says_how_to_get_mpremote_when_it_is_missing(monkeypatch, tmp_path):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "mpremote" else real(name)
    )
    out = io.StringIO()
    assert padinstall.install(str(tmp_path), out=out) == 2
    said = out.getvalue()
    assert "mpremote is not installed" in said and "pip install mpremote" in said


def test_mpremote_call_copies_each_file_by_name_then_resets():
    command = padinstall.mpremote_command("/dev/ttyACM0")
    assert command[1:6] == ["-m", "mpremote", "connect", "/dev/ttyACM0", "resume"]
    copies = [command[i + 2] for i, word in enumerate(command) if word == "cp"]
    assert copies == [f":{name}" for name in padinstall.FILES]
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
