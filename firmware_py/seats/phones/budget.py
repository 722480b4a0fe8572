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


class PageBudget:
    """Pages each address may ask for (`per_address`: so many at once, then so many a second)
    and everyone together (`for_everyone`), for read-only pages anyone on the network may open
    (the phones' history, the league's page). The addresses are kept newest last, `kept` of
    them at most, so a device inventing addresses cannot fill the memory.

    An address that has asked nothing lately (its own bucket full) is served even while
    everyone's is spent: a flood from many addresses, each within its own budget, then slows
    the floods and not the guest who opens the page once. Each address still gets no more
    than its own budget, so the whole is at most `per_address` times the addresses."""

    def __init__(self, per_address: tuple[float, float], for_everyone: tuple[float, float],
                 now: float, kept: int = 256) -> None:  # fmt: skip
        self.per_address = per_address
        self.kept = kept
        self._everyone = Bucket(*for_everyone, now)
        self._addresses: dict[str, Bucket] = {}

    def allowed(self, address: str, now: float) -> bool:
        """One page for `address` at `now`, if the budgets allow it (and then it is taken)."""
        bucket = self._addresses.pop(address, None) or Bucket(*self.per_address, now)
        self._addresses[address] = bucket  # newest last: the oldest are forgotten first
        while len(self._addresses) > self.kept:
            del self._addresses[next(iter(self._addresses))]
        quiet = bucket.full(now)
        if not bucket.take(now):
            return False
        return self._everyone.take(now) or quiet
