"""Years of uptime in a few minutes: the tower's resident memory over many games and hellos.

Part 1 plays `--games` games of computer players on the real table (simulated hardware, the
journal on disk) and prints the resident memory (RSS) after every 100 games: flat within noise
means nothing grows per game. Part 2 has one pad on a pseudo-terminal say hello `--hellos` times,
each time with a new ident (a device changing its id, as a fault or on purpose), and prints the
RSS before and after.

    .venv/bin/python bench/soak.py [--games 1000] [--hellos 20000]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import tempfile
import time
import tty
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_py.config import SIMULATED
from firmware_py.hardware import build_hardware
from firmware_py.journal import Journal
from firmware_py.pad import protocol
from firmware_py.padhub import PadHub
from firmware_py.seating import COMPUTER, SeatSpec
from firmware_py.table import Table
from firmware_py.view import TableView
from sheets import load_sheet


def resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def new_table(state_dir: str) -> Table:
    hardware = build_hardware(SIMULATED, load_sheet("classic").dice_faces)
    seats = [SeatSpec(name, COMPUTER) for name in ("Ann", "Ben", "Cleo")]
    return Table(seats=seats, variant="classic", journal=Journal(state_dir), hardware=hardware,
                 pace=0.0, autoplay=True)  # fmt: skip


def soak_games(games: int) -> None:
    """RSS after every 100 finished games."""
    print(f"{'games':>6} {'RSS MB':>8}")
    with tempfile.TemporaryDirectory() as state_dir:
        table = new_table(state_dir)

        def every_hundred(view: TableView) -> None:
            if view.ended and table.games_finished % 100 == 0:
                gc.collect()
                print(f"{table.games_finished:>6} {resident_mb():>8.1f}", flush=True)

        table.subscribe(every_hundred)
        asyncio.run(table.run(games=games))
        table.hardware.close()


def soak_hellos(hellos: int) -> None:
    """RSS before and after a pad says hello `hellos` times, each with a new ident."""
    with tempfile.TemporaryDirectory() as state_dir:
        table = new_table(state_dir)
        master, slave = os.openpty()
        tty.setraw(slave)
        port = Path(state_dir) / "pad"
        port.symlink_to(os.ttyname(slave))
        hub = PadHub(table, [str(port)])

        async def storm() -> None:
            task = asyncio.create_task(table.run())
            hub.open(asyncio.get_running_loop())
            await asyncio.sleep(0.5)
            gc.collect()
            before = resident_mb()
            started = time.perf_counter()
            for number in range(1, hellos + 1):
                fields = {
                    "protocol": protocol.PROTOCOL_VERSION,
                    "role": protocol.ROLE_PAD,
                    "boot": number % 65536,
                    "ident": f"pad-{number:016x}",
                    "firmware": "x",
                }
                os.write(master, protocol.encode("hello", protocol.next_seq(number), fields))
                if number % 200 == 0:
                    await asyncio.sleep(0.05)
                    _drain(master)
            await asyncio.sleep(1.0)
            _drain(master)
            gc.collect()
            seconds = time.perf_counter() - started
            print(f"{hellos} hellos with new idents in {seconds:.1f} s: "
                  f"RSS {before:.1f} MB before, {resident_mb():.1f} MB after")  # fmt: skip
            table.stop()
            await task

        asyncio.run(storm())
        hub.close()
        table.hardware.close()


def _drain(master: int) -> None:
    import select

    while select.select([master], [], [], 0)[0]:
        os.read(master, 65536)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--hellos", type=int, default=20000)
    args = parser.parse_args()
    soak_games(args.games)
    soak_hellos(args.hellos)


if __name__ == "__main__":
    main()
