"""Choosing the GPIO backend by configuration: simulated pins are gpiozero's MockFactory."""

from itertools import count

import pytest
from gpiozero.pins.mock import MockFactory

from drivers.button import RollButton
from drivers.errors import PinBackendError
from drivers.gpio import make_pin_factory
from drivers.lights import LockLights


def test_simulated_button_and_lights_share_one_pretend_header():
    factory = make_pin_factory("simulated")
    assert isinstance(factory, MockFactory)
    presses = []
    with (
        RollButton(
            17,
            on_press=lambda: presses.append(1),
            clock=count().__next__,  # each edge a second after the last
            pin_factory=factory,
        ),
        LockLights({"red": 5}, pin_factory=factory) as lights,
    ):
        factory.pin(17).drive_low()
        factory.pin(17).drive_high()
        lights.show_locked({"red"})
        assert presses == [1]
        assert factory.pin(5).state is True


def test_hardware_leaves_the_choice_to_gpiozero():
    assert make_pin_factory("hardware") is None


def test_an_unknown_backend_names_the_setting_and_the_choices():
    with pytest.raises(PinBackendError, match=r"gpio\.backend = 'wiringpi'.*simulated, hardware"):
        make_pin_factory("wiringpi")
