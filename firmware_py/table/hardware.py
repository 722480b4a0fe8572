"""What the table needs of the tower's hardware, as a protocol it owns.

`firmware_py.app.hardware.Hardware` builds the real parts (or simulated ones) from the
configuration; the table reads only these: its own dice, the electronic dice if any, where the
roll button is, and the problems met while opening the parts (shown as alerts at start).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from gpiozero.pins import Factory

from drivers.dice import SoftwareDice
from drivers.pixels import PixelsReader


class TowerParts(Protocol):
    """The tower's dice, electronic dice, roll button wiring and start-up problems."""

    @property
    def dice(self) -> SoftwareDice: ...
    @property
    def pixels(self) -> PixelsReader | None: ...
    @property
    def button_pin(self) -> int: ...
    @property
    def button_factory(self) -> Factory | None: ...
    @property
    def button_debounce(self) -> float: ...
    @property
    def problems(self) -> Sequence[str]: ...
