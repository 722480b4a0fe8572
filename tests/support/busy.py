"""A busy machine, for a test of what load does to the tower: busy loops beside it."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator


@contextlib.contextmanager
def busy_cpu(processes: int = 4, niceness: int = 0) -> Iterator[None]:
    """`processes` busy loops for the block's duration, at `niceness`: a tower started at the
    same niceness (`Tower(..., niceness=)`) meets a machine as loaded as `processes` + 1
    runnable programs, while the rest of the suite beside it, at niceness 0, keeps its CPU."""
    loop = f"import os; os.nice({niceness})\nwhile True: pass"
    spinners = [subprocess.Popen([sys.executable, "-c", loop]) for _ in range(processes)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
