"""The roll button as a player meets it: press to roll, hold for the menu, bounce ignored."""

import logging
import threading

import pytest
from support import HANG
from support.fakes import FakeClock

from drivers.button import RollButton
from drivers.errors import ButtonConfigError

PIN = 17


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def events():
    return []


@pytest.fixture
def button(mock_factory, clock, events):
    with RollButton(
        PIN,
        on_press=lambda: events.append("press"),
        on_long_press=lambda: events.append("long"),
        clock=clock,
        pin_factory=mock_factory,
    ) as rolled:
        yield rolled


@pytest.fixture
def pin(mock_factory, button):
    return mock_factory.pin(PIN)


def tap(pin, clock, held=0.2, rest=0.5):
    """A clean press: down, held for `held` seconds, up, then a rest."""
    pin.drive_low()
    clock.advance(held)
    pin.drive_high()
    clock.advance(rest)


def test_idle_button_reads_high_on_the_internal_pull_up(pin, events):
    assert pin.pull == "up"
    assert pin.state is True
    assert events == []


def test_short_press_rolls_once_on_release(pin, clock, events):
    pin.drive_low()
    clock.advance(0.15)
    assert events == []  # still held: it could yet become a long press
    pin.drive_high()
    assert events == ["press"]


def test_two_presses_roll_twice(pin, clock, events):
    tap(pin, clock)
    tap(pin, clock)
    assert events == ["press", "press"]


def test_contact_bounce_on_press_is_one_press(pin, clock, events):
    for _ in range(3):
        pin.drive_low()
        clock.advance(0.004)
        pin.drive_high()
        clock.advance(0.004)
    pin.drive_low()
    clock.advance(0.2)
    pin.drive_high()
    assert events == ["press"]


def test_contact_bounce_on_release_is_not_a_second_press(pin, clock, events):
    pin.drive_low()
    clock.advance(0.2)
    pin.drive_high()
    for _ in range(3):
        clock.advance(0.005)
        pin.drive_low()
        clock.advance(0.005)
        pin.drive_high()
    clock.advance(1.0)
    assert events == ["press"]


def test_presses_just_past_the_debounce_interval_all_count(pin, clock, events):
    for _ in range(4):
        tap(pin, clock, held=0.031, rest=0.031)
    assert events == ["press"] * 4


def test_hold_past_the_long_press_time_opens_the_menu_while_still_held(button, pin, clock, events):
    pin.drive_low()
    clock.advance(1.6)
    button.poll()
    assert events == ["long"]
    clock.advance(3.0)
    button.poll()
    pin.drive_high()
    assert events == ["long"]  # once per hold, and the release is not a roll


def test_hold_shorter_than_the_long_press_time_is_not_the_menu(button, pin, clock, events):
    pin.drive_low()
    clock.advance(1.4)
    button.poll()
    assert events == []
    pin.drive_high()
    assert events == ["press"]


def test_long_hold_released_before_any_poll_is_still_the_menu(pin, clock, events):
    tap(pin, clock, held=2.0)
    assert events == ["long"]


def test_a_real_hold_fires_the_long_press_without_polling(mock_factory):
    held = threading.Event()
    with RollButton(
        PIN, on_long_press=held.set, long_press_time=0.05, pin_factory=mock_factory
    ) as button:
        mock_factory.pin(PIN).drive_low()
        assert held.wait(timeout=HANG)
        assert button.closed is False


def test_a_release_lost_in_the_bounce_is_not_a_long_press(button, pin, clock, events):
    pin.drive_low()
    clock.advance(0.005)
    pin.drive_high()  # ignored as bounce: the driver still believes the button is down
    clock.advance(2.0)
    button.poll()
    assert events == []
    tap(pin, clock)
    assert events == ["press"]


def test_button_held_at_power_on_does_nothing_when_let_go(mock_factory, clock, events):
    mock_factory.pin(PIN).drive_low()
    with RollButton(
        PIN, on_press=lambda: events.append("press"), clock=clock, pin_factory=mock_factory
    ):
        clock.advance(0.5)
        mock_factory.pin(PIN).drive_high()
    assert events == []


def test_a_failing_callback_is_logged_and_the_button_keeps_working(mock_factory, clock, caplog):
    presses = []

    def roll():
        presses.append("press")
        if len(presses) == 1:
            raise RuntimeError("event loop is closed")

    pin = mock_factory.pin(PIN)
    with RollButton(PIN, on_press=roll, clock=clock, pin_factory=mock_factory):
        with caplog.at_level(logging.ERROR, logger="drivers.button"):
            tap(pin, clock)
        tap(pin, clock)
    assert presses == ["press", "press"]
    assert "event loop is closed" in caplog.text


def test_close_twice_is_harmless_and_frees_the_pin(mock_factory, clock, events):
    button = RollButton(PIN, on_press=lambda: events.append("old"), pin_factory=mock_factory)
    button.close()
    button.close()
    assert button.closed
    with RollButton(
        PIN, on_press=lambda: events.append("new"), clock=clock, pin_factory=mock_factory
    ):
        tap(mock_factory.pin(PIN), clock)
    assert events == ["new"]


@pytest.mark.parametrize(("debounce", "long_press"), [(-0.01, 1.5), (0.03, 0.03), (0.5, 0.1)])
def test_impossible_timings_are_refused_with_the_setting_named(debounce, long_press):
    with pytest.raises(ButtonConfigError, match=r"\[button\] (debounce|long_press) = ") as caught:
        RollButton(PIN, debounce_time=debounce, long_press_time=long_press)
    assert isinstance(caught.value, ValueError)
    assert "_time" not in str(caught.value)  # the configuration's keys, not the arguments
