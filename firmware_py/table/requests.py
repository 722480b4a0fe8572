"""Exactly once: which devices' requests the table has already applied.

A device (a pad, a phone) sends each decision with an id of its own and sends it again until it
hears the answer. The table writes the id into the journal line of the event it applied, so a
request repeated after a tower restart, or after a lost answer, is recognised from the journal
and answered with its outcome ("ok") instead of being applied a second time. A request that was
refused was never written: asked again, it is checked again, which cannot apply anything twice.

Ids look like `DEVICE/BOOT/SEQ`: the device's identity, a number it picks at each start, and
its own count of requests (16 bits, wrapping). A request older than the newest one applied for
the same device and boot, and not among the recent ones, is a replay of an old frame: it is
refused, never applied.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from firmware_py.table.decisions import STALE, Refusal
from firmware_py.words import in_digits

WINDOW = 64  # request ids kept per player: far more than a device has in flight
DEVICES = 64  # devices whose newest request number is kept (a table has at most ten)
PLAYERS = 16  # players whose ids are kept: this table's and the last ones' (memory is bounded)
SEQ_SPACE = 1 << 16


def request_id(device: str, boot: object, seq: int) -> str:
    """The id a device's request is journalled under."""
    return f"{device}/{boot}/{seq}"


def _split(request: str) -> tuple[str, int] | None:
    """(device/boot, seq) of an id, or None for an id without a number at its end."""
    stream, _, seq = request.rpartition("/")
    return (stream, int(seq)) if stream and in_digits(seq) else None


def _older(seq: int, newest: int) -> bool:
    """True when `seq` was sent before `newest` (16-bit numbers that wrap)."""
    return 0 < (newest - seq) % SEQ_SPACE < SEQ_SPACE // 2


@dataclass(frozen=True)
class Earlier:
    """The answer to a request seen before: ok again (`refusal` None: it was applied), or a
    refusal (a replay of an old frame). Nothing is applied either way."""

    refusal: Refusal | None = None


APPLIED = Earlier()
REPLAYED = Earlier(Refusal("an old request, answered long ago: nothing was changed", STALE))


class EarlierCheck(Protocol):
    """The exactly-once check (`AppliedRequests.earlier`), as the seats' doors ask it."""

    def __call__(self, request: str, *, tail_of_any_device: str = "") -> Earlier | None: ...


class AppliedRequests:
    """The recent request ids applied per player, and each device's newest request number."""

    def __init__(self) -> None:
        self._by_player: OrderedDict[str, deque[str]] = OrderedDict()
        self._newest: OrderedDict[str, int] = OrderedDict()

    def earlier(self, request: str, *, tail_of_any_device: str = "") -> Earlier | None:
        """The exactly-once check, the one on a decision's path: how a request seen before is
        answered (applied: ok again; an old replay: refused), None for a request to decide.
        `tail_of_any_device`: an id's end that, applied under any device, counts as applied
        (a phone's page that joined anew under another seat token sends its taps again)."""
        if self.applied(request):
            return APPLIED
        if tail_of_any_device and self.applied_under_any(tail_of_any_device):
            return APPLIED
        if self.stale(request):
            return REPLAYED
        return None

    def applied(self, request: str) -> bool:
        """True when the request with this id was applied (and must not be again)."""
        return any(request in ids for ids in self._by_player.values())

    def applied_under_any(self, tail: str) -> bool:
        """True when a request id ending in `/tail` was applied, whatever device sent it."""
        ending = "/" + tail
        return any(r.endswith(ending) for ids in self._by_player.values() for r in ids)

    def stale(self, request: str) -> bool:
        """True for a replay of an old request: older than the newest applied for its device
        and boot, and not one of those applied recently."""
        split = _split(request)
        if split is None or self.applied(request):
            return False
        stream, seq = split
        newest = self._newest.get(stream)
        return newest is not None and _older(seq, newest)

    def remember(self, player: str, request: str) -> None:
        """`player`'s request `request` was applied (it is in the journal now)."""
        ids = self._by_player.setdefault(player, deque(maxlen=WINDOW))
        ids.append(request)
        self._by_player.move_to_end(player)
        while len(self._by_player) > PLAYERS:
            self._by_player.popitem(last=False)
        split = _split(request)
        if split is not None:
            stream, seq = split
            newest = self._newest.get(stream)
            if newest is None or _older(newest, seq):
                self._newest[stream] = seq
            self._newest.move_to_end(stream)
            while len(self._newest) > DEVICES:
                self._newest.popitem(last=False)

    def remember_all(self, applied: Iterable[tuple[str, str]]) -> None:
        """(player, request id) pairs read back from the journal, oldest first."""
        for player, request in applied:
            self.remember(player, request)

    def of_players(self, names: Iterable[str]) -> list[tuple[str, str]]:
        """The (player, request id) pairs kept for these players, for a note on disk."""
        return [(name, request) for name in names for request in self._by_player.get(name, ())]
