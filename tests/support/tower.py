"""`qwixx-tower run` as a process, with systemd's end of its notify socket, so a test waits for
what the tower says (READY=1, a line of output, its exit) instead of for time to pass."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time

from support import (
    HANG,  # the one bound for a hang
    spawn,
)


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
        self.lines: list[str] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._changed:
                self.lines.append(line.rstrip("\n"))
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    @property
    def output(self) -> str:
        return "\n".join(self.lines)

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
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = next((line for line in self.lines if re.search(pattern, line)), None)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                ended = self.process.poll() is not None and not self._reader.is_alive()
                assert left > 0 and not ended, f"no line matches {pattern!r}:\n{self.output}"
                self._changed.wait(min(left, 0.5))

    def quiet_for(self, seconds: float, pattern: str) -> str | None:
        """A line matching `pattern` printed within `seconds` from now, or None: for what must
        not happen by itself (the window is the tower's pace many times over, not a guess of
        how long something takes)."""
        try:
            return self.wait_for_line(pattern, timeout=seconds)
        except AssertionError:
            return None

    def wait_for_exit(self, timeout: float = HANG) -> int:
        """The tower's exit status, once it ends by itself (e.g. after --games N)."""
        status = self.process.wait(timeout=timeout)
        self._reader.join(timeout=timeout)
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
