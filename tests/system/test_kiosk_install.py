"""The kiosk's install, as the README does it: the wheel in a clean venv with only its own
dependencies, then `--version`, `doctor` on the reference configuration and a simulated game.

It proves the kiosk needs nothing from the `[sim]` or `[test]` extras (pygame above all, about
37 MB a 512 MB Pi Zero 2 W should not carry), that every module the kiosk runs is in the wheel,
and that off a Pi `doctor` says in one line what is missing. The wheel is built offline with
the test environment's setuptools (`--no-build-isolation`); the dependencies come from the
package index (pip's cache makes that quick), and the test skips when the index is unreachable.
"""

from __future__ import annotations

import glob
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.paths import ROOT
from support.wheel import UNREACHABLE, _run, shared_wheel

from firmware_py import __version__

EXAMPLE = ROOT / "systemd" / "config.example.toml"
# One worker builds the kiosk venv for all of this module's tests (--dist loadgroup).
pytestmark = pytest.mark.xdist_group("kiosk-install")


@pytest.fixture(scope="module")
def kiosk(tmp_path_factory) -> Iterator[Path]:
    """A venv holding the qwixx-tower wheel and only what it depends on; its bin directory."""
    work = tmp_path_factory.mktemp("kiosk")
    wheel = shared_wheel(tmp_path_factory)
    venv = work / "venv"
    # This suite's pip installs into the venv (--python): a venv of its own pip costs 5 s of
    # CPU and changes nothing in what the kiosk holds (the systemd boot test installs with the
    # venv's own pip, word for word as docs/kiosk.md says). --no-compile: the same files,
    # without byte-compiling every dependency.
    made = _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=work)
    assert made.returncode == 0, made.stderr
    pip = (sys.executable, "-m", "pip", "--python", venv / "bin" / "python")
    installed = _run(*pip, "install", "--no-compile", wheel, cwd=work, timeout=900)
    if installed.returncode != 0 and any(words in installed.stderr for words in UNREACHABLE):
        pytest.skip(f"the package index is unreachable: {installed.stderr.strip()[-300:]}")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    yield venv / "bin"
    # Its 2,400 files go now, beside the other tests: left in the run's folder, pytest would
    # remove them at the run's very end, which the whole run waits for.
    shutil.rmtree(work, ignore_errors=True)


def test_the_kiosk_venv_holds_no_simulator_and_no_test_tool(kiosk):
    for module in ("pygame", "luma.emulator", "pytest"):
        found = _run(kiosk / "python", "-c", f"import {module}", cwd=kiosk)
        assert found.returncode != 0, f"{module} is installed in the kiosk's venv"
        assert "ModuleNotFoundError" in found.stderr


def test_the_installed_command_tells_its_version(kiosk):
    shown = _run(kiosk / "qwixx-tower", "--version", cwd=kiosk)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip() == f"qwixx-tower {__version__}"


@pytest.mark.skipif(bool(glob.glob("/dev/gpiochip*")), reason="this machine has GPIO chips")
def test_doctor_on_the_reference_configuration_names_the_gpio_in_one_line(kiosk, tmp_path):
    checked = _run(
        kiosk / "qwixx-tower", "doctor", "--config", EXAMPLE, "--state-dir", tmp_path, cwd=tmp_path
    )
    assert checked.returncode == 1  # parts need attention; it did not crash
    assert "Traceback" not in checked.stdout + checked.stderr
    assert "Falling back" not in checked.stderr
    gpio = [line for line in checked.stdout.splitlines() if "GPIO chip" in line]
    assert len(gpio) == 1 and gpio[0].startswith("[!!] GPIO: no GPIO chip was found")
    assert checked.stdout.splitlines()[-1].endswith("part(s) need attention")


def test_a_simulated_game_plays_to_the_end(kiosk, tmp_path):
    played = _run(
        kiosk / "qwixx-tower", "run", "--plain", "--games", "1", "--pace", "0",
        "--state-dir", tmp_path, cwd=tmp_path,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "Traceback" not in played.stderr
    assert [line for line in played.stdout.splitlines() if line.startswith("Game over")]
    assert (tmp_path / "game-000001.jsonl").stat().st_size > 0
