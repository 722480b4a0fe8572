"""A pytest plugin for bench/suite.py: the CPU each test takes, written where
$QWIXX_SUITE_CPU says (one file per worker). A test's CPU is its worker's own and that of the
processes the worker waited for meanwhile (the towers the test started and stopped, also those
forked for it by tests/support/zygote.py)."""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    spawn = sys.modules.get("support.spawn")  # towers forked for the tests, not our children
    forked = sum(spawn.FORKED_CPU) if spawn is not None else 0.0
    return own.ru_utime + own.ru_stime + waited.ru_utime + waited.ru_stime + forked


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    folder = os.environ.get("QWIXX_SUITE_CPU")
    cpu, start, began = _cpu(), time.monotonic(), time.time()
    yield
    if folder:
        row = {"test": item.nodeid, "cpu": _cpu() - cpu, "wall": time.monotonic() - start,
               "began": began, "worker": os.environ.get("PYTEST_XDIST_WORKER", "main")}  # fmt: skip
        with (Path(folder) / f"{os.getpid()}.jsonl").open("a") as records:
            records.write(json.dumps(row) + "\n")
