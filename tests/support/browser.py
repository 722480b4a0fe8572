"""One headless chromium per test process, started at the first test that needs it and shared
by the rest of its module, over one DevTools pipe: each test opens contexts of its own (own
storage, own viewport), closed when it ends, so tests stay apart while the browser starts once.

Playwright's driver (a Node.js process, almost a second of CPU to start) is shared the same way:
it lives in one event loop of the test process's own, on a thread, and a browser test runs its
table, web server and steps in that loop (`run_in_browser_loop`) instead of in a loop of its own.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import importlib.util
import os
import shutil
import tempfile
import threading
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

import pytest

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

_lock = threading.Lock()
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
    """This process's chromium, started at the first call and shared by its tests (inside
    `run_in_browser_loop`); the contexts a test opens close when it ends, so the next test finds
    the browser as this one found it. (A browser per test cost chromium, Playwright's driver
    and the test about half a second of CPU each.)"""
    browser = _browser_loop.get("browser")
    if browser is None or not browser.is_connected():
        browser = await _launch()
        _browser_loop["browser"] = browser
    before = set(browser.contexts)
    try:
        yield browser
    finally:
        for context in browser.contexts:
            if context not in before:
                await context.close()


async def _launch() -> Any:
    """Chromium with our flags only, spoken to over a pipe (`--remote-debugging-pipe`): over
    a DevTools WebSocket, chromium and Playwright's driver deflated and inflated every message
    between them. Playwright ends the browser, with its helpers, when the driver stops (also
    when this process is killed: the driver's input closes)."""
    _remove_profile()  # (a browser before this one that crashed left it)
    profile = _browser_loop["profile"] = tempfile.mkdtemp(prefix="qwixx-chromium-")
    return await playwright().chromium.launch(
        executable_path=CHROMIUM, ignore_default_args=True, timeout=HANG * 1000,
        args=[*FLAGS, "--remote-debugging-pipe", f"--user-data-dir={profile}"],
    )  # fmt: skip


def _loop() -> asyncio.AbstractEventLoop:
    """This process's browser loop, on a thread of its own, with Playwright started in it."""
    with _lock:
        if "loop" not in _browser_loop:
            loop = _browser_loop["loop"] = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, daemon=True).start()
            atexit.register(_at_exit, loop)
        loop = _browser_loop["loop"]
        if "playwright" not in _browser_loop:
            from playwright.async_api import async_playwright

            started = asyncio.run_coroutine_threadsafe(async_playwright().start(), loop)
            _browser_loop["playwright"] = started.result(HANG)
        return loop


def end_browser() -> None:
    """End chromium and Playwright's driver now (the next browser test starts them again).
    A module's browser tests call this when they are over: at the test process's exit the
    whole run would wait a second or more for the browser to close."""
    with _lock:
        playwright = _browser_loop.pop("playwright", None)
        _browser_loop.pop("browser", None)
        if playwright is None:
            return
        stopping = asyncio.run_coroutine_threadsafe(playwright.stop(), _browser_loop["loop"])
        try:
            stopping.result(HANG)  # (closing takes a second idle; a bound only for a hang)
        finally:
            _remove_profile()


def _remove_profile() -> None:
    """The files of the last browser started, once it has ended."""
    if "profile" in _browser_loop:
        shutil.rmtree(_browser_loop.pop("profile"), ignore_errors=True)


def _at_exit(loop: asyncio.AbstractEventLoop) -> None:
    try:
        end_browser()
    finally:
        loop.call_soon_threadsafe(loop.stop)


def browser_module(group: str) -> list[pytest.MarkDecorator]:
    """The marks of a module of browser tests (`pytestmark`): skipped without Playwright (a
    test extra) or chromium, and run by one worker (--dist loadgroup), so that its tests share
    one chromium and one Playwright driver, not one per worker."""
    if (
        importlib.util.find_spec("playwright") is None
    ):  # (found, not imported: every worker collects)
        pytest.skip("playwright (test extra)", allow_module_level=True)
    return [
        pytest.mark.skipif(
            not os.path.exists(CHROMIUM),
            reason="no chromium: ./dev test installs it with apt-get when run as root",
        ),
        pytest.mark.xdist_group(group),
        pytest.mark.usefixtures("browser_for_the_module"),
    ]
