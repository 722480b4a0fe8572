"""Shared fixtures: gpiozero's own mock pin factory, restored afterwards as gpiozero's tests do.
The shared builders are in tests/support (on the path: pyproject.toml's pythonpath); their
asserts are rewritten as a test's are, so a failing helper says what it saw."""

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

pytest.register_assert_rewrite("support")


@pytest.fixture
def mock_factory():
    """A fresh `MockFactory`, also made the default so no device can reach real pins."""
    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        # reset() clears reservations that gpiozero keeps at class level between factories.
        Device.pin_factory.reset()
        Device.pin_factory = saved
