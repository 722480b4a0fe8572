"""The pad firmware's heap under the MicroPython unix port: as .py sources and compiled (.mpy).

The sources are firmware_py/pad/ as they are; the compiled firmware is what
tools/build_pad_mpy.py makes (what `qwixx-tower pad install` copies to a Pico, and the unix
board). For each form, in a heap of --heap (96k, the tests' Pico-like heap):

- after import: the firmware's modules imported one at a time as main.py does, collected,
  then `gc.mem_free()` and `gc.mem_alloc()`;
- a whole game: the real firmware at a real tower over a pseudo-terminal cable (the tests' rig,
  tests/support/firmware.py), Ann alone in a longo game (the largest STATE) played to its end
  on the pad's buttons: the heap held when she has joined, the most held after any turn, and
  free and held once the pad shows the game over (the pad's own `mem` report, after a
  collection);
- the smallest heap, to 1 KiB, in which the modules import, and in which the firmware plays a
  whole game (bisection: each try a whole game).

    .venv/bin/python bench/pad_heap.py
    .venv/bin/python bench/pad_heap.py --heap 128k --no-search
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.firmware import PadTable, build_pad_mpy, rig  # noqa: E402

MODULES = ("protocol", "towerlink", "padapp", "padscreen", "board_unix")  # main.py's order
IMPORT_SCRIPT = """
import gc, sys
sys.path.insert(0, {folder!r})
for name in {modules!r}:
    gc.collect()
    __import__(name)
gc.collect()
print('heap', gc.mem_free(), gc.mem_alloc())
"""
PROBE_WAIT = 30.0  # seconds before a try in a small heap counts as failed (a whole game: 10)


def after_import(folder: Path, heap_k: int) -> tuple[int, int] | None:
    """Free and held bytes once the firmware in `folder` is imported; None if it cannot be."""
    script = IMPORT_SCRIPT.format(folder=str(folder), modules=MODULES)
    result = subprocess.run(
        [rig.micropython_binary(), "-X", f"heapsize={heap_k}k", "-c", script],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    words = result.stdout.split()
    if result.returncode != 0 or words[:1] != ["heap"]:
        return None
    return int(words[1]), int(words[2])


def whole_game(main: Path, heap_k: int, seed: int) -> dict[str, int] | None:
    """The heap figures of a longo game played to its end; None if the firmware failed (it
    stopped, printed an error, or did not show what it should within PROBE_WAIT)."""
    with tempfile.TemporaryDirectory(prefix="pad-heap-") as folder:
        t = PadTable(
            Path(folder), bots=(), variant="longo", beat_ms=None, heap=f"{heap_k}k",
            main=main, join=False,
        )  # fmt: skip
        figures = None
        try:
            t.join()
            joined = t.pad.memory()[1]
            t.start_longo_game(2, 16)
            used = t.play_to_the_end(seed)
            free, held = t.pad.memory()
            figures = {"joined": joined, "most": max(used), "free": free, "held": held}
            figures["turns"] = len(used)
        except (AssertionError, OSError, ValueError):
            pass  # the firmware ran out of memory: the try failed, which is the figure
        finally:
            if not _closed_cleanly(t):
                figures = None
    return figures


def _closed_cleanly(t: PadTable) -> bool:
    """Close the table; whether the firmware ended well (status 0, no error printed)."""
    try:
        t.close()
    except AssertionError:
        return False
    return True


def smallest(works: Callable[[int], bool], low_k: int, high_k: int) -> int | None:
    """The smallest heap in KiB, between `low_k` (assumed too small) and `high_k`, in which
    `works(heap_k)` is true; None if not even in `high_k`."""
    if not works(high_k):
        return None
    while high_k - low_k > 1:
        middle = (low_k + high_k) // 2
        if works(middle):
            high_k = middle
        else:
            low_k = middle
    return high_k


def interpreter() -> str:
    script = (
        "import sys; i = sys.implementation; "
        "print('%d.%d.%d' % i.version[:3], '%d.%d' % (i._mpy & 0xFF, i._mpy >> 8 & 3))"
    )
    result = subprocess.run(
        [rig.micropython_binary(), "-c", script], capture_output=True, text=True, check=False
    )
    return result.stdout.strip()


def report(name: str, folder: Path, main: Path, args: argparse.Namespace) -> None:
    imported = after_import(folder, args.heap)
    game = whole_game(main, args.heap, args.seed)
    shown = f"free {imported[0]:6}, held {imported[1]:6}" if imported else "MemoryError"
    print(f"{name:9} after import in {args.heap}k: {shown}")
    if game:
        print(
            f"{name:9} a game of {game['turns']} turns: held {game['joined']} when joined, at "
            f"most {game['most']}; at its end free {game['free']}, held {game['held']}"
        )
    else:
        print(f"{name:9} a whole game in {args.heap}k: failed")
    if args.search:
        low = smallest(lambda k: after_import(folder, k) is not None, 8, 256)
        play = smallest(lambda k: whole_game(main, k, args.seed) is not None, 8, 256)
        print(f"{name:9} smallest heap: to import {low}k, to play a whole game {play}k")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--heap", type=int, default=96, help="KiB of heap (default 96)")
    parser.add_argument("--seed", type=int, default=1, help="the game's dice (default 1)")
    parser.add_argument("--no-search", dest="search", action="store_false")
    args = parser.parse_args()
    rig.WAIT = PROBE_WAIT
    with tempfile.TemporaryDirectory(prefix="pad-mpy-") as built:
        compiled_main = build_pad_mpy.build_for_unix_port(Path(built))
        version, mpy = interpreter().rsplit(" ", 1)
        print(f"pad heap: MicroPython {version} unix port (64-bit), .mpy version {mpy}")
        report("sources", rig.PAD_DIR, rig.PAD_DIR / "main.py", args)
        report("compiled", Path(built), compiled_main, args)


if __name__ == "__main__":
    main()
