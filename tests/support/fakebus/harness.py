"""Mount a FUSE I2C bus for a test, read back what its panels show, and unmount it.

Where FUSE cannot work here (no libfuse2, no /dev/fuse, mounting not permitted, the server not
allowed to read the test's memory) the test is skipped, saying which and what to install.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import io
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from PIL import Image
from smbus2 import SMBus

from support import HANG

TESTS = Path(__file__).resolve().parents[2]
PR_SET_PTRACER = 0x59616D61  # Yama: let this process's memory be read by the given one
MOUNT_WAIT = HANG  # seconds a slow, shared machine may need to start Python and mount


class MountedBus:
    """A bus file at `path` with panels behind it; `picture` and `state` read them back."""

    def __init__(self, mountpoint: Path, name: str) -> None:
        self.mountpoint = mountpoint
        self.path = mountpoint / name

    def picture(self, address: int) -> Image.Image:
        """What the panel at `address` shows now, decoded from the bytes it was sent."""
        return self._image(f"{address:#04x}.png")

    def _image(self, name: str) -> Image.Image:
        data = (self.mountpoint / name).read_bytes()
        return Image.open(io.BytesIO(data)).convert("1")

    def picture_before_off(self, address: int) -> Image.Image:
        """What the panel showed just before it was last switched off (closing switches it off)."""
        return self._image(f"{address:#04x}.before-off.png")

    def state(self, address: int) -> dict:
        """The panel's registers: on, contrast, inverse, ... and the traffic it has seen."""
        return json.loads((self.mountpoint / f"{address:#04x}.json").read_text())

    def traffic(self) -> dict:
        """What crossed the wire: transactions, clocks and bytes, in all and "by_address"."""
        return json.loads((self.mountpoint / "bus.json").read_text())

    def unplug(self, address: int) -> None:
        """Pull the panel's wires out: its address stops answering."""
        (self.mountpoint / f"{address:#04x}.present").write_text("no")

    def plug(self, address: int) -> None:
        """Put the wires back: it answers again, powered up from reset (dark, memory lost)."""
        (self.mountpoint / f"{address:#04x}.present").write_text("yes")


#: In a private mount namespace: a tmpfs holding only null, zero, urandom and the bus file as
#: /dev/i2c-N, moved over /dev; the host's /dev stays untouched. Then the command runs there.
AS_DEV_SCRIPT = """
set -e
new=$(mktemp -d)
mount -t tmpfs qwixx-dev "$new"
for node in null zero urandom; do touch "$new/$node"; mount --bind "/dev/$node" "$new/$node"; done
touch "$new/$1"
mount --bind "$2" "$new/$1"
mount --move "$new" /dev
shift 2
exec "$@"
"""


def run_as_dev(bus: MountedBus, command: list[str]) -> subprocess.CompletedProcess[str]:
    """Run `command` where the bus is the real `/dev/i2c-N`, in its own mount namespace."""
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("a private /dev needs root and unshare (util-linux)")
    private = ["unshare", "--mount", "--propagation", "private"]
    script = ["sh", "-c", AS_DEV_SCRIPT, "sh", bus.path.name, str(bus.path)]
    result = subprocess.run(
        [*private, *script, *command],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if "unshare failed" in result.stderr or "mount: " in result.stderr:
        pytest.skip(f"cannot make a private /dev here: {result.stderr.strip()}")
    return result


def fuse_available() -> str | None:
    """Why no FUSE bus can be mounted here, or None when it can."""
    try:
        import fuse  # noqa: F401  (fusepy: raises OSError when libfuse2 is missing)
    except ImportError:
        return "fusepy is not installed (pip install -e '.[test]')"
    except OSError:
        return "libfuse2 is missing (apt install libfuse2; ./dev test installs it as root)"
    if not os.path.exists("/dev/fuse"):
        return "/dev/fuse does not exist here (no FUSE in this kernel or container)"
    if os.geteuid() != 0 and not shutil.which("fusermount"):
        return "mounting FUSE as a user needs fusermount (apt install fuse)"
    return None


@contextlib.contextmanager
def fuse_bus(
    directory: Path, panels: Mapping[int, str], name: str = "i2c-1", khz: float | None = None
) -> Iterator[MountedBus]:
    """A bus `name` in `directory`, with `panels` (address -> chip), served by a FUSE process;
    clocked at `khz` (each transfer takes its time on the wire), else as fast as it can."""
    reason = fuse_available()
    if reason:
        pytest.skip(f"no FUSE I2C bus: {reason}")
    mountpoint = directory / "bus"
    mountpoint.mkdir()
    specs = [f"{address:#04x}={chip}" for address, chip in panels.items()]
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]),
    }
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "support.fakebus.fs",
            *(["--khz", str(khz)] if khz else []),
            str(mountpoint),
            name,
            *specs,
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        _wait_for_mount(server, mountpoint)
        _let_read_my_memory(server.pid)
        _check_it_can_read_my_memory(mountpoint / name)
        yield MountedBus(mountpoint, name)
    finally:
        _unmount(mountpoint)
        _stop(server)


def _wait_for_mount(server: subprocess.Popen[bytes], mountpoint: Path) -> None:
    deadline = time.monotonic() + MOUNT_WAIT
    while not os.path.ismount(mountpoint):
        if server.poll() is not None:
            why = server.stderr.read().decode(errors="replace").strip() if server.stderr else ""
            pytest.skip(f"no FUSE I2C bus: mounting failed here: {why or server.returncode}")
        if time.monotonic() > deadline:
            raise AssertionError(f"the FUSE bus did not mount at {mountpoint}")
        time.sleep(0.02)


def _let_read_my_memory(pid: int) -> None:
    """Under Yama's ptrace_scope=1 only ancestors may read a process: allow the server too."""
    with contextlib.suppress(AttributeError, OSError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PTRACER, pid, 0, 0, 0)


def _check_it_can_read_my_memory(path: Path) -> None:
    """Opening the bus asks I2C_FUNCS, which the server answers into this process's memory."""
    try:
        SMBus(str(path)).close()
    except OSError as error:
        if error.errno != errno.EFAULT:
            raise
        pytest.skip("no FUSE I2C bus: its server may not read this process (ptrace restrictions)")


def _unmount(mountpoint: Path) -> None:
    if not os.path.ismount(mountpoint):
        return
    command = ["fusermount", "-u", "-z"] if shutil.which("fusermount") else ["umount", "-l"]
    subprocess.run([*command, str(mountpoint)], check=False, capture_output=True)


def _stop(server: subprocess.Popen[bytes]) -> None:
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    if server.stderr:
        server.stderr.close()
