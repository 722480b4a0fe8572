"""Qwixx Connected on the phone page, in a real browser: the player's pad drawn as printed
(the Steps: eleven stair cells framed in black; the Chain: twelve circled cells, each with its
pair's letter, the same at both ends), a chain's cross made from the phone crossing the cell
joined to it, and the page's accessibility kept (docs/accessibility.md): each connection said
in words, 44 px targets (the moves), text at 4.5:1, axe-core."""

from __future__ import annotations

from support.phone_page import (
    big_enough,
    first_roll,
    phone_tower,
    play_in_browser,
    readable_and_audited,
    seated_phone,
    settled,
)

CELLS = """(selector) => [...document.querySelectorAll(selector)].map((cell) => [
    cell.dataset.row, cell.dataset.number, (cell.querySelector('.pair') || {}).textContent || '',
    cell.querySelector('.visually-hidden').textContent])"""


def test_the_chain_is_drawn_and_a_chain_cross_is_made_from_the_phone(tmp_path):
    table, _, server = phone_tower(tmp_path, variant="connected-chain")

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        first_roll(table, white=(3, 3))  # white 6: red 6 is joined to yellow 6 on pad A
        await page.wait_for_selector('#moves .move[data-row="red"][data-number="6"]')
        circled = await page.evaluate(CELLS, "#sheet .cell.circled")
        assert len(circled) == 12
        assert ["red", "6", "a", ", chain a, joined to yellow 6, you may cross it"] in circled
        assert ["blue", "9", "e", ", chain e, joined to green 9"] in circled
        assert sorted(cell[2] for cell in circled) == sorted("aabbccddeeff")
        chain_cross = await page.query_selector('#moves .move[data-row="red"][data-number="6"]')
        await big_enough(chain_cross)  # the target; the sheet's cells are not
        await chain_cross.click()
        await page.click("#confirm-button")
        await page.wait_for_selector('#sheet .row.yellow .cell.crossed[data-number="6"]')
        await settled(page)
        crossed = await page.evaluate(CELLS, "#sheet .cell.crossed.circled")
        assert [cell[:2] for cell in crossed] == [["red", "6"], ["yellow", "6"]]
        await page.screenshot(path=str(tmp_path / "chain.png"), full_page=True)
        await readable_and_audited(page)

    play_in_browser(table, server, steps)


def test_the_stair_is_drawn_and_said(tmp_path):
    table, _, server = phone_tower(tmp_path, variant="connected-steps")

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        first_roll(table, white=(1, 1))  # white 2: red 2 is on pad A's stair
        await page.wait_for_selector('#moves .move[data-row="red"][data-number="2"]')
        stair = await page.evaluate(CELLS.replace(".pair", ".none"), "#sheet .cell.stair")
        assert [cell[:2] for cell in stair] == [
            ["red", "2"], ["red", "3"], ["red", "4"], ["yellow", "5"], ["yellow", "6"],
            ["yellow", "7"], ["green", "6"], ["green", "5"], ["green", "4"], ["blue", "3"],
            ["blue", "2"],
        ]  # fmt: skip
        assert stair[0][3] == ", on the stair, you may cross it"
        assert stair[1][3] == ", on the stair"
        await big_enough(await page.query_selector('#moves .move[data-row="red"][data-number="2"]'))
        await settled(page)
        await page.screenshot(path=str(tmp_path / "stair.png"), full_page=True)
        await readable_and_audited(page)

    play_in_browser(table, server, steps)
