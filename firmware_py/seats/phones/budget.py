"""Token buckets: how much a phone, an address or the whole table may do at once, and then
how fast. A bucket holds up to `size` tokens and gains `per_second` of them as time goes by;
each thing done takes one, and nothing is done without one."""

from __future__ import annotations


class Bucket:
    """`size` at once, then `per_second`; the clock's readings are passed in (`now`)."""

    def __init__(self, size: float, per_second: float, now: float) -> None:
        self.size = size
        self.per_second = per_second
        self._tokens = float(size)
        self._at = now

    def take(self, now: float) -> bool:
        """One token, if there is one (False, and nothing taken, when it is empty)."""
        if self.level(now) < 1:
            return False
        self._tokens -= 1
        return True

    def level(self, now: float) -> float:
        """The tokens there are at `now`."""
        self._tokens = min(self.size, self._tokens + max(0.0, now - self._at) * self.per_second)
        self._at = now
        return self._tokens

    def full(self, now: float) -> bool:
        """True when nothing has been taken that time has not given back."""
        return self.level(now) >= self.size
