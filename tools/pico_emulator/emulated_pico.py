"""The emulated Pico as a test sees it: its cable on a serial port, its buttons, its screen.

`EmulatedPico(port, image_dir)` runs run_pico.mjs (rp2040js, MicroPython's rp2 port, our boot
ROM, the pad firmware on littlefs: README.md) with its USB serial on `port` (the pad's end of
the firmware rig's Cable), and reads the SSD1306 pages it draws back into text lines with the
font MicroPython's framebuf draws with (taken from the unix port, so nothing is copied). The
screens are `Screen` lists like the unix board's, so the rig's waits work unchanged.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
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


def font(micropython: str) -> dict[bytes, str]:
    """framebuf's 8x8 glyphs, as the SSD1306 gets them (8 column bytes), to their characters."""
    out = subprocess.run(
        [micropython, "-c", GLYPHS], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    glyphs = {}
    for line in out.splitlines():
        code, columns = line.split()
        glyphs.setdefault(bytes.fromhex(columns), chr(int(code)))
    return glyphs


def page_text(page: bytes, glyphs: dict[bytes, str]) -> str:
    """A 128-byte page as the 16 characters drawn on it ('?' for a cell of no glyph)."""
    cells = [page[i : i + 8] for i in range(0, 128, 8)]
    return "".join(glyphs.get(bytes(cell), "?") for cell in cells).rstrip()


class EmulatedPico:
    """rp2040js running the pad firmware, its cable on `port`."""

    def __init__(self, port: str, image_dir: Path, micropython: str, screen_type=list):
        self.glyphs = font(micropython)
        self.screen_type = screen_type
        self.pages = [""] * 8
        self.screens: list = []
        self.lines: list[str] = []
        self._changed = threading.Condition()
        fd = os.open(port, os.O_RDWR | os.O_NOCTTY)
        self._buttons_read, self._buttons = os.pipe()
        files = [str(image_dir / name) for name in IMAGE_FILES]
        self.process = subprocess.Popen(
            ["node", str(HERE / "run_pico.mjs"), *files],
            stdin=fd, stdout=fd, stderr=subprocess.PIPE, pass_fds=(self._buttons_read,),
            cwd=HERE, env={**os.environ, "PICO_BUTTONS_FD": str(self._buttons_read)},
        )  # fmt: skip
        os.close(fd)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def press(self, name: str, held: float = 0.1) -> None:
        """Press a button for `held` seconds (of the host's time: the emulator is slower)."""
        pin = BUTTON_PINS[name]
        os.write(self._buttons, f"down {pin}\n".encode())
        time.sleep(held)
        os.write(self._buttons, f"up {pin}\n".encode())

    def wait_screen(self, check, timeout: float, what: str = ""):
        deadline = time.monotonic() + timeout
        with self._changed:
            seen = 0
            while True:
                for screen in self.screens[seen:]:
                    if check(screen):
                        return screen
                seen = len(self.screens)
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise AssertionError(f"the emulated pad never showed {what}: {self.pages}")
                self._changed.wait(min(left, 0.5))

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()
        self._reader.join(timeout=5)
        os.close(self._buttons)
        os.close(self._buttons_read)

    def _read(self) -> None:
        for raw in self.process.stderr:
            line = raw.decode("utf-8", "replace").strip()
            with self._changed:
                self.lines.append(line)
                words = line.split()
                if len(words) == 3 and words[0] == "oled" and len(words[2]) == 256:
                    self.pages[int(words[1]) % 8] = page_text(bytes.fromhex(words[2]), self.glyphs)
                    self.screens.append(self.screen_type(self.pages))
                self._changed.notify_all()
