"""The test suite's own figures: wall time, CPU time, and where the CPU goes.

    .venv/bin/python bench/suite.py [--runs N] [--busy K] [--workers W] [--top T] [PYTEST ARGS]

Runs pytest as `./dev test` does (`-n W --dist loadgroup`), N times in a row, optionally beside K
busy loops (`while True: pass`, at niceness 0: a loaded machine), and prints for each run its
verdict, wall time and CPU time (pytest, its workers and every process they waited for), then
the modules and tests that took the most CPU, measured per test by a small plugin
(`bench/suite_cpu.py`: the worker's own CPU and that of the processes it waited for during the
test, e.g. tower processes). ruff and mypy are left out: after set-up they take a second.

The CPU of a run counts every process it started, orphans included: this process adopts them
(a child subreaper) and reaps them as they end, where init would reap chromium's helpers and
whatever else a test leaves to end by itself without counting them (about 40 s a run).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import ctypes
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h
OURS: set[int] = set()  # children this script waits for itself: pytest, the busy loops


@contextlib.contextmanager
def busy_loops(count: int) -> Iterator[None]:
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    OURS.update(loop.pid for loop in loops)
    try:
        yield
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def adopt_orphans() -> None:
    """Become the reaper of the processes the runs leave parentless, and reap them as they
    end (a thread), so that their CPU counts in this process's children's."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER) failed")
    threading.Thread(target=_reap_orphans, daemon=True).start()


def _reap_orphans() -> None:
    while True:
        try:  # (WNOWAIT: a child of ours that ended is only looked at, and left to its waiter)
            ended = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOWAIT)
        except ChildProcessError:
            time.sleep(0.1)  # no child at all, for now
            continue
        if ended is None or ended.si_pid in OURS:
            time.sleep(0.01)
            continue
        with contextlib.suppress(ChildProcessError):
            os.waitpid(ended.si_pid, 0)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(workers: int, extra: list[str], records: Path) -> tuple[int, float, float]:
    """One pytest run: (exit status, wall seconds, CPU seconds)."""
    env = dict(os.environ, QWIXX_SUITE_CPU=str(records))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as ./dev does
    # The plugin alone on the path (bench/ itself would hand the towers the tests start its
    # scripts as top-level modules: web, tower, mqtt, ...).
    plugin = records / "plugin"
    plugin.mkdir()
    shutil.copy(Path(__file__).with_name("suite_cpu.py"), plugin)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(plugin), env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "pytest", "-n", str(workers), "--dist", "loadgroup",
               "-p", "suite_cpu", "-q", *extra]  # fmt: skip
    cpu, start = children_cpu(), time.monotonic()
    (records / "started").write_text(str(time.time()))
    pytest = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)  # fmt: skip
    OURS.add(pytest.pid)
    stdout, stderr = pytest.communicate()
    wall = time.monotonic() - start
    time.sleep(1)  # for the last orphans to be reaped
    if pytest.returncode != 0:  # what failed, as pytest summed it up; the whole of it kept
        summary = stdout.rpartition("short test summary info")[2]
        print(summary.strip()[-4000:] or stdout[-4000:], stderr[-2000:], sep="\n")
        log = Path(tempfile.gettempdir()) / f"qwixx-suite-{time.strftime('%Y%m%d-%H%M%S')}.log"
        log.write_text(stdout + stderr)
        print(f"pytest's whole output: {log}")
    return pytest.returncode, wall, children_cpu() - cpu


def report(records: Path, top: int) -> None:
    rows = [json.loads(line) for path in records.glob("*.jsonl") for line in path.open()]
    if not rows:
        return
    spent = sum(row["cpu"] for row in rows)
    print(f"\nCPU inside tests: {spent:.0f} s over {len(rows)} tests (the rest: starting "
          "workers, collecting, browsers shared by a worker's tests)")  # fmt: skip
    modules: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0])
    for row in rows:
        module = modules[row["test"].split("::")[0]]
        module[0] += row["cpu"]
        module[1] += row["wall"]
        module[2] += 1
    print(f"\n{'CPU s':>7} {'wall s':>7} {'tests':>5}  module (wall: summed over workers)")
    for name, (cpu, wall, count) in sorted(modules.items(), key=lambda m: -m[1][0])[:top]:
        print(f"{cpu:7.1f} {wall:7.1f} {count:5d}  {name}")
    timeline(records, rows, top)
    print(f"\n{'CPU s':>7} {'wall s':>7}  test")
    for row in sorted(rows, key=lambda r: -r["cpu"])[:top]:
        print(f"{row['cpu']:7.1f} {row['wall']:7.1f}  {row['test'][:100]}")


def timeline(records: Path, rows: list[dict[str, Any]], top: int) -> None:
    """When each worker was busy, and the modules that ended last: the run's longest path.
    Times are seconds after the first test began; a module's span runs from its first test's
    start to its last test's end (its fixtures' set-up is inside its first test)."""
    zero = min(row["began"] for row in rows)
    started = float((records / "started").read_text())
    last = max(row["began"] + row["wall"] for row in rows)
    print(f"\nThe first test began {zero - started:.0f} s after pytest started (workers starting"
          f" and collecting); the last ended {last - started:.0f} s after it.")  # fmt: skip
    workers: dict[str, list[float]] = {}
    spans: dict[str, list[float]] = {}
    for row in rows:
        start, end = row["began"] - zero, row["began"] - zero + row["wall"]
        for key, table in ((row["worker"], workers), (row["test"].split("::")[0], spans)):
            low, high = table.setdefault(key, [start, end])
            table[key] = [min(low, start), max(high, end)]
    print(f"\n{'from':>6} {'to':>6}  worker (busy in tests from its first test to its last)")
    for name, (start, end) in sorted(workers.items(), key=lambda w: w[1][1]):
        busy = sum(row["wall"] for row in rows if row["worker"] == name)
        print(f"{start:6.0f} {end:6.0f}  {name} ({busy:.0f} s in tests)")
    print(f"\n{'from':>6} {'to':>6}  module (the {top} that ended last)")
    for name, (start, end) in sorted(spans.items(), key=lambda s: -s[1][1])[:top]:
        print(f"{start:6.0f} {end:6.0f}  {name}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="runs in a row (default 1)")
    parser.add_argument("--busy", type=int, default=0, help="busy loops beside (default 0)")
    parser.add_argument("--workers", type=int, default=8, help="pytest-xdist workers (8)")
    parser.add_argument("--top", type=int, default=15, help="rows of the CPU tables (15)")
    args, extra = parser.parse_known_args()
    green = 0
    adopt_orphans()
    with busy_loops(args.busy):
        for run in range(1, args.runs + 1):
            with tempfile.TemporaryDirectory() as folder:
                records = Path(folder)
                status, wall, cpu = run_once(args.workers, extra, records)
                verdict = "green" if status == 0 else f"RED (exit {status})"
                green += status == 0
                print(f"run {run}: {verdict}, {wall:.0f} s wall, {cpu:.0f} s CPU"
                      f" ({args.busy} busy loops beside)", flush=True)  # fmt: skip
                if run == args.runs:
                    report(records, args.top)
    print(f"\n{green} of {args.runs} runs green")
    return 0 if green == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
