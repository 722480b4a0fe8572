"""Numbers in words both ways: counting as every surface says a number of things ("1 game",
"2 games"), reading a number someone typed or sent, and a moment as the local clock shows it."""

from __future__ import annotations

from datetime import UTC, datetime

CLOCK = "%H:%M"  # "19:04"
DAY_AND_CLOCK = "%a %Y-%m-%d %H:%M"  # "Sun 2026-11-22 19:04"


def plural(count: int, one: str, many: str = "") -> str:
    """`count` and its word: "1 game", "2,000 games", "0 crosses" (`many`, where not one + s)."""
    return f"{count:,} {one}" if count == 1 else f"{count:,} {many or one + 's'}"


def in_digits(text: str) -> bool:
    """True when `text` is a number written in ASCII digits, as `int()` reads it: str.isdigit()
    alone is true of "²" too (which int() refuses) and of other scripts' digits ("٣")."""
    return text.isascii() and text.isdigit()


def moment(text: object) -> datetime | None:
    """An ISO 8601 time someone wrote or sent ("2026-11-22T19:04:05+00:00"), read; None for
    anything else, and for a time no clock here can show: year 1 ahead of UTC or year 9999
    behind it reads, but converting it to UTC or to local time overflows datetime's range."""
    if not isinstance(text, str):
        return None
    try:
        when = datetime.fromisoformat(text)
        when.astimezone(UTC), when.astimezone()
    except (ValueError, OverflowError, OSError):
        return None
    return when


def local_time(iso: str | None, shape: str = CLOCK) -> str:
    """An ISO 8601 moment (as the logs, the towers and the league write them, with their UTC
    offset) as this machine's local clock shows it, in `shape`; "" for none or one that is no
    time. Every page and screen says times so: the people reading them live in local time."""
    when = moment(iso)
    return when.astimezone().strftime(shape) if when else ""
