"""The FUSE server: a directory holding the bus file and what each panel shows.

    python -m support.fakebus.fs [--khz 400] MOUNTPOINT BUS 0x3c=ssd1306 0x3d=sh1106

serves, until unmounted:

- `MOUNTPOINT/BUS` (e.g. `i2c-1`): the bus; open it and use it as `/dev/i2c-1`;
- `MOUNTPOINT/0x3c.png`: the picture on the panel at 0x3C, as a person would see it;
- `MOUNTPOINT/0x3c.before-off.png`: what it showed just before it was last switched off;
- `MOUNTPOINT/0x3c.json`: its registers (on, contrast, ...) and traffic counts;
- `MOUNTPOINT/0x3c.present`: "yes"; write "no" to pull the panel's four wires out, "yes" to plug
  them back: it powers up from reset, dark and with its memory lost, as a real one does;
- `MOUNTPOINT/bus.json`: the traffic on the wire, in all and by address (`i2cdev.Traffic`).

`--khz 400` (before the mountpoint) clocks the bus as the Pi's at 400 kHz: each transfer returns
once its bytes would have crossed the wire.

It runs single-threaded in the foreground; `direct_io` keeps the kernel from caching any of it.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import io
import json
import signal
import stat
import sys
from typing import Any

from fuse import FUSE, FuseOSError, Operations, fuse_get_context

from support.fakebus.i2cdev import CallerMemory, I2cBus, OpenBus
from support.fakebus.oled import CHIPS, Panel

PR_SET_PDEATHSIG = 1
EXTENSIONS = (".png", ".before-off.png", ".json", ".present")
BUS_STATE = "bus.json"


class BusFS(Operations):  # type: ignore[misc]
    """The filesystem: the bus file, then three files per panel."""

    def __init__(self, bus_name: str, panels: dict[int, Panel], khz: float | None = None) -> None:
        self.bus_name = bus_name
        self.panels = panels
        self.bus = I2cBus(panels, khz)
        self.handles: dict[int, OpenBus] = {}
        self._next_handle = 1

    # the directory

    def getattr(self, path: str, fh: int | None = None) -> dict[str, Any]:
        if path == "/":
            return {"st_mode": stat.S_IFDIR | 0o755, "st_nlink": 2}
        if path == f"/{self.bus_name}":
            return {"st_mode": stat.S_IFREG | 0o660, "st_nlink": 1, "st_size": 0}
        if path != f"/{BUS_STATE}":
            self._panel(path)
        return {"st_mode": stat.S_IFREG | 0o644, "st_nlink": 1, "st_size": 0}

    def readdir(self, path: str, fh: int) -> list[str]:
        files = [f"{address:#04x}{ext}" for address in self.panels for ext in EXTENSIONS]
        return [".", "..", self.bus_name, BUS_STATE, *files]

    def open(self, path: str, flags: int) -> int:
        self.getattr(path)
        handle = self._next_handle
        self._next_handle += 1
        self.handles[handle] = OpenBus()
        return handle

    def release(self, path: str, fh: int) -> int:
        self.handles.pop(fh, None)
        return 0

    def truncate(self, path: str, length: int, fh: int | None = None) -> int:
        return 0

    # the bus

    def ioctl(self, path: str, cmd: int, arg: int, fh: int, flags: int, data: int) -> int:
        if path != f"/{self.bus_name}":
            raise FuseOSError(errno.ENOTTY)
        try:
            memory = CallerMemory(fuse_get_context()[2])
            try:
                return self.bus.ioctl(self.handles[fh], cmd & 0xFFFFFFFF, arg or 0, memory)
            finally:
                memory.close()
        except OSError as error:
            raise FuseOSError(error.errno or errno.EIO) from error

    def read(self, path: str, size: int, offset: int, fh: int) -> bytes:
        if path == f"/{self.bus_name}":  # a plain read() on i2c-dev reads from I2C_SLAVE's address
            raise FuseOSError(errno.EREMOTEIO)
        return self._contents(path)[offset : offset + size]

    def write(self, path: str, data: bytes, offset: int, fh: int) -> int:
        if not path.endswith(".present"):
            raise FuseOSError(errno.EACCES)
        address = self._address(path)
        answer = data.strip().lower()
        if answer not in (b"yes", b"no"):
            raise FuseOSError(errno.EINVAL)
        if answer == b"yes" and address not in self.bus.chips:  # powered up again: from reset
            self.panels[address] = type(self.panels[address])()
            self.bus.chips[address] = self.panels[address]
        elif answer == b"no":
            self.bus.chips.pop(address, None)
        return len(data)

    # the panels

    def _contents(self, path: str) -> bytes:
        if path == f"/{BUS_STATE}":
            return json.dumps(self.bus.state()).encode()
        panel = self._panel(path)
        if path.endswith(".png"):
            out = io.BytesIO()
            seen = panel.last_seen if path.endswith(".before-off.png") else panel.picture()
            seen.save(out, "PNG")
            return out.getvalue()
        if path.endswith(".json"):
            return json.dumps(panel.state()).encode()
        return b"yes\n" if self._address(path) in self.bus.chips else b"no\n"

    def _panel(self, path: str) -> Panel:
        return self.panels[self._address(path)]

    def _address(self, path: str) -> int:
        name = path.lstrip("/")
        stem, dot, ext = name.partition(".")
        try:
            address = int(stem, 16)
        except ValueError:
            raise FuseOSError(errno.ENOENT) from None
        if f".{ext}" not in EXTENSIONS or address not in self.panels or not dot:
            raise FuseOSError(errno.ENOENT)
        return address


def _end_with_parent() -> None:
    """If the test run dies, SIGTERM reaches us and libfuse unmounts before exiting."""
    with contextlib.suppress(AttributeError, OSError):
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def parse_panels(specs: list[str]) -> dict[int, Panel]:
    """`0x3c=ssd1306` and the like, as panels by address."""
    panels = {}
    for spec in specs:
        address, _, chip = spec.partition("=")
        panels[int(address, 16)] = CHIPS[chip]()
    return panels


def main(argv: list[str]) -> None:
    khz = None
    if argv[:1] == ["--khz"]:
        khz, argv = float(argv[1]), argv[2:]
    mountpoint, bus_name, *specs = argv
    _end_with_parent()
    FUSE(
        BusFS(bus_name, parse_panels(specs), khz),
        mountpoint,
        foreground=True,
        nothreads=True,
        direct_io=True,
        attr_timeout=0,
        entry_timeout=0,
    )


if __name__ == "__main__":
    main(sys.argv[1:])
