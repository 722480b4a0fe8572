"""A private D-Bus system bus for one test: Debian's `dbus-daemon`, configured in the test's own
directory, so tests running side by side each have their own `org.bluez` and nothing of the
machine's real Bluetooth is touched.

Where no daemon can be started here the test is skipped, saying why and what to install.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from support import HANG

START_WAIT = HANG  # seconds a loaded machine may take to start the daemon
SOCKET_PATH_ROOM = 100  # a unix socket's path must fit in 108 bytes

CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""


def daemon_missing() -> str | None:
    """Why no private bus can be started here, or None when it can."""
    if shutil.which("dbus-daemon") is None:
        return "dbus-daemon is missing (apt install dbus; ./dev test installs it as root)"
    return None


@contextlib.contextmanager
def private_system_bus(directory: Path) -> Iterator[str]:
    """A bus daemon of its own, configured in `directory`; yields its address."""
    reason = daemon_missing()
    if reason:
        pytest.skip(f"no private D-Bus: {reason}")
    with _socket_directory(directory) as where:
        config = directory / "bus.conf"
        config.write_text(CONFIG.format(socket=where / "bus"))
        daemon = subprocess.Popen(
            ["dbus-daemon", f"--config-file={config}", "--print-address", "--nofork"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            yield _address(daemon)
        finally:
            daemon.terminate()
            daemon.wait(timeout=START_WAIT)


@contextlib.contextmanager
def _socket_directory(directory: Path) -> Iterator[Path]:
    """`directory` itself, unless its path is too long for a socket: then a fresh one in /tmp."""
    if len(str(directory / "bus")) <= SOCKET_PATH_ROOM:
        yield directory
        return
    short = Path(tempfile.mkdtemp(prefix="qwixx-bus-"))
    try:
        yield short
    finally:
        shutil.rmtree(short, ignore_errors=True)


def _address(daemon: subprocess.Popen[str]) -> str:
    assert daemon.stdout is not None
    with _bounded(daemon):
        line = daemon.stdout.readline().strip()
    if not line:
        why = daemon.stderr.read().strip() if daemon.stderr else ""
        pytest.skip(f"no private D-Bus: dbus-daemon did not start here: {why}")
    return line


@contextlib.contextmanager
def _bounded(daemon: subprocess.Popen[str]) -> Iterator[None]:
    """Kill a daemon that hangs before printing its address, so the read ends."""
    timer = threading.Timer(START_WAIT, daemon.kill)
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def bus_environment(address: str) -> dict[str, str]:
    """The environment of a process that should take this bus for the system bus."""
    return {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": address}
