"""The longest game log the tower writes, read back: how long and how much memory.

A game's log is bounded but for undo (firmware_py/journal/journal.py): past UNDO_ROOM bytes a
game takes no more undo, and no log the tower reads back may pass GAME_LOG_MOST. This writes a
game whose player marked and took the mark back until the log reached UNDO_ROOM, then fills it
with more of the same up to GAME_LOG_MOST (what the reader must still take), and reads it back
as the tower's start does (`read_game`) and as `history` does (its summary), each in a fresh
process: the best time of `--runs`, and the growth of the process's peak resident memory.

    nice .venv/bin/python bench/log_limits.py [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware_py.journal.journal import GAME_LOG_MOST  # noqa: E402

TIME = "2026-11-22T19:04:05+00:00"
READERS = {
    "read_game (the tower's start)": "from firmware_py.journal.journal import read_game\n"
    "read_game(PATH)",
    "history's summary": "from firmware_py.journal.index import read_summary\n"
    "read_summary(PATH, 1, PATH.read_bytes(), abandoned=False)",
}
MEASURE = """
import resource, sys, time
from pathlib import Path
from typing import Any
sys.path.insert(0, {root!r})
PATH = Path({path!r})
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
began = time.perf_counter()
{reader}
took = time.perf_counter() - began
print(took, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
"""


def line(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(", ", ": ")) + "\n"


def longest_log(path: Path) -> int:
    """A classic game's start and roll, then Ben's mark and undo, each answering a phone's
    request, until the file holds just under GAME_LOG_MOST bytes; its line count."""
    start = {"event": "start", "variant": "classic", "players": ["Ann", "Ben", "Cleo"]}
    dice = {"white": [4, 1], "red": 6, "yellow": 2, "green": 3, "blue": 6}
    head = line(start) + line({"event": "roll", "dice": dice, "time": TIME})
    mark = {"event": "mark", "player": "Ben", "row": "yellow", "number": 5, "time": TIME}
    undo = {"event": "undo", "player": "Ben", "time": TIME}
    pair = line({**mark, "request": {"Ben": ["phone-6f3a9c:100000"]}}) + line(
        {**undo, "request": {"Ben": ["phone-6f3a9c:100001"]}}
    )
    count = (GAME_LOG_MOST - len(head)) // len(pair)
    path.write_text(head + pair * count)
    return 2 + 2 * count


def measure(path: Path, reader: str, runs: int) -> tuple[float, float]:
    """Best seconds of `runs` fresh processes, and the largest growth of their peak memory (MB)."""
    best, grown = float("inf"), 0.0
    code = MEASURE.format(root=str(ROOT), path=str(path), reader=reader)
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True)  # fmt: skip
        seconds, kilobytes = done.stdout.split()
        best, grown = min(best, float(seconds)), max(grown, int(kilobytes) / 1000)
    return best, grown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game-000001.jsonl"
        lines = longest_log(path)
        size = path.stat().st_size
        print(f"a log of {size / 1e6:.1f} MB ({lines:,} lines; at most {GAME_LOG_MOST / 1e6:g} MB)")
        for name, reader in READERS.items():
            seconds, grown = measure(path, reader, args.runs)
            print(f"{name}: {seconds:.2f} s, peak memory +{grown:.0f} MB")


if __name__ == "__main__":
    main()
