"""Roll button to screen: time from the button's press edge to the new frame at the display.

Simulated hardware, real code: gpiozero's `MockFactory` drives the roll button's pin; the
button's callback hops to an asyncio loop on its own thread with `call_soon_threadsafe`, as the
table service does; there software dice roll and the white sum is drawn large (at least 40 px
tall) on a 128x64 luma canvas, handed to a `Display` over a luma `dummy` device, then over an
SSD1306 and an SH1106 speaking into a bus that goes nowhere (`interface = "noop"`: the chip's
byte packing is timed, and the bytes per frame counted).

A short press is recognised on release: each press is a press edge, a 120 ms hold on the
button's injected clock (so no real waiting), and a release edge. The latency is real time from
the press edge to the frame reaching the device: the software's share, not the finger's. Run:

    .venv/bin/python bench/press_to_frame.py
    .venv/bin/python bench/press_to_frame.py --presses 500
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import threading
import time
from pathlib import Path

from gpiozero.pins.mock import MockFactory, MockPin
from luma.core.render import canvas
from PIL import ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from drivers.button import RollButton
from drivers.dice import SoftwareDice
from drivers.display import Display, open_display

PIN = 17
COLOURS = ["red", "yellow", "green", "blue"]
SUM_FONT = ImageFont.load_default(size=58)
SMALL_FONT = ImageFont.load_default(size=10)
SETUPS = {
    "dummy": {"driver": "dummy"},
    "ssd1306": {"driver": "ssd1306", "interface": "noop"},
    "sh1106": {"driver": "sh1106", "interface": "noop"},
}


class ManualClock:
    """The button's clock: moved by hand, so a simulated hold takes no real time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def draw_sum(display: Display, white_sum: int, roll_number: int) -> None:
    """The roll screen: the white sum, large and centred; the roll number small in a corner."""
    with canvas(display) as draw:
        text = str(white_sum)
        left, top, right, bottom = draw.textbbox((0, 0), text, font=SUM_FONT)
        x = (display.width - (right - left)) // 2 - left
        y = (display.height - (bottom - top)) // 2 - top
        draw.text((x, y), text, font=SUM_FONT, fill="white")
        draw.text((2, 1), f"#{roll_number}", font=SMALL_FONT, fill="white")


class Table:
    """The table service's share: an event loop that rolls and draws on each press."""

    def __init__(self, display: Display) -> None:
        self.display = display
        self.dice = SoftwareDice()
        self.rolls = 0
        self.frame_done = threading.Event()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def on_press(self) -> None:
        """Called on gpiozero's thread: only hand over to the loop."""
        self.loop.call_soon_threadsafe(self.roll)

    def roll(self) -> None:
        (w1, w2), _coloured = self.dice.roll(COLOURS)
        self.rolls += 1
        draw_sum(self.display, w1 + w2, self.rolls)
        self.frame_done.set()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join()
        self.loop.close()


def press_and_wait(pin: MockPin, clock: ManualClock, table: Table) -> float:
    """One short press; seconds from its press edge until its frame reached the device."""
    table.frame_done.clear()
    start = time.perf_counter()
    pin.drive_low()
    clock.now += 0.12
    pin.drive_high()
    if not table.frame_done.wait(timeout=10):
        raise RuntimeError("no frame within 10 s of a press")
    elapsed = time.perf_counter() - start
    clock.now += 0.5
    return elapsed


def run(setup: str, presses: int) -> dict[str, float]:
    """Latency figures (ms) and bytes per frame for `presses` presses on one display setup."""
    factory, clock = MockFactory(), ManualClock()
    display = open_display(SETUPS[setup], shift_every=None)
    table = Table(display)
    button = RollButton(PIN, on_press=table.on_press, clock=clock, pin_factory=factory)
    bytes_before, frames_before = display.bytes_sent, display.frames_sent
    try:
        pin = factory.pin(PIN)
        latencies = [press_and_wait(pin, clock, table) for _ in range(presses)]
    finally:
        button.close()
        table.stop()
    bytes_per_frame = (display.bytes_sent - bytes_before) / (display.frames_sent - frames_before)
    display.close()
    return summary(latencies, bytes_per_frame)


def summary(latencies: list[float], bytes_per_frame: float) -> dict[str, float]:
    millis = [seconds * 1000 for seconds in latencies]
    return {
        "median": statistics.median(millis),
        "p99": statistics.quantiles(millis, n=100, method="inclusive")[98],
        "max": max(millis),
        "bytes": bytes_per_frame,
    }


def sum_height() -> int:
    """Height in pixels of the tallest two-digit sum as drawn."""
    _left, top, _right, bottom = SUM_FONT.getbbox("12")
    return round(bottom - top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=2000)
    args = parser.parse_args()
    print(f"{args.presses} presses per display; white sum drawn {sum_height()} px tall")
    print(f"{'display':<22} {'median ms':>9} {'p99 ms':>8} {'max ms':>8} {'bytes/frame':>11}")
    for setup in SETUPS:
        figures = run(setup, args.presses)
        name = setup if setup == "dummy" else f"{setup} (noop bus)"
        print(
            f"{name:<22} {figures['median']:>9.2f} {figures['p99']:>8.2f} {figures['max']:>8.2f}"
            f" {figures['bytes']:>11.0f}"
        )


if __name__ == "__main__":
    main()
