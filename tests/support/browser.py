"""One headless chromium per test process, started at the first test that needs it and shared
by the rest: each test connects to it over the DevTools protocol and opens contexts of its own
(own storage, own viewport), so tests stay apart while the browser starts once, not per test."""

from __future__ import annotations

import atexit
import re
import subprocess
import tempfile
import threading

from support import HANG

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync"]  # fmt: skip
LISTENING = re.compile(r"DevTools listening on (ws://\S+)")

_shared: dict[str, str] = {}
_lock = threading.Lock()


def endpoint(executable: str) -> str:
    """The DevTools address of this process's chromium, started on first use."""
    with _lock:
        if executable not in _shared:
            _shared[executable] = _start(executable)
        return _shared[executable]


def _start(executable: str) -> str:
    # (chromium's helper processes may still write there as it ends: what is left is left)
    profile = tempfile.TemporaryDirectory(prefix="qwixx-chromium-", ignore_cleanup_errors=True)
    process = subprocess.Popen(
        [executable, *FLAGS, "--remote-debugging-port=0", f"--user-data-dir={profile.name}",
         "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    found = threading.Event()
    address: list[str] = []

    def drain() -> None:
        """Read chromium's messages for ever (a full pipe would stop it), noting its address."""
        assert process.stderr is not None
        for line in process.stderr:
            match = LISTENING.search(line)
            if match and not found.is_set():
                address.append(match.group(1))
                found.set()
        found.set()

    threading.Thread(target=drain, daemon=True).start()
    atexit.register(_stop, process, profile)
    assert found.wait(HANG) and address, "chromium never said where it listens"
    return address[0]


def _stop(process: subprocess.Popen[str], profile: tempfile.TemporaryDirectory[str]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    profile.cleanup()
