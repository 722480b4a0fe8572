"""The displays' I2C bus: what the tower writes to it during a roll and between rolls, against
what a 400 kHz bus carries.

The reference build's two 1.3" SH1106 panels (0x3C main, 0x3D options) share one bus, served by
the tests' FUSE `/dev/i2c-1` (tests/support/fakebus), which counts every transaction's clock
cycles on the wire (start, address, 9 clocks a byte with its acknowledge, stop) and, clocked at
400 kHz, holds each transfer for its wire time, as the Pi's driver does. The tower is the real
table (its displays opened from a configuration naming that bus, luma.oled and smbus2
unchanged) with three hard computer players at the kiosk's pace (0.8 s: four animation
frames of 0.1 s a roll), the roll button pressed by a robot finger whenever a roll is due.

Printed, for the bus: each animation frame's wire time (it must fit in the frame's 0.1 s, with
room for the other panel), a whole roll (animation and result) in clocks, and the bus's load
between rolls; and how late the roll's result reached the glass after the last frame (the
games are kept on /dev/shm, so that a shared disk's fsync is not counted as the bus's).

    nice .venv/bin/python bench/display_bus.py [--rolls 40] [--khz 400]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support.fakebus.harness import MountedBus, fuse_bus  # noqa: E402

from drivers.display import Display  # noqa: E402
from firmware_py.app.assembly import build_table  # noqa: E402
from firmware_py.app.config import parse_config  # noqa: E402
from firmware_py.app.hardware import build_hardware  # noqa: E402
from firmware_py.journal.journal import Journal  # noqa: E402
from firmware_py.seating import SeatSpec  # noqa: E402
from firmware_py.table.rolling import LONGEST_FRAME  # noqa: E402
from firmware_py.view import TableView  # noqa: E402
from sheets import load_sheet  # noqa: E402

MAIN, OPTIONS = 0x3C, 0x3D
PACE = 0.8  # the kiosk's: frames of LONGEST_FRAME
PLAYERS = ("Ann", "Ben", "Cleo")


class BusLog:
    """The bus's clocks after every change the table showed, with the phase it was in: once
    the displays have sent it (each writes from a thread of its own), so that the clocks
    between two samples are that change's."""

    def __init__(self, bus: MountedBus, displays: list[Display]) -> None:
        self.bus = bus
        self.displays = displays
        self.samples: list[tuple[float, str, int, int]] = []  # time, phase, frame, clocks
        self.dropped = 0  # animation frames whose time passed before they could be shown

    def __call__(self, view: TableView) -> None:
        for display in self.displays:
            display.flush()
        clocks = self.bus.traffic()["clocks"]
        self.samples.append((time.perf_counter(), view.phase, view.frame, clocks))


def display_config(bus: MountedBus) -> dict[str, object]:
    panels = (("main", MAIN), ("options", OPTIONS))
    return {
        "displays": [
            {"role": role, "chip": "sh1106", "address": address, "bus_device": str(bus.path)}
            for role, address in panels
        ]
    }


async def play(bus: MountedBus, rolls: int, folder: Path) -> BusLog:
    """The table with its displays on `bus`, until `rolls` rolls have been shown."""
    hardware = build_hardware(parse_config(display_config(bus)), load_sheet("classic").dice_faces)
    seats = [SeatSpec(name, level="hard") for name in PLAYERS]
    table = build_table(hardware, seats=seats, variant="classic", journal=Journal(folder),
                        pace=PACE)  # fmt: skip
    log = BusLog(bus, list(hardware.displays.values()))
    table.subscribe(log)
    loop = asyncio.get_running_loop()
    done = [0]

    def finger(view: TableView) -> None:
        """The roll button, pressed when a game is to start and whenever a roll is due."""
        due = view.screen == "roll" or table.game is None or table.game.over
        if due and view.phase != "rolling" and done[0] < rolls:
            loop.call_later(0.05, table.press)
        if view.phase == "rolling" and view.frame == 0:
            done[0] += 1
            if done[0] > rolls:
                loop.call_later(1.0, table.stop)

    table.subscribe(finger)
    try:
        await table.run()
    finally:
        hardware.close()
    log.dropped = table.roller.dropped
    return log


def bus_seconds(clocks: float, khz: float) -> float:
    return clocks / (khz * 1000)


def report(log: BusLog, khz: float) -> None:
    """Each frame's wire time, each roll's, the load between rolls, the result's delay. The
    clocks between two samples are those of the change drawn at the later one."""
    frames, results, rolls, between, late = [], [], [], [], []
    for (t0, phase0, _, c0), (t1, phase1, _, c1) in itertools.pairwise(log.samples):
        if phase1 == "rolling":
            frames.append(c1 - c0)
        elif phase0 == "rolling":  # the dice landed: the result, after the last frame's time
            results.append(c1 - c0)
            rolls.append(sum(frames[-4:]) + c1 - c0)
            late.append(t1 - t0 - LONGEST_FRAME)
        else:
            between.append((c1 - c0, t1 - t0))
    print(f"bus at {khz:g} kHz, two SH1106 panels on it; {len(rolls)} rolls")
    print(f"  an animation frame on the wire: {_ms(frames, khz)} of its "
          f"{LONGEST_FRAME * 1000:.0f} ms; {log.dropped} of {len(frames) + log.dropped} frames "
          "dropped, their time past")  # fmt: skip
    print(f"  the roll's result on the wire: {_ms(results, khz)}")
    print(f"  a whole roll (its frames and result): median {statistics.median(rolls) / 9:.0f} "
          f"bytes, {bus_seconds(statistics.median(rolls), khz) * 1000:.0f} ms")  # fmt: skip
    clocks = sum(c for c, _ in between)
    seconds = sum(s for _, s in between)
    print(f"  between rolls: {bus_seconds(clocks, khz) / seconds * 100:.1f} % of the bus "
          f"({clocks / 9 / seconds:.0f} bytes/s of {khz * 1000 / 9:.0f})")  # fmt: skip
    late_ms = [1000 * t for t in late]
    print(f"  the result on the glass after the last frame's {LONGEST_FRAME * 1000:.0f} ms: "
          f"median {statistics.median(late_ms):.0f} ms, max {max(late_ms):.0f} ms "
          "(the roll saved, drawn and sent)")  # fmt: skip


def _ms(clocks: list[int], khz: float) -> str:
    ms = [bus_seconds(c, khz) * 1000 for c in clocks]
    return f"median {statistics.median(ms):.1f} ms, max {max(ms):.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=40)
    parser.add_argument("--khz", type=float, default=400.0, help="the bus's clock")
    args = parser.parse_args()
    # the games on a tmpfs: the result's delay is the bus's and the drawing's, not a shared
    # disk's fsync
    games = tempfile.TemporaryDirectory(dir="/dev/shm" if Path("/dev/shm").is_dir() else None)
    with tempfile.TemporaryDirectory() as folder, games:
        panels = {MAIN: "sh1106", OPTIONS: "sh1106"}
        with fuse_bus(Path(folder), panels, khz=args.khz) as bus:
            log = asyncio.run(play(bus, args.rolls, Path(games.name)))
    report(log, args.khz)


if __name__ == "__main__":
    main()
