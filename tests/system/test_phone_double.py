"""Qwixx Double on the phone page, in a real browser: a cell printed double drawn with a double
frame (B), the number crossed last offered again as "x2" (a multiplication sign) and crossed a
second time from the phone (A), a cell crossed twice drawn with two crosses and counted two,
and the page's accessibility kept (docs/accessibility.md): the words a screen reader says,
44 px targets, text at 4.5:1, no axe violation."""

from __future__ import annotations

from support.phone_page import (
    axe_source,
    axe_violations,
    first_roll,
    low_contrast_texts,
    phone_tower,
    play_in_browser,
    seated_phone,
    settled,
)

from firmware_py.rules import Mark, Pass, Roll

RED_CELLS = """() => [...document.querySelectorAll('#sheet .row.red .cell')].map((cell) => [
    cell.className, cell.textContent])"""
RED_WORDS = "() => document.querySelector('#sheet .row.red .cells').getAttribute('aria-label')"


async def accessible(page) -> None:
    assert await low_contrast_texts(page) == []
    source = axe_source()
    if source is not None:
        assert await axe_violations(page, source) == []


def test_the_number_crossed_last_is_crossed_again_from_the_phone(tmp_path):
    table, _, server = phone_tower(tmp_path, variant="double-a")

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        first_roll(table)  # Bot rolls white 4 + 1
        table.submit(Mark("Dora", "red", 5))
        table.submit(Pass("Bot"))
        table.submit(Pass("Bot"))  # Bot's action 2: a penalty; Dora rolls next
        table.submit(Roll((1, 4), {"red": 2, "yellow": 2, "green": 2, "blue": 2}))
        button = await page.wait_for_selector("#moves .move.red.twice")
        assert "\u00d72" in await button.inner_text()
        box = await button.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
        cells = await page.evaluate(RED_CELLS)
        assert "legal" in cells[3][0] and "once" in cells[3][0]  # red 5: its cross, offered
        assert "crossed once, may be crossed again" in cells[3][1]
        await accessible(page)
        await button.click()
        await page.wait_for_selector("#sheet .row.red .cell.legal.selected")
        await page.click("#confirm-button")
        await page.wait_for_selector("#sheet .row.red .cell.crossed.twice")
        await settled(page)
        assert await page.evaluate(RED_WORDS) == "red row, 2 crosses"
        assert "crossed twice" in (await page.evaluate(RED_CELLS))[3][1]
        await page.screenshot(path=str(tmp_path / "double-a.png"), full_page=True)
        await accessible(page)

    play_in_browser(table, server, steps)
    assert table.game.player("Dora").rows[4] == 1 << 3  # red 5's second cross


def test_cells_printed_double_have_a_double_frame_and_count_two(tmp_path):
    table, _, server = phone_tower(tmp_path, variant="double-b")

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        first_roll(table)
        await page.wait_for_selector("#sheet .cell.printed-double")
        printed = await page.eval_on_selector_all(
            "#sheet .row.red .cell.printed-double", "(cells) => cells.map((c) => c.dataset.number)"
        )
        assert printed == ["3", "5", "9", "11"]
        assert "printed double" in (await page.evaluate(RED_CELLS))[1][1]
        await page.click("#moves .move.red.twice")
        await page.click("#confirm-button")
        await page.wait_for_selector("#sheet .row.red .cell.crossed.twice.printed-double")
        await settled(page)
        assert await page.evaluate(RED_WORDS) == "red row, 2 crosses"
        await page.screenshot(path=str(tmp_path / "double-b.png"), full_page=True)
        await accessible(page)

    play_in_browser(table, server, steps)
