"""Numbers in words both ways: counting as every surface says a number of things ("1 game",
"2 games"), and reading a number someone typed or sent."""

from __future__ import annotations


def plural(count: int, one: str, many: str = "") -> str:
    """`count` and its word: "1 game", "2,000 games", "0 crosses" (`many`, where not one + s)."""
    return f"{count:,} {one}" if count == 1 else f"{count:,} {many or one + 's'}"


def in_digits(text: str) -> bool:
    """True when `text` is a number written in ASCII digits, as `int()` reads it: str.isdigit()
    alone is true of "²" too (which int() refuses) and of other scripts' digits ("٣")."""
    return text.isascii() and text.isdigit()
