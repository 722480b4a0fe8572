"""Which gpiozero pin factory the button and lights use: chosen by configuration, not by code.

"simulated" is gpiozero's own `MockFactory` (pins that tests and the terminal UI drive by hand);
"hardware" is gpiozero's choice for this machine (lgpio on Raspberry Pi OS Bookworm and later,
or what `GPIOZERO_PIN_FACTORY` names), made here once, so that a machine without usable GPIO
gets one sentence saying what to check instead of gpiozero's fallback warnings and traceback.
Make one factory and hand the same one to every GPIO driver, so a simulated button and
simulated lights share one pretend header.
"""

from __future__ import annotations

import glob
import logging
import os
import warnings

from gpiozero import Device
from gpiozero.exc import BadPinFactory
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from drivers.errors import GpioUnavailableError, PinBackendError

log = logging.getLogger(__name__)

PIN_BACKENDS = ("simulated", "hardware")
STATES_KEPT = 100  # changes a simulated pin remembers: a kiosk without a buzzer runs for years
GPIO_CHIPS = "/dev/gpiochip*"  # the Linux GPIO character devices lgpio opens

NO_CHIP = (
    "no GPIO chip was found (nothing matches /dev/gpiochip*), so the roll button and lock lights "
    "cannot be driven: run the tower on the Raspberry Pi itself (not in a container or chroot "
    "without its /dev), or remove [button] and [lights] from the configuration to simulate them"
)
NO_PERMISSION = (
    "permission denied on {chip}, so the roll button and lock lights cannot be driven: add the "
    "user to the gpio group (sudo usermod -aG gpio USER, then log in again; the kiosk's unit "
    "has SupplementaryGroups=gpio)"
)
NO_LGPIO = (
    "the GPIO library lgpio is not installed for this Python ({reason}), so the roll button and "
    "lock lights cannot be driven: install it with  sudo apt install python3-lgpio  and make the "
    "venv with  python3 -m venv --system-site-packages  (docs/kiosk.md)"
)
NO_FACTORY = (
    "gpiozero cannot drive the GPIO chip ({reason}): check that {chip} belongs to this "
    "Raspberry Pi and that python3-lgpio is installed (docs/kiosk.md)"
)


def make_pin_factory(backend: str) -> Factory:
    """A pin factory for `backend`; raises `GpioUnavailableError` when the hardware has none."""
    if backend == "simulated":
        return simulated_pin_factory()
    if backend == "hardware":
        return hardware_pin_factory()
    raise PinBackendError(
        f"the GPIO backend {backend!r} is unknown; use one of {', '.join(PIN_BACKENDS)} (the "
        "configuration chooses real pins with a [button] or [lights] section)"
    )


class RecentStatesPin(MockPin):  # type: ignore[misc]  # gpiozero ships no types
    """gpiozero's mock pin, remembering only its last STATES_KEPT changes: a mock pin keeps
    every change in `states` for tests to check, which over years of simulated lights or a
    simulated buzzer (a kiosk configured without one) would fill the memory."""

    def _change_state(self, value: float) -> bool:
        changed: bool = super()._change_state(value)  # gpiozero ships no types
        if len(self.states) > 2 * STATES_KEPT:  # trimmed now and then, not at every change
            del self.states[:-STATES_KEPT]
        return changed


class RecentStatesPWMPin(RecentStatesPin, MockPWMPin):  # type: ignore[misc]  # as above
    """A PWM mock pin (a simulated buzzer's) that remembers only its recent changes."""


def simulated_pin_factory(*, pwm: bool = False) -> MockFactory:
    """gpiozero's MockFactory with pins that forget all but their recent changes (PWM-capable
    pins with `pwm`, for a buzzer)."""
    return MockFactory(pin_class=RecentStatesPWMPin if pwm else RecentStatesPin)


def hardware_pin_factory() -> Factory:
    """gpiozero's pin factory for this machine, or one sentence why there is none.

    `GPIOZERO_PIN_FACTORY` in the environment is gpiozero's own override and is obeyed as is.
    """
    if not os.environ.get("GPIOZERO_PIN_FACTORY"):
        _check_chips(sorted(glob.glob(GPIO_CHIPS)))
    with warnings.catch_warnings(record=True) as fallbacks:
        warnings.simplefilter("always")  # gpiozero warns of every factory it passes over
        try:
            Device.ensure_pin_factory()
        except (BadPinFactory, ImportError, OSError) as error:
            raise GpioUnavailableError(_why_no_factory(fallbacks, error)) from None
    for fallback in fallbacks:
        log.warning("GPIO: %s", fallback.message)
    assert Device.pin_factory is not None
    return Device.pin_factory


def _check_chips(chips: list[str]) -> None:
    """Refuse a machine with no GPIO chip, or none this user may open."""
    if not chips:
        raise GpioUnavailableError(NO_CHIP)
    if not any(os.access(chip, os.R_OK | os.W_OK) for chip in chips):
        raise GpioUnavailableError(NO_PERMISSION.format(chip=chips[0]))


def _why_no_factory(fallbacks: list[warnings.WarningMessage], error: BaseException) -> str:
    """The reason lgpio (gpiozero's first choice) failed, in the words of the fix."""
    reasons = [str(w.message) for w in fallbacks]
    lgpio = next((r for r in reasons if r.startswith("Falling back from lgpio:")), str(error))
    reason = lgpio.removeprefix("Falling back from lgpio:").strip()
    if "No module named 'lgpio'" in reason:
        return NO_LGPIO.format(reason=reason)
    chips = sorted(glob.glob(GPIO_CHIPS)) or ["/dev/gpiochip0"]
    return NO_FACTORY.format(reason=reason, chip=chips[0])
