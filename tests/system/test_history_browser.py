"""The history's pages in Debian's chromium (Playwright), as a guest's phone shows them: reached
from the join page without a seat, each chart a picture a screen reader hears described, a tap
from the table's games to a game's story, nothing serious for axe-core, and at 360 px and at
200 % text nothing runs off the side of the page and neither a chart nor a table needs
scrolling sideways (a table folded under a chart shows each row as a block, each cell with its
column's heading, and is still read as a table), each page the picture in
tests/golden/history-*.png. After a deliberate change of the
pages, look at the new pictures and refresh them with
QWIXX_UPDATE_GOLDEN=1 ./dev test tests/system/test_history_browser.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from support.browser import browser_module
from support.history import history_tower, more_of_the_known_game
from support.page_probes import AFTER_A_FRAME, SIDEWAYS, SPILLS, UNFOLD, UNLABELLED
from support.paths import GOLDEN
from support.phone_page import (
    BOT,
    CODE,
    axe_source,
    axe_violations,
    phone,
    play_in_browser,
    play_to_the_end,
    same_picture,
    seated_phone,
)
from support.web import web_tower

from firmware_py.app.web import history_pages
from firmware_py.seats.phones.server import WebServer

pytestmark = browser_module("browser-history")
# The smallest words of any chart on the page as drawn, in CSS px: each text's size in the
# chart's own units, times the chart's width on the page over its width in those units
SMALLEST_CHART_WORDS = """() => Math.min(...[...document.querySelectorAll('svg.chart')].flatMap(
    svg => [...svg.querySelectorAll('text')].map(t => parseFloat(t.getAttribute('font-size'))
        * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width)))"""
CHARTS = """() => [...document.querySelectorAll('svg.chart')].map(svg => [
    svg.getAttribute('role'),
    svg.getAttribute('aria-labelledby').split(' ')
        .map(id => document.getElementById(id).textContent).join(' | ')])"""


def test_the_history_is_reached_from_the_join_page_and_a_tap_opens_a_games_story(tmp_path):
    table, server = history_tower(tmp_path)

    async def steps(browser) -> None:
        page = await phone(browser)
        await page.goto(f"http://127.0.0.1:{server.port}/?code={CODE}")
        await page.click("text=Past games and players")
        await page.wait_for_selector("h1:text('Past games and players')")
        await page.click("a[href='/history/game/1']")
        await page.wait_for_selector("h1:text('Game 1')")
        charts = await page.evaluate(CHARTS)
        assert [role for role, _ in charts] == ["img", "img"]
        assert "Ben won with 47 points." in charts[0][1]
        await page.click("text=All players and games")
        await page.click("a[href='/history/player?name=Ben']")
        await page.wait_for_selector("h1:text('Ben')")
        described = await page.evaluate(CHARTS)
        assert described and all(role == "img" and words for role, words in described)

    play_in_browser(table, server, steps)


def test_at_game_over_a_tap_opens_the_history_with_the_game_in_it_and_its_story(tmp_path):
    """Issue 40: the history is reached from game over. Dora, on a phone, plays a game against
    Bot to its end; her game-over page's "Past games and players" opens the history, which
    lists the game, its winner and scores; a tap on it opens its story (its charts described
    in words), and back on the game-over page "This game in the history" opens the same."""
    table, hub, _ = web_tower(tmp_path, [BOT])
    server = WebServer(hub, "127.0.0.1", 0, history_pages(table.journal))

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora", mobile=True)
        play_to_the_end(table)
        await page.wait_for_selector("#figures-box:not([hidden])")
        game_over = page.url
        await page.click("#figures-box >> text=Past games and players")
        await page.wait_for_selector("h1:text('Past games and players')")
        listed = await page.inner_text("ul.games li")
        assert listed.startswith("Game 1 ") and listed.endswith(
            " classic: Dora won (Bot -20, Dora -14)"
        ), listed  # (and when it began, in the tower's time zone)
        await page.click("ul.games a[href='/history/game/1']")
        await page.wait_for_selector("h1:text('Game 1')")
        charts = await page.evaluate(CHARTS)
        assert [role for role, _ in charts] == ["img", "img"]
        assert "Dora won with -14 points." in charts[0][1], charts
        await page.goto(game_over)
        await page.wait_for_selector("#figures-box:not([hidden])")
        await page.click("#game-link")
        await page.wait_for_selector("h1:text('Game 1')")
        assert await page.evaluate(CHARTS) == charts

    play_in_browser(table, server, steps)


PAGES = {"players": "/history", "player": "/history/player?name=Cleo", "game": "/history/game/2"}


def test_axe_core_finds_nothing_serious_on_the_history_pages(tmp_path):
    source = axe_source()
    if source is None:
        pytest.skip("axe-core could not be installed (no npm, or no registry)")
    table, server = history_tower(tmp_path)

    async def steps(browser) -> None:
        page = await phone(browser)
        found = {}
        for name, path in PAGES.items():
            await page.goto(f"http://127.0.0.1:{server.port}{path}")
            await page.click("summary >> nth=0") if name != "players" else None
            found[name] = await axe_violations(page, source)
        assert found == {name: [] for name in PAGES}

    play_in_browser(table, server, steps)


@pytest.mark.parametrize("text", ["100%", "200%"])
def test_at_360_px_the_pages_match_their_pictures_and_nothing_runs_off_the_side(tmp_path, text):
    """On a phone 360 px wide (its scroll bars take no room), at the usual text size and at
    200 %: each page, its tables folded, is the picture in tests/golden/history-*.png (looked
    at: the charts read at a glance); every chart's smallest words are two thirds of the page's
    text size or more; and with every table unfolded, nothing is wider than the phone, no chart
    and no table needs scrolling sideways, and where a table's headings' row is out of sight
    each cell shows its column's heading beside it."""
    table, server = history_tower(tmp_path)
    size = {"100%": 16, "200%": 32}[text]

    async def steps(browser) -> None:
        page = await phone(browser, mobile=True)
        for name, path in PAGES.items():
            await page.goto(f"http://127.0.0.1:{server.port}{path}")
            await page.evaluate(f"document.documentElement.style.fontSize = '{text}'")
            await page.evaluate("document.fonts.ready")
            await page.evaluate(AFTER_A_FRAME)
            picture = await page.screenshot(full_page=True)
            same_picture(picture, GOLDEN / f"history-{name}-{text[:-1]}.png")
            assert await page.evaluate(SMALLEST_CHART_WORDS) >= 0.65 * size, name
            for summary in await page.query_selector_all("summary"):
                await summary.click()
            await page.evaluate(AFTER_A_FRAME)
            assert await page.evaluate("document.documentElement.scrollWidth") <= 360, name
            assert await page.evaluate(SPILLS) == [], name
            assert await page.evaluate(SIDEWAYS) == [], name
            assert await page.evaluate(UNLABELLED) == [], name

    play_in_browser(table, server, steps)


async def _at_text_size(page, url: str, text: str) -> list[str]:
    await page.goto(url)
    await page.evaluate(f"document.documentElement.style.fontSize = '{text}'")
    await page.evaluate("document.fonts.ready")
    await page.evaluate(AFTER_A_FRAME)
    return await page.evaluate(SIDEWAYS)


@pytest.mark.parametrize(("width", "text"), [(360, "200%"), (375, "100%")])
def test_with_large_text_no_chart_and_no_figures_table_scrolls_sideways(tmp_path, width, text):
    """A grandparent who reads 200 % text on a 360 px phone reads each chart whole without
    scrolling it sideways: the points per row, the game roll by roll, the trend, head to head,
    the heat-map and the sheets' table fit the page, as they do at the usual size on a 375 px
    phone, their words still two thirds of the page's text size or more (not shrunk to fit);
    unfolded, no table under a chart scrolls sideways either, each cell showing its heading.
    The pictures were looked at (QWIXX_SHOTS=folder saves them); the game-over page's figures
    are checked in the next test."""
    table, server = history_tower(tmp_path, more_of_the_known_game)
    pages = {"game": "/history/game/2", "player": "/history/player?name=Cleo"}

    async def steps(browser) -> None:
        page = await phone(browser, viewport={"width": width, "height": 740}, mobile=True)
        for name, path in pages.items():
            url = f"http://127.0.0.1:{server.port}{path}"
            assert await _at_text_size(page, url, text) == [], name
            await page.evaluate(UNFOLD)
            await page.evaluate(AFTER_A_FRAME)
            assert await page.evaluate(SIDEWAYS) == [], name
            assert await page.evaluate(UNLABELLED) == [], name
            size = {"100%": 16, "200%": 32}[text]
            assert await page.evaluate(SMALLEST_CHART_WORDS) >= 0.65 * size, name
            kinds = await page.evaluate("[...document.querySelectorAll('svg.chart')]"
                                        ".map(svg => svg.classList[1])")  # fmt: skip
            assert kinds == {"game": ["breakdown", "story"],
                             "player": ["trend", "rivals", "heat"]}[name]  # fmt: skip
            if os.environ.get("QWIXX_SHOTS"):
                shot = Path(os.environ["QWIXX_SHOTS"]) / f"{name}-{width}-{text[:-1]}.png"
                await page.screenshot(path=str(shot), full_page=True)

    play_in_browser(table, server, steps)


def test_at_game_over_with_large_text_the_figures_need_no_sideways_scrolling(tmp_path):
    """Dora, reading 200 % text on a 360 px phone, plays a game against Bot to its end: her
    game-over page shows the points per row and the game roll by roll whole, nothing of the
    page or of either chart out of sight to the side, nor of the tables folded under them."""
    table, hub, _ = web_tower(tmp_path, [BOT])
    server = WebServer(hub, "127.0.0.1", 0, history_pages(table.journal))

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora", mobile=True)
        await page.evaluate("document.documentElement.style.fontSize = '200%'")
        play_to_the_end(table)
        await page.wait_for_selector("#figures-box:not([hidden])")
        await page.evaluate(AFTER_A_FRAME)
        assert (
            await page.evaluate("document.querySelectorAll('#figures-box svg.chart').length") == 2
        )
        assert await page.evaluate(SIDEWAYS) == []
        assert await page.evaluate(SMALLEST_CHART_WORDS) >= 0.65 * 32
        await page.evaluate(UNFOLD)
        await page.evaluate(AFTER_A_FRAME)
        assert await page.evaluate(SIDEWAYS) == []  # nor any table folded under them
        assert await page.evaluate(UNLABELLED) == []
        if os.environ.get("QWIXX_SHOTS"):
            shot = Path(os.environ["QWIXX_SHOTS"]) / "game-over-360-200.png"
            await page.screenshot(path=str(shot), full_page=True)

    play_in_browser(table, server, steps)


def test_at_200_percent_text_the_tables_under_the_charts_are_still_read_as_tables(tmp_path):
    """Laid out as blocks at 200 % text on a 360 px phone, each table folded under a chart (a
    player's head to head and heat-map, a game's points and scores) is what a screen reader
    finds in chromium's accessibility tree at the usual size: a table named by its caption,
    its rows, its column headings and row headings, and its cells, each heard once (the
    heading shown beside a cell is not read again as part of it)."""
    table, server = history_tower(tmp_path, more_of_the_known_game)

    async def steps(browser) -> None:
        page = await phone(browser, mobile=True)
        for path in ("/history/game/2", "/history/player?name=Cleo"):
            read = {}
            for text in ("100%", "200%"):
                await _at_text_size(page, f"http://127.0.0.1:{server.port}{path}", text)
                await page.evaluate(UNFOLD)
                await page.evaluate(AFTER_A_FRAME)
                read[text] = [await folded.aria_snapshot()
                              for folded in await page.locator("details table").all()]  # fmt: skip
            assert read["200%"] == read["100%"], path
            assert all("- columnheader" in t and "- cell" in t for t in read["200%"]), path

    play_in_browser(table, server, steps)
