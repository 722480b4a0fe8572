"""Electronic dice through the real Bluetooth stack's software: the last die settling to the
roll on the main display, and the reconnect after a die comes back in range.

The tower's own code (table, PixelsReader, BleakPixelsScanner) with bleak, bleak-retry-connector
and dbus-fast unchanged, on a private `dbus-daemon`, against the tests' BlueZ stand-in
(tests/support/bluez) serving six Pixels dice. The stand-in runs on the same event loop as the
tower (one process, one core's worth of Python for both); BlueZ's and the radio's own time (a
Bluetooth connection interval, 7.5 to 30 ms, per notification; a die's advertising interval
before a reconnect) is not in these figures: they are the software's share.

- settle -> display: from the stand-in sending the last die's "rolled" notification to the
  table presenting the roll, after the displays (luma dummy devices) have drawn it.
- reconnect: from a die that had gone out of range advertising again to the tower listening
  to it (notifications on, WhoAreYou written), and to the reader saying it is back.

    .venv/bin/python bench/dice.py
    .venv/bin/python bench/dice.py --rolls 300 --reconnects 50
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.bluez import PixelsDie, Radio, serving  # noqa: E402
from support.bluez.bus import daemon_missing, private_system_bus  # noqa: E402

from drivers.pixels import BleakPixelsScanner, DiceEvent, DiceEventKind, PixelsReader  # noqa: E402
from drivers.simulated.pixels import ROLLED, throw_states  # noqa: E402
from firmware_py.app.assembly import build_table  # noqa: E402
from firmware_py.app.config import SIMULATED  # noqa: E402
from firmware_py.app.hardware import build_hardware  # noqa: E402
from firmware_py.journal.journal import Journal  # noqa: E402
from firmware_py.rules import Pass  # noqa: E402
from firmware_py.seating import KEYBOARD, SeatSpec  # noqa: E402
from firmware_py.view import TableView  # noqa: E402
from sheets import load_sheet  # noqa: E402

DICE = {
    "white 1": 0x1A2B_0001,
    "white 2": 0x1A2B_0002,
    "red": 0x1A2B_0003,
    "yellow": 0x1A2B_0004,
    "green": 0x1A2B_0005,
    "blue": 0x1A2B_0006,
}
COLOURS = ("red", "yellow", "green", "blue")


class Bench:
    """A table with Kim at the keyboard and the six dice; the moments the bench times."""

    def __init__(self, radio: Radio, state: Path) -> None:
        self.radio = radio
        self._awaited: dict[DiceEventKind, asyncio.Future[float]] = {}
        self.hardware = build_hardware(SIMULATED, load_sheet("classic").dice_faces)
        self.reader = PixelsReader(DICE, scanner=BleakPixelsScanner())
        self.hardware.pixels = self.reader
        self.table = build_table(
            self.hardware,
            seats=[SeatSpec("Kim", KEYBOARD)],
            variant="classic",
            journal=Journal(state),
            pace=0.005,
            autoplay=True,
        )
        self.table.subscribe(self._seen)
        self.expected: tuple[tuple[int, int], dict[str, int]] | None = None
        self.shown_at = 0.0
        self._changed = asyncio.Event()
        radio.on_change = self._changed.set

    def _seen(self, view: TableView) -> None:
        if self.expected and (view.white, view.colours) == self.expected:
            self.shown_at = time.perf_counter()
            self.expected = None
        self._changed.set()

    def listen_to_reader(self) -> None:
        """Note the moments of the reader's news, then hand it on to the table as before."""
        reader = self.reader
        table_handler = reader.on_event
        if table_handler is None:
            raise RuntimeError("the table does not listen to the dice")

        def noted(event: DiceEvent) -> None:
            awaited = self._awaited.pop(event.kind, None)
            if awaited is not None and not awaited.done():
                awaited.set_result(time.perf_counter())
            table_handler(event)

        reader.on_event = noted

    def news_of(self, kind: DiceEventKind) -> asyncio.Future[float]:
        """The moment (perf_counter) the reader next reports news of `kind`."""
        self._awaited[kind] = asyncio.get_running_loop().create_future()
        return self._awaited[kind]

    async def until(self, condition: Callable[[], bool]) -> None:
        while not condition():
            self._changed.clear()
            await self._changed.wait()

    async def roll(self, faces: dict[str, int]) -> float:
        """Throw the six dice; seconds from the last one settling to the roll presented."""
        await self.until(lambda: self.reader.waiting_for == tuple(DICE))
        white = (faces["white 1"], faces["white 2"])
        self.expected = (white, {c: faces[c] for c in COLOURS})
        *first, last = DICE
        for role in first:
            self.radio.throw(DICE[role], faces[role])
        die = self.radio.dice[DICE[last]]
        for state, face in throw_states(die.face, faces[last])[:-1]:
            self.radio.set_roll_state(die, state, face)
        settled = time.perf_counter()
        self.radio.set_roll_state(die, ROLLED, faces[last])
        await self.until(lambda: self.expected is None)
        return self.shown_at - settled

    def pass_both(self) -> None:
        self.table.decide(Pass("Kim"))
        self.table.decide(Pass("Kim"))
        if self.table.game is not None and self.table.game.over:
            self.table.new_game()


async def settle_to_display(bench: Bench, rolls: int) -> list[float]:
    bench.table.new_game()
    times = []
    for n in range(rolls):
        faces = {role: (n + i) % 6 + 1 for i, role in enumerate(DICE)}
        times.append(await bench.roll(faces))
        bench.pass_both()
    return times


async def reconnects(bench: Bench, times: int) -> tuple[list[float], list[float]]:
    """Seconds from advertising again to the tower listening, and to the reader saying so."""
    radio, red = bench.radio, DICE["red"]
    listening, said = [], []
    for _ in range(times):
        lost = bench.news_of(DiceEventKind.CONNECTION_LOST)
        radio.leave(red)
        await lost
        back = bench.news_of(DiceEventKind.RECONNECTED)
        start = time.perf_counter()
        radio.come_back(red)
        await bench.until(lambda: red in radio.listened_to())
        listening.append(time.perf_counter() - start)
        said.append(await back - start)
    return listening, said


def percentiles(times: list[float]) -> str:
    cut = statistics.quantiles(times, n=100, method="inclusive")
    p50, p99, top = cut[49] * 1000, cut[98] * 1000, max(times) * 1000
    return f"p50 {p50:6.1f} ms   p99 {p99:6.1f} ms   max {top:6.1f} ms"


async def run(address: str, state: Path, rolls: int, count: int) -> None:
    radio = Radio([PixelsDie(die_id) for die_id in DICE.values()])
    async with serving(address, radio):
        bench = Bench(radio, state)
        running = asyncio.create_task(bench.table.run())
        await bench.until(lambda: set(DICE.values()) <= radio.listened_to())
        bench.listen_to_reader()
        times = await settle_to_display(bench, rolls)
        print(f"last die settles -> roll on the main display ({rolls} rolls): {percentiles(times)}")
        listening, said = await reconnects(bench, count)
        print(f"die back in range -> tower listening ({count} times): {percentiles(listening)}")
        print(f"die back in range -> 'reconnected' said ({count} times): {percentiles(said)}")
        bench.table.stop()
        await running
        bench.hardware.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=200)
    parser.add_argument("--reconnects", type=int, default=30)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)  # the table's alerts are news, not figures
    reason = daemon_missing()
    if reason:
        sys.exit(f"no private D-Bus: {reason}")
    with tempfile.TemporaryDirectory(prefix="qwixx-dice-bench-") as directory:
        folder = Path(directory)
        with private_system_bus(folder) as address:
            os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = address
            asyncio.run(run(address, folder / "games", args.rolls, args.reconnects))


if __name__ == "__main__":
    main()
