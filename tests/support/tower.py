"""`qwixx-tower run` as a process, with systemd's end of its notify socket, so a test waits for
what the tower says (READY=1, a line of output, its exit) instead of for time to pass."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

from support import (
    HANG,  # the one bound for a hang
    spawn,
)
from support.lines import Lines


class Tower:
    """One tower process: its output read line by line as it comes, READY=1 heard on a private
    notify socket (an abstract one: nothing on disk), stopped with SIGTERM as systemd does."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self._notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        name = f"qwixx-test-{os.getpid()}-{id(self)}"
        self._notify.bind("\0" + name)
        environment = dict(os.environ if env is None else env, NOTIFY_SOCKET="@" + name)
        command = [sys.executable, "-m", "firmware_py.app.cli", "run", "--plain", *args]
        self.process = spawn.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, env=environment,
        )  # fmt: skip
        assert self.process.stdout is not None  # a pipe
        self._output = Lines(self.process.stdout)
        self.lines = self._output.lines

    @property
    def output(self) -> str:
        return self._output.text

    def wait_ready(self, timeout: float = HANG) -> None:
        """Until the tower tells systemd READY=1: its journal read back, its doors open."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"the tower never said READY=1; it printed:\n{self.output}"
            assert self.process.poll() is None, f"the tower ended before READY=1:\n{self.output}"
            self._notify.settimeout(min(left, 0.5))
            try:
                message = self._notify.recv(4096).decode()
            except TimeoutError:
                continue
            if "READY=1" in message.split("\n"):
                return

    def wait_for_line(self, pattern: str, timeout: float = HANG) -> str:
        """The first line matching `pattern` (a regular expression), once the tower prints it."""
        found = self._output.first(pattern, 0, timeout)
        assert found is not None, f"no line matches {pattern!r}:\n{self.output}"
        return found[1].string

    def quiet_for(self, seconds: float, pattern: str) -> str | None:
        """A line matching `pattern` printed within `seconds` from now, or None: for what must
        not happen by itself (the window is the tower's pace many times over, not a guess of
        how long something takes)."""
        found = self._output.first(pattern, 0, seconds)
        return found[1].string if found else None

    def wait_for_exit(self, timeout: float = HANG) -> int:
        """The tower's exit status, once it ends by itself (e.g. after --games N)."""
        status = self.process.wait(timeout=timeout)
        self._output.join(timeout)
        return status

    def stop(self) -> str:
        """SIGTERM, as `systemctl stop` sends; everything the tower printed."""
        if self.process.poll() is None:
            self.process.terminate()
        self.wait_for_exit()
        self._notify.close()
        return self.output

    def __enter__(self) -> Tower:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._notify.close()
