"""`qwixx-tower doctor` on sound: a test beep on the buzzer, and whether the tower can speak
(espeak-ng installed, an audio device there) in one sentence with the fix."""

from __future__ import annotations

import io
import shutil

import pytest

import drivers.speech
from drivers.errors import SpeechError
from drivers.speech import Speech, audio_device
from firmware_py.app.config import SIMULATED, parse_config
from firmware_py.app.doctor import report, run_checks


def doctor(config, tmp_path) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = report(run_checks(config, tmp_path), out)
    return status, out.getvalue().splitlines()


def line_about(lines: list[str], part: str) -> str:
    (found,) = [line for line in lines if line[5:].startswith(part)]
    return found


def test_the_simulated_tower_beeps_its_simulated_buzzer_and_does_not_speak(tmp_path):
    status, lines = doctor(SIMULATED, tmp_path)
    assert status == 0
    assert line_about(lines, "buzzer") == "[ok] buzzer on GPIO18 (simulated): played a test beep"
    assert line_about(lines, "speech") == (
        "[ok] speech: off (speech = true in [sound] lets the tower speak)"
    )


def test_sound_switched_off_is_said_so(tmp_path):
    _status, lines = doctor(parse_config({"sound": {"enabled": False}}), tmp_path)
    assert line_about(lines, "sound") == "[ok] sound: switched off ([sound] enabled = false)"


def test_a_buzzer_pin_without_pwm_is_named_with_where_to_look(tmp_path, mock_factory):
    """gpiozero's default factory here is a MockFactory whose pins cannot do PWM."""
    config = parse_config({"sound": {"buzzer": 18, "speech": False}})
    status, lines = doctor(config, tmp_path)
    assert status == 1
    buzzer = line_about(lines, "buzzer")
    assert buzzer == (  # issue 24: it said "cannot be used ()"
        "[!!] buzzer on GPIO18: cannot be used (its pin cannot play tones (no PWM on it here)); "
        "see wiring.md"
    )


def test_without_espeak_the_doctor_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setattr(drivers.speech, "espeak_path", lambda command="espeak-ng": None)
    status, lines = doctor(parse_config({"sound": {"speech": True}}), tmp_path)
    assert status == 1
    assert line_about(lines, "speech") == (
        "[!!] speech: the tower cannot speak: espeak-ng is not installed "
        "(sudo apt install espeak-ng)"
    )


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_without_an_audio_device_the_doctor_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(drivers.speech, "audio_device", lambda: None)
    status, lines = doctor(parse_config({"sound": {"speech": True}}), tmp_path)
    assert status == 1
    assert line_about(lines, "speech") == (
        "[!!] speech: the tower cannot speak: there is no audio device "
        "(no ALSA playback device, no PulseAudio server)"
    )


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
@pytest.mark.skipif(
    audio_device() is not None, reason="this machine has a sound card: it would talk"
)
def test_a_sound_card_that_refuses_espeak_is_named_not_taken_for_speech(monkeypatch):
    """espeak-ng exits 0 when the audio library fails; the tower reads its complaint."""
    monkeypatch.setattr(drivers.speech, "audio_device", lambda: "a card that is not there")
    with Speech() as speech, pytest.raises(SpeechError, match="could not reach the audio device"):
        speech.say_now("the tower can speak")
