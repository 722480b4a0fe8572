"""The piezo buzzer as players hear it: one distinct tune per sign, played in the background.

gpiozero's MockPWMPin keeps the duty cycle in its state history but not the frequency, so the
pins here are MockPWMPins that also note every frequency they are given: the notes heard, with
None for silence.
"""

import threading

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.tones import Tone
from support import HANG

from drivers.buzzer import GAME_OVER, LOCK, PENALTY, ROLL, TEST, TUNES, Buzzer
from drivers.errors import BuzzerConfigError, DriverClosedError, UnknownTuneError
from drivers.worker import WAITING_KEPT, Worker

PIN = 12
QUICK = 200.0  # tunes played this many times faster than written
WAIT = HANG  # seconds a tune may take at most: only a hang takes longer


class FrequencyPin(MockPWMPin):
    """A mock PWM pin that notes every frequency set on it (None: silent)."""

    def __init__(self, factory, info):
        self.frequencies = []
        super().__init__(factory, info)

    def _set_frequency(self, value):
        super()._set_frequency(value)
        self.frequencies.append(value)


@pytest.fixture
def factory():
    saved = Device.pin_factory
    Device.pin_factory = MockFactory(pin_class=FrequencyPin)
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved


@pytest.fixture
def buzzer(factory):
    with Buzzer(PIN, speed=QUICK, pin_factory=factory) as made:
        factory.pin(PIN).frequencies.clear()  # opening the pin sets and clears a frequency
        yield made


def heard(factory, buzzer, name):
    """The frequencies the pin goes through while `name` plays, ending silent."""
    pin = factory.pin(PIN)
    pin.frequencies.clear()
    buzzer.play(name)
    assert buzzer.wait_until_quiet(WAIT)
    return list(pin.frequencies)


def hz(*notes):
    return [None if note is None else Tone(note).frequency for note in notes]


def test_a_roll_is_one_short_tick(factory, buzzer):
    assert heard(factory, buzzer, ROLL) == hz("E6", None)


def test_a_lock_rings_twice_then_higher(factory, buzzer):
    assert heard(factory, buzzer, LOCK) == hz("G6", None, "G6", None, "C7", None)


def test_a_penalty_falls(factory, buzzer):
    assert heard(factory, buzzer, PENALTY) == hz("E5", None, "C5", None)


def test_game_over_is_a_rising_fanfare(factory, buzzer):
    assert heard(factory, buzzer, GAME_OVER) == hz("C6", "E6", "G6", "C7", None)


def test_every_sign_sounds_different(factory, buzzer):
    signs = [ROLL, LOCK, PENALTY, GAME_OVER, TEST]
    sounds = {tuple(heard(factory, buzzer, name)) for name in signs}
    assert len(sounds) == len(signs)


def test_the_pin_is_driven_at_half_duty_while_a_note_sounds(factory, buzzer):
    pin = factory.pin(PIN)
    pin.clear_states()
    buzzer.play(ROLL)
    assert buzzer.wait_until_quiet(WAIT)
    assert [state.state for state in pin.states][-2:] == [0.5, 0.0]


def test_play_returns_before_the_tune_is_over(factory):
    with Buzzer(PIN, pin_factory=factory) as slow:  # written speed: the fanfare lasts 0.8 s
        slow.play(GAME_OVER)
        assert not slow.wait_until_quiet(timeout=0)
        assert slow.wait_until_quiet(WAIT)


def test_tunes_play_one_after_another_in_order(factory, buzzer):
    pin = factory.pin(PIN)
    pin.frequencies.clear()
    buzzer.play(PENALTY)
    buzzer.play(LOCK)
    assert buzzer.wait_until_quiet(WAIT)
    assert pin.frequencies == hz("E5", None, "C5", None, "G6", None, "G6", None, "C7", None)


def test_a_waiting_roll_gives_way_to_the_next_sign(factory):
    with Buzzer(PIN, pin_factory=factory) as buzzer:  # written speed: the fanfare lasts 0.8 s
        pin = factory.pin(PIN)
        pin.frequencies.clear()
        buzzer.play(GAME_OVER)
        buzzer.play(ROLL, replaceable=True)  # still waiting when the penalty comes
        buzzer.play(PENALTY)
        assert buzzer.wait_until_quiet(WAIT)
        assert pin.frequencies == hz("C6", "E6", "G6", "C7", None, "E5", None, "C5", None)
        assert list(buzzer.history) == [GAME_OVER, ROLL, PENALTY]  # asked for, heard or not


def test_an_unknown_tune_is_refused_by_name(buzzer):
    with pytest.raises(UnknownTuneError, match=r"no tune 'fanfare'.*roll, penalty, lock"):
        buzzer.play("fanfare")


def test_a_note_out_of_range_is_refused_when_made(factory):
    with pytest.raises(BuzzerConfigError, match=r"'high'.*C8 is outside.*A3 to A7"):
        Buzzer(PIN, tunes={"high": (("C8", 0.1),)}, pin_factory=factory)
    with pytest.raises(BuzzerConfigError, match=r"'odd'.*'H9' is not a note"):
        Buzzer(PIN, tunes={"odd": (("H9", 0.1),)}, pin_factory=factory)
    with pytest.raises(BuzzerConfigError, match=r"lasts 0 s"):
        Buzzer(PIN, tunes={"none": (("A5", 0),)}, pin_factory=factory)


def test_close_silences_the_pin_and_refuses_more_tunes(factory):
    buzzer = Buzzer(PIN, pin_factory=factory)
    buzzer.play(GAME_OVER)
    buzzer.close()
    assert factory.pin(PIN).frequency is None
    with pytest.raises(DriverClosedError):
        buzzer.play(ROLL)
    buzzer.close()  # a second close does nothing


def test_every_tune_fits_the_buzzer(factory):
    with Buzzer(PIN, pin_factory=factory) as buzzer:
        assert set(buzzer.tunes) == set(TUNES)


def test_a_failing_sound_is_logged_and_the_next_still_plays(caplog):
    worker = Worker("test sounds")
    done = []
    worker.submit(lambda: 1 / 0)
    worker.submit(lambda: done.append("next"))
    assert worker.wait_until_idle(WAIT)
    worker.close()
    assert done == ["next"]
    assert "the test sounds failed: division by zero" in caplog.text


def test_sounds_far_behind_the_table_skip_to_the_newest():
    """A table that runs ahead of its sounds (a tune still playing while many more are asked
    for) is heard catching up with the newest, not hours late: only WAITING_KEPT wait."""
    worker = Worker("test sounds")
    playing, finish = threading.Event(), threading.Event()
    heard = []

    def long_tune():
        playing.set()
        finish.wait()

    worker.submit(long_tune)
    assert playing.wait(WAIT)
    for sign in range(1000):
        worker.submit(lambda sign=sign: heard.append(sign))
    finish.set()
    assert worker.wait_until_idle(WAIT)
    worker.close()
    assert heard == list(range(1000 - WAITING_KEPT, 1000))
