"""The lock lights as players see them: one LED per locked row, flashes, and a clean slate."""

from itertools import pairwise

import pytest
from gpiozero.exc import GPIOPinInUse
from support import HANG

from drivers.errors import DriverClosedError, LightsConfigError, UnknownColourError
from drivers.lights import LockLights

PINS = {"red": 5, "yellow": 6, "green": 13, "blue": 19}
BLINKS = 2
SETTLE_TIMEOUT = HANG  # only a hang takes longer


@pytest.fixture
def lights(mock_factory):
    with LockLights(
        PINS,
        blink_on_time=0.001,
        blink_off_time=0.001,
        announce_blinks=BLINKS,
        celebrate_blinks=BLINKS,
        pin_factory=mock_factory,
    ) as made:
        yield made


def lit(factory):
    """The colours whose pin is driven high."""
    return {colour for colour, pin in PINS.items() if factory.pin(pin).state}


def history(factory, colour):
    """Every state the colour's pin has been in, oldest first."""
    return [change.state for change in factory.pin(PINS[colour]).states]


def flashes(factory, colour):
    """How many times the colour's LED came on."""
    states = history(factory, colour)
    return sum(1 for before, after in pairwise(states) if after and not before)


def test_all_lights_start_off(lights, mock_factory):
    assert lit(mock_factory) == set()


def test_show_locked_lights_exactly_the_locked_rows(lights, mock_factory):
    lights.show_locked({"red", "blue"})
    assert lit(mock_factory) == {"red", "blue"}
    lights.show_locked(["red"])
    assert lit(mock_factory) == {"red"}
    assert lights.locked == {"red"}


def test_unknown_colour_is_refused_and_changes_nothing(lights, mock_factory):
    lights.show_locked({"red"})
    with pytest.raises(UnknownColourError, match=r"purple.*red, yellow, green, blue"):
        lights.show_locked({"green", "purple"})
    assert lit(mock_factory) == {"red"}


def test_announced_lock_flashes_then_stays_lit(lights, mock_factory):
    lights.announce_lock("green")
    assert lights.wait_until_steady(SETTLE_TIMEOUT)
    assert history(mock_factory, "green") == [False] + [True, False] * BLINKS + [True]
    assert lit(mock_factory) == {"green"}


def test_two_rows_locked_in_one_turn_both_stay_lit(lights, mock_factory):
    lights.announce_lock("red")
    lights.announce_lock("yellow")
    assert lights.wait_until_steady(SETTLE_TIMEOUT)
    assert lit(mock_factory) == {"red", "yellow"}


def test_pushing_the_same_picture_does_not_cut_an_announcement_short(lights, mock_factory):
    lights.announce_lock("green")
    lights.show_locked({"green"})
    assert lights.wait_until_steady(SETTLE_TIMEOUT)
    assert flashes(mock_factory, "green") == BLINKS + 1
    assert lit(mock_factory) == {"green"}


def test_new_game_during_an_announcement_leaves_everything_off(lights, mock_factory):
    lights.announce_lock("blue")
    lights.all_off()
    assert lights.wait_until_steady(SETTLE_TIMEOUT)
    assert lit(mock_factory) == set()
    assert lights.locked == set()


def test_celebration_flashes_every_light_then_shows_the_locked_rows(lights, mock_factory):
    lights.show_locked({"red"})
    for pin in PINS.values():
        mock_factory.pin(pin).clear_states()
    lights.celebrate()
    assert lights.wait_until_steady(SETTLE_TIMEOUT)
    assert {colour: flashes(mock_factory, colour) for colour in PINS} == dict.fromkeys(PINS, BLINKS)
    assert lit(mock_factory) == {"red"}


def test_active_low_wiring_pulls_the_pin_low_to_light(mock_factory):
    with LockLights(PINS, active_high=False, pin_factory=mock_factory) as lights:
        lights.show_locked({"red"})
        assert lit(mock_factory) == {"yellow", "green", "blue"}


def test_close_twice_is_harmless_and_later_use_is_refused(lights, mock_factory):
    lights.close()
    lights.close()
    with pytest.raises(DriverClosedError):
        lights.show_locked({"red"})
    with LockLights(PINS, pin_factory=mock_factory) as again:
        again.show_locked({"red"})
        assert lit(mock_factory) == {"red"}


def test_new_game_stops_a_long_celebration_at_once(mock_factory):
    with LockLights(PINS, blink_on_time=60, blink_off_time=60, pin_factory=mock_factory) as lights:
        lights.show_locked({"green"})
        lights.celebrate()
        lights.all_off()
        assert lit(mock_factory) == set()
        assert lights.wait_until_steady(SETTLE_TIMEOUT)
        assert lit(mock_factory) == set()


def test_two_colours_on_one_pin_fail_and_free_the_pins_already_taken(mock_factory):
    with pytest.raises(GPIOPinInUse):
        LockLights({"red": 5, "blue": 5}, pin_factory=mock_factory)
    with LockLights({"red": 5}, pin_factory=mock_factory) as lights:
        lights.show_locked({"red"})


@pytest.mark.parametrize(
    "settings",
    [
        {"pins": {}},
        {"pins": PINS, "blink_on_time": 0},
        {"pins": PINS, "announce_blinks": 0},
    ],
)
def test_impossible_settings_are_refused_with_the_setting_named(settings):
    with pytest.raises(LightsConfigError, match=r"\[lights\]|lock lights'") as caught:
        LockLights(**settings)
    assert "lights." not in str(caught.value)  # no key the configuration does not have
