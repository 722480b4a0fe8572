"""A small disk of its own for a test (a tmpfs, root only) and filling it up."""

from __future__ import annotations

import errno
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

FULL = "cannot save the game: the disk is full"


@contextmanager
def tmpfs(path: Path, size: str = "256k") -> Iterator[Path]:
    """A small filesystem of its own at `path` (root only: skipped where it cannot mount)."""
    path.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {mounted.stderr.strip()!r}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill(disk: Path) -> Path:
    """Fill the filesystem of `disk` up to its last byte with one file."""
    filler = disk / "filler"
    with open(filler, "ab", buffering=0) as file:  # (again: what was freed since is taken)
        for size in (4096, 512, 1):
            try:
                while True:
                    file.write(b"\0" * size)
            except OSError as error:
                assert error.errno == errno.ENOSPC
    return filler
