"""Qwixx X-Change on the phone page, in a real browser: the nine swap fields drawn under the
rows as printed (each its two numbers), a swapped cross offered with its field, chosen and
crossed, the field shown used and the fields left of it gone, and the page's accessibility kept
(docs/accessibility.md): each field said in words, 44 px targets, text at 4.5:1, axe-core."""

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

FIELDS = """() => [...document.querySelectorAll('#swaps .swap')].map((field) => [
    field.className, field.querySelector('.number').textContent,
    field.querySelector('.visually-hidden').textContent])"""


def test_the_swap_fields_are_drawn_and_a_swapped_cross_is_made_from_the_phone(tmp_path):
    table, _, server = phone_tower(tmp_path, variant="x-change")

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        first_roll(table)  # Bot rolls white 4 + 1: 5, which field 1 makes 8, field 7 10
        await page.wait_for_selector("#moves .move.swap-cross")
        fields = await page.evaluate(FIELDS)
        assert [field[1] for field in fields] == [
            "8⇄5", "9⇄7", "11⇄3", "7⇄4", "10⇄3", "8⇄6", "10⇄5", "11⇄9", "6⇄4"
        ]  # fmt: skip
        assert fields[0] == ["swap open", "8⇄5", "X-Change field 1: 8 and 5, open"]
        swapped = await page.query_selector(
            '#moves .move.swap-cross[data-row="green"][data-number="10"]'
        )
        assert "with X-Change field 7" in await swapped.inner_text() or "⇄7" in (
            await swapped.inner_text()
        )
        await big_enough(swapped)
        for field in await page.query_selector_all("#swaps .swap"):
            await big_enough(field)
        await swapped.click()
        confirm = await page.inner_text("#confirm-button")
        assert confirm == "Cross green 10 with X-Change field 7"
        await page.click("#confirm-button")
        await page.wait_for_selector("#swaps .swap.used")
        await settled(page)
        states = [field[0] for field in await page.evaluate(FIELDS)]
        assert states == ["swap passed"] * 6 + ["swap used", "swap open", "swap open"]
        crossed = await page.eval_on_selector(
            "#sheet .row.green .cell.crossed", "(cell) => cell.dataset.number"
        )
        assert crossed == "10"
        said = (await page.evaluate(FIELDS))[6][2]
        assert said == "X-Change field 7: 10 and 5, used"
        await page.screenshot(path=str(tmp_path / "x-change.png"), full_page=True)
        await readable_and_audited(page)

    play_in_browser(table, server, steps)
