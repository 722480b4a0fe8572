"""Counting in words, as every surface says a number of things: "1 game", "2 games"."""

from __future__ import annotations


def plural(count: int, one: str, many: str = "") -> str:
    """`count` and its word: "1 game", "2,000 games", "0 crosses" (`many`, where not one + s)."""
    return f"{count:,} {one}" if count == 1 else f"{count:,} {many or one + 's'}"
