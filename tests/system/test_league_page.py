"""The league's page in Debian's headless chromium (Playwright): the standings with each
rating's uncertainty, a table's game in progress, the evening's games, a player's page one
tap away, a name that is markup shown as typed, and nothing the page's own security headers
refuse (no console error) on a phone's screen."""

from __future__ import annotations

from support import HANG
from support.browser import browser_module, connected, run_in_browser_loop
from support.league_evening import evening_served

pytestmark = browser_module("browser-league")
SMALL_PHONE = {"width": 360, "height": 740}


def test_the_league_page_on_a_phone(tmp_path):
    async def look() -> None:
        async with evening_served(tmp_path) as url, connected() as browser:
            context = await browser.new_context(viewport=SMALL_PHONE)
            page = await context.new_page()
            page.set_default_timeout(HANG * 1000)
            complaints: list[str] = []
            page.on("console", lambda message: complaints.append(message.text))
            await page.goto(url)
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

    run_in_browser_loop(look)
