"""Qwixx Double on the phone page, in a real browser: a cell printed double drawn with a double
frame (B), the number crossed last offered again as "x2" (a multiplication sign) and crossed a
second time from the phone (A), a cell crossed twice drawn with two crosses and counted two,
and the page's accessibility kept (docs/accessibility.md): the words a screen reader says,
44 px targets, text at 4.5:1, no axe violation."""

from __future__ import annotations

from support.phone_page import (
    big_enough,
    dora_crossed_red_5_and_rolls,
    first_roll,
    phone_tower,
    play_in_browser,
    readable_and_audited,
    seated_phone,
    settled,
)

RED_CELLS = """() => [...document.querySelectorAll('#sheet .row.red .cell')].map((cell) => [
    cell.className, cell.textContent])"""
RED_WORDS = "() => document.querySelector('#sheet .row.red .cells').getAttribute('aria-label')"


def test_the_number_crossed_last_is_crossed_again_from_the_phone(tmp_path):
    table, _, server = phone_tower(tmp_path, variant="double-a")

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        first_roll(table)  # Bot rolls white 4 + 1
        dora_crossed_red_5_and_rolls(table)
        button = await page.wait_for_selector("#moves .move.red.twice")
        assert "\u00d72" in await button.inner_text()
        await big_enough(button)
        cells = await page.evaluate(RED_CELLS)
        assert "legal" in cells[3][0] and "once" in cells[3][0]  # red 5: its cross, offered
        assert "crossed once, may be crossed again" in cells[3][1]
        await readable_and_audited(page)
        await button.click()
        await page.wait_for_selector("#sheet .row.red .cell.legal.selected")
        await page.click("#confirm-button")
        await page.wait_for_selector("#sheet .row.red .cell.crossed.twice")
        await settled(page)
        assert await page.evaluate(RED_WORDS) == "red row, 2 crosses"
        assert "crossed twice" in (await page.evaluate(RED_CELLS))[3][1]
        await page.screenshot(path=str(tmp_path / "double-a.png"), full_page=True)
        await readable_and_audited(page)

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
        await readable_and_audited(page)

    play_in_browser(table, server, steps)
