"""How far a tower's clock is from the league's, and the words the page says about it.

A tower dates its results by its own clock, and a Pi keeps no time without power
(docs/kiosk.md, "The clock"): one that has reached no time server dates its games by an old
time, so the league rates them out of order and leaves them out of the evening. Each state a
tower sends says its time (`clock`, docs/home-assistant.md); a state the broker forwards as it
comes (not one from its retained store, which may be hours old) tells the league the tower's
offset. The league only says it: it never corrects a game's times.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from firmware_py.league.incoming import NotAResult
from firmware_py.words import moment

OFF_BY = timedelta(minutes=2)  # a tower's clock this far from the league's is said on the page
ABSURD = timedelta(days=100 * 365)  # farther than any clock a Pi starts with: not a time
CLOCK_TEXT = 40  # characters of a time with its offset, and room to spare
WHERE = 'docs/league.md, "Clocks"'


def clock_in(data: dict[str, Any]) -> datetime | None:
    """The tower's time a state says (None for a tower too old to say it); NotAResult for
    one that is no time with its offset from UTC."""
    if "clock" not in data:
        return None
    text = data["clock"]
    said = moment(text) if isinstance(text, str) and len(text) <= CLOCK_TEXT else None
    if said is None:
        raise NotAResult(f"a state's clock {str(text)[:40]!r} is not a time")
    if said.utcoffset() is None:
        raise NotAResult(f"a state's clock {text!r} has no offset from UTC")
    return said


def offset(said: datetime, league_now: datetime) -> timedelta:
    """How far the tower's clock is ahead of the league's (behind: negative); NotAResult for
    a time farther off than any clock starts with."""
    ahead = said - league_now
    if abs(ahead) > ABSURD:
        raise NotAResult(f"a state's clock {said.isoformat()!r} is no time a tower keeps")
    return ahead


def clock_words(ahead: timedelta) -> str | None:
    """What the page says of a tower's clock `ahead` of the league's, or None within OFF_BY."""
    if abs(ahead) <= OFF_BY:
        return None
    span = duration_words(abs(ahead))
    if ahead < timedelta(0):
        why = "its games may be missing from this evening"
        return f"its clock is {span} behind the league's: {why} ({WHERE})"
    return f"its clock is {span} ahead of the league's: its games are rated out of order ({WHERE})"


def duration_words(span: timedelta) -> str:
    """'5 min', '3 h 12 min', '3 h', '1 day 4 h', '20 days' (to the minute)."""
    minutes = round(span.total_seconds() / 60)
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    if days:
        parts = [f"{days} day{'s' if days > 1 else ''}", f"{hours} h" if hours else ""]
    else:
        parts = [f"{hours} h" if hours else "", f"{minutes} min" if minutes or not hours else ""]
    return " ".join(part for part in parts if part)
