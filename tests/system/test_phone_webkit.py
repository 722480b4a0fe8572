"""The phone page in WebKit, the engine of Safari and of every browser on an iPhone (Debian's
WebKitGTK through WebDriver, tests/support/webkit.py), held to the measures the chromium tests
beside it hold it to: a player joins from the QR code's link, crosses with a tap and a confirm
and plays a whole game against the tower, and a reload brings them back into their seat; on a
360 px phone at 200 % text every sheet's cells stay in view and every control stays 44 px; the
history's pages need no sideways scrolling; and a table folded into blocks under a chart is
still a table, row by row and cell by cell, in WebKit's accessibility tree (what VoiceOver
reads, docs/accessibility.md)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from support.guest_page import guest_page
from support.history import history_tower, more_of_the_known_game
from support.page_probes import (
    AFTER_A_FRAME,
    CELLS_OUT_OF_VIEW,
    DRAWN_PARTS,
    LAYOUT,
    PLAY_BY_ITSELF,
    SIDEWAYS,
    SPILLS,
    TEXT_SIZE,
    TOO_SMALL,
    UNFOLD,
    UNLABELLED,
    ZOOMED_ON_FOCUS,
)
from support.phone_page import dora_crossed_red_5_and_rolls, first_roll
from support.web import BOT, CODE, bot_rolls_five, run_with_server, web_tower
from support.webkit import webkit_module, webkit_phone

from firmware_py.rules import Roll
from sheets import sheet_names

pytestmark = webkit_module("webkit")
LEGAL = """() => [...document.querySelectorAll('#sheet .cell.legal')]
    .map(c => c.dataset.row + ' ' + c.dataset.number)"""
SCORES = "() => [...document.querySelectorAll('#scores li')].map(i => [i.value, i.textContent])"


async def seated(page, server, name: str) -> None:
    """Open the QR code's link (its code fills the form), join as `name`, see the sheet."""
    await page.goto(f"http://127.0.0.1:{server.port}/?code={CODE}")
    await page.wait_for_selector("#join:not([hidden])")
    assert await page.evaluate("() => document.getElementById('code').value") == CODE
    assert await page.evaluate(ZOOMED_ON_FOCUS) == []  # (an iPhone zooms in on smaller text)
    await page.fill("#name", name)
    await page.click("#join-button")
    await _shows_the_sheet_of(page, name)


async def _shows_the_sheet_of(page, name: str) -> None:
    await page.wait_for_selector("#game:not([hidden])")
    await page.wait_for_function("(n) => document.getElementById('player').textContent === n", name)


async def dora_plays_it_out(page, table) -> dict[str, int]:
    """Dora's page taps the first thing it offers, or passes, until the game is over; the
    tower's roll button is pressed for her rolls. What she tapped, by kind."""
    await page.evaluate(PLAY_BY_ITSELF)
    while not table.game.over:
        if table.game.phase == "roll" and table.game.active_name == "Dora":
            table.press()
        await asyncio.sleep(0.02)
    return await page.evaluate("() => taps")


async def deciding(page, table, server, colours: int) -> None:
    """Dora seated in a new game, Bot's roll of white 4 + 1 (every colour die on `colours`),
    and the first move chosen on her page, its confirm button shown."""
    await seated(page, server, "Dora")
    table.new_game()
    if table.draft is not None:
        table.press()  # longo: the tower draws the lucky numbers
    await page.wait_for_function("() => document.body.dataset.phase === 'roll'")
    table.submit(Roll((4, 1), {colour: colours for colour in table.game.dice_in_play()}))
    await page.wait_for_selector("#moves .move")
    await page.click("#moves .move")
    await page.wait_for_selector("#confirm-button:not([hidden])")


def ranking(game) -> list[list]:
    """Best total first, each numbered by its place; players level share the number."""
    totals = sorted(((game.total(p.name), p.name) for p in game.players), key=lambda t: -t[0])
    return [[1 + sum(other > total for other, _ in totals), f"{name}: {total}"]
            for total, name in totals]  # fmt: skip


def test_in_webkit_a_player_crosses_a_five_plays_the_game_out_and_a_reload_keeps_the_seat(
    tmp_path,
):
    """Dora on an iPhone's engine against Bot: the four 5s are offered after Bot's 4 + 1, a tap
    on red 5 and on confirm crosses it at the tower; then she plays on (the first thing offered,
    or pass) until the game is over; her page shows her score and the places as the tower
    counts them, and reloaded, it is back in her seat with the same game over drawn."""
    table, _, server = web_tower(tmp_path, [BOT])

    async def steps(page) -> None:
        await seated(page, server, "Dora")
        table.settings = replace(table.settings, pace=0.02)  # Bot plays briskly from now on
        bot_rolls_five(table)
        assert await page.wait_for_function(LEGAL) == ["red 5", "yellow 5", "green 5", "blue 5"]
        await page.click("#moves .move[data-row='red'][data-number='5']")
        await page.click("#confirm-button")
        await page.wait_for_selector("#sheet .cell.crossed[data-row='red'][data-number='5']")
        assert table.game.player("Dora").crosses(0) == 1
        taps = await dora_plays_it_out(page, table)
        assert taps["mark"] > 0 and taps["pass"] > 0, taps
        await page.wait_for_function("() => document.getElementById('text')"
                                     ".textContent.includes('Game over')")  # fmt: skip
        total = await page.evaluate("() => document.getElementById('total').textContent")
        assert total == f"score {table.game.total('Dora')}"
        assert await page.evaluate(SCORES) == ranking(table.game)
        drawn = await page.evaluate(DRAWN_PARTS)
        await page.reload()
        await _shows_the_sheet_of(page, "Dora")
        await page.wait_for_function("() => document.getElementById('text')"
                                     ".textContent.includes('Game over')")  # fmt: skip
        await page.evaluate(f"() => {AFTER_A_FRAME}")  # rows fitted to the width (app.js)
        assert await page.evaluate(DRAWN_PARTS) == drawn
        assert [seat.name for seat in table.seating.seats] == ["Bot", "Dora"]

    in_webkit(table, server, steps)


def test_in_webkit_a_browser_that_keeps_no_site_data_still_plays_and_says_what_a_reload_costs(
    tmp_path,
):
    """A phone whose browser keeps no data for sites (its storage turned off: localStorage is
    null): the page's script failed at its start (it read the patterns switch from the
    storage), so nobody could even join. Now it says, on the join page, to keep the page open
    while playing; its player joins and crosses; reloaded, the page is back at the join page,
    saying so again (a name alone takes no seat mid-game), with no error on the way."""
    table, _, server = web_tower(tmp_path, [BOT])
    note = "() => !document.getElementById('keeps-nothing').hidden"

    async def steps(page) -> None:
        await page.goto(f"http://127.0.0.1:{server.port}/?code={CODE}")
        await page.wait_for_selector("#join:not([hidden])")
        assert await page.evaluate(note)
        await page.fill("#name", "Dora")
        await page.click("#join-button")
        await _shows_the_sheet_of(page, "Dora")
        bot_rolls_five(table)
        await page.wait_for_selector("#moves .move[data-row='red'][data-number='5']")
        await page.click("#moves .move[data-row='red'][data-number='5']")
        await page.click("#confirm-button")
        await page.wait_for_selector("#sheet .cell.crossed[data-row='red'][data-number='5']")
        assert table.game.player("Dora").crosses(0) == 1
        await page.reload()
        await page.wait_for_selector("#join:not([hidden])")
        assert await page.evaluate(note)
        assert await page.evaluate("() => document.getElementById('game').hidden")

    in_webkit(table, server, steps, storage=False)


def test_in_webkit_a_guest_s_page_cannot_show_the_tower_s_page_in_a_frame(tmp_path):
    """A page of a guest's device on the Wi-Fi (another origin) puts the tower's join page in a
    frame under its own, to steer a player's taps (clickjacking): WebKit shows nothing of the
    tower's page there, as its headers ask (frame-ancestors 'none', X-Frame-Options DENY),
    while the same page opened by itself shows the join form."""
    table, _, server = web_tower(tmp_path, [BOT])

    async def steps(page) -> None:
        tower = f"http://127.0.0.1:{server.port}/?code={CODE}"
        framing = f'<p id="bait">Win a prize!</p><iframe id="tower" src="{tower}"></iframe>'
        async with guest_page(framing) as guest:
            await page.goto(guest)
            await page.wait_for_selector("#bait")
            await page.evaluate(f"() => {AFTER_A_FRAME}")
            assert await page.framed_text("tower") == ""
        await page.goto(tower)
        await page.wait_for_selector("#join:not([hidden])")

    in_webkit(table, server, steps)


# A guest's page that opens the tower's WebSocket from the player's phone and notes what it
# hears: whether it opened, and what the tower said
HIJACK = """<p id="bait">Win a prize!</p><script>
window.heard = [];
const socket = new WebSocket("ws://127.0.0.1:PORT/ws");
socket.onopen = () => { heard.push("open"); socket.send('{"type": "hello", "token": "x"}'); };
socket.onmessage = (event) => heard.push(String(event.data));
socket.onclose = () => heard.push("closed");
</script>"""


def test_in_webkit_a_guest_s_page_cannot_talk_to_the_tower_from_a_player_s_phone(tmp_path):
    """A guest's page, opened on a player's phone, opens the tower's WebSocket (the phone on
    the table's Wi-Fi, the guest's device not): WebKit names the guest's origin, and the tower
    refuses the connection before it opens; the lobby is never sent to it."""
    table, _, server = web_tower(tmp_path, [BOT])

    async def steps(page) -> None:
        async with guest_page(HIJACK.replace("PORT", str(server.port))) as guest:
            await page.goto(guest)
            heard = await page.wait_for_function(  # (closed, or a word from the tower)
                "() => heard.some((h) => h === 'closed' || h.startsWith('{')) && heard"
            )
        assert heard == ["closed"], heard

    in_webkit(table, server, steps)


@pytest.mark.xdist_group("webkit-games")  # (beside the module's others: half a minute in all)
@pytest.mark.parametrize("variant", sheet_names())
def test_in_webkit_a_whole_game_of_every_sheet_is_played_from_the_phone(tmp_path, variant):
    """Dora plays each sheet to its end against Bot on WebKit's page, taking whatever it
    offers first (a bonus row's box, a double cross, a swap, a choice of row) or passing; the
    tower takes every decision she sends, and her page ends on game over with her score as the
    tower counts it, and no error of the page's script on the way."""
    table, _, server = web_tower(tmp_path, [BOT], variant=variant)

    async def steps(page) -> None:
        await seated(page, server, "Dora")
        table.settings = replace(table.settings, pace=0.02)
        table.new_game()
        if table.draft is not None:
            table.press()  # longo: the tower draws the lucky numbers
        taps = await dora_plays_it_out(page, table)
        assert taps["mark"] > 0, taps
        await page.wait_for_function("() => document.getElementById('text')"
                                     ".textContent.includes('Game over')")  # fmt: skip
        total = await page.evaluate("() => document.getElementById('total').textContent")
        assert total == f"score {table.game.total('Dora')}"

    in_webkit(table, server, steps)


@pytest.mark.parametrize("variant", sheet_names())
def test_in_webkit_at_200_percent_text_every_sheet_stays_in_view_on_a_360_px_phone(
    tmp_path, variant
):
    """Each sheet, a mark chosen in action 1: at 200 % text its numbers are twice the size,
    rows wrap rather than run off the side (no cell out of view, none spilling its number),
    the page scrolls no sideways, and every control is still 44 px."""
    table, _, server = web_tower(tmp_path, [BOT], variant=variant)

    async def steps(page) -> None:
        await deciding(page, table, server, colours=1)
        usual = await page.evaluate(LAYOUT)
        await page.evaluate(TEXT_SIZE, "200%")
        await page.evaluate(f"() => {AFTER_A_FRAME}")
        large = await page.evaluate(LAYOUT)
        assert large["number"] >= 1.9 * usual["number"]
        assert large["page"] <= 360 and large["spilled"] == 0
        assert large["total"]["right"] <= 360
        assert await page.evaluate(CELLS_OUT_OF_VIEW) == []
        assert await page.evaluate(TOO_SMALL) == []

    in_webkit(table, server, steps)


@pytest.mark.parametrize("variant", ["classic", "longo"])
def test_in_webkit_on_a_phone_on_its_side_the_sheet_and_the_controls_are_all_in_view(
    tmp_path, variant
):
    """A phone on its side (740 x 360): the sheet and, beside it, the moves, the confirm
    button and Pass, all without scrolling, as in chromium (test_phone_access.py)."""
    table, _, server = web_tower(tmp_path, [BOT], variant=variant)

    async def steps(page) -> None:
        await deciding(page, table, server, colours=2)
        layout = await page.evaluate(LAYOUT)
        for part in ("sheet", "moves", "confirm", "pass"):
            assert layout[part]["bottom"] <= 360 and layout[part]["right"] <= 740, part
        assert layout["sheet"]["right"] <= layout["pass"]["left"], "side by side"
        assert layout["spilled"] == 0 and layout["page"] <= 740

    in_webkit(table, server, steps, size=(740, 360))


def test_in_webkit_voiceover_is_told_the_dice_rows_cells_moves_and_scores(tmp_path):
    """What VoiceOver hears on an iPhone is what WebKit's accessibility tree holds: after Dora
    crossed red 5 and rolled white 1 + 4 (every colour die 2; action 1, the white 5 only where
    no 5 is crossed yet), the dice by colour and number,
    each row with its crosses, each cell with its state in words (never the cross's "✕"), the
    moves as a named group of buttons, her penalties and the scores."""
    table, _, server = web_tower(tmp_path, [BOT])

    async def steps(page) -> None:
        await seated(page, server, "Dora")
        first_roll(table)
        dora_crossed_red_5_and_rolls(table)
        await page.wait_for_selector("#moves .move")
        assert (await page.names("#dice"))[0] == ("list", "Dice")
        assert await page.names("#dice li") == [
            ("listitem", "white die 1"), ("listitem", "white die 4"), *[
                ("listitem", f"{colour} die 2") for colour in ("red", "yellow", "green", "blue")]
        ]  # fmt: skip
        rows = await page.names("#sheet .cells")
        assert rows[:2] == [("list", "red row, 1 cross"), ("list", "yellow row, 0 crosses")]
        red = dict(zip(range(2, 13), await page.names("#sheet .row.red .cell"), strict=False))
        assert red[2] == ("listitem", "2, skipped") and red[5] == ("listitem", "5, crossed")
        assert red[6] == ("listitem", "6")
        yellow = await page.names("#sheet .row.yellow .cell")
        assert yellow[3:5] == [("listitem", "5, you may cross it"), ("listitem", "6")]
        assert (await page.names("#moves"))[0] == ("group", "Choose a number to cross")
        moves = await page.names("#moves .move")
        assert [name for _, name in moves] == ["yellow 5", "green 5", "blue 5"]
        assert await page.names("#pass") == [("button", "Pass")]
        scores = await page.names("#scores li")
        assert [name.split(":")[0] for _, name in scores] == ["Bot", "Dora"]
        said = await page.evaluate("() => document.getElementById('penalties').textContent")
        assert said.startswith("penalties: 0 of 4")  # Dora's (Bot has one)
        heard = [name for selector in ("#dice li", "#sheet .cell", "#moves .move", "#scores li")
                 for _, name in await page.names(selector)]  # fmt: skip
        assert not any("✕" in name for name in heard)

    in_webkit(table, server, steps)


HISTORY = {"game": "/history/game/2", "player": "/history/player?name=Cleo"}


def test_in_webkit_at_200_percent_text_the_history_needs_no_sideways_scrolling(tmp_path):
    """A game's story and a player's page on a 360 px phone at 200 % text, every table under
    a chart unfolded: nothing runs off the side, no chart or table scrolls sideways, and each
    cell of a table folded into blocks shows its column's heading beside it. VoiceOver hears
    each chart as a picture described in words (the game's: who won with how many points)."""
    table, server = history_tower(tmp_path, more_of_the_known_game)

    async def steps(page) -> None:
        for name, path in HISTORY.items():
            await _unfolded_at(page, f"http://127.0.0.1:{server.port}{path}", "200%")
            assert await page.evaluate("() => document.documentElement.scrollWidth") <= 360
            assert await page.evaluate(SPILLS) == [], name
            assert await page.evaluate(SIDEWAYS) == [], name
            assert await page.evaluate(UNLABELLED) == [], name
            charts = await page.names("svg.chart")
            assert len(charts) == {"game": 2, "player": 3}[name]
            assert all(
                role in ("img", "image") and len(words) > 20 for role, words in charts
            )  # (ARIA 1.3 calls img "image")
            if name == "game":
                assert "Ben won with 47 points." in charts[0][1], charts

    in_webkit(table, server, steps)


def test_in_webkit_a_table_folded_into_blocks_is_still_read_as_a_table(tmp_path):
    """The tables under the charts, laid out as blocks at 200 % text on a 360 px phone, are
    what WebKit's accessibility tree has at the usual size, where they are laid out as
    tables: a table, its row groups and rows, its column and row headings, and its cells
    (WebKit is reported to drop a table's semantics when CSS makes its parts blocks; the
    markup's roles keep them, docs/accessibility.md)."""
    table, server = history_tower(tmp_path, more_of_the_known_game)
    parts = "details table, details table *:not(caption)"

    async def steps(page) -> None:
        for path in HISTORY.values():
            read = {}
            for size in ("100%", "200%"):
                await _unfolded_at(page, f"http://127.0.0.1:{server.port}{path}", size)
                read[size] = await page.roles(parts)
            assert read["200%"] == read["100%"], path
            roles = {role for _, role in read["200%"]}
            assert {"table", "row", "columnheader", "cell"} <= roles, (path, roles)
            assert ("td", "cell") in read["200%"] and ("table", "table") in read["200%"]

    in_webkit(table, server, steps)


def in_webkit(table, server, steps, **phone) -> None:
    """Start a phone with WebKit on it (`phone`: `webkit_phone`'s size and storage), then run
    the table and its web server while `await steps(page)` plays; no uncaught error of the
    page's script on the way."""
    with webkit_phone(**phone) as page:

        async def play() -> None:
            await steps(page)
            assert await page.script_errors() == [], "the page's script failed"

        run_with_server(table, server, play)


async def _unfolded_at(page, url: str, size: str) -> None:
    await page.goto(url)
    await page.evaluate(TEXT_SIZE, size)
    await page.evaluate(f"() => {{ {UNFOLD}; }}")
    await page.evaluate("() => document.fonts.ready.then(() => null)")
    await page.evaluate(f"() => {AFTER_A_FRAME}")
