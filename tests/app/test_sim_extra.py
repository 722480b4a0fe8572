"""luma.emulator (and its pygame) is the `[sim]` extra: the kiosk runs without it.

A kiosk never imports it; a configuration or option that asks for one of its devices where it
is not installed gets one sentence saying what to install.
"""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from drivers.display import open_display
from drivers.errors import DisplayOpenError
from firmware_py.app.config import SIMULATED, parse_config
from firmware_py.app.hardware import build_hardware


@pytest.fixture
def without_luma_emulator(monkeypatch):
    """Python as on a kiosk: `import luma.emulator` fails (None in sys.modules blocks it)."""
    for name in ("luma.emulator", "luma.emulator.device", "pygame"):
        monkeypatch.setitem(sys.modules, name, None)


def test_the_tower_and_doctor_import_no_emulator_and_no_pygame():
    code = (
        "import sys, firmware_py.app.service, firmware_py.app.doctor, firmware_py.app.cli;"
        "loaded = sorted(m for m in sys.modules if m.startswith(('luma.emulator', 'pygame')));"
        "print(loaded)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize("driver", ["pygame", "asciiblock", "capture"])
def test_an_emulator_display_without_the_sim_extra_says_what_to_install(
    without_luma_emulator, driver
):
    with pytest.raises(DisplayOpenError) as caught:
        open_display({"driver": driver, "capture_template": "x-{0}.png"})
    words = str(caught.value)
    assert f"display.driver = {driver!r} is a luma.emulator device" in words
    assert "pip install 'qwixx-tower[sim]'" in words


def test_a_configured_emulator_display_without_a_screen_names_the_files_key(monkeypatch):
    """A maker's `chip = "asciiblock"` without a terminal was told of `[displays.0].driver`
    and to use 'dummy' or 'capture', which the configuration has no key or value for."""
    monkeypatch.setattr("sys.stdout", io.StringIO())
    config = parse_config({"displays": [{"role": "main", "chip": "asciiblock"}]})
    with pytest.raises(DisplayOpenError) as caught:
        open_display(config.displays["main"])
    words = str(caught.value)
    assert words.startswith("[displays.0].chip = 'asciiblock' needs a terminal")
    assert words.endswith("take this [[displays]] table out and the display is simulated")
    assert "dummy" not in words and "driver" not in words


def test_a_configured_emulator_display_without_it_is_a_problem_not_a_crash(
    without_luma_emulator,
):
    config = parse_config({"displays": [{"role": "main", "chip": "pygame"}]})
    hardware = build_hardware(config, faces=6)
    try:
        assert len(hardware.problems) == 1
        assert "qwixx-tower[sim]" in hardware.problems[0]
        assert hardware.displays["main"].size == (128, 64)  # shown nowhere, the game goes on
    finally:
        hardware.close()


def test_saving_screens_without_it_is_a_problem_not_a_crash(without_luma_emulator, tmp_path):
    hardware = build_hardware(SIMULATED, faces=6, capture=tmp_path)
    try:
        assert [p for p in hardware.problems if "qwixx-tower[sim]" in p]
        assert not list(tmp_path.glob("*.png"))
    finally:
        hardware.close()
