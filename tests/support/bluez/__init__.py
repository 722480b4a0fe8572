"""A BlueZ stand-in for the tests: a private system bus (bus.py), an `org.bluez` served on it
(service.py) and the Pixels dice behind it (the package's simulated ones, in
drivers/simulated/pixels.py). bleak runs unchanged against it; run `python -m support.bluez` to
serve it to another process (the tower itself, control.py).

bleak keeps one BlueZ manager per event loop (bleak.backends.bluezdbus.manager
`_global_instances`), connected to the bus that DBUS_SYSTEM_BUS_ADDRESS named when it was
made: each test runs its own event loop (asyncio.run) on its own bus, so none inherits another's
manager or the devices it cached."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from drivers.simulated.pixels import PixelsDie
from support.bluez.service import Radio


@contextlib.asynccontextmanager
async def serving(address: str, radio: Radio) -> AsyncIterator[Radio]:
    """`radio` answering as org.bluez on the bus at `address`, on the running event loop."""
    await radio.serve(address)
    try:
        yield radio
    finally:
        await radio.close()


__all__ = ["PixelsDie", "Radio", "serving"]
