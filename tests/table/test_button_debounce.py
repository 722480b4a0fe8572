"""`[button] debounce` reaches the roll button: contact bounce inside it is not a second press.

The button comes from the configuration the way the kiosk's does (`[button]` present: the
hardware pin factory, here gpiozero's MockFactory named by `GPIOZERO_PIN_FACTORY`), and the
table runs with a clock that moves only when the test says.
"""

from __future__ import annotations

import asyncio

import pytest
from gpiozero import Device
from support import HANG
from support.fakes import FakeClock

from firmware_py.app.assembly import build_table
from firmware_py.app.config import ConfigError, parse_config
from firmware_py.app.hardware import build_hardware
from firmware_py.journal.journal import Journal
from firmware_py.seating import KEYBOARD, SeatSpec
from firmware_py.table import TablePhase


@pytest.fixture
def mock_pins_as_hardware(monkeypatch):
    """gpiozero's own override: the "hardware" pin factory is its MockFactory."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    saved = Device.pin_factory
    Device.pin_factory = None
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.reset()
    Device.pin_factory = saved


async def until(condition, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the table never got there"
        await asyncio.sleep(0.005)


def phase_after_a_press_that_bounces(tmp_path, debounce: float) -> TablePhase:
    """Kim's table in attract; a 0.3 s press (starts a game) whose contact bounces 0.1 s after."""
    config = parse_config({"button": {"pin": 17, "debounce": debounce}})
    hardware = build_hardware(config, 6)
    clock = FakeClock()
    table = build_table(
        hardware,
        seats=[SeatSpec("Kim", KEYBOARD)],
        variant="classic",
        journal=Journal(tmp_path),
        pace=0.01,
        clock=clock,
    )
    pin = hardware.button_factory.pin(hardware.button_pin)

    async def play() -> TablePhase:
        task = asyncio.create_task(table.run())
        await until(lambda: table.button is not None and table.phase is TablePhase.ATTRACT)
        for level, after in ((False, 0.0), (True, 0.3), (False, 0.1), (True, 0.05)):
            clock.advance(after)
            pin.drive_high() if level else pin.drive_low()
        await until(lambda: table.phase is not TablePhase.ATTRACT)
        await asyncio.sleep(0.3)  # room for a second press to be taken in
        phase = table.phase
        table.stop()
        await task
        return phase

    try:
        return asyncio.run(asyncio.wait_for(play(), timeout=HANG))
    finally:
        hardware.close()


def test_a_bounce_inside_the_configured_debounce_is_not_a_second_press(
    mock_pins_as_hardware, tmp_path
):
    assert phase_after_a_press_that_bounces(tmp_path, debounce=0.2) is TablePhase.ROLL


def test_with_a_short_debounce_the_same_bounce_rolls_the_dice(mock_pins_as_hardware, tmp_path):
    """The control: the same contact with debounce = 0.03 is two presses, new game and roll."""
    assert phase_after_a_press_that_bounces(tmp_path, debounce=0.03) is not TablePhase.ROLL


def test_a_long_press_no_longer_than_the_debounce_is_refused_with_the_toml_keys():
    with pytest.raises(ConfigError, match=r"\[button\] long_press: must be longer than debounce"):
        parse_config({"button": {"pin": 17, "long_press": 0.4, "debounce": 0.5}})
