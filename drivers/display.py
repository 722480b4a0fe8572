"""A display the table service can draw on without worrying: `Display` wraps a luma device.

- It sends a frame only when it differs from the last one sent, and to a real chip only the
  columns of the pages that changed (`drivers.display_pages`); it counts frames and bytes.
- An I/O error (a loose I2C wire) is logged, never raised: later frames retry with a growing
  delay, and once the panel answers again it is re-initialised (it may have lost power) and the
  latest frame is sent.
- Burn-in protection: `dim()`, `wake()`, `blank()`, and a pixel shift of at most one pixel
  that changes every `shift_every` seconds of an injectable clock. Screens should keep a
  one-pixel margin.
- A real chip is written from a thread of its own (`sender`, a `Worker`): the table's loop
  goes on to the pads and phones while the bytes cross the bus (a whole SH1106 frame is 24 ms
  of a 400 kHz bus), and a frame still waiting when a newer one is asked for is dropped, never
  sent late: the newest is what the panel shows next. `flush()` waits until it does.

`Display` looks like a luma device (`mode`, `size`, `display(image)`), so screens draw on it with
``with luma.core.render.canvas(display) as draw: ...``. It is meant to be used from one thread,
the table service's event loop.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import luma.core.error
from PIL import Image

from drivers.display_device import (
    CHIPS,
    OPEN_ERRORS,
    SIMULATORS,
    CountingSerial,
    DisplayConfig,
    build_chip,
    create_device,
    open_error,
    open_serial,
    open_simulator,
)
from drivers.display_pages import PageWriter, addressing_of
from drivers.errors import DriverClosedError, FrameSizeError
from drivers.worker import Worker

__all__ = ["CHIPS", "SIMULATORS", "Display", "DisplayConfig", "create_device", "open_display"]

logger = logging.getLogger(__name__)

#: What a failing bus raises: luma turns an I2C EIO on a command into DeviceNotFoundError.
IO_ERRORS = (OSError, luma.core.error.Error)
#: What a failing panel may raise besides: a luma.emulator window that went away (pygame.error
#: is a RuntimeError) or a terminal of no size (asciiblock: ValueError). Never stops the game.
PANEL_ERRORS = (*IO_ERRORS, RuntimeError, ValueError)

#: Seconds `close()` waits for the sender to finish what it was asked (a bus that hangs).
CLOSE_WAIT = 5.0

#: The pixel-shift cycle: the picture visits each neighbour of its home position in turn.
SHIFT_OFFSETS = ((0, 0), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


class Panel(Protocol):
    """What `Display` uses of a luma device (luma ships no types): the picture's mode and size,
    and the panel's commands."""

    mode: str
    size: tuple[int, int]
    width: int
    height: int
    bounding_box: tuple[int, int, int, int]

    def display(self, image: Image.Image) -> None: ...
    def show(self) -> None: ...
    def hide(self) -> None: ...
    def contrast(self, level: int) -> None: ...
    def cleanup(self) -> None: ...


class Display:
    """`device` behind frame de-duplication, error recovery and burn-in protection.

    `link` is the `CountingSerial` the device talks through (for `bytes_sent`); `reinit`
    builds a fresh device on the same link, to re-run the chip's init sequence after an error;
    `sender`, the thread that writes to the device (None: the caller's). `open_display` fills
    them in from a configuration.
    """

    def __init__(
        self,
        device: Panel,
        *,
        link: CountingSerial | None = None,
        reinit: Callable[[], Panel] | None = None,
        clock: Callable[[], float] = time.monotonic,
        contrast: int = 0xCF,
        dim_contrast: int = 0x10,
        shift_every: float | None = 300.0,
        retry_delay: float = 0.5,
        max_retry_delay: float = 30.0,
        sender: Worker | None = None,
    ) -> None:
        self._device = device
        self._sender = sender
        self._link = link
        self._reinit = reinit
        self._clock = clock
        self.contrast = contrast
        self.dim_contrast = dim_contrast
        self.shift_every = shift_every
        self._first_retry_delay = retry_delay
        self._max_retry_delay = max_retry_delay
        self._retry_delay = retry_delay
        self._retry_at = -math.inf
        self._needs_reinit = False
        self._wanted_frame: Image.Image | None = None
        self._last_sent: Image.Image | None = None
        self._wanted_power = "on"
        self._applied_power: str | None = None
        self._closed = False
        self._pages = _page_writer(device) if link is not None else None
        self.frames_sent = 0
        self.errors = 0
        self._sync()

    @property
    def mode(self) -> str:
        return self._device.mode

    @property
    def size(self) -> tuple[int, int]:
        return self._device.size

    @property
    def width(self) -> int:
        return self._device.width

    @property
    def height(self) -> int:
        return self._device.height

    @property
    def bounding_box(self) -> tuple[int, int, int, int]:
        return self._device.bounding_box

    @property
    def device(self) -> Panel:
        """The luma device frames go to (after a re-initialisation, the new one)."""
        return self._device

    @property
    def frame(self) -> Image.Image | None:
        """The last frame asked to be shown (before any pixel shift), or None before the first."""
        return self._wanted_frame

    @property
    def bytes_sent(self) -> int:
        """Bytes that crossed the wire to the chip; simulated panels have no wire: 0."""
        return 0 if self._link is None else self._link.bytes_sent

    @property
    def pixel_shift(self) -> tuple[int, int]:
        """The (x, y) offset applied to frames now."""
        if not self.shift_every:
            return (0, 0)
        step = int(self._clock() // self.shift_every)
        return SHIFT_OFFSETS[step % len(SHIFT_OFFSETS)]

    def display(self, image: Image.Image) -> None:
        """Show `image` (the display's size), shifted; sent only if it changes the panel."""
        self._check_open()
        if image.size != self.size:
            raise FrameSizeError(f"the frame is {image.size}, the display is {self.size}")
        self._wanted_frame = image.convert(self.mode) if image.mode != self.mode else image.copy()
        self._sync()

    def refresh(self) -> None:
        """Apply a due pixel shift and retry a failed frame; call it every few seconds."""
        self._check_open()
        self._sync()

    def dim(self) -> None:
        """Lower the contrast to `dim_contrast`: nobody has touched the game for a while."""
        self._set_power("dim")

    def wake(self) -> None:
        """Switch the panel on at full `contrast`."""
        self._set_power("on")

    def blank(self) -> None:
        """Switch the panel off; frames still reach its memory and show on `wake()`."""
        self._set_power("blank")

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until the panel shows what was last asked of it; False if `timeout` ran out."""
        return self._sender is None or self._sender.wait_until_idle(timeout)

    def close(self) -> None:
        """Switch the panel off and release its bus; calling it again does nothing."""
        if self._closed:
            return
        self._closed = True
        if self._sender is not None:
            self._sender.wait_until_idle(CLOSE_WAIT)
            self._sender.close()
        try:
            self._device.cleanup()
        except IO_ERRORS as error:
            logger.warning("display: closing failed: %s", error)

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _set_power(self, power: str) -> None:
        self._check_open()
        self._wanted_power = power
        self._sync()

    def _check_open(self) -> None:
        if self._closed:
            raise DriverClosedError("the display is closed")

    def _sync(self) -> None:
        """Bring the panel to the wanted power and frame: on the sender's thread when there is
        one (a sync still waiting gives way to a newer one), else now."""
        if self._sender is None:
            self._sync_now()
        else:
            self._sender.submit(self._sync_now, replaceable=True)

    def _sync_now(self) -> None:
        """Bring the panel to the wanted power and frame, unless waiting to retry."""
        if self._clock() < self._retry_at:
            return
        try:
            self._recover()
            self._apply_power()
            self._send_frame()
        except PANEL_ERRORS as error:
            self._failed(error)
        else:
            self._succeeded()

    def _recover(self) -> None:
        """After an error: once the panel answers again, re-run its init sequence."""
        if not self._needs_reinit or self._reinit is None:  # None: never needs it
            return
        _power(self._device, self._wanted_power, self._contrast_for(self._wanted_power))
        self._device = self._reinit()
        self._pages = _page_writer(self._device)
        self._needs_reinit = False
        self._applied_power = None
        self._last_sent = None

    def _apply_power(self) -> None:
        if self._applied_power != self._wanted_power:
            power = self._wanted_power
            _power(self._device, power, self._contrast_for(power))
            self._applied_power = power

    def _send_frame(self) -> None:
        if self._wanted_frame is None:
            return
        frame = _shifted(self._wanted_frame, self.pixel_shift)
        if self._last_sent is not None and _same(frame, self._last_sent):
            return
        if self._pages is not None:
            self._pages.send(frame)
        else:
            self._device.display(frame)
        self._last_sent = frame
        self.frames_sent += 1

    def _contrast_for(self, power: str) -> int:
        return self.dim_contrast if power == "dim" else self.contrast

    def _failed(self, error: Exception) -> None:
        self.errors += 1
        if self._pages is not None:  # a frame cut short: the chip's RAM is unknown
            self._pages.forget()
        self._applied_power = None
        self._needs_reinit = self._reinit is not None
        self._retry_at = self._clock() + self._retry_delay
        kind = "I/O error" if isinstance(error, IO_ERRORS) else "the panel failed"
        logger.warning("display: %s (%s); retrying in %.1f s", kind, error, self._retry_delay)
        self._retry_delay = min(self._retry_delay * 2, self._max_retry_delay)

    def _succeeded(self) -> None:
        if self._retry_at != -math.inf:
            logger.info("display: the panel answers again")
        self._retry_at = -math.inf
        self._retry_delay = self._first_retry_delay


def open_display(config: DisplayConfig | Mapping[str, Any], **options: Any) -> Display:
    """A `Display` for `config` (a `DisplayConfig` or a settings table); `options` go to it."""
    if not isinstance(config, DisplayConfig):
        config = DisplayConfig.from_dict(config)
    if not config.is_chip:
        return Display(open_simulator(config), **options)
    link = open_serial(config)
    try:
        device = build_chip(config, link)
    except OPEN_ERRORS as error:
        link.cleanup()
        raise open_error(config, error) from error
    sender = Worker(f"{config.where} sender")
    return Display(
        device, link=link, reinit=lambda: build_chip(config, link), sender=sender, **options
    )


def _page_writer(device: Panel) -> PageWriter | None:
    """A writer of changed pages for a real chip, None for any other panel."""
    addressing = addressing_of(device)
    return PageWriter(device, addressing) if addressing is not None else None


def _power(device: Panel, power: str, contrast: int) -> None:
    if power == "blank":
        device.hide()
    else:
        device.show()
        device.contrast(contrast)


def _shifted(frame: Image.Image, offset: tuple[int, int]) -> Image.Image:
    if offset == (0, 0):
        return frame
    moved = Image.new(frame.mode, frame.size)
    moved.paste(frame, offset)
    return moved


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.mode == b.mode and a.size == b.size and a.tobytes() == b.tobytes()
