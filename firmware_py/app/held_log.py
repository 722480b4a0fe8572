"""The log kept off a screen drawn in the terminal: while the tower draws itself full screen,
a line the log wrote to the same terminal would land in the middle of the drawing (a
traceback would scroll it) and the next redraw would wipe it out of sight for good. So the
log's lines are held while the screen is drawn and written when the tower gives the terminal
back, under its last news, where they stay."""

from __future__ import annotations

import logging
import sys
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

KEPT = 200  # lines of log held at most: the last ones (a failing loop could log for hours)


class HeldLines(logging.Handler):
    """Formats each record as the handler it stands in for would, and keeps the last `kept`
    of them until `write_out`."""

    def __init__(self, stands_for: logging.Handler, kept: int = KEPT) -> None:
        super().__init__(stands_for.level)
        self.setFormatter(stands_for.formatter)
        self._lines: deque[str] = deque(maxlen=kept)
        self._left_out = 0

    def emit(self, record: logging.LogRecord) -> None:
        if len(self._lines) == self._lines.maxlen:
            self._left_out += 1
        self._lines.append(self.format(record))

    def write_out(self, stream: TextIO) -> None:
        if self._left_out:
            stream.write(f"({self._left_out} earlier lines of the log left out)\n")
        for line in self._lines:
            stream.write(line + "\n")
        stream.flush()


@contextmanager
def log_held_while_drawn(drawn: bool, stream: TextIO | None = None) -> Iterator[None]:
    """While the block runs, the log's lines to `stream` (standard error) are held when the
    screen is `drawn` on the same terminal; written to it afterwards, in order. A log to a
    file or a pipe (systemd's journal) is written as it comes, as always."""
    stream = stream or sys.stderr
    root = logging.getLogger()
    on_terminal = [h for h in root.handlers if _writes_to_terminal(h, stream)] if drawn else []
    held = {handler: HeldLines(handler) for handler in on_terminal}
    for handler, holder in held.items():
        root.removeHandler(handler)
        root.addHandler(holder)
    try:
        yield
    finally:
        for handler, holder in held.items():
            root.removeHandler(holder)
            root.addHandler(handler)
            holder.write_out(stream)


def _writes_to_terminal(handler: logging.Handler, stream: TextIO) -> bool:
    return (
        isinstance(handler, logging.StreamHandler) and handler.stream is stream and stream.isatty()
    )
