"""The whole tower as a process: start-up to ready, idle CPU use, resident memory.

Starts `qwixx-tower run` on simulated hardware with one keyboard seat (so nothing plays by
itself), as systemd would: readiness is the READY=1 it sends to $NOTIFY_SOCKET. Then it sits idle
at the attract screen while this script reads its CPU time and memory from /proc.

    .venv/bin/python bench/tower.py [--idle 10] [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def start_tower(state_dir: str, notify_path: str) -> subprocess.Popen:
    command = [sys.executable, "-m", "firmware_py.app.cli", "run", "--plain"]
    command += ["--players", "Kim", "--human", "Kim", "--state-dir", state_dir]
    env = {**os.environ, "NOTIFY_SOCKET": notify_path}
    return subprocess.Popen(
        command,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def seconds_to_ready(sock: socket.socket, started: float) -> float:
    while True:
        if b"READY=1" in sock.recv(4096):
            return time.perf_counter() - started


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def one_run(idle: float) -> tuple[float, float, float]:
    with (
        tempfile.TemporaryDirectory() as state,
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock,
    ):
        notify = os.path.join(state, "notify")
        sock.bind(notify)
        sock.settimeout(60)
        started = time.perf_counter()
        tower = start_tower(state, notify)
        try:
            ready = seconds_to_ready(sock, started)
            time.sleep(1.0)  # let start-up work settle
            before = cpu_seconds(tower.pid)
            time.sleep(idle)
            busy = (cpu_seconds(tower.pid) - before) / idle
            return ready, busy * 100, resident_mb(tower.pid)
        finally:
            tower.terminate()
            tower.wait(10)


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
