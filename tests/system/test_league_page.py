"""The league's page in Debian's headless chromium (Playwright): the standings with each
rating's uncertainty, a table's game in progress, the evening's games, a player's page one
tap away, a name that is markup shown as typed, and nothing the page's own security headers
refuse (no console error) on a phone's screen."""

from __future__ import annotations

import json
from datetime import datetime

from support import HANG
from support.browser import browser_module, connected, run_in_browser_loop

from firmware_py.league.core import League
from firmware_py.league.store import Store
from firmware_py.league.web import Evening, LeaguePage

pytestmark = browser_module("browser-league")
SMALL_PHONE = {"width": 360, "height": 740}
NOW = datetime.fromisoformat("2026-11-22T21:00:00+01:00")


def result(number: int, scores: dict[str, int]) -> bytes:
    players = [
        {"name": name, "seat": seat, "kind": "phone", "level": None, "score": score,
         "penalties": 0, "place": 1 + sum(other > score for other in scores.values())}
        for seat, (name, score) in enumerate(scores.items(), start=1)
    ]  # fmt: skip
    return json.dumps({
        "id": f"t1-{number:06d}", "tower": "t1", "game": number, "variant": "classic",
        "started": None, "finished": f"2026-11-22T19:{number:02d}:00+00:00", "reason": "locks",
        "players": players, "winners": [p["name"] for p in players if p["place"] == 1],
    }).encode()  # fmt: skip


def evening(tmp_path) -> League:
    league = League(Store(tmp_path / "league.sqlite"), "qwixx")
    league.take("qwixx/t1/availability", b"online")
    league.take("qwixx/t2/availability", b"online")
    for number in range(1, 4):
        league.take("qwixx/t1/result", result(number, {"<i>Zoë": 60, "Ann": 40 + number}))
    state = {"state": "roll", "variant": "classic", "active": "Ben", "seats": [
        {"name": "Ben", "score": 12, "penalties": 0}, {"name": "Cleo", "score": 9,
                                                       "penalties": 0}]}  # fmt: skip
    league.take("qwixx/t2/state", json.dumps(state).encode())
    return league


def test_the_league_page_on_a_phone(tmp_path):
    async def look() -> None:
        league = evening(tmp_path)  # (SQLite in the thread of the browser's loop)
        page_server = LeaguePage(league, "127.0.0.1", 0, Evening(6, clock=lambda: NOW))
        port = await page_server.start()
        try:
            async with connected() as browser:
                context = await browser.new_context(viewport=SMALL_PHONE)
                page = await context.new_page()
                page.set_default_timeout(HANG * 1000)
                complaints: list[str] = []
                page.on("console", lambda message: complaints.append(message.text))
                await page.goto(f"http://127.0.0.1:{port}/")
                assert await page.title() == "Qwixx league"
                rows = page.locator("table.standings tbody tr")
                assert await rows.count() == 2
                first = await rows.nth(0).inner_text()
                assert first.startswith("1\t<i>Zoë") and "±" in first  # the name as typed
                assert await page.locator("main i").count() == 0  # ... and not as markup
                tables = await page.locator("ul.tables").inner_text()
                assert "t2: classic: Ben 12, Cleo 9; Ben rolls" in tables
                assert await page.locator("table.games tbody tr").count() == 3
                await page.screenshot(path=str(tmp_path / "league.png"), full_page=True)
                await rows.nth(0).locator("a").click()
                await page.wait_for_url("**/player/**")
                assert (await page.locator("h1").inner_text()) == "<i>Zoë"
                assert "Place 1 with a rating of" in await page.locator("p.rating").inner_text()
                assert complaints == []
        finally:
            await page_server.stop()

    run_in_browser_loop(look)
