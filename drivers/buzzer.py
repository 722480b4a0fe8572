"""A piezo buzzer on one GPIO pin: short named tunes, played in the background.

gpiozero's `TonalBuzzer` drives the pin with PWM at each note's frequency, which a passive piezo
sounds. A tune is a few `(note, seconds)` pairs (a note name such as "C6", or None for a rest).
`play` hands the tune to a worker thread and returns at once, so the asyncio loop that calls it
never waits for a sound. The buzzer knows tunes by name only: which event earns which tune is
the table's business (`firmware_py/sound.py`).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Mapping

from gpiozero import TonalBuzzer
from gpiozero.pins import Factory
from gpiozero.tones import Tone

from drivers.errors import BuzzerConfigError, UnknownTuneError
from drivers.worker import Worker

Note = tuple[str | None, float]  # a note name ("C6") or None for a rest, and its seconds
Tune = tuple[Note, ...]

ROLL, LOCK, PENALTY, GAME_OVER, TEST = "roll", "lock", "penalty", "game over", "test"

# Distinct by ear: a tick, a falling pair, a ding-ding-DING, a rising fanfare, a plain beep.
TUNES: dict[str, Tune] = {
    ROLL: (("E6", 0.06),),
    PENALTY: (("E5", 0.18), (None, 0.05), ("C5", 0.35)),
    LOCK: (("G6", 0.1), (None, 0.05), ("G6", 0.1), (None, 0.05), ("C7", 0.3)),
    GAME_OVER: (("C6", 0.12), ("E6", 0.12), ("G6", 0.12), ("C7", 0.45)),
    TEST: (("A5", 0.3),),
}

# Piezo discs are loudest from about 2 to 4 kHz; A5 +/- two octaves reaches A3 to A7 (3520 Hz).
MID_TONE = "A5"
OCTAVES = 2
HISTORY_KEPT = 1000


class Buzzer:
    """A `TonalBuzzer` on `pin` (BCM) of `pin_factory` that plays the named `tunes`.

    `speed` divides every duration (tests play tunes quickly); a note outside the buzzer's
    range (`mid_tone` +/- `octaves`) is refused when the buzzer is made, not when it plays.
    """

    def __init__(
        self,
        pin: int | str,
        *,
        tunes: Mapping[str, Tune] = TUNES,
        mid_tone: str = MID_TONE,
        octaves: int = OCTAVES,
        speed: float = 1.0,
        pin_factory: Factory | None = None,
    ) -> None:
        self._tunes = _checked_tunes(tunes, mid_tone, octaves, speed)
        self.speed = speed
        self.history: deque[str] = deque(maxlen=HISTORY_KEPT)  # tunes asked for, newest last
        self._closing = threading.Event()
        self._worker = Worker("buzzer")
        self._buzzer = TonalBuzzer(
            pin, mid_tone=Tone(mid_tone), octaves=octaves, pin_factory=pin_factory
        )
        self.pin = pin

    @property
    def tunes(self) -> tuple[str, ...]:
        """The names of the tunes this buzzer knows."""
        return tuple(self._tunes)

    def play(self, name: str, *, replaceable: bool = False) -> None:
        """Play the tune `name` after those already asked for; returns at once. A replaceable
        tune still waiting is skipped when another is asked for."""
        try:
            tune = self._tunes[name]
        except KeyError:
            known = ", ".join(self._tunes)
            raise UnknownTuneError(f"no tune {name!r}; the buzzer knows {known}") from None
        self.history.append(name)
        self._worker.submit(lambda: self._sound(tune), replaceable=replaceable)

    def wait_until_quiet(self, timeout: float | None = None) -> bool:
        """Wait for every tune asked for to finish; True if they did within `timeout` s."""
        return self._worker.wait_until_idle(timeout)

    def close(self) -> None:
        """Cut the tune short, forget the waiting ones and release the pin; idempotent."""
        self._closing.set()
        self._worker.close()
        self._buzzer.close()

    def __enter__(self) -> Buzzer:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Buzzer on GPIO{self.pin}: {', '.join(self._tunes)}>"

    def _sound(self, tune: Tune) -> None:
        """On the worker thread: each note for its time, then silence."""
        try:
            for note, seconds in tune:
                if note is None:
                    self._buzzer.stop()
                else:
                    self._buzzer.play(Tone(note))
                if self._closing.wait(seconds / self.speed):
                    break
        finally:
            if not self._closing.is_set():
                self._buzzer.stop()


def _checked_tunes(
    tunes: Mapping[str, Tune], mid_tone: str, octaves: int, speed: float
) -> dict[str, Tune]:
    """The tunes, once every note is known to be playable in the buzzer's range."""
    if speed <= 0:
        raise BuzzerConfigError(f"buzzer speed = {speed} must be positive (1 plays as written)")
    try:
        middle = Tone(mid_tone)
    except ValueError as error:
        raise BuzzerConfigError(f"buzzer mid_tone {mid_tone!r}: {error}") from None
    low, high = middle.down(12 * octaves).frequency, middle.up(12 * octaves).frequency
    for name, tune in tunes.items():
        if not tune:
            raise BuzzerConfigError(f"tune {name!r} has no notes")
        for note, seconds in tune:
            if seconds <= 0:
                raise BuzzerConfigError(f"tune {name!r}: {note} lasts {seconds} s; give > 0")
            if note is None:
                continue
            try:
                frequency = Tone(note).frequency
            except ValueError as error:
                raise BuzzerConfigError(f"tune {name!r}: {note!r} is not a note: {error}") from None
            if not low <= frequency <= high:
                raise BuzzerConfigError(
                    f"tune {name!r}: {note} is outside the buzzer's range "
                    f"{middle.down(12 * octaves).note} to {middle.up(12 * octaves).note}"
                )
    return dict(tunes)
