"""One headless chromium per test process, started at the first test that needs it and shared
by the rest, over one DevTools connection: each test opens contexts of its own (own storage,
own viewport), closed when it ends, so tests stay apart while the browser starts once.

Playwright's driver (a Node.js process, almost a second of CPU to start) is shared the same way:
it lives in one event loop of the test process's own, on a thread, and a browser test runs its
table, web server and steps in that loop (`run_in_browser_loop`) instead of in a loop of its own.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

from support import HANG

# Debian's old headless shell (chromium-headless-shell, what Playwright runs for headless tests):
# chromium's Blink, V8 and DevTools without the desktop browser around them. The browser tests
# took 30 s of CPU with it where `chromium --headless` took 55 s. The full chromium where it
# alone is installed.
CHROMIUM = (
    shutil.which("chromium-headless-shell") or shutil.which("chromium") or "/usr/bin/chromium"
)
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
    # A process group of its own: Debian's chromium-headless-shell is a shell script that runs
    # the browser as its child, so the browser is stopped through its group, not the script.
    process = subprocess.Popen(
        [executable, *FLAGS, "--remote-debugging-port=0", f"--user-data-dir={profile.name}",
         "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        process_group=0,
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
    """The browser and every process of its group (its helpers, a wrapper script) ended: asked
    to, then made to after 10 s."""
    group = process.pid
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            process.poll()  # (the wrapper, our child, reaped; the rest are reaped by init)
            os.killpg(group, 0)  # ProcessLookupError once the whole group is gone
            time.sleep(0.05)
        os.killpg(group, signal.SIGKILL)
    process.wait()
    profile.cleanup()


_browser_loop: dict[str, Any] = {}


def run_in_browser_loop(coroutine: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """`asyncio.run(coroutine())`, but in the loop where this process's Playwright lives."""
    loop = _loop()
    asyncio.run_coroutine_threadsafe(_finished(coroutine()), loop).result()


async def _finished(coroutine: Coroutine[Any, Any, None]) -> None:
    """The coroutine, and then whatever tasks it left behind cancelled, as `asyncio.run` does
    when it closes its loop: the next test finds the loop as the last one found it."""
    before = asyncio.all_tasks()
    try:
        await coroutine
    finally:
        left = [task for task in asyncio.all_tasks() - before if task is not asyncio.current_task()]
        for task in left:
            task.cancel()
        await asyncio.gather(*left, return_exceptions=True)


def playwright() -> Any:
    """This process's Playwright (call it inside `run_in_browser_loop`)."""
    return _browser_loop["playwright"]


@contextlib.asynccontextmanager
async def connected() -> AsyncIterator[Any]:
    """This process's chromium, connected over the DevTools protocol once and shared by its
    tests (inside `run_in_browser_loop`); the contexts a test opens close when it ends, so the
    next test finds the browser as this one found it. (A connection per test cost chromium,
    Playwright's driver and the test about half a second of CPU each, attaching to it.)"""
    browser = _browser_loop.get("browser")
    if browser is None or not browser.is_connected():
        browser = await playwright().chromium.connect_over_cdp(endpoint(CHROMIUM))
        _browser_loop["browser"] = browser
    before = set(browser.contexts)
    try:
        yield browser
    finally:
        for context in browser.contexts:
            if context not in before:
                await context.close()


def _loop() -> asyncio.AbstractEventLoop:
    with _lock:
        if "loop" not in _browser_loop:
            from playwright.async_api import async_playwright

            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, daemon=True).start()
            started = asyncio.run_coroutine_threadsafe(async_playwright().start(), loop)
            _browser_loop.update(loop=loop, playwright=started.result(HANG))
            atexit.register(_stop_playwright, loop)
        return _browser_loop["loop"]


def _stop_playwright(loop: asyncio.AbstractEventLoop) -> None:
    stopping = asyncio.run_coroutine_threadsafe(_browser_loop["playwright"].stop(), loop)
    try:
        stopping.result(10)
    finally:
        loop.call_soon_threadsafe(loop.stop)
