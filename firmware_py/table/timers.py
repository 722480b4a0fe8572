"""Timers that belong to the table's phase: started in it, cancelled when it ends.

A phase keeps its timers by key, so asking again for a timer already running (the table asks
after every change) starts no second one; a timer that fired stays done until the phase ends.
Nothing outside the phase can cancel them: a roll's animation survives any change shown while
it runs, and a computer player's decision never outlives the action it was for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from typing import Any, Protocol


class Schedule(Protocol):
    """What a part may ask of the phase's timers: one call later, once per key; or the
    phase's plans ended (a storage fault: nothing planned goes on unsaved)."""

    def once(
        self, key: Hashable, delay: float, callback: Callable[..., Any], *args: Any
    ) -> None: ...
    def end_phase(self) -> None: ...
    def now(self) -> float: ...


class PhaseTimers:
    """The current phase's timers on one asyncio loop."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timers: dict[Hashable, asyncio.TimerHandle] = {}

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def once(self, key: Hashable, delay: float, callback: Callable[..., Any], *args: Any) -> None:
        """Call `callback(*args)` after `delay` seconds, unless this phase has a timer of the
        same key (running or fired) or the table is not running yet."""
        if self._loop is None or key in self._timers:
            return
        self._timers[key] = self._loop.call_later(delay, callback, *args)

    def now(self) -> float:
        """The timers' clock (the loop's), in seconds; 0 before the table runs."""
        return self._loop.time() if self._loop is not None else 0.0

    def end_phase(self) -> None:
        """The phase is over: its timers that have not fired never will."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
