"""Pad round trip: from a button press on the real pad firmware to its screen showing the answer.

The firmware runs under the MicroPython unix port (as in tests/pad/test_pad_firmware.py), its cable
a pair of pseudo-terminals with a relay between them, the tower its real PadLink + PadHub + Table on
simulated hardware, with the journal (fsynced) in a temporary folder. Ann plays action 1 alone at
the table while a computer seat waits: each cycle selects yellow 5 (not timed), then times two
presses, from the moment the press is written to the firmware's standard input to the moment the
firmware prints the screen that shows the tower's answer:

- confirm: pass/confirm pressed; timed until the screen shows yellow 5 crossed and the request
  answered (it went out, was checked, journalled and answered, and the new STATE drawn);
- undo: undo pressed; timed until the sheet shows yellow 5 open again, answered.

It measures the software's share: debounce costs nothing on a press (the edge counts at once),
and the finger's own time is not in it (it rests --rest seconds between presses, longer than
the debounce time, as any finger does). Run:

    .venv/bin/python bench/pad_roundtrip.py
    .venv/bin/python bench/pad_roundtrip.py --presses 1000
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location(
    "firmware_rig", ROOT / "tests" / "support" / "micropython" / "firmware_rig.py"
)
assert _spec is not None and _spec.loader is not None  # (a file of this clone)
rig = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rig)

from firmware_py.rules import Roll  # noqa: E402
from firmware_py.seating import SeatSpec  # noqa: E402

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from support.micropython.firmware_rig import Firmware, Screen

IDENT = "pad-bench"
VERSION_SCRIPT = "import sys; print('%d.%d.%d' % sys.implementation.version[:3])"
SELECTED = "> Y 5"
CROSSED = "Y---x.......   1"
OPEN = "Y...........   0"
TAKE_BACK = "U: take back"  # line 7 once the mark is answered (until then: "waiting for OK")
OFFER = "white 5: RYGB"  # line 6 once the undo is answered (until then: "sent undo")


def timed_press(pad: Firmware, command: str, check: Callable[[Screen], bool]) -> float:
    """Seconds from writing `command` to the firmware to it printing a screen that passes."""
    since = pad.mark()
    start = time.monotonic()
    pad.press(command)
    screen = pad.wait_screen(check, since=since, what=command)
    return screen.at - start


def cycle(pad: Firmware, rest: float) -> tuple[float, float]:
    """Select yellow 5, then time confirm and undo; the finger rests `rest` seconds between
    presses (a button pressed again within the debounce time of its release is a bounce)."""
    pad.press("down yellow")  # not a tap: its release and rest would delay the next press
    pad.wait_screen(lambda s: s[6] == SELECTED, what="yellow 5 selected")
    pad.press("up yellow")
    time.sleep(rest)
    confirm = timed_press(pad, "down pass", lambda s: s[3] == CROSSED and s[7] == TAKE_BACK)
    pad.press("up pass")
    time.sleep(rest)
    undo = timed_press(pad, "down undo", lambda s: s[3] == OPEN and s[6] == OFFER)
    pad.press("up undo")
    time.sleep(rest)
    return confirm, undo


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def report(name: str, values: list[float]) -> None:
    ms = [v * 1000 for v in values]
    print(
        f"{name:8} n={len(ms):4}  median {statistics.median(ms):6.2f} ms  "
        f"p90 {percentile(ms, 0.90):6.2f} ms  p99 {percentile(ms, 0.99):6.2f} ms  "
        f"max {max(ms):6.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=400, help="timed presses (two a cycle)")
    parser.add_argument(
        "--rest", type=float, default=0.05, help="seconds between presses (default 0.05)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        cable = rig.Cable(Path(folder))
        tower = TowerProcess(folder, str(cable.tower_path))
        pad = rig.Firmware(cable.pad_path, IDENT)
        try:
            confirms, undos = run(tower, pad, args.presses // 2, args.rest)
        finally:
            pad.stop()
            tower.stop()
            cable.close()
    version = subprocess.run(
        [rig.micropython_binary(), "-c", VERSION_SCRIPT],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    print(f"pad round trip: firmware on MicroPython {version} (unix port), pty cable, tower")
    report("confirm", confirms)
    report("undo", undos)
    report("all", confirms + undos)


def run(
    tower: TowerProcess, pad: Firmware, cycles: int, rest: float
) -> tuple[list[float], list[float]]:
    pad.wait_screen(lambda screen: screen[2] == "press any button", what="the join prompt")
    pad.press("tap red")  # a pad joins the table when a player presses one of its buttons
    assert tower.ask("seated") == "Ann"
    tower.ask("new_game")
    tower.ask("roll")
    pad.wait_screen(lambda s: s[6] == OFFER, what="action 1")
    for _ in range(5):  # warm up: imports, first journal writes
        cycle(pad, rest)
    confirms: list[float] = []
    undos: list[float] = []
    for _ in range(cycles):
        confirm, undo = cycle(pad, rest)
        confirms.append(confirm)
        undos.append(undo)
    assert tower.ask("events") == 2 + 2 * (cycles + 5), "every press applied exactly once"
    return confirms, undos


class TowerProcess:
    """The tower in a process of its own, as on the appliance: the bench's threads (the cable's
    relay, the readers of the pad's output) must not share its interpreter lock."""

    def __init__(self, folder: str, port: str):
        context = multiprocessing.get_context("spawn")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=tower_main, args=(folder, port, child))
        self.process.start()

    def ask(self, command: str) -> object:
        self.conn.send(command)
        return self.conn.recv()

    def stop(self) -> None:
        self.conn.send("stop")
        self.process.join(timeout=30)


def tower_main(folder: str, port: str, conn: Connection) -> None:
    """The tower process: answers the bench's few questions until told to stop."""
    tower = rig.Tower(Path(folder), port, seats=[SeatSpec("Bot")], names={IDENT: "Ann"})
    commands = {
        "seated": tower.seated,
        "new_game": lambda: tower.call(tower.table.new_game),
        "roll": lambda: tower.submit(Roll((4, 1), {"red": 6, "yellow": 2, "green": 3, "blue": 6})),
        "events": lambda: len(tower.journal_events()),
    }
    try:
        while (command := conn.recv()) != "stop":
            conn.send(commands[command]())
    finally:
        tower.close()


if __name__ == "__main__":
    main()
