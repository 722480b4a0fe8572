"""Measuring a WAV file the tower's voice wrote."""

import array
import math
import wave


def measure(path):
    """(seconds, RMS loudness from 0 to 1) of a 16-bit mono WAV file."""
    with wave.open(str(path)) as wav:
        assert wav.getsampwidth() == 2 and wav.getnchannels() == 1
        frames = wav.readframes(wav.getnframes())
        seconds = wav.getnframes() / wav.getframerate()
    samples = array.array("h", frames)
    rms = math.sqrt(sum(s * s for s in samples) / max(1, len(samples))) / 32768
    return seconds, rms
