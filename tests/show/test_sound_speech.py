"""The tower's voice: espeak-ng renders sentences to WAV files, measured with Python's wave
module (length and loudness), and a missing espeak-ng leaves the tower silent, never broken."""

import logging
import shutil

import pytest
from support import HANG
from support.sound import measure

import drivers.speech
from drivers.errors import SpeechConfigError, SpeechError
from drivers.speech import Speech, check_voice

needs_espeak = pytest.mark.skipif(
    shutil.which("espeak-ng") is None,
    reason="espeak-ng is not installed (./dev test installs it as root with apt; "
    "else sudo apt install espeak-ng)",
)
WAIT = HANG  # seconds a few sentences may take: only a hang takes longer


@needs_espeak
def test_a_lock_sentence_is_speech_of_a_plausible_length(tmp_path):
    with Speech() as speech:
        speech.render("red is locked", tmp_path / "lock.wav")
    seconds, rms = measure(tmp_path / "lock.wav")
    assert 0.5 < seconds < 3.0  # three words at 160 words a minute, with a little silence
    assert rms > 0.02  # a voice, not silence (espeak-ng at volume 100 measures about 0.09)


@needs_espeak
def test_more_words_take_longer_and_a_lower_volume_is_quieter(tmp_path):
    with Speech() as speech:
        speech.render("red is locked", tmp_path / "short.wav")
        speech.render("game over: Ben wins with 54 points", tmp_path / "long.wav")
    with Speech(amplitude=30) as quiet:
        quiet.render("red is locked", tmp_path / "quiet.wav")
    short, long_ = measure(tmp_path / "short.wav"), measure(tmp_path / "long.wav")
    assert long_[0] > short[0] * 1.5
    assert measure(tmp_path / "quiet.wav")[1] < short[1] * 0.6


@needs_espeak
def test_sentences_are_spoken_in_order_in_the_background(tmp_path):
    with Speech(record_to=tmp_path) as speech:
        speech.say("Ann takes a penalty")
        speech.say("red is locked")
        assert speech.wait_until_quiet(WAIT)
    files = sorted(tmp_path.glob("speech-*.wav"))
    assert [f.name for f in files] == ["speech-0001.wav", "speech-0002.wav"]
    assert measure(files[0])[0] > measure(files[1])[0]  # the longer sentence first
    assert list(speech.said) == ["Ann takes a penalty", "red is locked"]


@needs_espeak
def test_a_waiting_roll_is_skipped_for_newer_news(tmp_path):
    with Speech(record_to=tmp_path) as speech:
        speech.say("game over: Ben wins with 54, Ann has 40, Cleo has 31")
        speech.say("seven", replaceable=True)  # still waiting while the first is spoken
        speech.say("red is locked")
        assert speech.wait_until_quiet(WAIT)
    assert [f.name for f in sorted(tmp_path.glob("*.wav"))] == [
        "speech-0001.wav",
        "speech-0003.wav",
    ]


def test_without_espeak_the_tower_is_silent_and_says_why(tmp_path):
    speech = Speech(command="no-such-espeak-ng", record_to=tmp_path)
    speech.say("red is locked")
    speech.say("game over")
    speech.close()
    assert speech.silent_because == (
        "no-such-espeak-ng is not installed (sudo apt install espeak-ng)"
    )
    assert list(speech.said) == ["red is locked", "game over"]  # asked for, not spoken
    assert not list(tmp_path.iterdir())
    with pytest.raises(SpeechError, match="not installed"):
        speech.render("hello", tmp_path / "x.wav")
    with pytest.raises(SpeechError, match="not installed"):
        speech.say_now("hello")


@needs_espeak
def test_an_espeak_failure_is_logged_once_and_speech_goes_on(tmp_path, caplog):
    with caplog.at_level(logging.WARNING), Speech(voice="xx-none", record_to=tmp_path) as speech:
        speech.say("red is locked")
        speech.say("yellow is locked")
        assert speech.wait_until_quiet(WAIT)
    failures = [r.getMessage() for r in caplog.records if "could not speak" in r.getMessage()]
    assert failures == [
        "espeak-ng could not speak: Error: The specified espeak-ng voice does not exist."
    ]


@needs_espeak
def test_voices_are_checked_with_espeak():
    assert check_voice("en") is True
    assert check_voice("en-us") is True
    assert check_voice("xx-none") is False
    assert check_voice("no such voice") is False


def test_a_voice_or_volume_out_of_range_is_refused_with_the_fix():
    with pytest.raises(SpeechConfigError, match=r"'en us' is not a voice name.*espeak-ng --voices"):
        Speech(voice="en us")
    with pytest.raises(SpeechConfigError, match=r"volume 300 must be from 0 to 200"):
        Speech(amplitude=300)


@needs_espeak
def test_a_sound_card_the_user_may_not_open_is_named_with_the_fix(monkeypatch):
    """The kiosk's user outside the audio group sees /dev/snd but cannot open it."""
    card = "/nonexistent/snd/pcmC0D0p"  # a path no user can open (root included)
    monkeypatch.setattr(drivers.speech, "_playback_devices", lambda: [card])
    monkeypatch.delenv("PULSE_SERVER", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    with Speech() as speech:
        assert speech.silent_because == (
            f"{card} is not open to this user: add it to the audio group "
            "(sudo usermod -aG audio USER)"
        )
