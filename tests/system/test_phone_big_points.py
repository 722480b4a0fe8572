"""Qwixx Big Points on the phone page, in a real browser: the sheet drawn as printed (a row of
round bonus boxes between red and yellow and between green and blue, no lock), a bonus box
offered, chosen and crossed, and the page's accessibility kept (docs/accessibility.md): the
rows' names for a screen reader, 44 px targets, text at 4.5:1 and every cell 3:1 against both
colours of its band."""

from __future__ import annotations

from support.phone_page import (
    CELL_EDGES,
    big_enough,
    contrast,
    dora_crossed_red_5_and_rolls,
    first_roll,
    frames,
    opaque_colours,
    phone_tower,
    play_in_browser,
    readable_and_audited,
    seated_phone,
    settled,
)

BANDS = {  # app.css: the colours of each bonus row's band, top half and bottom half
    "red-yellow": [(198, 40, 50), (242, 196, 0)],
    "green-blue": [(36, 122, 55), (31, 95, 191)],
}
ROWS = """() => [...document.querySelectorAll('#sheet .row')].map((row) => [
    row.className, row.querySelector('.cells').getAttribute('aria-label'),
    row.querySelectorAll('.cell').length, row.querySelectorAll('.cell.lock').length])"""


def test_the_bonus_rows_are_drawn_as_printed_and_a_box_is_crossed_from_the_phone(tmp_path):
    table, _, server = phone_tower(tmp_path, variant="big-points")

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        first_roll(table)  # Bot rolls white 4 + 1
        dora_crossed_red_5_and_rolls(table)
        await page.wait_for_selector("#moves .move.red-yellow")
        rows = await page.evaluate(ROWS)
        assert [row[0].split()[1] for row in rows] == [
            "red",
            "red-yellow",
            "yellow",
            "green",
            "green-blue",
            "blue",
        ]
        assert [row[2:] for row in rows] == [[12, 1], [11, 0], [12, 1], [12, 1], [11, 0], [12, 1]]
        assert rows[1][1] == "red-yellow bonus row, 0 crosses, each counting for red and yellow"
        button = await page.query_selector("#moves .move.red-yellow")
        await big_enough(button)
        assert "red-yellow" in await button.inner_text() or "RY" in await button.inner_text()
        await page.screenshot(path=str(tmp_path / "big-points.png"), full_page=True)
        await button.click()
        await page.wait_for_selector("#sheet .row.red-yellow .cell.legal.selected")
        await page.click("#confirm-button")
        await page.wait_for_selector("#sheet .row.red-yellow .cell.crossed")
        await settled(page)
        crossed = await page.eval_on_selector(
            "#sheet .row.red-yellow .cell.crossed", "(cell) => cell.dataset.number"
        )
        assert crossed == "5"
        assert await faint_cells(page) == {}
        await readable_and_audited(page)

    play_in_browser(table, server, steps)


async def faint_cells(page) -> dict[str, float]:
    """Bonus boxes that stand out less than 3:1 from either colour of their band (WCAG
    1.4.11, by their fill or their frame)."""
    faint = {}
    for part in await page.evaluate(CELL_EDGES):
        name = part["name"]
        row = name.split(" ")[0]
        if row not in BANDS or "band's stripes" in name:
            continue
        edges = opaque_colours(part["edges"]) + frames(part["rings"])
        for band in BANDS[row]:
            best = max(contrast(edge, band) for edge in edges)
            if best < 3:
                faint[f"{name} on {band}"] = round(best, 2)
    return faint
