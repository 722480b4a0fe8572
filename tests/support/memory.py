"""A tower process's memory held to what a Pi could give it: a `preexec_fn` for spawn."""

from __future__ import annotations

import resource

MORE = 1 << 30  # bytes of address space beyond what the process holds at its start: twice a
# Zero 2 W's whole memory, so a tower that reads a file of gigabytes fails here as on a Pi


def as_on_a_pi() -> None:
    """In the tower's process before it runs: MORE bytes of address space past its present
    size, then MemoryError (not the test machine's swap, nor its OOM killer)."""
    with open("/proc/self/status", encoding="ascii") as status:
        size = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
    resource.setrlimit(resource.RLIMIT_AS, (size + MORE, resource.RLIM_INFINITY))
