"""The lock lights: one LED per colour, lit while that colour's row is locked.

The steady picture is simple: an LED is lit exactly when its colour is locked. Patterns (the
announcement of a new lock, the celebration at the end of a game) blink with gpiozero's
`LED.blink` in the background; when a pattern ends, a small settle thread puts its LEDs back to
the steady picture, unless something newer has been asked of them meanwhile.

The lights know colours only as the keys of their pin map: which colours exist and when a row is
locked are the rules engine's business.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Mapping

from gpiozero import LED
from gpiozero.pins import Factory

from drivers.errors import DriverClosedError, LightsConfigError, UnknownColourError


class LockLights:
    """One gpiozero `LED` per colour of `pins` (colour -> BCM pin), on `pin_factory`.

    `blink_on_time` and `blink_off_time` are in seconds; `announce_blinks` and
    `celebrate_blinks` count the flashes of each pattern.
    """

    def __init__(
        self,
        pins: Mapping[str, int | str],
        *,
        active_high: bool = True,
        blink_on_time: float = 0.15,
        blink_off_time: float = 0.15,
        announce_blinks: int = 3,
        celebrate_blinks: int = 8,
        pin_factory: Factory | None = None,
    ) -> None:
        _check_settings(pins, blink_on_time, blink_off_time, announce_blinks, celebrate_blinks)
        self.blink_on_time = blink_on_time
        self.blink_off_time = blink_off_time
        self.announce_blinks = announce_blinks
        self.celebrate_blinks = celebrate_blinks
        self._lock = threading.Lock()
        self._locked: set[str] = set()
        self._generation = dict.fromkeys(pins, 0)
        self._settlers: list[threading.Thread] = []
        self._closed = False
        self._leds: dict[str, LED] = {}
        try:
            for colour, pin in pins.items():
                self._leds[colour] = LED(pin, active_high=active_high, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise

    @property
    def colours(self) -> tuple[str, ...]:
        """The colours that have an LED, in pin-map order."""
        return tuple(self._leds)

    @property
    def locked(self) -> frozenset[str]:
        """The colours currently shown as locked (the steady picture)."""
        return frozenset(self._locked)

    @property
    def closed(self) -> bool:
        """True once close() has been called."""
        return self._closed

    def show_locked(self, colours: Iterable[str]) -> None:
        """Light exactly the LEDs of `colours`.

        LEDs whose colour keeps its state are left alone, so an announcement in progress
        finishes even when the caller pushes the whole picture again.
        """
        with self._lock:
            wanted = self._known(colours)
            for colour in self._leds:
                if (colour in wanted) != (colour in self._locked):
                    self._set_steady(colour, colour in wanted)
            self._locked = wanted

    def announce_lock(self, colour: str) -> None:
        """Flash `colour` `announce_blinks` times, then leave it lit: its row has just locked."""
        with self._lock:
            self._locked |= self._known([colour])
            self._blink([colour], self.announce_blinks)

    def celebrate(self) -> None:
        """Flash every LED `celebrate_blinks` times (game over), then show the locked ones."""
        with self._lock:
            self._check_open()
            self._blink(list(self._leds), self.celebrate_blinks)

    def all_off(self) -> None:
        """Turn every LED off and forget the locks: a new game."""
        with self._lock:
            self._check_open()
            self._locked = set()
            for colour in self._leds:
                self._set_steady(colour, False)

    def wait_until_steady(self, timeout: float | None = None) -> bool:
        """Wait for running patterns to settle; True if they all did within `timeout` seconds."""
        with self._lock:
            settlers = list(self._settlers)
        deadline = None if timeout is None else time.monotonic() + timeout
        for settler in settlers:
            settler.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return not any(settler.is_alive() for settler in settlers)

    def close(self) -> None:
        """Stop the patterns and release the pins; calling it again does nothing."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            settlers = list(self._settlers)
        for led in self._leds.values():
            led.close()  # stops its blink thread, which releases the settler waiting on it
        for settler in settlers:
            settler.join()

    def __enter__(self) -> LockLights:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"locked={sorted(self._locked)}"
        return f"<LockLights {', '.join(self._leds)} {state}>"

    def _known(self, colours: Iterable[str]) -> set[str]:
        self._check_open()
        wanted = set(colours)
        unknown = wanted - self._leds.keys()
        if unknown:
            raise UnknownColourError(
                f"no lock light for {', '.join(sorted(unknown))}; "
                f"the wired colours are {', '.join(self._leds)}"
            )
        return wanted

    def _check_open(self) -> None:
        if self._closed:
            raise DriverClosedError("the lock lights are closed")

    def _set_steady(self, colour: str, lit: bool) -> None:
        self._generation[colour] += 1  # any pattern still running on it must not settle it
        led = self._leds[colour]
        if lit:
            led.on()
        else:
            led.off()

    def _blink(self, colours: list[str], blinks: int) -> None:
        blinking = {}
        for colour in colours:
            self._generation[colour] += 1
            led = self._leds[colour]
            led.blink(self.blink_on_time, self.blink_off_time, n=blinks, background=True)
            # gpiozero keeps no public handle on its blink thread; the settler waits on it.
            blinking[colour] = (self._generation[colour], led._blink_thread)
        settler = threading.Thread(target=self._settle, args=(blinking,), daemon=True)
        self._settlers = [t for t in self._settlers if t.is_alive()] + [settler]
        settler.start()

    def _settle(self, blinking: dict[str, tuple[int, threading.Thread]]) -> None:
        """Once the blinks have run, put each LED nobody has touched since back to steady."""
        for _generation, blink_thread in blinking.values():
            blink_thread.join()
        with self._lock:
            if self._closed:
                return
            for colour, (generation, _thread) in blinking.items():
                if self._generation[colour] == generation:
                    self._set_steady(colour, colour in self._locked)


def _check_settings(
    pins: Mapping[str, int | str],
    on_time: float,
    off_time: float,
    announce_blinks: int,
    celebrate_blinks: int,
) -> None:
    if not pins:
        raise LightsConfigError(
            "[lights] names no LED; map each colour to its GPIO pin, e.g. red = 5"
        )
    if on_time <= 0 or off_time <= 0:
        raise LightsConfigError(
            f"the lock lights' blink_on_time = {on_time} and blink_off_time = {off_time} "
            "must both be positive; use e.g. 0.15 (seconds)"
        )
    if announce_blinks < 1 or celebrate_blinks < 1:
        raise LightsConfigError(
            f"the lock lights' announce_blinks = {announce_blinks} and celebrate_blinks = "
            f"{celebrate_blinks} must both be at least 1"
        )
