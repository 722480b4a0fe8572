"""How fast the pad firmware takes bytes off its USB line on MicroPython's real rp2 port, in the
emulated Pico (tools/pico_emulator, README.md there): KB per second of the Pico's own time.

    QWIXX_PICO_IMAGES=/tmp/pico-emu .venv/bin/python bench/pico_read.py [--kbytes 200]

The Pico boots with no tower; then a writer thread pours a stream into its cable as fast as the
emulated USB takes it (the runner holds bytes back while the Pico's receive buffer is full, as a
USB host does), and the runner reports, once a host second, the Pico's clock and the bytes
handed to it. The rate is taken over the middle of the stream, where the Pico is the
bottleneck, in the Pico's time: rp2040js counts the cycles of a 125 MHz RP2040, so that is the
firmware's own speed (flash-cache misses, which slow a real Pico, are not modelled: a real
one is somewhat slower). Streams:

- noise: 0x55 bytes, no frame in them (the reader and the frame decoder's scan alone);
- traffic: a busy table's frames to one pad (heartbeat, the pad's whole STATE as a real tower
  sends it mid-game, an answer, a notice, again and again), each STATE a change to draw.

Then the tower's real traffic to one pad, from the frames' sizes, to compare.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from firmware_py.pad import protocol  # noqa: E402
from firmware_py.rules import Roll  # noqa: E402
from firmware_py.seating import KEYBOARD, SeatSpec  # noqa: E402


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None  # (a file of this clone)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


rig = _load("firmware_rig", ROOT / "tests" / "support" / "micropython" / "firmware_rig.py")
emulated = _load("emulated_pico", ROOT / "tools" / "pico_emulator" / "emulated_pico.py")


def real_state(folder: Path) -> dict[str, Any]:
    """The STATE a tower sends Ann's pad mid-game (a roll on the table, her moves offered).
    Ann sits at the keyboard: a pad seat whose pad is not plugged in is left out of the game
    (people first), and her STATE was then a 26-byte one of no game at all."""
    seats = [SeatSpec("Ann", KEYBOARD), SeatSpec("Bot")]
    tower = rig.Tower(folder, str(folder / "no-pad"), seats=seats)
    try:
        tower.call(tower.table.new_game)
        tower.submit(Roll((4, 1), {"red": 6, "yellow": 2, "green": 3, "blue": 6}))
        state: dict[str, Any] = tower.pad_state("Ann")
    finally:
        tower.close()
    if not state["moves"]:
        raise SystemExit(f"no game on the table: Ann's STATE offers nothing ({state})")
    return state


def traffic(state: dict[str, Any], size: int) -> bytes:
    """About `size` bytes of a busy table's frames to one pad, every STATE a new one."""
    out = bytearray()
    seq = 1
    while len(out) < size:
        fields = dict(state, text=f"Bot rolled: white 5 ({seq})")
        for name, each in (
            ("heartbeat", {"state": seq}),
            ("state", fields),
            ("answer", {"req": seq, "status": protocol.RULE, "text": "Bot cannot cross 5"}),
            ("notice", {"seconds": 2, "text": "Bot locks red"}),
        ):
            out += protocol.encode(name, seq & 0xFFFF, each)
            seq += 1
    return bytes(out)


def measure(images: Path, data: bytes) -> tuple[float, float, float]:
    """(KB/s of the Pico's time, KB/s of the host's time, the emulator's speed) for `data`."""
    master, slave = os.openpty()
    tty.setraw(slave)
    pico = emulated.EmulatedPico(os.ttyname(slave), images, rig.micropython_binary())
    try:
        pico.wait_screen(lambda s: s[0] == "qwixx pad" and s[3], what="the pad booted")
        writer = threading.Thread(target=_pour, args=(master, data), daemon=True)
        start = len(pico.clocks)
        writer.start()
        while pico.fed < len(data) - 70_000 and pico.process.poll() is None:
            time.sleep(0.5)
        samples = [c for c in pico.clocks[start:] if 10_000 < c[2] < len(data) - 70_000]
    finally:
        pico.stop()
        os.close(master)
        os.close(slave)
    (host0, clock0, fed0), (host1, clock1, fed1) = samples[0], samples[-1]
    pico_rate = (fed1 - fed0) / (clock1 - clock0)  # bytes per ms = KB/s
    host_rate = (fed1 - fed0) / (host1 - host0) / 1000
    return pico_rate, host_rate, (clock1 - clock0) / 1000 / (host1 - host0)


def _pour(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view[:4096]) :]
        except OSError:  # the Pico is gone
            return


def tower_rates(state: dict[str, Any]) -> None:
    beat = len(protocol.encode("heartbeat", 1, {"state": 1}))
    whole = len(protocol.encode("state", 1, state))
    print("the tower's traffic to one pad (frames as encoded):")
    print(f"  heartbeat {beat} bytes, once a second; a STATE {whole} bytes, once per change")
    for changes in (1, 4, 10):
        rate = (beat + changes * whole) / 1000
        print(f"  {changes:2d} changes a second: {rate:5.2f} KB/s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kbytes", type=int, default=200, help="bytes per stream, in KB")
    args = parser.parse_args()
    images = Path(os.environ.get("QWIXX_PICO_IMAGES", ""))
    if not all((images / name).is_file() for name in emulated.IMAGE_FILES):
        print("set QWIXX_PICO_IMAGES to a folder made with tools/pico_emulator", file=sys.stderr)
        return 2
    size = args.kbytes * 1000 + 80_000
    with tempfile.TemporaryDirectory() as folder:
        state = real_state(Path(folder))
    print(f"pad line read on the emulated Pico (rp2 port, {images}), {size} bytes per stream")
    for name, data in (("noise", b"\x55" * size), ("traffic", traffic(state, size))):
        pico_rate, host_rate, speed = measure(images, data)
        print(
            f"  {name:8s} {pico_rate:6.1f} KB/s of the Pico's time"
            f"   ({host_rate:5.1f} KB/s of the host's; the emulator at {speed:.2f}x real time)"
        )
    tower_rates(state)
    return 0


if __name__ == "__main__":
    sys.exit(main())
