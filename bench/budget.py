"""A Raspberry Pi Zero 2 W's budget on this machine: a cgroup with its memory and one of its
cores, and the calibration that says how much of a core here a Zero 2 W core is.

The cgroup: cgroup v2 where its `cpu` and `memory` controllers are enabled (`memory.max`,
`cpu.max` = "QUOTA PERIOD"), else the v1 hierarchies (`memory.limit_in_bytes`,
`cpu.cfs_quota_us` over `cpu.cfs_period_us`), which is what this machine has. The period is
10 ms, so that the quota never stops the tower for longer than a few milliseconds at a time
(the default 100 ms period would let it run flat out for a share of 100 ms, then stall it for
the rest). The memory group is made inside this process's own, so that whatever limit a
shared machine puts on its users still holds.

The calibration: sysbench's CPU test (`sysbench cpu --threads=1`, primes up to 10,000) on one
core, published for the Raspberry Pi 3B+ at 687.45 events/s (sysbench 1.0.20, `sysbench cpu
--threads=1 --time=60 run`; "Raspberry Pi CPU Benchmarks", leoncode.co.uk/articles/
raspberry-pi-benchmarks). The Zero 2 W
has the same Cortex-A53 cores at 1.0 GHz instead of 1.4, so one of its cores does 687.45 x
1.0 / 1.4 = 491 events/s; the same test here, timed at start, gives the share of a core here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

PI3B_PLUS_EVENTS = 687.45  # sysbench 1.0.20 cpu, one thread, published (above)
ZERO2W_EVENTS = PI3B_PLUS_EVENTS * 1.0 / 1.4  # the same core at 1.0 GHz
PERIOD_US = 10_000  # the quota's period: 10 ms
CGROUP = Path("/sys/fs/cgroup")


def sysbench_events(seconds: int = 5, runs: int = 3) -> float:
    """sysbench's CPU events per second on one core here (as published for the Pi): the best
    of `runs`, the core least disturbed by a shared machine, so that the share it gives errs
    on the small side."""
    if shutil.which("sysbench") is None:
        raise SystemExit("this bench needs sysbench (sudo apt install sysbench)")
    command = ["sysbench", "cpu", "--threads=1", f"--time={seconds}", "run"]
    best = 0.0
    for _ in range(runs):
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        found = re.search(r"events per second:\s*([\d.]+)", out)
        if not found:
            raise SystemExit(f"sysbench said no events per second: {out[-300:]}")
        best = max(best, float(found.group(1)))
    return best


class Budget:
    """A cgroup holding at most `memory_mb` and `share` of one core; `enter` puts the calling
    process in it (given to a child as preexec_fn); `close` removes it."""

    def __init__(self, name: str, memory_mb: int, share: float) -> None:
        self.memory_mb, self.share = memory_mb, share
        self.quota_us = max(1000, round(share * PERIOD_US))
        self.v2 = _v2_has("cpu", "memory")
        self.groups = self._make(name)

    def _make(self, name: str) -> list[Path]:
        if self.v2:
            group = CGROUP / name
            group.mkdir(exist_ok=True)
            (group / "memory.max").write_text(f"{self.memory_mb}M")
            (group / "memory.swap.max").write_text("0")
            (group / "cpu.max").write_text(f"{self.quota_us} {PERIOD_US}")
            return [group]
        memory = CGROUP / "memory" / _own_v1("memory").lstrip("/") / name
        cpu = CGROUP / "cpu" / _own_v1("cpu").lstrip("/") / name
        for group in (memory, cpu):
            group.mkdir(exist_ok=True)
        (memory / "memory.limit_in_bytes").write_text(str(self.memory_mb << 20))
        (cpu / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        (cpu / "cpu.cfs_quota_us").write_text(str(self.quota_us))
        return [memory, cpu]

    def describe(self) -> str:
        files = "memory.max, cpu.max" if self.v2 else "memory.limit_in_bytes, cpu.cfs_quota_us"
        return (f"cgroup v{2 if self.v2 else 1} ({files}): {self.memory_mb} MB, "
                f"{self.quota_us} us of CPU every {PERIOD_US} us "
                f"({self.share * 100:.1f} % of one core here)")  # fmt: skip

    def enter(self) -> None:
        """Move the calling process into the group (its children follow)."""
        for group in self.groups:
            (group / "cgroup.procs").write_text(str(os.getpid()))

    def peak_mb(self) -> float:
        """The most memory the group held (its processes and their page cache)."""
        name = "memory.peak" if self.v2 else "memory.max_usage_in_bytes"
        path = self.groups[0] / name
        return int(path.read_text()) / 2**20 if path.exists() else float("nan")

    def throttled(self) -> str:
        """How often the quota stopped the group, and for how long in all."""
        stat = (self.groups[-1] / "cpu.stat").read_text()
        fields = dict(line.split() for line in stat.splitlines())
        usec = int(fields.get("throttled_usec", int(fields.get("throttled_time", 0)) // 1000))
        return (
            f"throttled in {fields.get('nr_throttled')} of {fields.get('nr_periods')} periods"
            f", {usec / 1e6:.1f} s in all"
        )

    def close(self) -> None:
        """Remove the groups once their last process has gone (a few tries: it may be ending)."""
        for group in self.groups:
            for _ in range(50):
                try:
                    group.rmdir()
                    break
                except OSError:
                    time.sleep(0.1)


def _v2_has(*controllers: str) -> bool:
    path = CGROUP / "cgroup.controllers"
    return path.exists() and set(controllers) <= set(path.read_text().split())


def _own_v1(controller: str) -> str:
    """This process's group in the v1 hierarchy of `controller` ("/" for the root)."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, names, path = line.split(":", 2)
        if controller in names.split(","):
            return path
    raise SystemExit(f"no cgroup v1 {controller} hierarchy here, nor v2 with its controller")
