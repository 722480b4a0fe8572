"""Choosing the GPIO backend by configuration: simulated pins are gpiozero's MockFactory."""

import importlib.util
from itertools import count
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from drivers import gpio
from drivers.button import RollButton
from drivers.errors import GpioUnavailableError, PinBackendError
from drivers.gpio import STATES_KEPT, make_pin_factory, simulated_pin_factory
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


def test_simulated_lights_lit_for_years_remember_only_their_recent_changes():
    """gpiozero's mock pins keep every change for tests; the simulated tower's forget the old
    ones, so years of games cannot fill the memory, and the lights still show the locks."""
    factory = make_pin_factory("simulated")
    with LockLights({"red": 5}, pin_factory=factory) as lights:
        for game in range(3 * STATES_KEPT):
            lights.show_locked({"red"} if game % 2 else set())
        lights.show_locked({"red"})
        pin = factory.pin(5)
        assert pin.state is True
        assert STATES_KEPT <= len(pin.states) <= 2 * STATES_KEPT
        assert [change.state for change in pin.states[-3:]] == [True, False, True]


def test_a_simulated_buzzer_pin_does_pwm_and_remembers_only_its_recent_changes():
    factory = simulated_pin_factory(pwm=True)
    pin = factory.pin(18)
    pin.function = "output"
    pin.frequency = 440
    for note in range(3 * STATES_KEPT):
        pin.state = 0.5 if note % 2 else 0.0
    pin.frequency = None  # silent
    assert pin.state == 0.0
    assert len(pin.states) <= 2 * STATES_KEPT
    assert [change.state for change in pin.states[-2:]] == [0.5, 0.0]


@pytest.fixture
def no_default_factory(monkeypatch):
    """gpiozero chooses its default factory afresh, and it is forgotten afterwards."""
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    saved = Device.pin_factory
    Device.pin_factory = None
    yield
    if Device.pin_factory is not None and Device.pin_factory is not saved:
        Device.pin_factory.close()
    Device.pin_factory = saved


def test_a_machine_without_a_gpio_chip_gets_one_sentence_with_the_fix(
    no_default_factory, monkeypatch, tmp_path, recwarn
):
    monkeypatch.setattr(gpio, "GPIO_CHIPS", str(tmp_path / "gpiochip*"))
    with pytest.raises(GpioUnavailableError) as caught:
        make_pin_factory("hardware")
    words = str(caught.value)
    assert words.startswith("no GPIO chip was found (nothing matches /dev/gpiochip*)")
    assert "remove [button] and [lights]" in words
    assert "\n" not in words
    assert not recwarn.list  # none of gpiozero's "Falling back from ..." warnings


def test_a_gpio_chip_this_user_may_not_open_names_the_gpio_group(
    no_default_factory, monkeypatch, tmp_path
):
    chip = tmp_path / "gpiochip0"
    chip.write_bytes(b"")
    monkeypatch.setattr(gpio, "GPIO_CHIPS", str(tmp_path / "gpiochip*"))
    monkeypatch.setattr(gpio.os, "access", lambda path, mode: False)  # root may open anything
    with pytest.raises(GpioUnavailableError, match=f"permission denied on {chip}.*gpio group"):
        make_pin_factory("hardware")


def test_a_chip_without_lgpio_says_to_install_debians_python3_lgpio(
    no_default_factory, monkeypatch, tmp_path, recwarn
):
    pytest.importorskip("gpiozero.pins.native")
    if importlib.util.find_spec("lgpio") is not None:
        pytest.skip("lgpio is installed here: its absence cannot be shown")
    (tmp_path / "gpiochip0").write_bytes(b"")
    monkeypatch.setattr(gpio, "GPIO_CHIPS", str(tmp_path / "gpiochip*"))
    with pytest.raises(GpioUnavailableError) as caught:
        make_pin_factory("hardware")
    words = str(caught.value)
    assert "lgpio is not installed" in words
    assert "sudo apt install python3-lgpio" in words
    assert "--system-site-packages" in words
    assert not recwarn.list


def test_the_gpio_sentences_send_a_maker_to_the_page_with_the_install_steps():
    """They once sent makers to README's "On a Raspberry Pi", which the README no longer has."""
    kiosk = Path(__file__).resolve().parents[2] / "docs" / "kiosk.md"
    steps = kiosk.read_text(encoding="utf-8")
    for words in (gpio.NO_LGPIO, gpio.NO_FACTORY):
        assert "(docs/kiosk.md)" in words
    assert "sudo apt install -y git python3-venv python3-lgpio" in steps
    assert "python3 -m venv --system-site-packages" in steps


def test_gpiozeros_own_override_is_obeyed(no_default_factory, monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    factory = make_pin_factory("hardware")
    assert isinstance(factory, MockFactory)
    with RollButton(17, pin_factory=factory) as button:
        assert not button.is_pressed


def test_an_unknown_backend_names_the_choices_and_the_sections_that_choose():
    with pytest.raises(PinBackendError, match=r"'wiringpi' is unknown.*simulated, hardware") as e:
        make_pin_factory("wiringpi")
    assert "[button] or [lights]" in str(e.value)
    assert "gpio.backend" not in str(e.value)
