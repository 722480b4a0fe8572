"""The join address as a QR code in a terminal, for `qwixx-tower run` on a PC."""

from __future__ import annotations

import io


def terminal_lines(url: str) -> list[str]:
    """The QR code of `url` in half-block characters (two modules a character, light modules
    drawn, as on a dark terminal), with a one-module light border."""
    import segno  # (only where phones may join: a tower without them never loads it)

    out = io.StringIO()
    segno.make(url, error="l", micro=False).terminal(out=out, compact=True, border=1)
    return [line for line in out.getvalue().splitlines() if line]


def join_lines(url: str, *, with_code: bool) -> list[str]:
    """What `run` shows about phones: the QR code (between games) and the address."""
    lines = terminal_lines(url) if with_code else []
    return [*lines, f"Phones join at {url}"]
