"""The roll button: a momentary push button from a GPIO pin to ground, on the internal pull-up.

A short press calls `on_press` (roll, next); holding it past `long_press_time` calls
`on_long_press` (menu) once, while it is still held. A short press is recognised on release,
because only then is it known not to be the start of a long press.

Debouncing happens here, against an injectable clock, rather than through gpiozero's
`bounce_time`: gpiozero's mock pins ignore `bounce_time`, and the tests must exercise the same
filter as the table does. An edge closer than `debounce_time` to the previous accepted edge is
contact bounce and is ignored.

Threads: gpiozero calls back from its own threads (edges, and its hold thread, which wakes us
when a hold may have become long), so the callbacks run on those threads. The table service
passes callbacks that only hand the event to its asyncio loop, e.g.
``on_press=lambda: loop.call_soon_threadsafe(events.put_nowait, "roll")``, and does nothing
else in them.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable

from gpiozero import Button
from gpiozero.pins import Factory

from drivers.errors import ButtonConfigError

logger = logging.getLogger(__name__)

Callback = Callable[[], object]


class RollButton:
    """The roll button on `pin` (a BCM number such as 17, or a name such as "GPIO17").

    `clock` returns seconds (default `time.monotonic`); tests pass a fake one. `pin_factory` is a
    gpiozero pin factory: gpiozero's `MockFactory` for simulation, None for the real header.
    """

    def __init__(
        self,
        pin: int | str,
        *,
        on_press: Callback | None = None,
        on_long_press: Callback | None = None,
        debounce_time: float = 0.03,
        long_press_time: float = 1.5,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: Factory | None = None,
    ) -> None:
        _check_timings(debounce_time, long_press_time)
        self.on_press = on_press
        self.on_long_press = on_long_press
        self._debounce_time = debounce_time
        self._long_press_time = long_press_time
        self._clock = clock
        self._lock = threading.Lock()
        self._last_edge_at = -math.inf
        self._pressed_at: float | None = None
        self._long_press_fired = False
        self._closed = False
        self._button = Button(pin, pull_up=True, hold_time=long_press_time, pin_factory=pin_factory)
        self._button.when_pressed = self._press_edge
        self._button.when_released = self._release_edge
        self._button.when_held = self.poll  # gpiozero's hold thread wakes us; our clock decides

    @property
    def is_pressed(self) -> bool:
        """The contact right now, without debouncing (for checks such as `doctor`)."""
        pressed: bool = self._button.is_pressed  # gpiozero ships no types
        return pressed

    @property
    def debounce_time(self) -> float:
        """Seconds after an accepted edge during which further edges are bounce."""
        return self._debounce_time

    @property
    def long_press_time(self) -> float:
        """Seconds a hold must last to be a long press (also gpiozero's `hold_time`)."""
        return self._long_press_time

    @property
    def closed(self) -> bool:
        """True once close() has been called."""
        return self._closed

    def poll(self) -> None:
        """Call `on_long_press` now if the button has been held past `long_press_time`.

        gpiozero's hold thread calls this when a hold could have become long; calling it more
        often (or from a test, after moving the clock on) is harmless: it fires at most once per
        press.
        """
        with self._lock:
            callback = self._hold_callback()
        _call(callback)

    def close(self) -> None:
        """Release the pin; calling it again does nothing."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._pressed_at = None
        self._button.close()

    def __enter__(self) -> RollButton:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"pin={self._button.pin}"
        return f"<RollButton {state}>"

    def _press_edge(self) -> None:
        with self._lock:
            if self._closed or not self._accept_edge():
                return
            self._pressed_at = self._last_edge_at
            self._long_press_fired = False

    def _release_edge(self) -> None:
        with self._lock:
            if self._closed or not self._accept_edge() or self._pressed_at is None:
                return
            callback = self._release_callback(self._pressed_at)
        _call(callback)

    def _accept_edge(self) -> bool:
        """False for bounce: an edge too soon after the last accepted one."""
        now = self._clock()
        if now - self._last_edge_at < self.debounce_time:
            return False
        self._last_edge_at = now
        return True

    def _release_callback(self, pressed_at: float) -> Callback | None:
        held_for = self._last_edge_at - pressed_at
        already_fired = self._long_press_fired
        self._pressed_at = None
        if already_fired:
            return None
        return self.on_long_press if held_for >= self.long_press_time else self.on_press

    def _hold_callback(self) -> Callback | None:
        if self._closed or self._pressed_at is None or self._long_press_fired:
            return None
        if not self._button.is_pressed:
            # The release was swallowed as bounce: that was a glitch, not a press.
            self._pressed_at = None
            return None
        if self._clock() - self._pressed_at < self.long_press_time:
            return None
        self._long_press_fired = True
        return self.on_long_press


def _check_timings(debounce_time: float, long_press_time: float) -> None:
    if debounce_time < 0:
        raise ButtonConfigError(
            f"[button] debounce = {debounce_time} is negative; use e.g. debounce = 0.03 (seconds)"
        )
    if long_press_time <= debounce_time:
        raise ButtonConfigError(
            f"[button] long_press = {long_press_time} must be longer than [button] debounce = "
            f"{debounce_time}; use e.g. long_press = 1.5 (seconds)"
        )


def _call(callback: Callback | None) -> None:
    """Run a user callback; log its failure rather than kill gpiozero's event thread."""
    if callback is None:
        return
    try:
        callback()
    except Exception:
        logger.exception("roll button callback %r failed", callback)
