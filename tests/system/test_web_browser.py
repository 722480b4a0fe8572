"""The phone page in a real browser: Debian's headless chromium driven by Playwright (the system
browser; Playwright's own downloads are not used). Phones join with the code from the QR link,
play against the tower, reload and come back into their seat; a wrong code, a stolen token and
an illegal tap are refused with the reason. Screenshots at a fixed viewport are compared with
tests/golden/web-*.png, with a small tolerance for font anti-aliasing (see `matches_golden`).
After a deliberate change of the page, look at the new pictures and refresh them with
QWIXX_UPDATE_GOLDEN=1 ./dev test tests/system/test_web_browser.py."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from support import HANG
from support.browser import browser_module, connected, run_in_browser_loop
from support.doors import PadDoor
from support.fakes import micropython_binary
from support.page_probes import DRAWN_PARTS, PLAY_BY_ITSELF
from support.paths import GOLDEN
from support.phone_page import same_picture
from support.table import PACE, until
from support.web import BOT, CODE, bot_rolls_five, run_with_server, web_tower

from firmware_py.app.assembly import attach_pads
from firmware_py.app.demo import Cable, RobotFingers, SimulatedPad
from firmware_py.app.web import history_pages
from firmware_py.rules import Mark, Pass, Roll
from firmware_py.seating import PAD
from firmware_py.seats.phones.server import WebServer

pytestmark = browser_module("browser-pages")
VIEWPORT = {"width": 390, "height": 780}
TIMEOUT = HANG * 1000  # milliseconds: a page that never shows what a test waits for hangs
SCRIPT_ERRORS: list[str] = []  # uncaught errors of the page's script, in any test's browser


@pytest.fixture(autouse=True)
def no_script_errors():
    SCRIPT_ERRORS.clear()
    yield
    assert SCRIPT_ERRORS == [], "the page's script failed"


@pytest.fixture
def bot_tower(tmp_path):
    """The tower most tests play at: Bot, a computer player, is seated (and waits)."""
    return web_tower(tmp_path, [BOT])


def with_browser(table, server, steps, *, hub=None, timeout: float = HANG) -> None:
    """Run the table and its web server while `await steps(browser)`, the browser being this
    process's shared headless chromium (each phone in it a context of its own)."""

    async def in_browser() -> None:
        async with connected() as browser:
            await steps(browser)

    run_with_server(table, server, in_browser, hub=hub, timeout=timeout,
                    runner=run_in_browser_loop)  # fmt: skip


async def phone(browser):
    """A new phone: its own browser context (own localStorage), at the fixed viewport."""
    context = await browser.new_context(viewport=VIEWPORT, device_scale_factor=1)
    context.set_default_timeout(TIMEOUT)
    page = await context.new_page()
    page.on("pageerror", lambda error: SCRIPT_ERRORS.append(str(error)))
    return page


async def join(page, server, name: str, code: str = CODE) -> None:
    """Open the QR code's link (the code is filled in from it) and join with `name`."""
    await page.goto(f"http://127.0.0.1:{server.port}/?code={code}")
    await page.wait_for_selector("#join:not([hidden])")
    await page.fill("#name", name)
    await page.click("#join-button")


async def seated(page, name: str) -> None:
    await page.wait_for_selector("#game:not([hidden])")
    await page.wait_for_function(
        f"() => document.getElementById('player').textContent === {name!r}"
    )


async def seated_phone(browser, server, name: str):
    """A new phone that joined from the QR link as `name` and shows its sheet."""
    page = await phone(browser)
    await join(page, server, name)
    await seated(page, name)
    return page


async def matches_golden(page, name: str) -> None:
    """The page as a picture equals tests/golden/web-NAME.png (`same_picture`)."""
    await page.evaluate("document.fonts.ready")
    same_picture(await page.screenshot(), GOLDEN / f"web-{name}.png")


def test_a_phone_joins_from_the_qr_link_and_sees_its_sheet(bot_tower):
    table, _, server = bot_tower

    async def steps(browser) -> None:
        page = await phone(browser)
        await page.goto(f"http://127.0.0.1:{server.port}/?code={CODE}")
        await page.wait_for_selector("#join:not([hidden])")
        assert await page.input_value("#code") == CODE  # from the QR code's link
        await page.fill("#name", "Dora")
        await matches_golden(page, "join")
        await page.click("#join-button")
        await seated(page, "Dora")
        assert [seat.name for seat in table.seating.seats] == ["Bot", "Dora"]
        bot_rolls_five(table)  # Bot's roll: white 4 + 1, Dora may cross a 5 or pass
        await page.wait_for_selector("#sheet .cell.legal")
        legal = await page.eval_on_selector_all(
            "#sheet .cell.legal", "cells => cells.map(c => c.dataset.row + ' ' + c.dataset.number)"
        )
        assert legal == ["red 5", "yellow 5", "green 5", "blue 5"]
        await matches_golden(page, "action1")

    with_browser(table, server, steps)


def test_the_qr_links_key_joins_with_nothing_to_type_and_a_stale_one_asks_for_the_code(
    bot_tower,
):
    """The QR code's link carries the table's key (the same across games and restarts): the
    page hides the code field and joins with the key. A link whose key opens nothing (the
    table was given a new key) shows the field, so the four digits can be typed."""
    table, hub, server = bot_tower

    async def steps(browser) -> None:
        page = await phone(browser)
        await page.goto(server.url)
        await page.wait_for_selector("#join:not([hidden])")
        assert await page.is_hidden("#code")
        await page.fill("#name", "Dora")
        await page.click("#join-button")
        await seated(page, "Dora")
        stale = await phone(browser)
        await stale.goto(f"http://127.0.0.1:{server.port}/?code=an-old-key-0123456789")
        await stale.wait_for_selector("#join:not([hidden])")
        await stale.fill("#name", "Eve")
        await stale.click("#join-button")
        await stale.wait_for_selector("#code:visible")
        assert "is not this table's code" in await stale.inner_text("#refusal")
        await stale.fill("#code", hub.code)
        await stale.click("#join-button")
        await seated(stale, "Eve")
        assert [seat.name for seat in table.seating.seats] == ["Bot", "Dora", "Eve"]

    with_browser(table, server, steps)


async def final_scores(page) -> list[tuple[int, str]]:
    """The game over's scores as the list numbers them: (place, "name: total") top down."""
    js = "items => items.map(item => [item.value, item.textContent])"
    return [tuple(item) for item in await page.eval_on_selector_all("#scores li", js)]


def ranking(game) -> list[tuple[int, str]]:
    """Best total first, each numbered by its place; players level share the number."""
    totals = sorted(((game.total(p.name), p.name) for p in game.players), key=lambda t: -t[0])
    return [(1 + sum(other > total for other, _ in totals), f"{name}: {total}")
            for total, name in totals]  # fmt: skip


def test_two_phones_play_a_whole_game_against_the_tower(bot_tower):
    """Ann and Ben on phones, Bot a computer player; the phones tap their first move
    (or pass), the roll button is pressed for the phones' rolls, until the game is over; then
    each phone, reloaded, draws its final view exactly as it stood, its scores best first and
    numbered by place (in seat order, '1.' read as the winner when Bot had lost)."""
    table, _, server = bot_tower

    async def steps(browser) -> None:
        pages = [await seated_phone(browser, server, name) for name in ("Ann", "Ben")]
        assert [seat.name for seat in table.seating.seats] == ["Bot", "Ann", "Ben"]
        table.settings = replace(
            table.settings, pace=0.02
        )  # Bot plays briskly (not before: it would start a game alone)
        table.new_game()
        for page in pages:
            await page.evaluate(PLAY_BY_ITSELF)
        while not table.game.over:
            game = table.game
            if game.phase == "roll" and game.active_name != "Bot":
                table.press()  # the tower's roll button, for a phone player's roll
            await asyncio.sleep(0.02)
        taps = [await page.evaluate("taps") for page in pages]
        assert sum(tapped["mark"] for tapped in taps) > 0
        assert sum(tapped["pass"] for tapped in taps) > 0
        for page, name in zip(pages, ("Ann", "Ben"), strict=True):
            await page.wait_for_selector("#text >> text=Game over")
            shown = await page.inner_text("#total")
            assert shown == f"score {table.game.total(name)}"
            assert await final_scores(page) == ranking(table.game)
            drawn = await page.evaluate(DRAWN_PARTS)
            await page.reload()
            await seated(page, name)
            await page.wait_for_selector("#text >> text=Game over")
            assert await page.evaluate(DRAWN_PARTS) == drawn

    with_browser(table, server, steps)


def test_a_phone_that_reloads_mid_game_is_back_in_its_seat_with_its_sheet(bot_tower):
    table, _, server = bot_tower

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        bot_rolls_five(table)
        await page.click("#moves .move[data-row='yellow'][data-number='5']")
        await page.click("#confirm-button")
        await page.wait_for_selector("#sheet .cell.crossed[data-row='yellow'][data-number='5']")
        await page.reload()
        await seated(page, "Dora")
        await page.wait_for_selector("#sheet .cell.crossed[data-row='yellow'][data-number='5']")
        skipped = await page.eval_on_selector_all(
            "#sheet .cell.skipped", "cells => cells.map(c => c.dataset.row + c.dataset.number)"
        )
        assert skipped == ["yellow2", "yellow3", "yellow4"]
        assert [seat.name for seat in table.seating.seats] == ["Bot", "Dora"]
        assert await page.is_visible("#undo")  # still action 1: the mark can be taken back
        await matches_golden(page, "reloaded")

    with_browser(table, server, steps)


def test_a_mark_whose_answer_is_lost_with_the_connection_is_applied_once(bot_tower):
    """The tower applies the mark, then the connection drops before the answer is out: the page
    reconnects, says hello with its token, asks again with the same request id, and hears yes;
    the sheet has one cross."""
    table, hub, server = bot_tower
    decide = hub._decide
    dropped = []

    def decide_then_drop(phone_, message) -> None:
        decide(phone_, message)  # applied, answer queued ...
        if not dropped:
            dropped.append(message["request"])
            phone_._outbox.clear()  # ... and lost with the connection
            phone_.end()

    hub._decide = decide_then_drop

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        bot_rolls_five(table)
        await page.click("#moves .move[data-row='red'][data-number='5']")
        await page.click("#confirm-button")
        await page.wait_for_selector("#status.lost")
        await page.wait_for_selector("#status.ok")
        await page.wait_for_selector("#sheet .cell.crossed[data-row='red'][data-number='5']")
        await page.wait_for_function("() => !document.body.classList.contains('busy')")
        assert await page.is_hidden("#refusal"), "the repeated request was answered yes"
        assert table.game.player("Dora").crosses(0) == 1
        assert len(dropped) == 1

    with_browser(table, server, steps)


def test_a_phone_that_slept_on_a_silent_connection_reconnects_and_its_tap_counts_once(bot_tower):
    """The phone slept and its Wi-Fi dropped the connection without a word: the socket still
    looks open to the page, but nothing crosses it either way. On waking the page asks the
    tower (a ping), Dora taps a cell; no answer comes, so after the page's silence limit it
    opens a new connection, gets its seat back and sends the tap again: crossed once."""
    table, hub, server = bot_tower
    receive = hub.receive
    silent: set = set()
    hub.receive = lambda phone_, text: phone_ in silent or receive(phone_, text)

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        for connection in hub.phones:  # from now on this connection carries nothing
            silent.add(connection)
            connection.send = lambda message: None
        bot_rolls_five(table)
        await asyncio.sleep(0.5)
        assert await page.is_hidden("#sheet .cell.legal"), "the silent connection carried a view"
        await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # awake
        await page.evaluate("tap({row: 'green', number: 5, lucky: false, choices: []})")
        await page.wait_for_selector("#sheet .cell.crossed[data-row='green'][data-number='5']")
        await page.wait_for_function("() => !document.body.classList.contains('busy')")
        assert await page.inner_text("#status") == "connected"
        assert await page.is_hidden("#refusal"), "the tap sent again was answered yes"
        assert table.game.player("Dora").crosses(2) == 1
        assert [seat.name for seat in table.seating.seats] == ["Bot", "Dora"]
        assert [phone_ for phone_ in hub.phones if phone_.device] != list(silent)  # a new one

    with_browser(table, server, steps)


def test_a_wrong_table_code_is_refused_in_words_and_takes_no_seat(bot_tower):
    table, _, server = bot_tower

    async def steps(browser) -> None:
        page = await phone(browser)
        await join(page, server, "Eve", code="1234")
        await page.wait_for_selector("#refusal:not([hidden])")
        assert await page.inner_text("#refusal") == (
            "1234 is not this table's code: the tower's display shows it between games"
        )
        assert await page.is_visible("#join")
        assert [seat.name for seat in table.seating.seats] == ["Bot"]
        await matches_golden(page, "wrong-code")

    with_browser(table, server, steps)


def test_a_made_up_seat_token_cannot_act(bot_tower):
    table, _, server = bot_tower

    async def steps(browser) -> None:
        url = f"http://127.0.0.1:{server.port}/"
        dora = await seated_phone(browser, server, "Dora")
        token = await dora.evaluate("localStorage.getItem('qwixx-seat-token')")
        bot_rolls_five(table)
        await dora.wait_for_selector("#sheet .cell.legal")
        assert token and len(token) > 20
        for stolen in ("made-up-token-0123456789", token[:-1] + ("A" if token[-1] != "A" else "B")):
            thief = await phone(browser)
            await thief.goto(url)
            await thief.evaluate(f"localStorage.setItem('qwixx-seat-token', {stolen!r})")
            await thief.reload()
            await thief.wait_for_selector("#refusal:not([hidden])")
            assert await thief.is_hidden("#game")
            await thief.evaluate("decide({action: 'mark', row: 'red', number: 5})")
            await thief.wait_for_function(
                "() => document.getElementById('refusal').textContent.includes('holds no seat')"
            )
        assert table.game.player("Dora").crosses(0) == 0
        assert await dora.is_visible("#sheet .cell.legal")  # Dora keeps her seat

    with_browser(table, server, steps)


def test_a_cell_that_is_not_legal_is_refused_with_the_referees_reason(bot_tower):
    table, _, server = bot_tower

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        bot_rolls_five(table)
        await page.wait_for_selector("#sheet .cell.legal")
        await page.click("#sheet .cell[data-row='red'][data-number='9']")
        assert await page.is_hidden("#confirm")  # not selectable: the page offers legal marks
        assert await page.locator("#moves button[data-row='red'][data-number='9']").count() == 0
        await page.evaluate("decide({action: 'mark', row: 'red', number: 9})")  # sent anyway
        await page.wait_for_selector("#refusal:not([hidden])")
        reason = await page.inner_text("#refusal")
        trial = table.game.copy()
        with pytest.raises(Exception) as refused:
            trial.apply(Mark("Dora", "red", 9))
        assert reason == str(refused.value.reason)
        assert table.game.player("Dora").crosses(0) == 0
        await matches_golden(page, "refused")

    with_browser(table, server, steps)


# Whole turns: (white dice, Bot's and Dora's action-1 marks as (row, number) or None: a pass).
# Bot and Dora take turns rolling; the active player passes in action 2.
SHEET_TURNS = [
    ((1, 1), ("yellow", 2), ("red", 2)),
    ((1, 2), None, ("red", 3)),
    ((2, 2), ("yellow", 4), ("red", 4)),
    ((2, 3), None, ("red", 5)),
    ((3, 3), ("yellow", 6), ("red", 6)),
    ((6, 6), None, ("red", 12)),  # Dora's sixth red cross locks red
    ((4, 3), ("yellow", 7), ("yellow", 7)),
    ((4, 4), None, None),  # Dora rolls and crosses nothing: a penalty
    ((5, 4), ("yellow", 9), ("green", 9)),
]


def play_turns(table, turns) -> None:
    for white, *marks in turns:
        game = table.game
        table.submit(Roll(white, {colour: 1 for colour in game.dice_in_play()}))
        for name, mark in zip(("Bot", "Dora"), marks, strict=True):
            table.submit(Mark(name, *mark) if mark else Pass(name))
        table.submit(Pass(table.game.active_name))


def test_the_sheet_shows_crosses_skipped_cells_a_lock_penalties_and_the_score(bot_tower):
    table, _, server = bot_tower

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        table.new_game()
        play_turns(table, SHEET_TURNS)
        table.submit(Roll((5, 5), {colour: 2 for colour in table.game.dice_in_play()}))
        await page.wait_for_selector("#sheet .cell.legal[data-row='blue'][data-number='10']")
        crossed = await page.eval_on_selector_all(
            "#sheet .cell.crossed", "cells => cells.map(c => c.dataset.row + c.dataset.number)"
        )
        assert crossed == ["red2", "red3", "red4", "red5", "red6", "red12", "redlock",
                           "yellow7", "green9"]  # fmt: skip
        assert await page.is_visible("#sheet .row.red.closed")
        assert await page.eval_on_selector_all("#penalties .crossed", "boxes => boxes.length") == 1
        score = table.game.total("Dora")
        assert await page.inner_text("#total") == f"score {score}"
        assert await page.is_hidden("#undo")
        await matches_golden(page, "sheet")

    with_browser(table, server, steps)


def test_a_longo_player_chooses_lucky_numbers_on_the_phone(tmp_path):
    table, _, server = web_tower(tmp_path, [BOT], variant="longo")

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        table.new_game()  # longo with a phone seated: the lucky numbers first
        await page.wait_for_selector("#lucky .lucky-number[data-number='5']")
        await matches_golden(page, "lucky")
        await page.click("#lucky .lucky-number[data-number='5']")
        await page.wait_for_selector("#lucky >> text=lucky numbers: 5")
        assert await page.is_hidden("#lucky .lucky-number[data-number='5']")  # taken
        await page.click("#lucky .lucky-draw")  # the tower draws the second one
        await page.wait_for_function("() => document.body.dataset.phase === 'roll'")
        numbers = table.game.player("Dora").lucky
        assert numbers[0] == 5 and len(numbers) == 2
        shown = ", ".join(str(n) for n in numbers)
        assert await page.inner_text("#lucky") == f"lucky numbers: {shown}"

    with_browser(table, server, steps)


def test_a_bonus_mark_that_needs_a_row_asks_which_and_sends_the_choice(bot_tower):
    """The page's question for a Bonus B reward (rows tie): a view naming the choices is
    handed to the page's script; the tap asks, and the answer goes out with the choice."""
    table, _, server = bot_tower

    async def steps(browser) -> None:
        page = await phone(browser)
        sent: list[str] = []
        page.on(
            "websocket", lambda socket: socket.on("framesent", lambda frame: sent.append(frame))
        )
        await join(page, server, "Dora")
        await seated(page, "Dora")
        view = await page.evaluate("view")
        row = {"colour": "red", "numbers": list(range(2, 13)), "crossed": [],
               "cell_colours": ["red"] * 11, "skipped_before": 0, "locked_by_me": False,
               "closed": False}  # fmt: skip
        move = {"row": "red", "number": 5, "lucky": False, "choices": ["yellow", "green"]}
        await page.evaluate(
            "([view, row, move]) => handle({type: 'view', view: "
            "{...view, phase: 'action1', white: [4, 1], rows: [row], moves: [move]}})",
            [view, row, move],
        )
        await page.click("#moves .move[data-row='red'][data-number='5']")
        await page.wait_for_selector("#choices:not([hidden]) >> text=which row gets it?")
        await page.click("#choices button[data-choice='green']")
        await page.wait_for_function("() => document.getElementById('choices').hidden")
        decisions = [m for m in sent if '"decide"' in m]
        assert len(decisions) == 1
        assert '"choice":"green"' in decisions[0] and '"number":5' in decisions[0]

    with_browser(table, server, steps)


def test_two_phones_and_a_micropython_pad_play_a_whole_game(tmp_path):
    """Phones and pads at one table: Ann and Ben on phones, Pam on the real pad firmware under
    MicroPython (a robot finger presses its buttons and the tower's roll button, as in
    `qwixx-tower demo`), until the game is over."""
    binary = micropython_binary()
    table, _, server = web_tower(tmp_path)
    table.settings = replace(
        table.settings, pace=PACE
    )  # the tower plays on by itself: the robot finger is quick
    cable = Cable(tmp_path, "pad-1")
    pam = SimulatedPad(binary, cable, "test-pad-1")
    pads = attach_pads(table, [str(cable.tower_path)], {"test-pad-1": "Pam"})
    button = (table.hardware.button_factory, table.hardware.button_pin)
    fingers = RobotFingers(table.door(PAD), button, {"Pam": pam}, pace=0.05)
    table.subscribe(fingers.look)

    async def steps(browser) -> None:
        pads.open(asyncio.get_running_loop())
        pages = [await seated_phone(browser, server, name) for name in ("Ann", "Ben")]
        await fingers.join_all()  # Pam's pad joins; the finger starts the game
        assert [seat.name for seat in table.seating.seats] == ["Ann", "Ben", "Pam"]
        for page in pages:
            await page.evaluate(PLAY_BY_ITSELF)
        while table.game is None or not table.game.over:
            await asyncio.sleep(0.05)
        for page, name in zip(pages, ("Ann", "Ben"), strict=True):
            await page.wait_for_selector("#text >> text=Game over")
            assert await page.inner_text("#total") == f"score {table.game.total(name)}"
        assert (
            table.game.player("Pam").penalties
            + sum(table.game.player("Pam").crosses(row) for row in range(4))
            > 0
        ), "Pam played on her pad"

    try:
        with_browser(table, server, steps, hub=pads)
    finally:
        pam.stop()
        cable.close()


def test_a_second_tab_of_the_same_phone_takes_the_seat_and_the_first_stops(bot_tower):
    """Two tabs share the phone's token: the newer one plays the seat; the older one says so
    and does not reconnect (no tug of war)."""
    table, _, server = bot_tower

    async def steps(browser) -> None:
        first = await seated_phone(browser, server, "Dora")
        second = await first.context.new_page()
        await second.goto(f"http://127.0.0.1:{server.port}/")
        await seated(second, "Dora")
        await first.wait_for_selector("#status >> text=disconnected: reload the page to play here")
        assert (
            await first.inner_text("#refusal")
            == "Dora's seat moved to another phone (or another tab): it is played there now"
        )
        await asyncio.sleep(1.5)  # longer than the first reconnect delay: it stays away
        assert await second.inner_text("#status") == "connected"
        assert [seat.name for seat in table.seating.seats] == ["Bot", "Dora"]

    with_browser(table, server, steps)


@pytest.mark.parametrize("variant", ["classic", "longo"])
def test_the_sheet_fits_a_small_phone_without_sideways_scrolling(tmp_path, variant):
    """A 360 px wide phone (many Android phones): the widest sheet (longo, 15 cells a row)
    fits, and every cell is big enough for its number (a cell takes no tap: the move buttons
    under the sheet do, see test_phone_access.py)."""
    table, _, server = web_tower(tmp_path, [BOT], variant=variant)

    async def steps(browser) -> None:
        page = await phone(browser)
        await page.set_viewport_size({"width": 360, "height": 740})
        await join(page, server, "Dora")
        await seated(page, "Dora")
        table.new_game()
        if table.draft is not None:
            table.press()  # longo: the tower draws the lucky numbers
        await page.wait_for_function("() => document.body.dataset.phase === 'roll'")
        table.submit(Roll((6, 6), {colour: 6 for colour in table.game.dice_in_play()}))
        await page.wait_for_selector("#sheet .cell.legal")
        assert await page.evaluate("document.documentElement.scrollWidth") <= 360
        widths = await page.eval_on_selector_all(
            "#sheet .cell", "cells => cells.map(c => c.getBoundingClientRect().width)"
        )
        assert len(widths) == 4 * len(table.game.sheet.rows[0].numbers) + 4
        assert min(widths) >= 18, "cells too small"
        spilled = await page.eval_on_selector_all(
            "#sheet .cell", "cells => cells.filter(c => c.scrollWidth > c.clientWidth).length"
        )
        assert spilled == 0, "numbers spill out of their cells"

    with_browser(table, server, steps)


def test_a_reloaded_page_keeps_a_new_token_and_the_old_one_takes_nothing(tmp_path):
    """Every hello is answered with a new seat token: Dora's page, reloaded, keeps it, and
    the token she joined with (what someone on the Wi-Fi may have read) is refused in words
    on another phone, while Dora plays on."""
    table, hub, server = web_tower(tmp_path, [BOT])

    async def steps(browser) -> None:
        dora = await seated_phone(browser, server, "Dora")
        joined = await dora.evaluate("localStorage.getItem('qwixx-seat-token')")
        await dora.reload()
        await seated(dora, "Dora")
        await dora.wait_for_function(
            f"() => localStorage.getItem('qwixx-seat-token') !== {joined!r}"
        )
        await until(lambda: hub.tokens.device(joined) is None)  # the new one was kept
        other = await phone(browser)
        await other.goto(f"http://127.0.0.1:{server.port}/")
        await other.evaluate(f"localStorage.setItem('qwixx-seat-token', {joined!r})")
        await other.reload()
        await other.wait_for_function(
            "() => document.getElementById('refusal').textContent.includes('replaced')"
        )
        assert await other.is_hidden("#game")
        await dora.wait_for_selector("#status >> text=connected")
        assert await dora.is_visible("#game")
        assert not [line for line in table.newsfeed.lines if "another phone" in line]

    with_browser(table, server, steps)


def test_a_pad_s_player_is_named_from_a_phone_that_takes_no_seat(tmp_path):
    """A family at a table with a pad: grandma's pad joined as "Player 2" (a pad cannot type).
    Her grandson opens the QR link, chooses her pad under "Who plays", types "Oma" and names
    it: the pad's seat goes by Oma (the name the league rates her by), and his phone, which
    does not play, takes no seat."""
    table, _, server = web_tower(tmp_path, [BOT])
    pad = PadDoor(tmp_path, table)

    async def steps(browser) -> None:
        await pad.open()
        assert (await pad.join("")).ok
        page = await phone(browser)
        await page.goto(f"http://127.0.0.1:{server.port}/?code={CODE}")
        await page.wait_for_selector("#who-label:not([hidden])")
        await page.select_option("#who", "Player 2")
        assert await page.inner_text("#join-button") == "Name the pad's player"
        await page.fill("#name", "Oma")
        await matches_golden(page, "name-a-pad")
        await page.click("#join-button")
        await page.wait_for_selector("#status >> text=the pad of Player 2 plays as Oma now")
        assert [seat.name for seat in table.seating.seats] == ["Bot", "Oma"]
        assert await page.is_visible("#join-form") and await page.input_value("#name") == ""
        await page.wait_for_selector("#who >> option[value=Oma]", state="attached")

    try:
        with_browser(table, server, steps, hub=pad.hub)
    finally:
        pad.pad.unplug()


# What chromium (and Firefox) do where the player blocked site data ("Block all cookies", or
# for this site): reading `localStorage` throws a SecurityError, before the page's script runs
STORAGE_BLOCKED = """Object.defineProperty(window, "localStorage", {get() {
    throw new DOMException("Access is denied for this document.", "SecurityError"); }});"""


def test_a_phone_that_blocks_site_data_joins_plays_and_is_told_what_a_reload_costs(bot_tower):
    """Site data blocked on the phone: the page's script ended at its first read of the
    storage, so the join page never appeared. Now it says to keep the page open while playing,
    and the player joins and crosses as anyone does."""
    table, _, server = bot_tower

    async def steps(browser) -> None:
        page = await phone(browser)
        await page.add_init_script(STORAGE_BLOCKED)
        await page.goto(f"http://127.0.0.1:{server.port}/?code={CODE}")
        await page.wait_for_selector("#join:not([hidden])")
        assert await page.is_visible("#keeps-nothing")
        await join(page, server, "Dora")
        await seated(page, "Dora")
        bot_rolls_five(table)
        await page.click("#moves .move[data-row='red'][data-number='5']")
        await page.click("#confirm-button")
        await page.wait_for_selector("#sheet .cell.crossed[data-row='red'][data-number='5']")
        assert table.game.player("Dora").crosses(0) == 1

    with_browser(table, server, steps)


def test_a_phone_without_javascript_is_told_to_turn_it_on_and_reaches_the_history(tmp_path):
    """A browser with JavaScript off showed "connecting…" for ever and nothing else. Now it
    says the page needs JavaScript to play, and its link to the history (plain pages) works."""
    table, hub, _ = web_tower(tmp_path, [BOT])
    server = WebServer(hub, "127.0.0.1", 0, history_pages(table.journal))

    async def steps(browser) -> None:
        context = await browser.new_context(viewport=VIEWPORT, java_script_enabled=False)
        context.set_default_timeout(TIMEOUT)
        page = await context.new_page()
        await page.goto(f"http://127.0.0.1:{server.port}/?code={CODE}")
        said = await page.inner_text("main")
        assert "This page needs JavaScript to play" in said, said
        await page.click("main a[href='/history']")
        await page.wait_for_selector("h1:text('Past games and players')")

    with_browser(table, server, steps)
