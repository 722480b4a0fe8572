"""The bus's part in `qwixx-tower run`: the client [mqtt] asks for, started once the table has
read its journal back (its first state is then the evening's) and stopped with the tower,
saying "offline". Without [mqtt] nothing of the bus is loaded, unless the state directory notes
a device from an earlier connection: then it is taken off the broker once
(`firmware_py.bus.farewell`), and Home Assistant forgets the tower."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_py.bus.settings import DEVICE_NOTE

if TYPE_CHECKING:
    from firmware_py.bus.client import BusClient

log = logging.getLogger(__name__)


class BusPart:
    """The bus client (None without [mqtt]) and, without one, the farewell of a noted device."""

    def __init__(self, client: BusClient | None, state_dir: Path | None) -> None:
        self.client = client
        self.state_dir = state_dir
        self._farewell: asyncio.Task[None] | None = None

    def open(self) -> None:
        """In the running loop: connect, or say goodbye for a device [mqtt] no longer names."""
        if self.client is not None:
            self.client.start()
        elif self.state_dir and os.path.exists(self.state_dir / DEVICE_NOTE):  # (unreadable: no)
            loop = asyncio.get_running_loop()
            self._farewell = loop.create_task(farewell(self.state_dir))

    async def close(self) -> None:
        if self.client is not None:
            await self.client.stop()
        if self._farewell is not None:
            self._farewell.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._farewell


async def farewell(state_dir: Path) -> None:
    """The noted device taken off its broker (the bus loaded for that alone)."""
    try:
        from firmware_py.bus.farewell import farewell as take_off
    except ImportError:  # aiomqtt gone with [mqtt]: Home Assistant keeps the device
        log.info("%s notes an MQTT device, but aiomqtt is not installed to remove it", DEVICE_NOTE)
        return
    await take_off(state_dir)
