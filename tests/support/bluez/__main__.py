"""The BlueZ stand-in as a process of its own, for a tower process to find as the machine's
Bluetooth: `python -m support.bluez BUS_ADDRESS DIE_ID ...` (ids as 0x1a2b0001), with `tests`
on PYTHONPATH. It prints "ready" once org.bluez answers, and serves the test's remote control
(support.bluez.control) on the same bus until it is terminated.
"""

from __future__ import annotations

import asyncio
import signal
import sys

from drivers.simulated.pixels import PixelsDie
from support.bluez.control import Control
from support.bluez.service import Radio


async def serve(address: str, die_ids: list[int]) -> None:
    radio = Radio(PixelsDie(die_id) for die_id in die_ids)
    await radio.serve(address)
    assert radio.bus is not None
    radio.bus.export(Control.PATH, Control(radio))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    print("ready", flush=True)
    await stop.wait()
    await radio.close()


def main(argv: list[str]) -> None:
    address, *dice = argv
    asyncio.run(serve(address, [int(die, 0) for die in dice]))


if __name__ == "__main__":
    main(sys.argv[1:])
