"""A table on simulated hardware, made, run and pressed as the tests do: shared by the table,
pad, phone, screen and journal tests."""

from __future__ import annotations

import asyncio
from pathlib import Path

from PIL import Image

from firmware_py.app.assembly import build_table
from firmware_py.app.config import SIMULATED
from firmware_py.app.hardware import build_hardware
from firmware_py.journal.journal import Journal
from firmware_py.seating import SeatSpec
from firmware_py.table import Table
from sheets import load_sheet
from support import HANG
from support.fakes import FakeClock

PACE = 0.005


def make_table(tmp_path: Path, seats: list[SeatSpec], variant: str = "classic") -> Table:
    """A table as `run` makes one without a configuration: computer players alone at it play
    game after game by themselves."""
    hardware = build_hardware(SIMULATED, load_sheet(variant).dice_faces)
    return build_table(
        hardware,
        seats=seats,
        variant=variant,
        journal=Journal(tmp_path),
        pace=PACE,
        autoplay=True,
    )


def shifted(frame: Image.Image, offset: tuple[int, int]) -> bytes:
    """A frame as the panel shows it under one burn-in protection shift (which one depends on
    the clock, so a test may read the panel just after the shift has moved on)."""
    panel = Image.new("1", frame.size)
    panel.paste(frame, offset)
    return panel.tobytes()


async def until(condition, timeout: float = HANG) -> None:
    """Wait (bounded) for the table to reach a state."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the table never got there"
        await asyncio.sleep(0.005)


def clocked_table(tmp_path: Path, seats: list[SeatSpec], variant: str = "classic"):
    """A table whose button and timers read a clock that moves only when the test says."""
    clock = FakeClock()
    hardware = build_hardware(SIMULATED, load_sheet(variant).dice_faces)
    table = build_table(
        hardware,
        seats=seats,
        variant=variant,
        journal=Journal(tmp_path),
        pace=PACE,
        clock=clock,
        autoplay=True,
    )
    return table, clock


async def tap(table: Table, clock: FakeClock) -> None:
    """A short press of the roll button, and a moment for the table to take it in."""
    await _press_for(table, clock, 0.2)


async def hold(table: Table, clock: FakeClock) -> None:
    """A long press: held past the table's long-press time."""
    await _press_for(table, clock, table.settings.long_press + 0.3)


async def _press_for(table: Table, clock: FakeClock, seconds: float) -> None:
    pin = table.hardware.button_factory.pin(table.hardware.button_pin)
    version = table.moments.version
    pin.drive_low()
    clock.advance(seconds)
    pin.drive_high()
    clock.advance(0.5)
    await until(lambda: table.moments.version != version)


def in_a_loop_of_its_own(coroutine) -> None:
    """`asyncio.run(coroutine())`: how a test runs its table unless told otherwise."""
    asyncio.run(coroutine())


def run_table(table: Table, steps, hub=None, timeout: float = HANG,
              runner=in_a_loop_of_its_own) -> None:  # fmt: skip
    """Run the table while `await steps()` plays (pressing its button, opening its pad `hub`
    if it has one); then stop it and close the hub and the hardware. `runner` runs the
    coroutine (a browser test's: in the loop of its process's Playwright)."""

    async def play() -> None:
        task = asyncio.create_task(table.run())
        await until(lambda: table.button is not None)
        try:
            await steps()
        finally:
            table.stop()
            await task

    try:
        runner(lambda: asyncio.wait_for(play(), timeout=timeout))
    finally:
        if hub is not None:
            hub.close()
        table.hardware.close()
