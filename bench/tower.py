"""The whole tower as a process: start-up to ready, idle CPU use, resident memory.

Starts `qwixx-tower run` on simulated hardware with one keyboard seat (so nothing plays by
itself), as systemd would: readiness is the READY=1 it sends to $NOTIFY_SOCKET. Then it sits idle
at the attract screen while this script reads its CPU time and memory from /proc. The tower is
the tests' (tests/support/tower.py), started with exec rather than forked from a pre-imported
parent: Python's start and the imports are part of the start-up timed here.

    .venv/bin/python bench/tower.py [--idle 10] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from support.tower import Tower  # noqa: E402

READY_WITHIN = 60.0  # seconds: a tower not ready by then has hung


def one_run(idle: float) -> tuple[float, float, float]:
    """Seconds to READY=1, idle CPU in % of one core, resident memory in MB."""
    with tempfile.TemporaryDirectory() as state:
        started = time.perf_counter()
        with Tower("--players", "Kim", "--human", "Kim", state=Path(state), fork=False) as tower:
            tower.wait_ready(READY_WITHIN)
            ready = time.perf_counter() - started
            time.sleep(1.0)  # let start-up work settle
            before = tower.cpu_seconds()
            time.sleep(idle)
            busy = (tower.cpu_seconds() - before) / idle
            resident = tower.resident_mb()
            tower.stop()
        return ready, busy * 100, resident


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idling measured")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    results = [one_run(args.idle) for _ in range(args.runs)]
    ready, cpu, rss = zip(*results, strict=True)
    print(f"start-up to READY=1: median {statistics.median(ready):.2f} s, max {max(ready):.2f} s")
    print(f"idle CPU at the attract screen: median {statistics.median(cpu):.2f} % of one core")
    print(f"resident memory: median {statistics.median(rss):.1f} MB, max {max(rss):.1f} MB")


if __name__ == "__main__":
    main()
