"""The tower's voice: sentences spoken by Debian's espeak-ng, in the background.

Each sentence runs `espeak-ng` as a subprocess on a worker thread, so the asyncio loop never
waits for it. Without espeak-ng or without an audio device `say` does nothing and
`silent_because` says why in one sentence (for the log and `doctor`); nothing else changes.
With `record_to` every sentence is written to a numbered WAV file there instead of played
(tests hear it that way).
"""

from __future__ import annotations

import glob
import logging
import os
import re
import shutil
import subprocess
import threading
from collections import deque
from pathlib import Path

from drivers.errors import SpeechConfigError, SpeechError
from drivers.worker import Worker

log = logging.getLogger(__name__)

ESPEAK = "espeak-ng"
INSTALL_HINT = "sudo apt install espeak-ng"
VOICE_PATTERN = re.compile(r"[A-Za-z0-9_+-]{1,40}")  # e.g. en, en-us, de, en+f3
AMPLITUDES = range(0, 201)  # espeak-ng -a: 100 is normal
SPEEDS = range(80, 451)  # espeak-ng -s: words per minute, 175 is its default
SAY_TIMEOUT = 30.0  # seconds a sentence may take before it is cut off
SAID_KEPT = 1000


def espeak_path(command: str = ESPEAK) -> str | None:
    """Where espeak-ng is installed, or None."""
    return shutil.which(command)


def audio_device() -> str | None:
    """A few words naming the audio output espeak-ng would reach, or None when there is none:
    an ALSA playback device, or a PulseAudio / PipeWire server of this user."""
    playback = [path for path in _playback_devices() if os.access(path, os.R_OK | os.W_OK)]
    if playback:
        return f"ALSA {_card_name(playback[0])}"
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if os.environ.get("PULSE_SERVER") or (runtime and Path(runtime, "pulse/native").exists()):
        return "a PulseAudio server"
    return None


def _playback_devices() -> list[str]:
    return sorted(glob.glob("/dev/snd/pcmC*D*p"))


def _card_name(device: str) -> str:
    """'card 0 (bcm2835 Headphones)' for /dev/snd/pcmC0D0p, from /proc/asound/cards."""
    card = re.search(r"pcmC(\d+)D", device)
    number = card.group(1) if card else "?"
    try:
        cards = Path("/proc/asound/cards").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return f"card {number}"
    found = re.search(rf"^\s*{number} \[[^\]]*\]: .* - (.+)$", cards, re.MULTILINE)
    return f"card {number} ({found.group(1).strip()})" if found else f"card {number}"


def check_voice(voice: str, command: str = ESPEAK) -> bool | None:
    """True if espeak-ng knows `voice`, False if not, None when espeak-ng cannot tell (it is
    not installed)."""
    path = espeak_path(command)
    if path is None or not VOICE_PATTERN.fullmatch(voice):
        return None if path is None else False
    try:
        done = subprocess.run(
            [path, "-q", "-v", voice, ""],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=SAY_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.returncode == 0


class Speech:
    """Says sentences with espeak-ng's `voice` at `amplitude` (0-200) and `speed` (words a
    minute), one after another on a worker thread."""

    def __init__(
        self,
        *,
        voice: str = "en",
        amplitude: int = 100,
        speed: int = 160,
        command: str = ESPEAK,
        record_to: Path | None = None,
    ) -> None:
        _check_settings(voice, amplitude, speed)
        self.voice = voice
        self.amplitude = amplitude
        self.speed = speed
        self.record_to = record_to
        self.said: deque[str] = deque(maxlen=SAID_KEPT)  # every sentence asked for, newest last
        self._path = espeak_path(command)
        self._command = command
        self._device = audio_device() if record_to is None else f"files in {record_to}"
        self._worker = Worker("speech")
        self._process: subprocess.Popen[bytes] | None = None
        self._process_lock = threading.Lock()
        self._closing = threading.Event()
        self._count = 0
        self._warned: set[str] = set()

    @property
    def silent_because(self) -> str | None:
        """Why the tower cannot speak here, in one sentence; None when it can."""
        if self._path is None:
            return f"{self._command} is not installed ({INSTALL_HINT})"
        if self._device is None and _playback_devices():
            return (
                f"{_playback_devices()[0]} is not open to this user: add it to the audio group "
                "(sudo usermod -aG audio USER)"
            )
        if self._device is None:
            return "there is no audio device (no ALSA playback device, no PulseAudio server)"
        return None

    @property
    def device(self) -> str | None:
        """Where the sentences go, in words; None without an audio device."""
        return self._device

    def say(self, words: str, *, replaceable: bool = False) -> None:
        """Speak `words` after the sentences already asked for; returns at once. A replaceable
        sentence still waiting is skipped when another is asked for."""
        self.said.append(words)
        if self.silent_because or self._closing.is_set():
            return
        target = self._next_file()
        self._worker.submit(lambda: self._speak(words, target), replaceable=replaceable)

    def render(self, words: str, path: Path) -> None:
        """Write `words` spoken to the WAV file `path`, now (tests)."""
        if self._path is None:
            raise SpeechError(f"{self._command} is not installed ({INSTALL_HINT})")
        self._run(words, path)

    def say_now(self, words: str) -> None:
        """Speak `words` and return when they are said; SpeechError says why not (doctor)."""
        if self.silent_because:
            raise SpeechError(self.silent_because)
        self._run(words, self._next_file())

    def wait_until_quiet(self, timeout: float | None = None) -> bool:
        """Wait for every sentence asked for to be spoken; True if they were within timeout."""
        return self._worker.wait_until_idle(timeout)

    def close(self) -> None:
        """Stop speaking (the sentence being said is cut off) and forget the waiting ones."""
        with self._process_lock:
            self._closing.set()  # no sentence starts after this
            if self._process is not None:
                self._process.terminate()
        self._worker.close()

    def __enter__(self) -> Speech:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _next_file(self) -> Path | None:
        if self.record_to is None:
            return None
        self._count += 1
        return self.record_to / f"speech-{self._count:04}.wav"

    def _speak(self, words: str, target: Path | None) -> None:
        """On the worker thread: one sentence; a failure is logged once per kind, not raised."""
        try:
            self._run(words, target)
        except SpeechError as error:
            first = str(error) not in self._warned
            self._warned.add(str(error))
            log.log(logging.WARNING if first else logging.DEBUG, "%s", error)

    def _run(self, words: str, target: Path | None) -> None:
        assert self._path is not None
        argv = [self._path, "-v", self.voice, "-a", str(self.amplitude), "-s", str(self.speed)]
        if target is not None:
            argv += ["-w", str(target)]
        argv += ["--", words]
        try:
            with self._process_lock:
                if self._closing.is_set():
                    return
                process = self._process = subprocess.Popen(
                    argv,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                )
            try:
                _, errors = process.communicate(timeout=SAY_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
                raise SpeechError(f"{ESPEAK} took over {SAY_TIMEOUT:.0f} s; cut off") from None
        except OSError as error:
            raise SpeechError(f"{ESPEAK} could not be started: {error.strerror}") from None
        finally:
            with self._process_lock:
                self._process = None
        said = errors.decode("utf-8", errors="replace").strip().splitlines()
        if self._closing.is_set():
            return
        complaints = [line for line in said if "error" in line.lower()]
        about_audio = [line for line in complaints if "audio" in line.lower()]
        # The sound card refused it: espeak-ng then exits 0 or not (seen both ways on one
        # machine), and its audio library says why; any complaint at exit status 0 is that too.
        refusal = about_audio + (complaints if process.returncode == 0 else [])
        if target is None and refusal:
            raise SpeechError(f"{ESPEAK} could not reach the audio device: {refusal[0]}")
        if process.returncode != 0:
            why = said[-1] if said else f"exit status {process.returncode}"
            raise SpeechError(f"{ESPEAK} could not speak: {why}")


def _check_settings(voice: str, amplitude: int, speed: int) -> None:
    if not isinstance(voice, str) or not VOICE_PATTERN.fullmatch(voice):
        raise SpeechConfigError(
            f"speech voice {voice!r} is not a voice name; `espeak-ng --voices` lists them "
            '(e.g. voice = "en")'
        )
    if amplitude not in AMPLITUDES:
        raise SpeechConfigError(f"speech volume {amplitude} must be from 0 to 200 (100 normal)")
    if speed not in SPEEDS:
        raise SpeechConfigError(f"speech speed {speed} must be from 80 to 450 words a minute")
