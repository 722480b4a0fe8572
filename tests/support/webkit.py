"""The tower's and the league's pages in WebKit, the engine of Safari and of every browser on
an iPhone: Debian's WebKitGTK, its MiniBrowser driven through WebKitWebDriver by Selenium (W3C
WebDriver).

Each phone is a MiniBrowser of its own (own storage) on an X screen of its own the size of the
phone (Xvfb), full screen under a small window manager (matchbox), so that the page's viewport is
the phone's: 360 x 740 CSS px, its scroll bars drawn over the page as a phone's are. Selenium
blocks, so each step runs on a thread (`asyncio.to_thread`) while the table plays on in its loop;
the steps are named as Playwright's (`goto`, `click`, `evaluate`, `wait_for_function`) so that a
WebKit test reads as the chromium tests beside it do.

Uncaught errors of the page's script are collected from the first step after a page is loaded
(WebDriver has no event for them): a script that fails while loading shows as a page that never
seats its player."""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest

from support import HANG

MINIBROWSERS = sorted(glob.glob("/usr/lib/*/webkit2gtk-4.1/MiniBrowser"))
DRIVER = shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"
PROGRAMS = {"WebKitWebDriver": DRIVER, "Xvfb": shutil.which("Xvfb") or "/usr/bin/Xvfb",
            "matchbox-window-manager": shutil.which("matchbox-window-manager")
            or "/usr/bin/matchbox-window-manager"}  # fmt: skip
SMALL_PHONE = (360, 740)
POLL = 0.05  # seconds between two looks at the page while waiting for it

# The page's uncaught errors and what its Content Security Policy refused, kept in the page
# from the first step after it loaded (written into every script WebDriver runs in it)
KEEP_ERRORS = """if (!window.qwixxErrors) {
    window.qwixxErrors = [];
    addEventListener('error', (e) => qwixxErrors.push(String(e.message)));
    addEventListener('unhandledrejection', (e) => qwixxErrors.push(String(e.reason)));
    document.addEventListener('securitypolicyviolation',
        (e) => qwixxErrors.push(`refused by ${e.violatedDirective}: ${e.blockedURI}`));
}"""
# The source of a function (FUNCTION, written into the script: the page's CSP rightly refuses
# `eval`, while WebDriver's own scripts run beside it), called with the script's arguments but
# the last, WebDriver's callback; its promise awaited, and the errors kept so far handed over
CALL = (
    KEEP_ERRORS
    + """
const done = arguments[arguments.length - 1];
const args = Array.prototype.slice.call(arguments, 0, arguments.length - 1);
const kept = () => window.qwixxErrors.splice(0);
Promise.resolve().then(() => (FUNCTION)(...args)).then(
    (value) => done({value: value === undefined ? null : value, errors: kept()}),
    (error) => done({error: String(error), errors: kept()}));"""
)


def missing() -> list[str]:
    """What of WebKit's parts this machine lacks (./dev test installs them with apt-get)."""
    parts = {**PROGRAMS, "MiniBrowser": MINIBROWSERS[0] if MINIBROWSERS else ""}
    return [name for name, path in parts.items() if not path or not os.path.exists(path)]


def webkit_module(group: str) -> list[pytest.MarkDecorator]:
    """The marks of a module of WebKit tests (`pytestmark`): run by one worker (--dist
    loadgroup: a MiniBrowser is a browser's worth of CPU); skipped where Selenium or WebKit's
    parts are missing, except under CI, where they must be there and the tests fail instead."""
    from importlib.util import find_spec

    lacking = missing() + ([] if find_spec("selenium") else ["selenium (test extra)"])
    absent = bool(lacking) and os.environ.get("CI") != "true"
    return [
        pytest.mark.skipif(absent, reason=f"no {', '.join(lacking)}: ./dev test installs it"),
        pytest.mark.xdist_group(group),
    ]


@contextlib.contextmanager
def webkit_phone(size: tuple[int, int] = SMALL_PHONE, storage: bool = True) -> Iterator[WebKitPage]:
    """A phone of `size` CSS px (width, height) with WebKit's browser open on it; `storage`
    False: a browser that keeps no site data (its localStorage is null)."""
    assert missing() == [], f"WebKit's parts are missing: {missing()}"
    with _screen(size) as display:
        page = _browser_on(display, [] if storage else ["--enable-html5-local-storage=false"])
        try:
            # (full screen once the window manager has taken the window: on a busy machine it
            # may start after the browser, and a page laid out before would be no phone's)
            page._until("([w, h]) => innerWidth === w && innerHeight === h", list(size))
            yield page
        finally:
            page.driver.quit()


@contextlib.contextmanager
def _screen(size: tuple[int, int]) -> Iterator[str]:
    """An X screen of `size` with a window manager that shows each window full screen; its
    display name (a free one, which Xvfb picks and writes to the pipe)."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        [PROGRAMS["Xvfb"], "-displayfd", str(write), "-screen", "0", f"{size[0]}x{size[1]}x24",
         "-nolisten", "tcp", "-nolisten", "unix"],
        pass_fds=[write], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    os.close(write)
    manager = None
    try:
        with os.fdopen(read) as pipe:
            display = f":{pipe.readline().strip()}"
        manager = subprocess.Popen(
            [PROGRAMS["matchbox-window-manager"], "-use_titlebar", "no"],
            env={**os.environ, "DISPLAY": display}, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        yield display
    finally:
        for process in (manager, xvfb):
            if process is not None:
                process.terminate()
                process.wait(HANG)


def _browser_on(display: str, arguments: list[str]) -> WebKitPage:
    from selenium import webdriver
    from selenium.webdriver.webkitgtk.options import Options
    from selenium.webdriver.webkitgtk.service import Service

    options = Options()
    options.binary_location = MINIBROWSERS[0]
    options.add_argument("--automation")
    options.add_argument("--full-screen")
    for argument in arguments:
        options.add_argument(argument)
    environment = {**os.environ, "DISPLAY": display, "NO_AT_BRIDGE": "1"}
    service = Service(executable_path=DRIVER, env=environment)
    driver = webdriver.WebKitGTK(options=options, service=service)
    driver.set_page_load_timeout(HANG)
    driver.set_script_timeout(HANG)
    return WebKitPage(driver)


class WebKitPage:
    """One phone's page in WebKit: the steps a test takes, each awaited on a thread."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver
        self.errors: list[str] = []  # uncaught errors of the pages this phone showed

    async def goto(self, url: str) -> None:
        await asyncio.to_thread(self._loaded, self.driver.get, url)

    async def reload(self) -> None:
        await asyncio.to_thread(self._loaded, self.driver.refresh)

    def _loaded(self, load: Any, *args: Any) -> None:
        """The page loaded, its errors kept from now on (the last page's handed over)."""
        with contextlib.suppress(Exception):  # (no page yet)
            self._call("() => null")
        load(*args)
        self._call("() => null")

    async def evaluate(self, function: str, *args: Any) -> Any:
        """What the JavaScript function `function` returns (its promise awaited), as JSON."""
        return await asyncio.to_thread(self._call, function, *args)

    def _call(self, function: str, *args: Any) -> Any:
        answer = self.driver.execute_async_script(CALL.replace("FUNCTION", function), *args)
        self.errors += answer["errors"]
        if "error" in answer:
            raise AssertionError(f"the page's script failed: {answer['error']}")
        return answer["value"]

    async def wait_for_function(self, function: str, *args: Any) -> Any:
        """The first truthy answer of `function`, asked again until it comes (at most HANG s)."""
        return await asyncio.to_thread(self._until, function, *args)

    def _until(self, function: str, *args: Any) -> Any:
        deadline = time.monotonic() + HANG
        while not (answer := self._call(function, *args)):
            assert time.monotonic() < deadline, f"the page never showed {function}"
            time.sleep(POLL)
        return answer

    async def wait_for_selector(self, selector: str) -> None:
        await self.wait_for_function("(s) => document.querySelector(s) !== null", selector)

    async def click(self, selector: str) -> None:
        """A tap on the element, as WebDriver's click makes one: scrolled into view, and
        refused if anything else would take the tap."""
        await asyncio.to_thread(lambda: self.driver.find_element("css selector", selector).click())

    async def click_button(self, name: str) -> None:
        """A tap on the button that says `name`."""
        path = f"//button[normalize-space()={_quoted(name)}]"
        await asyncio.to_thread(lambda: self.driver.find_element("xpath", path).click())

    async def wait_for_text(self, text: str) -> None:
        await self.wait_for_function("(t) => document.body.innerText.includes(t)", text)

    async def fill(self, selector: str, text: str) -> None:
        """`text` typed into the field, each line ended with the Return key (WebKit's driver
        types nothing for a bare "\\n")."""
        from selenium.webdriver.common.keys import Keys

        def typed() -> None:
            field = self.driver.find_element("css selector", selector)
            field.clear()
            field.send_keys(text.replace("\n", Keys.RETURN))

        await asyncio.to_thread(typed)

    async def roles(self, selector: str) -> list[tuple[str, str]]:
        """(tag, role) of each element `selector` finds, the role as WebKit's accessibility
        tree computes it (WebDriver's computed role): what VoiceOver is told the element is."""

        def computed() -> list[tuple[str, str]]:
            found = self.driver.find_elements("css selector", selector)
            return [(element.tag_name.lower(), element.aria_role) for element in found]

        return await asyncio.to_thread(computed)

    async def names(self, selector: str) -> list[tuple[str, str]]:
        """(role, name) of each element `selector` finds, as WebKit's accessibility tree
        computes them (WebDriver's computed role and label): what VoiceOver says of it, its
        words run together as spoken (the space WebKit puts between a cell's number and its
        hidden words, before their comma, is no word)."""

        def computed() -> list[tuple[str, str]]:
            found = self.driver.find_elements("css selector", selector)
            return [(element.aria_role, _spoken(element.accessible_name)) for element in found]

        return await asyncio.to_thread(computed)

    async def framed_text(self, frame: str) -> str:
        """The text the frame of id `frame` shows (entered as WebDriver enters a frame of
        another origin), and back to the page."""

        def read() -> str:
            self.driver.switch_to.frame(frame)
            try:
                return str(
                    self.driver.execute_script(
                        "return document.body ? document.body.innerText : ''"
                    )
                )
            finally:
                self.driver.switch_to.default_content()

        return await asyncio.to_thread(read)

    async def script_errors(self) -> list[str]:
        """The uncaught errors and refusals of every page this phone has shown, so far."""
        await asyncio.to_thread(self._call, "() => null")
        return self.errors


def _spoken(words: str) -> str:
    return " ".join(words.split()).replace(" ,", ",")


def _quoted(text: str) -> str:
    """`text` as an XPath string literal (which has no escapes: concat() of its pieces)."""
    if "'" not in text:
        return f"'{text}'"
    return "concat(" + ', "\'", '.join(f"'{piece}'" for piece in text.split("'")) + ")"
