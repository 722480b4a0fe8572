"""Which gpiozero pin factory the button and lights use: chosen by configuration, not by code.

"simulated" is gpiozero's own `MockFactory` (pins that tests and the terminal UI drive by hand);
"hardware" leaves the choice to gpiozero (lgpio, RPi.GPIO, ... or `GPIOZERO_PIN_FACTORY`).
Make one factory and hand the same one to every GPIO driver, so a simulated button and
simulated lights share one pretend header.
"""

from __future__ import annotations

from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

from drivers.errors import PinBackendError

PIN_BACKENDS = ("simulated", "hardware")


def make_pin_factory(backend: str) -> Factory | None:
    """A pin factory for `backend`; None means gpiozero's default for this machine."""
    if backend == "simulated":
        return MockFactory()
    if backend == "hardware":
        return None
    raise PinBackendError(
        f"gpio.backend = {backend!r} is not a GPIO backend; use one of {', '.join(PIN_BACKENDS)}"
    )
