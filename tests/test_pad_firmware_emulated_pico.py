"""The pad firmware on MicroPython's real rp2 port, in an emulated RP2040 (rp2040js), plugged
into a running tower: tools/pico_emulator/ builds what it needs (README.md there). Skipped
unless QWIXX_PICO_IMAGES names a folder with rom.bin, rom-ext.bin and flash.bin (made by
build_bootrom.py and make_flash_image.py) and node with rp2040js is there: no image is
committed, and building one takes the rp2 port's toolchain and sources."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

from firmware_py.seating import SeatSpec

ROOT = Path(__file__).resolve().parents[1]
EMULATOR = ROOT / "tools" / "pico_emulator"
IMAGES = Path(os.environ.get("QWIXX_PICO_IMAGES", "/nonexistent"))
FILES = ("rom.bin", "rom-ext.bin", "flash.bin")

if not all((IMAGES / name).is_file() for name in FILES):
    pytest.skip(
        "no emulated Pico images: set QWIXX_PICO_IMAGES to a folder made with "
        "tools/pico_emulator (README.md)",
        allow_module_level=True,
    )
if shutil.which("node") is None or not (EMULATOR / "node_modules" / "rp2040js").is_dir():
    pytest.skip("node and rp2040js are needed: npm install in tools/pico_emulator",
                allow_module_level=True)  # fmt: skip


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


rig = _load("firmware_rig", ROOT / "tests" / "micropython" / "firmware_rig.py")
emulated = _load("emulated_pico", EMULATOR / "emulated_pico.py")
BOOT = 120.0  # seconds: the emulator runs the Pico many times slower than real time
PROMPT = ["press any button", "to join"]


def test_a_pico_plugged_into_a_running_tower_says_hello_and_joins_at_a_press(tmp_path):
    """Issue 14: the tower's heartbeats (each with a 0x03) reach the pad from the moment USB
    is up; on the real rp2 port the firmware must not fall into the REPL. It says hello, shows
    its whole ident and the join prompt, and a press of a button seats it."""
    cable = rig.Cable(tmp_path)
    tower = rig.Tower(tmp_path, str(cable.tower_path), seats=[SeatSpec("Bot")])
    pico = emulated.EmulatedPico(
        cable.pad_path, IMAGES, rig.micropython_binary(), screen_type=rig.Screen
    )
    try:
        screen = pico.wait_screen(lambda s: s[3:5] == PROMPT, BOOT, "the join prompt")
        assert screen[0] == "qwixx pad" and screen[1] == "pad-" and len(screen[2]) == 16, screen
        link = tower.link()
        assert link.pad["ident"] == "pad-" + screen[2]
        pico.press("green")
        pico.wait_screen(lambda s: s[0].startswith("Player 2"), BOOT, "the pad seated")
        assert tower.seat_names() == [("Bot", "computer"), ("Player 2", "pad")]
        assert not [line for line in pico.lines if "Traceback" in line]
    finally:
        pico.stop()
        tower.close()
        cable.close()
