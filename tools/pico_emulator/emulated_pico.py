"""The emulated Pico as a test sees it: its cable on a serial port, its buttons, its screen.

`EmulatedPico(port, image_dir)` runs run_pico.mjs (rp2040js, MicroPython's rp2 port, our boot
ROM, the pad firmware on littlefs: README.md) with its USB serial on `port` (the pad's end of
the firmware rig's Cable), and reads the SSD1306 pages it draws back into text lines with the
font MicroPython's framebuf draws with (taken from the unix port, so nothing is copied). The
screens are `Screen` lists like the unix board's, so the rig's waits work unchanged: each one
drawn whole (run_pico.mjs says when), not a screen whose top lines are new and the rest old.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:
    sys.path.insert(0, str(HERE.parents[1]))

from firmware_py.pad.padapp import GAP_MS, HOLD_MS, TAP_MS  # noqa: E402  the unix board's finger

BUTTON_PINS = {"red": 10, "yellow": 11, "green": 12, "blue": 13, "pass": 14, "undo": 15}
GLYPHS = (
    "import framebuf\n"
    "b = bytearray(8)\n"
    "f = framebuf.FrameBuffer(b, 8, 8, framebuf.MONO_VLSB)\n"
    "for c in range(32, 127):\n"
    "    f.fill(0)\n"
    "    f.text(chr(c), 0, 0, 1)\n"
    "    print(c, bytes(b).hex())\n"
)
IMAGE_FILES = ("rom.bin", "rom-ext.bin", "flash.bin")
# Host seconds a wait gives the Pico by default: the emulator runs it several times slower than
# real time (about a fifth of it on a busy 2-core machine).
WAIT = 120.0
SAID_KEPT = 4096  # bytes of the Pico's USB output kept for failure messages


def font(micropython: str) -> dict[bytes, str]:
    """framebuf's 8x8 glyphs, as the SSD1306 gets them (8 column bytes), to their characters."""
    out = subprocess.run(
        [micropython, "-c", GLYPHS], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    glyphs: dict[bytes, str] = {}
    for line in out.splitlines():
        code, columns = line.split()
        glyphs.setdefault(bytes.fromhex(columns), chr(int(code)))
    return glyphs


def page_text(page: bytes, glyphs: dict[bytes, str]) -> str:
    """A 128-byte page as the 16 characters drawn on it ('?' for a cell of no glyph)."""
    cells = [page[i : i + 8] for i in range(0, 128, 8)]
    return "".join(glyphs.get(bytes(cell), "?") for cell in cells).rstrip()


class EmulatedPico:
    """rp2040js running the pad firmware, its cable on `port`: the same fingers and eyes as the
    firmware rig's unix-port `Firmware` (press, wait_screen, mark, screen, led, kill), so a
    test's steps run unchanged on either."""

    def __init__(
        self,
        port: str,
        image_dir: Path,
        micropython: str,
        screen_type: Callable[[list[str]], list[str]] = list,
        unique_id: str = "",
        oled: bool = True,
    ) -> None:
        self.glyphs = font(micropython)
        self.screen_type = screen_type
        self.pages = [""] * 8
        self.screens: list[list[str]] = []  # of screen_type
        self.lines: list[str] = []
        self.clock_ms = 0  # the Pico's own time, as last reported (once a host second)
        self.fed = 0  # bytes handed to the Pico's USB receive buffer by then
        self.clocks: list[tuple[float, int, int]] = []  # (host time, clock_ms, fed) reports
        self.said = b""  # the last bytes the Pico wrote on its USB (frames, or a REPL's words)
        self._led: bool | None = None
        self._changed = threading.Condition()
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY)
        self._buttons_read, self._buttons = os.pipe()
        files = [str(image_dir / name) for name in IMAGE_FILES]
        self.process = subprocess.Popen(
            ["node", str(HERE / "run_pico.mjs"), *files],
            stdin=fd, stdout=fd, stderr=subprocess.PIPE, pass_fds=(self._buttons_read,),
            cwd=HERE, env={**os.environ, "PICO_BUTTONS_FD": str(self._buttons_read),
                          **({"PICO_UNIQUE_ID": unique_id} if unique_id else {}),
                          **({} if oled else {"PICO_OLED": "none"})},
        )  # fmt: skip
        os.close(fd)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # --- fingers ---

    def press(self, *commands: str) -> None:
        """Button commands as the unix board takes them ('tap red', 'hold pass', 'down undo'),
        played in order on the Pico's own clock with the unix board's finger timings."""
        lines = []
        for command in commands:
            verb, name, *rest = command.split()
            pin = BUTTON_PINS[name]
            if verb in ("down", "up"):
                lines.append(f"{verb} {pin}")
                continue
            held = TAP_MS if verb == "tap" else int(rest[0]) if rest else HOLD_MS
            lines.append(f"tap {pin} {held} {GAP_MS}")
        os.write(self._buttons, "".join(line + "\n" for line in lines).encode())

    # --- eyes ---

    @property
    def screen(self) -> list[str]:
        with self._changed:
            return self.screens[-1] if self.screens else self.screen_type([""] * 8)

    def mark(self) -> int:
        """A place in the history of screens, for `wait_screen(since=...)`."""
        with self._changed:
            return max(len(self.screens) - 1, 0)

    def wait_screen(
        self,
        check: Callable[[list[str]], bool],
        timeout: float | None = None,
        what: str = "",
        since: int | None = None,
    ) -> list[str]:
        """The first screen (each drawn whole) for which `check` is true, from the current
        one on or from `since`; `timeout` host seconds (default WAIT)."""
        deadline = time.monotonic() + (WAIT if timeout is None else timeout)
        with self._changed:
            seen = self.mark() if since is None else since
            while True:
                for screen in self.screens[seen:]:
                    if check(screen):
                        return screen
                seen = len(self.screens)
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise AssertionError(
                        f"the emulated pad never showed {what or check}; it shows {self.pages}"
                        f"; its last words on USB: {self.words_said()!r}"
                    )
                self._changed.wait(min(left, 0.5))

    def words_said(self) -> str:
        """The printable text among the last bytes the Pico wrote on USB: empty while it speaks
        only frames, "Traceback ... KeyboardInterrupt" and ">>>" if it fell into the REPL."""
        with self._changed:
            text = self.said.decode("ascii", "replace")
        return "".join(c if c.isprintable() or c == "\n" else " " for c in text)[-600:].strip()

    def led(self) -> bool | None:
        with self._changed:
            return self._led

    def wait_led(self, on: bool, timeout: float | None = None) -> None:
        deadline = time.monotonic() + (WAIT if timeout is None else timeout)
        with self._changed:
            while self._led is not on:
                left = deadline - time.monotonic()
                assert left > 0, f"the emulated pad's LED never went {'on' if on else 'off'}"
                self._changed.wait(min(left, 0.5))

    # --- life ---

    def stop(self) -> None:
        """Pull the pad's power."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self._reader.join(timeout=5)
        for fd in (self._buttons, self._buttons_read):
            with contextlib.suppress(OSError):  # stopped before
                os.close(fd)

    kill = stop

    def _read(self) -> None:
        assert self.process.stderr is not None  # (a pipe: see __init__)
        for raw in self.process.stderr:
            line = raw.decode("utf-8", "replace").strip()
            with self._changed:
                self._take(line)
                self._changed.notify_all()

    def _take(self, line: str) -> None:
        words = line.split()
        if len(words) == 3 and words[0] == "oled" and len(words[2]) == 256:
            self.pages[int(words[1]) % 8] = page_text(bytes.fromhex(words[2]), self.glyphs)
        elif words == ["oled", "shown"]:  # a screen drawn whole: its lines read together
            screen = self.screen_type(self.pages)
            if hasattr(screen, "at"):
                screen.at = time.monotonic()
            self.screens.append(screen)
        elif len(words) == 3 and words[0] == "clock" and (words[1] + words[2]).isdigit():
            self.clock_ms, self.fed = int(words[1]), int(words[2])
            self.clocks.append((time.monotonic(), self.clock_ms, self.fed))
        elif len(words) == 2 and words[0] == "said":
            self.said = (self.said + bytes.fromhex(words[1]))[-SAID_KEPT:]
        elif len(words) == 2 and words[0] == "led":
            self._led = words[1] == "1"
        else:
            self.lines.append(line)
