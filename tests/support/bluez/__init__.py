"""A BlueZ stand-in for the tests: a private system bus (bus.py), an `org.bluez` served on it
(service.py) and the Pixels dice behind it (pixels.py). bleak runs unchanged against it; run
`python -m support.bluez` to serve it to another process (the tower itself)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from support.bluez.pixels import PixelsDie
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
