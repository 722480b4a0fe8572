"""Years of uptime in a few minutes: the tower's resident memory over many games and hellos.

Part 1 plays `--games` games of computer players on the real table with what `qwixx-tower run`
attaches to it (simulated displays and lights, the sound presenter on the simulated buzzer, the
pad hub and the phones' hub with nobody connected, the plain console writing to /dev/null, the
journal fsyncing on disk) at pace 0, and prints the resident memory (RSS, after a full garbage
collection) after every 100 games, with the seconds those games took.

"Flat within noise" means: the RSS stops rising once what fills once is full (the font's
glyph and width caches, the drawn words' cache, the simulated pins' last changes, Python's
interned strings and small-object arenas: the first WARMUP games), and from there to the last
game it rises by less than FLAT_MB in all, however many games follow: allocator noise, since
pymalloc keeps arenas it may reuse, so RSS wobbles by a few hundred kB and need not fall. The
last line says whether that held. A leak of the size issue 12 found (13 kB a game) adds 1.3 MB
per 100 games; the simulated lights' and buzzer's unbounded pin history, 0.15 MB or more.

With `--trace` it also names what grew: Python's own allocations (tracemalloc) compared
between game WARMUP and the last game, by source line, and the objects alive by type. Tracing
makes the games about twice as slow.

Part 2 has one pad on a pseudo-terminal say hello `--hellos` times, each time with a new ident
(a device changing its id, as a fault or on purpose), to a table waiting between games, and
prints the RSS before and after (and with `--trace` what grew meanwhile).

    nice .venv/bin/python bench/soak.py [--games 1000] [--hellos 60000] [--trace]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import select
import sys
import tempfile
import threading
import time
import tracemalloc
import tty
from collections import Counter
from pathlib import Path
from typing import TextIO

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from drivers.padlink import PadLink
from firmware_py.app.assembly import attach_pads, attach_phones, attach_terminal, build_table
from firmware_py.app.config import SIMULATED
from firmware_py.app.hardware import Hardware, build_hardware
from firmware_py.journal.journal import Journal
from firmware_py.pad import protocol
from firmware_py.seating import COMPUTER, SeatSpec
from firmware_py.seats.pads import PadHub
from firmware_py.show.sound import SoundPresenter
from firmware_py.table import Table
from firmware_py.view import TableView
from sheets import load_sheet

WARMUP = 300  # games after which nothing more should grow
FLAT_MB = 0.5  # growth after WARMUP games, over the whole run, still counted as noise


def resident_mb(kind: str = "VmRSS") -> float:
    """Resident memory in MB: all of it (VmRSS), or its anonymous part (RssAnon: the heap,
    without the pages of program and library files mapped in as their code is first run)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{kind}:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def new_table(state_dir: str, *, autoplay: bool = True) -> tuple[Table, Hardware]:
    """Ann, Ben and Cleo, computer players, at pace 0: game after game by themselves; and the
    (simulated) hardware it drives."""
    hardware = build_hardware(SIMULATED, load_sheet("classic").dice_faces)
    seats = [SeatSpec(name, COMPUTER) for name in ("Ann", "Ben", "Cleo")]
    table = build_table(
        hardware,
        seats=seats,
        variant="classic",
        journal=Journal(state_dir),
        pace=0.0,
        autoplay=autoplay,
    )
    return table, hardware


def attach_like_run(table: Table, hardware: Hardware, out: TextIO) -> PadHub:
    """What `qwixx-tower run` subscribes to the table besides the displays and lights."""
    if hardware.buzzer is not None or hardware.speech is not None:
        table.subscribe(SoundPresenter(hardware.buzzer, hardware.speech))
    attach_terminal(table, hardware, out=out, full_screen=False)
    attach_phones(table)
    return attach_pads(table, [])


def soak_games(total: int, trace: bool, every: int = 100) -> None:
    """RSS after every `every` finished games (and with `trace`, what grew since the first)."""
    print(f"{'games':>6} {'RSS MB':>8} {'anon MB':>8} {'seconds':>8}", flush=True)
    with tempfile.TemporaryDirectory() as state_dir, open(os.devnull, "w") as devnull:
        table, hardware = new_table(state_dir)
        hub = attach_like_run(table, hardware, devnull)
        started = [time.perf_counter()]
        figures: dict[int, float] = {}
        first: list[tuple[tracemalloc.Snapshot, Counter[str]]] = []

        def every_hundred(view: TableView) -> None:
            if not view.ended or table.games.referee.games_finished % every:
                return
            gc.collect()
            now = time.perf_counter()
            figures[table.games.referee.games_finished] = resident_mb()
            games = table.games.referee.games_finished
            anonymous = resident_mb("RssAnon")
            print(f"{games:>6} {figures[games]:>8.1f} {anonymous:>8.2f} {now - started[0]:>8.1f}",
                  flush=True)  # fmt: skip
            started[0] = now
            if trace and not first and (games >= WARMUP or games + every > total):
                first.append((tracemalloc.take_snapshot(), objects_by_type()))

        table.subscribe(every_hundred)
        if trace:
            tracemalloc.start(1)

        async def play() -> None:
            hub.open(asyncio.get_running_loop())
            await table.run(games=total)

        asyncio.run(play())
        say_whether_flat(figures)
        if trace and first:
            gc.collect()
            report_growth(*first[0], tracemalloc.take_snapshot(), objects_by_type())
            tracemalloc.stop()
        hub.close()
        hardware.close()


def say_whether_flat(figures: dict[int, float]) -> None:
    """One line: the growth from game WARMUP to the last, and whether it is within noise."""
    last = max(figures, default=0)
    if WARMUP not in figures or last <= WARMUP:
        print(f"(flat or not needs figures beyond game {WARMUP})")
        return
    grown = figures[last] - figures[WARMUP]
    verdict = "flat within noise" if grown < FLAT_MB else "GROWING"
    print(f"games {WARMUP} to {last}: {grown:+.1f} MB ({verdict}: less than {FLAT_MB} MB is noise)")


def objects_by_type() -> Counter[str]:
    return Counter(type(thing).__name__ for thing in gc.get_objects())


def report_growth(
    before: tracemalloc.Snapshot,
    types_before: Counter[str],
    after: tracemalloc.Snapshot,
    types_after: Counter[str],
) -> None:
    """The source lines whose live allocations grew most, and the types with more objects."""
    print("\nallocations grown since the first snapshot (tracemalloc, by line):")
    for stat in after.compare_to(before, "lineno")[:15]:
        print(f"  {stat.size_diff / 1024:+9.1f} kB {stat.count_diff:+7d} blocks  {stat.traceback}")
    print("objects alive, more than at the first snapshot (by type):")
    grown = Counter(types_after)
    grown.subtract(types_before)
    for name, more in grown.most_common(10):
        if more > 0:
            print(f"  {more:+7d} {name}")


def soak_hellos(hellos: int, trace: bool = False) -> None:
    """RSS before and after a pad says hello `hellos` times, each with a new ident; the pad's
    side of the cable is read all the while, as a pad would, so no answer is held up."""
    with tempfile.TemporaryDirectory() as state_dir:
        table, hardware = new_table(state_dir, autoplay=False)  # between games: only the hellos
        master, slave = os.openpty()
        tty.setraw(slave)
        port = Path(state_dir) / "pad"
        port.symlink_to(os.ttyname(slave))
        hub = attach_pads(table, [str(port)])
        heard = Counter[str]()
        on_message = hub._on_message

        # on the table's loop, as the hub hears it
        def counting(link: PadLink, message: protocol.Message) -> None:
            heard[message.name] += 1
            on_message(link, message)

        hub._on_message = counting  # type: ignore[method-assign]
        reading = threading.Event()
        reader = threading.Thread(target=_read_until, args=(master, reading), daemon=True)
        reader.start()

        async def storm() -> None:
            task = asyncio.create_task(table.run())
            hub.open(asyncio.get_running_loop())
            await asyncio.sleep(0.5)
            gc.collect()
            before = resident_mb()
            if trace:
                tracemalloc.start(1)
                first = tracemalloc.take_snapshot(), objects_by_type()
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
                if number % 100 == 0:
                    await asyncio.sleep(0.01)  # the table's loop hears them meanwhile
            await asyncio.sleep(1.0)
            gc.collect()
            seconds = time.perf_counter() - started
            print(f"{hellos} hellos with new idents in {seconds:.1f} s, {heard['hello']} heard "
                  f"by the table: RSS {before:.1f} MB before, {resident_mb():.1f} MB after; "
                  f"{len(hub.seated)} pads seated, {len(hub.links)} link")  # fmt: skip
            if trace:
                report_growth(*first, tracemalloc.take_snapshot(), objects_by_type())
                tracemalloc.stop()
            table.stop()
            await task

        asyncio.run(storm())
        reading.set()
        hub.close()
        hardware.close()


def _read_until(master: int, done: threading.Event) -> None:
    """The pad's side: read whatever the tower writes until `done`."""
    while not done.is_set():
        if select.select([master], [], [], 0.1)[0]:
            os.read(master, 65536)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--hellos", type=int, default=60000)
    parser.add_argument("--every", type=int, default=100, help="games between two figures")
    parser.add_argument("--trace", action="store_true", help="name what grew (slower)")
    args = parser.parse_args()
    if args.games:
        soak_games(args.games, args.trace, args.every)
    if args.hellos:
        soak_hellos(args.hellos, args.trace)


if __name__ == "__main__":
    main()
