"""The lines a process writes on one of its streams, read by a thread as they come: a test waits
for the line it expects (a limit only bounds a hang), and a line read ahead while the process
then pauses (as a tower does when its disk is full) is still seen at once."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import IO, TypeVar

T = TypeVar("T")


class Lines:
    """Every line of `stream` so far (newlines stripped), and whether the stream has ended."""

    def __init__(self, stream: IO[str]) -> None:
        self.lines: list[str] = []
        self.ended = False
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._reader.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            with self._changed:
                self.lines.append(line.rstrip("\n"))
                self._changed.notify_all()
        with self._changed:
            self.ended = True
            self._changed.notify_all()

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def wait_until(
        self, wanted: Callable[[list[str]], T | None], timeout: float, every: float | None = None
    ) -> T | None:
        """Until `wanted(lines)` gives something true: that, then; None once the stream has
        ended or `timeout` seconds have passed without it. `wanted` is asked again at each new
        line, and every `every` seconds too when it looks at more than the lines (a file's
        size)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not (found := wanted(self.lines)):
                left = deadline - time.monotonic()
                if left <= 0 or self.ended:
                    return None
                self._changed.wait(left if every is None else min(left, every))
            return found

    def first(self, pattern: str, start: int, timeout: float) -> tuple[int, re.Match[str]] | None:
        """The first line from index `start` on that matches `pattern` (a regular expression),
        with its index, once it has come; None if it does not come (the stream ended, or the
        time ran out)."""
        scanned = start  # lines before this one do not match

        def matched(lines: list[str]) -> tuple[int, re.Match[str]] | None:
            nonlocal scanned
            while scanned < len(lines):
                if match := re.search(pattern, lines[scanned]):
                    return scanned, match
                scanned += 1
            return None

        return self.wait_until(matched, timeout)

    def join(self, timeout: float) -> None:
        """Until the stream has ended and every line of it is here (or `timeout`)."""
        self._reader.join(timeout)
