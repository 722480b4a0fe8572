"""[sound] in the configuration: checked at start like every section, built into the hardware,
and heard at the table through `qwixx-tower run`."""

from __future__ import annotations

import logging
import shutil

import pytest
from support.paths import ROOT

import drivers.speech
from drivers.buzzer import GAME_OVER, ROLL
from firmware_py.app import service
from firmware_py.app.cli import main
from firmware_py.app.config import SIMULATED, ConfigError, SoundConfig, load_config, parse_config
from firmware_py.app.hardware import SIMULATED_BUZZER_PIN, build_hardware
from firmware_py.show.sound import SoundPresenter

EXAMPLE = ROOT / "systemd" / "config.example.toml"
LIGHTS = {"red": 5, "yellow": 6, "green": 13, "blue": 19}


def test_the_example_configuration_has_a_buzzer_and_a_voice():
    assert load_config(EXAMPLE).sound == SoundConfig(buzzer=18, speech=True, voice="en")


def test_every_sound_setting_is_read():
    sound = parse_config(
        {"sound": {"buzzer": 12, "speech": False, "voice": "en-us", "volume": 150, "speed": 200}}
    ).sound
    assert sound == SoundConfig(True, 12, False, "en-us", 150, 200)
    assert parse_config({"sound": {"enabled": False}}).sound.enabled is False
    assert parse_config({}).sound is None  # absent: a simulated buzzer, no speech


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"buzzer": 40}, "[sound] buzzer: must be a GPIO number from 0 to 27, not 40 (e.g. buzzer"),
        ({"enabled": "no"}, "[sound] enabled: must be true or false, not 'no'"),
        ({"speech": 1}, "[sound] speech: must be true or false, not 1"),
        ({"volume": 300}, "[sound] volume: must be a whole number from 0 to 200, not 300"),
        ({"speed": 20}, "[sound] speed: must be a whole number from 80 to 450, not 20"),
        ({"voice": "en us"}, "[sound] voice: 'en us' is not a voice name (e.g. voice = \"en\""),
        ({"tune": "x"}, "[sound] tune: unknown key; known keys: enabled, buzzer, speech"),
    ],
)
def test_a_wrong_sound_setting_is_refused_with_key_and_fix(data, message):
    with pytest.raises(ConfigError) as error:
        parse_config({"sound": data}, source="config.toml")
    assert str(error.value).startswith("config.toml: ")
    assert message in str(error.value)


def test_the_buzzer_cannot_share_a_lock_light_s_pin():
    with pytest.raises(ConfigError, match=r"\[sound\] buzzer: GPIO5 is already used by \[lights\]"):
        parse_config({"lights": LIGHTS, "sound": {"buzzer": 5}})


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_a_voice_espeak_does_not_know_is_refused_at_start():
    with pytest.raises(ConfigError, match=r"\[sound\] voice: espeak-ng has no voice 'xx-none'"):
        parse_config({"sound": {"voice": "xx-none"}})
    assert parse_config({"sound": {"voice": "xx-none", "speech": False}}).sound.voice == "xx-none"


def test_the_simulated_tower_has_a_simulated_buzzer_and_no_voice():
    hardware = build_hardware(SIMULATED, 6)
    try:
        assert hardware.buzzer.pin == SIMULATED_BUZZER_PIN
        assert hardware.speech is None
    finally:
        hardware.close()


def test_sound_switched_off_builds_neither_part():
    hardware = build_hardware(parse_config({"sound": {"enabled": False, "buzzer": 18}}), 6)
    assert hardware.buzzer is None and hardware.speech is None
    hardware.close()


def test_speech_is_built_with_the_configured_voice():
    config = parse_config({"sound": {"voice": "en-us", "volume": 40, "speed": 120}})
    hardware = build_hardware(config, 6)
    try:
        speech = hardware.speech
        assert (speech.voice, speech.amplitude, speech.speed) == ("en-us", 40, 120)
    finally:
        hardware.close()


def test_a_tower_that_cannot_speak_says_why_once_in_the_log(monkeypatch, caplog):
    monkeypatch.setattr(drivers.speech, "espeak_path", lambda command="espeak-ng": None)
    with caplog.at_level(logging.WARNING):
        hardware = build_hardware(parse_config({"sound": {"speech": True}}), 6)
        hardware.speech.say("red is locked")
        hardware.close()
    assert [r.getMessage() for r in caplog.records] == [
        "the tower will not speak: espeak-ng is not installed (sudo apt install espeak-ng)"
    ]


def test_a_buzzer_pin_that_cannot_be_used_is_reported_and_the_tower_starts(mock_factory):
    """Here gpiozero's default factory is a MockFactory whose pins cannot do PWM."""
    hardware = build_hardware(parse_config({"sound": {"buzzer": 18, "speech": False}}), 6)
    try:
        assert (
            "the buzzer on GPIO18 cannot be used: its pin cannot play tones (no PWM on it here)"
            in hardware.problems
        )
        assert hardware.buzzer is not None  # a simulated one: the game goes on
    finally:
        hardware.close()


def run_with_sound(tmp_path, monkeypatch, settings: str) -> list[SoundPresenter]:
    """`qwixx-tower run` for one quick game with `settings` as [sound]; the presenters made."""
    made: list[SoundPresenter] = []

    class Recorded(SoundPresenter):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(service, "SoundPresenter", Recorded)
    config = tmp_path / "config.toml"
    config.write_text(f"[sound]\n{settings}\n")
    status = main(
        ["run", "--config", str(config), "--plain", "--pace", "0.005", "--games", "1",
         "--players", "Ann,Ben", "--state-dir", str(tmp_path / "state")]
    )  # fmt: skip
    assert status == 0
    return made


def test_run_sounds_the_rolls_and_the_end_of_the_game(tmp_path, monkeypatch):
    (presenter,) = run_with_sound(tmp_path, monkeypatch, "speech = false")
    history = list(presenter.buzzer.history)
    assert ROLL in history and history[-1] == GAME_OVER
    assert presenter.speech is None


def test_run_with_sound_switched_off_is_silent(tmp_path, monkeypatch):
    assert run_with_sound(tmp_path, monkeypatch, "enabled = false") == []


def test_wiring_md_and_the_example_put_the_buzzer_on_the_same_pin():
    wiring = (EXAMPLE.parent.parent / "wiring.md").read_text(encoding="utf-8")
    row = next(line for line in wiring.splitlines() if line.startswith("| piezo buzzer |"))
    assert f"| GPIO{load_config(EXAMPLE).sound.buzzer} |" in row
