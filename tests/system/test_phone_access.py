"""The phone page for every player at the table, in Debian's chromium (Playwright): a slipped
thumb crosses nothing (a tap selects, a confirm button commits), every control a player must hit
is at least 44 x 44 CSS px on a 360 px phone, a crossed number stays readable, and game over
tells each player their place and what happens next."""

from __future__ import annotations

import asyncio
import io
import itertools

import pytest
from PIL import Image, ImageChops, ImageFilter
from support.browser import browser_module
from support.page_probes import AFTER_A_FRAME, CELLS_OUT_OF_VIEW, LAYOUT, TOO_SMALL
from support.phone_page import (
    CODE,
    MACHADO,
    axe_source,
    axe_violations,
    contrast,
    contrast_with_bands,
    first_roll,
    low_contrast_texts,
    phone,
    phone_tower,
    play_in_browser,
    seated_phone,
    seen_contrast,
    settled,
    shape_difference,
    tone_difference,
)

from firmware_py.rules import Mark, Pass, Roll

pytestmark = browser_module("browser-access")
TARGET = 44  # CSS px: the smallest control a thumb hits reliably (WCAG 2.5.5)


MOVE_BUTTONS_OF_LEGAL_CELLS = """() => [...document.querySelectorAll('#sheet .cell.legal')]
    .map((cell) => {
        const key = `[data-row="${cell.dataset.row}"][data-number="${cell.dataset.number}"]`;
        const button = document.querySelector(`#moves .move${key}`);
        const box = button && button.getBoundingClientRect();
        return [cell.dataset.row + ' ' + cell.dataset.number, getComputedStyle(cell).cursor,
                box ? [Math.round(box.width), Math.round(box.height)] : null];
    })"""


@pytest.mark.parametrize("variant", ["classic", "longo"])
def test_a_cell_is_no_target_its_move_button_selects_and_the_confirm_button_crosses(
    tmp_path, variant
):
    """On a 360 px phone cells are 25 px (longo's 18 px), too small to hit (WCAG 2.5.8): a tap
    on one, even a legal one, does nothing, and each legal cell has its move button, 44 x 44 px
    or more. Yellow 5 and green 5 are both legal: a thumb on the green 5 cell sends nothing and
    selects nothing; the green move button only selects; cancel, the yellow move button,
    confirm: yellow 5 is crossed, once."""
    table, _, server = phone_tower(tmp_path, variant=variant)

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        sent: list[str] = []
        page.on("websocket", lambda socket: socket.on("framesent", lambda text: sent.append(text)))
        await page.reload()  # the listener sees the page's socket from its start
        await page.wait_for_selector("#game:not([hidden])")
        table.new_game()
        if table.draft is not None:
            table.press()  # longo: the tower draws the lucky numbers
        await page.wait_for_function("() => document.body.dataset.phase === 'roll'")
        table.submit(Roll((4, 1), {colour: 1 for colour in table.game.dice_in_play()}))
        await page.wait_for_selector("#moves button[data-row='yellow']")
        for cell, cursor, button in await page.evaluate(MOVE_BUTTONS_OF_LEGAL_CELLS):
            assert cursor != "pointer", f"{cell} looks like a target"
            assert button is not None and min(button) >= TARGET, f"{cell}'s move: {button}"
        await page.click("#sheet .cell.legal[data-row='green'][data-number='5']")
        assert await page.is_hidden("#confirm"), "a tap on a cell selected it"
        assert await page.get_attribute("#moves .move.green", "aria-pressed") == "false"
        await page.click("#moves .move.green")
        assert await page.inner_text("#confirm-button") == "Cross green 5"
        assert await page.is_visible("#sheet .cell.selected[data-row='green'][data-number='5']")
        assert not [frame for frame in sent if '"decide"' in frame], "a tap alone sent a mark"
        await page.click("#cancel")
        assert await page.is_hidden("#confirm")
        await page.click("#moves .move.yellow")
        assert await page.inner_text("#confirm-button") == "Cross yellow 5"
        await page.click("#confirm-button")
        await page.wait_for_selector("#sheet .cell.crossed[data-row='yellow'][data-number='5']")
        await settled(page)
        assert [frame for frame in sent if '"decide"' in frame] != []
        dora = table.game.player("Dora")
        assert [dora.crosses(row) for row in range(4)] == [0, 1, 0, 0]

    play_in_browser(table, server, steps)


async def controls_too_small(page) -> list[str]:
    return await page.evaluate(TOO_SMALL)


@pytest.mark.parametrize("variant", ["classic", "longo"])
def test_every_control_a_player_must_hit_is_44_css_px_on_a_360_px_phone(tmp_path, variant):
    """Joining, longo's lucky numbers, the moves, confirm and cancel, pass and undo."""
    table, _, server = phone_tower(tmp_path, variant=variant)

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        table.new_game()
        if variant == "longo":
            await page.wait_for_selector("#lucky .lucky-number")
            assert await controls_too_small(page) == []
            await page.click("#lucky .lucky-draw")  # Bot, a computer, has chosen already
        await page.wait_for_function("() => document.body.dataset.phase === 'roll'")
        table.submit(Roll((4, 1), {colour: 1 for colour in table.game.dice_in_play()}))
        await page.wait_for_selector("#moves .move")
        await page.click("#moves .move")
        await page.wait_for_selector("#confirm-button:not([hidden])")
        assert await controls_too_small(page) == []
        await page.click("#confirm-button")
        await page.wait_for_selector("#undo:not([hidden])")
        await settled(page)
        assert await controls_too_small(page) == []
        assert await page.evaluate("document.documentElement.scrollWidth") <= 360

    play_in_browser(table, server, steps)


NUMBER_SEEN = """(cell) => {
    const number = cell.querySelector('.number');
    const box = number.getBoundingClientRect();
    const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return [number.textContent, number.contains(top) || top === number,
            getComputedStyle(number).color, getComputedStyle(cell).backgroundColor];
}"""


def test_a_crossed_number_stays_readable(tmp_path):
    """The cross is drawn under the number, and the number is white on a dark cell."""
    table, _, server = phone_tower(tmp_path)

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        first_roll(table)
        table.submit(Mark("Dora", "blue", 5))
        crossed = await page.wait_for_selector("#sheet .cell.crossed[data-row='blue']")
        text, on_top, colour, background = await crossed.evaluate(NUMBER_SEEN)
        assert text == "5" and on_top, "the cross hides the number"
        assert contrast(rgb(colour), rgb(background)) >= 4.5

    play_in_browser(table, server, steps)


def rgb(css: str) -> tuple[int, ...]:
    return tuple(int(float(part)) for part in css[css.index("(") + 1 : -1].split(",")[:3])


def penalty_turns(table, crosser: str, turns: int) -> None:
    """Whole turns in which the active player crosses nothing (a penalty each) while `crosser`
    crosses a 12 or 2 in another player's turn, when the dice allow."""
    for _ in range(turns):
        game = table.game
        if game.over:
            return
        table.submit(Roll((6, 6), {colour: 1 for colour in game.dice_in_play()}))
        active = table.game.active_name
        for name in [seat.name for seat in table.seating.seats]:
            legal = [m for m in table.game.legal_marks(name) if m.row == "red"]
            wanted = name == crosser and name != active and legal
            table.submit(Mark(name, "red", 12) if wanted else Pass(name))
        if not table.game.over:
            table.submit(Pass(table.game.active_name))


def test_game_over_tells_each_player_their_place_and_what_happens_next(tmp_path):
    """Ann rolls and crosses nothing four times (four penalties end the game); Ben crossed red
    12: each phone says its own place, and that the roll button starts the next game."""
    table, _, server = phone_tower(tmp_path, seats=())

    async def steps(browser) -> None:
        ann = await seated_phone(browser, server, "Ann")
        ben = await seated_phone(browser, server, "Ben")
        table.new_game()
        penalty_turns(table, "Ben", 8)
        assert table.game.over
        for page in (ann, ben):
            await page.wait_for_selector("#result:not([hidden])")
        ann_total, ben_total = table.game.total("Ann"), table.game.total("Ben")
        assert ben_total > ann_total
        assert await ben.inner_text("#result") == (
            f"You won with {ben_total} points. Next: a press of the tower's roll button "
            "starts a new game; you keep your seat."
        )
        assert (await ann.inner_text("#result")).startswith(
            f"You came 2nd of 2 with {ann_total} points. Next:"
        )

    play_in_browser(table, server, steps)


# ---- a blind player: names, news, the keyboard ---------------------------------------------------

# Whole turns after a first roll that everybody passed: (white dice, Bot's and Dora's action-1
# marks as (row, number) or None: a pass); Dora rolls first, and the roller passes in action 2.
LOCKING_TURNS = [
    ((1, 1), ("yellow", 2), ("red", 2)),
    ((1, 2), ("yellow", 3), ("red", 3)),
    ((2, 2), ("yellow", 4), ("red", 4)),
    ((2, 3), ("yellow", 5), ("red", 5)),
    ((3, 3), ("yellow", 6), ("red", 6)),
    ((6, 6), None, ("red", 12)),  # Dora's sixth red cross locks red
]
RECORD_NEWS = """() => {
    window.newsHeard = [];
    window.newsTimes = [];  // when each was heard, in milliseconds
    new MutationObserver(() => {
        newsHeard.push(document.getElementById('news').textContent);
        newsTimes.push(performance.now());
    }).observe(document.getElementById('news'), {childList: true, characterData: true,
                                                 subtree: true});
}"""


def everybody_passes(table) -> None:
    """Bot's first roll: nobody crosses (Bot, the roller, takes a penalty); Dora rolls next."""
    for name in ("Bot", "Dora", "Bot"):
        table.submit(Pass(name))


def play_turns(table, turns) -> None:
    for white, *marks in turns:
        game = table.game
        table.submit(Roll(white, {colour: 1 for colour in game.dice_in_play()}))
        for name, mark in zip(("Bot", "Dora"), marks, strict=True):
            table.submit(Mark(name, *mark) if mark else Pass(name))
        table.submit(Pass(table.game.active_name))


def spoken(snapshot: str) -> str:
    """The accessibility tree as one line, as a screen reader would run its words together."""
    return " ".join(snapshot.split()).replace(" ,", ",")


def test_a_screen_reader_names_rows_cells_dice_penalties_and_scores(tmp_path):
    table, _, server = phone_tower(tmp_path)

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        first_roll(table)
        everybody_passes(table)
        play_turns(table, [((1, 1), ("yellow", 2), None)])  # Dora rolls, crosses nothing
        play_turns(table, [((1, 1), None, ("red", 2))])  # Bot rolls, Dora crosses red 2
        table.submit(Roll((5, 5), {colour: 2 for colour in table.game.dice_in_play()}))
        await page.wait_for_selector("#moves .move")
        tree = spoken(await page.locator("body").aria_snapshot())
        for heard in (
            'list "Dice": - listitem: white die 5 - listitem: white die 5 - listitem: red die 2',
            'list "red row, 1 cross": - listitem: 2, crossed - listitem: "3"',
            'list "yellow row, 0 crosses"',
            "listitem: 10, you may cross it",
            'paragraph: "penalties: 1 of 4"',
            'group "Choose a number to cross"',
            'button "red 10"',
            'list "Scores": - listitem: "Bot: ',
        ):
            assert heard in tree
        assert "✕" not in tree

    play_in_browser(table, server, steps)


def test_rolls_turns_refusals_and_locks_are_announced(tmp_path):
    table, _, server = phone_tower(tmp_path)

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        await page.evaluate(RECORD_NEWS)
        first_roll(table)
        await page.wait_for_function("() => newsHeard.some(h => h.startsWith('Rolled: white 4'))")
        await page.evaluate("decide({action: 'mark', row: 'red', number: 9})")
        await page.wait_for_selector("#refusal[role='alert']:not([hidden])")
        assert "cannot cross red 9" in await page.inner_text("#refusal")
        everybody_passes(table)
        await page.wait_for_function("() => newsHeard.some(h => h.includes('your roll: press'))")
        play_turns(table, LOCKING_TURNS)
        await page.wait_for_function("() => newsHeard.some(h => h.includes('red row is locked'))")
        news = await page.evaluate("newsHeard")
        assert news[0].startswith("Rolled: white 4 and 1, red 6, yellow 2, green 3, blue 6.")
        assert "You may cross red 5, yellow 5, green 5, blue 5." in news[0]

    play_in_browser(table, server, steps)


def in_order(heard: str, sentences: list[str]) -> list[str]:
    """What is wrong with `heard` as a telling of `sentences`: each must be said exactly once,
    in this order."""
    wrong = [f"{s!r} said {heard.count(s)} times" for s in sentences if heard.count(s) != 1]
    places = [heard.find(sentence) for sentence in sentences]
    if not wrong and places != sorted(places):
        wrong.append(f"out of order: {places}")
    return wrong


def test_a_player_hears_their_own_crosses_and_penalties(tmp_path):
    """Dora crosses yellow 5 on her phone; then she rolls, crosses nothing and takes a penalty
    (Bot took one before her: not hers); then Bot rolls. The news tells her each, in order."""
    table, _, server = phone_tower(tmp_path)

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        await page.evaluate(RECORD_NEWS)
        first_roll(table)
        await page.click("#moves .move.yellow")
        await page.click("#confirm-button")
        await page.wait_for_selector("#sheet .cell.crossed[data-row='yellow']")
        await settled(page)
        for name in ("Bot", "Bot"):  # Bot, the roller, crosses nothing: his penalty
            table.submit(Pass(name))
        table.submit(Roll((6, 6), {colour: 1 for colour in table.game.dice_in_play()}))
        await page.wait_for_function("() => view.white[0] === 6")  # (a newer view would
        for name in ("Bot", "Dora", "Dora"):  # replace it before the phone had it)
            table.submit(Pass(name))
        await page.wait_for_selector("#penalties .crossed")
        table.submit(Roll((2, 2), {colour: 2 for colour in table.game.dice_in_play()}))
        await page.wait_for_function("() => newsHeard.some(h => h.includes('Rolled: white 2'))")
        assert table.game.player("Dora").penalties == 1
        heard = " ".join(await page.evaluate("newsHeard"))
        told = ["You crossed yellow 5.", "Rolled: white 6 and 6,", "You took a penalty: 1 of 4.",
                "Rolled: white 2 and 2,"]  # fmt: skip
        assert in_order(heard, told) == []
        assert heard.count("penalty") == 1

    play_in_browser(table, server, steps)


async def play_turns_quickly(table, turns, pause: float) -> None:
    """`play_turns`, a decision every `pause` seconds: each its own view on the phone."""
    for white, *marks in turns:
        table.submit(Roll(white, {colour: 1 for colour in table.game.dice_in_play()}))
        for name, mark in zip(("Bot", "Dora"), marks, strict=True):
            await asyncio.sleep(pause)
            table.submit(Mark(name, *mark) if mark else Pass(name))
        await asyncio.sleep(pause)
        table.submit(Pass(table.game.active_name))
        await asyncio.sleep(pause)


def test_the_news_changes_at_most_once_a_second_and_says_each_thing_once_in_order(tmp_path):
    """Six turns decided at 8 decisions a second (each a new view on the phone): the live
    region changes a second or more apart, so that a screen reader finishes one before it
    hears the next, and still says every roll and every cross of Dora's, each once and in
    order (WCAG 4.1.3)."""
    table, _, server = phone_tower(tmp_path)

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        first_roll(table)
        everybody_passes(table)
        await page.wait_for_function("() => view.text.includes('your roll: press')")
        await page.evaluate(RECORD_NEWS)
        await play_turns_quickly(table, LOCKING_TURNS, pause=0.125)
        await page.wait_for_function("() => newsHeard.some(h => h.includes('red row is locked'))")
        times = await page.evaluate("newsTimes")
        gaps = [round(later - sooner) for sooner, later in itertools.pairwise(times)]
        assert len(times) > 1 and min(gaps) >= 1000, f"milliseconds between changes: {gaps}"
        told = []
        for white, _, dora in LOCKING_TURNS:
            told.append(f"Rolled: white {white[0]} and {white[1]},")
            told.append(f"You crossed red {dora[1]}" + ("." if dora[1] != 12 else ""))
        told[-1] += " and the red lock. The red row is locked."
        assert in_order(" ".join(await page.evaluate("newsHeard")), told) == []

    play_in_browser(table, server, steps)


def test_while_waiting_the_dice_sheet_and_scores_say_so(tmp_path):
    """Before a game the dice, the sheet and the scores are empty: their headings say why
    rather than leading to nothing, and no empty list is left to be read."""
    table, _, server = phone_tower(tmp_path)

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        waiting = spoken(await page.locator("main").aria_snapshot())
        for heard in ('heading "Dice: not rolled yet"',
                      'heading "Your sheet: none until the game starts"',
                      'heading "Scores: none yet"'):  # fmt: skip
            assert heard in waiting
        assert "list" not in waiting
        table.new_game()
        await page.wait_for_selector("#sheet .row")
        started = spoken(await page.locator("main").aria_snapshot())
        for heard in ('heading "Dice: not rolled yet"', 'heading "Your sheet"',
                      'list "Scores": - listitem: "Bot: 0'):  # fmt: skip
            assert heard in started

    play_in_browser(table, server, steps)


FOCUS_RING = """() => {
    const style = getComputedStyle(document.activeElement);
    return [document.activeElement.id || document.activeElement.className,
            style.outlineStyle, parseFloat(style.outlineWidth)];
}"""


async def tab_to(page, selector: str) -> None:
    """Press Tab until `selector` has the focus (bounded by the page's controls)."""
    for _ in range(40):
        await page.keyboard.press("Tab")
        if await page.evaluate(f"document.activeElement.matches({selector!r})"):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_a_mark_is_chosen_and_confirmed_with_the_keyboard_with_a_visible_focus(tmp_path):
    table, _, server = phone_tower(tmp_path)

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        first_roll(table)
        await page.wait_for_selector("#moves .move")
        await tab_to(page, ".move.green")
        name, style, width = await page.evaluate(FOCUS_RING)
        assert style == "solid" and width >= 2, f"no visible focus on {name}"
        await page.keyboard.press("Enter")
        name, style, width = await page.evaluate(FOCUS_RING)
        assert name == "confirm-button" and style == "solid" and width >= 2
        assert await page.inner_text("#confirm-button") == "Cross green 5"
        await page.keyboard.press("Enter")
        await page.wait_for_selector("#sheet .cell.crossed[data-row='green'][data-number='5']")
        assert table.game.player("Dora").crosses(2) == 1

    play_in_browser(table, server, steps)


def test_axe_core_finds_nothing_serious_from_join_to_game_over(tmp_path):
    """axe-core's WCAG 2.2 AA and best-practice rules at join, waiting, a decision, a refusal,
    a lock and game over: no violation of impact serious or critical."""
    source = axe_source()
    if source is None:
        pytest.skip("axe-core could not be installed (no npm, or no registry)")
    table, _, server = phone_tower(tmp_path)

    async def steps(browser) -> None:
        page = await phone(browser)
        await page.goto(f"http://127.0.0.1:{server.port}/?code={CODE}")
        await page.wait_for_selector("#join:not([hidden])")
        found = {"join": await axe_violations(page, source)}
        page = await seated_phone(browser, server, "Dora")
        found["waiting"] = await axe_violations(page, source)
        first_roll(table)
        await page.click("#moves .move.red")
        found["decision"] = await axe_violations(page, source)
        await page.evaluate("decide({action: 'mark', row: 'red', number: 9})")
        await page.wait_for_selector("#refusal:not([hidden])")
        found["refusal"] = await axe_violations(page, source)
        everybody_passes(table)
        play_turns(table, LOCKING_TURNS)
        await page.wait_for_selector("#sheet .row.red.closed")
        found["lock"] = await axe_violations(page, source)
        penalty_turns(table, "Dora", 8)
        await page.wait_for_selector("#result:not([hidden])")
        found["game over"] = await axe_violations(page, source)
        assert found == {state: [] for state in found}

    play_in_browser(table, server, steps)


# ---- low vision and colour blindness: contrast, and more than colour ----------------------------


def test_every_text_is_at_least_4_5_to_1_against_its_background_locked_rows_included(tmp_path):
    """From the page's computed colours: the join page, a sheet with crossed, skipped, legal
    and selected cells and a locked row, a refusal, and the same with patterns on."""
    table, _, server = phone_tower(tmp_path)

    async def steps(browser) -> None:
        page = await phone(browser)
        await page.goto(f"http://127.0.0.1:{server.port}/?code={CODE}")
        await page.wait_for_selector("#status.ok")
        low = {"join": await low_contrast_texts(page)}
        page = await seated_phone(browser, server, "Dora")
        first_roll(table)
        everybody_passes(table)
        play_turns(table, LOCKING_TURNS)
        table.submit(Roll((5, 4), {colour: 2 for colour in table.game.dice_in_play()}))
        await page.click("#moves .move.yellow")
        await page.wait_for_selector("#sheet .row.red.closed .cell.skipped")
        low["sheet"] = await low_contrast_texts(page)
        await page.evaluate("decide({action: 'mark', row: 'red', number: 9})")
        await page.wait_for_selector("#refusal:not([hidden])")
        await settled(page)
        await page.check("#patterns")
        low["refusal, patterns"] = await low_contrast_texts(page)
        assert low == {state: [] for state in low}

    play_in_browser(table, server, steps)


# The view the tower sent last, redrawn with every cell of the sheet in one state (the page's
# own `handle`): open, crossed (the locks too), skipped, legal, or each row locked for everyone.
EVERY_CELL = """(state) => {
    const seat = structuredClone(view);
    seat.rows = seat.rows.map((row) => {
        const last = row.numbers.length - 1;
        const drawn = {...row, crossed: [], skipped_before: 0, locked_by_me: false,
                       closed: state === 'locked'};
        if (state === 'crossed') {
            Object.assign(drawn, {crossed: [...row.numbers.keys()], locked_by_me: true});
        }
        if (state === 'skipped') Object.assign(drawn, {crossed: [last], skipped_before: last});
        return drawn;
    });
    seat.locked = state === 'locked' ? seat.rows.map((row) => row.colour) : [];
    seat.moves = state !== 'legal' ? [] : seat.rows.flatMap((row) => row.numbers.map(
        (number) => ({row: row.colour, number, lucky: false, choices: []})));
    handle({type: 'view', view: seat});
}"""


@pytest.mark.parametrize("variant", ["classic", "mixx-a"])
def test_every_state_of_a_cell_stands_out_3_to_1_from_its_rows_band(tmp_path, variant):
    """WCAG 1.4.11 for the sheet: each cell, open, crossed, skipped, legal, selected or in a
    locked row, and the lock, stands out 3:1 or more from its row's band by its fill or its
    frame, and a locked row's stripes do too; mixx's rows put every colour on every band."""
    table, _, server = phone_tower(tmp_path, variant=variant)

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        first_roll(table)
        await page.wait_for_selector("#moves .move")
        low = {}
        for state in ("open", "crossed", "skipped", "legal", "locked"):
            await page.evaluate(EVERY_CELL, state)
            ratios = await contrast_with_bands(page)
            if state == "legal":
                for row in COLOURS:  # one cell selected in each row, in turn
                    await page.click(f"#moves .move[data-row='{row}']")
                    ratios.update(await contrast_with_bands(page))
            low.update({cell: round(ratio, 2) for cell, ratio in ratios.items() if ratio < 3})
        assert low == {}

    play_in_browser(table, server, steps)


COLOURS = ("red", "yellow", "green", "blue")


async def picture(page, selector: str) -> Image.Image:
    return Image.open(io.BytesIO(await page.locator(selector).screenshot()))


def closest_pair(pictures: dict, measure) -> tuple[float, str]:
    """The two pictures least apart under either colour blindness, and by how much."""
    return min(
        (measure(pictures[a], pictures[b], kind), f"{a}/{b} ({kind})")
        for a, b in itertools.combinations(pictures, 2)
        for kind in MACHADO
    )


async def pictures_of(page, selector: str) -> dict:
    """One picture per colour of `selector` (with {} for the colour)."""
    return {colour: await picture(page, selector.format(colour)) for colour in COLOURS}


LETTER_COLOURS = """(letter) => {
    const paint = (e) => getComputedStyle(e).backgroundColor;
    let back = letter;
    while (back && /rgba\\(0, 0, 0, 0\\)|transparent/.test(paint(back))) back = back.parentElement;
    return [getComputedStyle(letter).color, back ? paint(back) : 'rgb(255, 255, 255)'];
}"""


async def letters_unreadable(page, selector: str) -> list[str]:
    """The letters of `selector` that a colour-blind player reads at less than 4.5:1."""
    faint = []
    for colour in COLOURS:
        ink, back = await page.eval_on_selector(selector.format(colour), LETTER_COLOURS)
        for kind in MACHADO:
            ratio = seen_contrast(rgb(ink), rgb(back), kind)
            if ratio < 4.5:
                faint.append(f"{selector.format(colour)} ({kind}): {ratio:.2f}")
    return faint


@pytest.mark.parametrize(
    "letters", ["#dice .die.{} .letter", "#moves .move.{} .letter", "#sheet .row.{} > .letter"]
)
def test_colour_blind_players_tell_dice_moves_and_rows_apart_by_their_letters(tmp_path, letters):
    """Under simulated protanopia and deuteranopia (Machado et al. 2009) the colours of red and
    green dice, moves and rows look much alike; their letters do not: every two differ in
    shape, and each reads at 4.5:1 or more against what it is on."""
    table, _, server = phone_tower(tmp_path)

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        table.new_game()
        table.submit(Roll((3, 4), {colour: 3 for colour in table.game.dice_in_play()}))
        await page.wait_for_selector("#moves .move")
        shapes = await pictures_of(page, letters)
        assert closest_pair(shapes, shape_difference)[0] >= 0.05
        assert await letters_unreadable(page, letters) == []

    play_in_browser(table, server, steps)


PATTERN = "(cell) => getComputedStyle(cell, '::before').clipPath"


def test_patterns_mode_gives_every_colour_its_own_shape_on_cells_dice_and_moves(tmp_path):
    """For mixed rows (mixx) and for players who want more than the letters: a triangle, a
    circle, a square or a diamond per colour, kept across reloads."""
    table, _, server = phone_tower(tmp_path)

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        table.new_game()
        table.submit(Roll((3, 4), {colour: 3 for colour in table.game.dice_in_play()}))
        await page.wait_for_selector("#moves .move")
        plain = await page.eval_on_selector("#sheet .row.red .cell", PATTERN)
        await page.check("#patterns")
        await page.reload()
        await page.wait_for_selector("#moves .move")
        assert await page.is_checked("#patterns")
        for kind in ("#sheet .row.{} .cell", "#dice .die.{}", "#moves .move.{}"):
            shapes = {await page.eval_on_selector(kind.format(c), PATTERN) for c in COLOURS}
            assert len(shapes) == 4 and plain not in shapes, kind

    play_in_browser(table, server, steps)


HIDE = {
    "shapes": "#sheet .cell::before { visibility: hidden !important; }",
    "numbers": "#sheet .number { color: transparent !important; text-shadow: none !important; }",
}


async def sheet_without(page, *parts: str) -> Image.Image:
    """The sheet as a picture, with `parts` (of HIDE) hidden for it."""
    hidden = [await page.add_style_tag(content=HIDE[part]) for part in parts]
    shot = await picture(page, "#sheet")
    for style in hidden:
        await style.evaluate("(style) => style.remove()")
    return shot.convert("RGB")


@pytest.mark.parametrize("variant", ["classic", "longo"])
def test_the_patterns_shapes_leave_every_number_clear(tmp_path, variant):
    """A shape of the patterns mode never covers or touches a number's digits (10 to 16 are
    as wide as their cells): where the numbers are drawn (the crossed ones' dark outline too),
    and a CSS px around, the sheet with its shapes looks as it does without them. Open,
    legal, skipped and crossed cells, at 2 device px to the CSS px."""
    table, _, server = phone_tower(tmp_path, variant=variant)

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora", scale=2)
        await page.check("#patterns")
        table.new_game()
        if table.draft is not None:
            table.press()  # longo: the tower draws the lucky numbers
        await page.wait_for_function("() => document.body.dataset.phase === 'roll'")
        play_turns(table, [((6, 4), None, ("green", 10))])  # Bot rolls, Dora skips to 10
        table.submit(Roll((1, 1), {colour: 1 for colour in table.game.dice_in_play()}))
        await page.wait_for_selector("#sheet .cell.legal")
        plain = await sheet_without(page, "shapes")
        digits = ImageChops.difference(plain, await sheet_without(page, "shapes", "numbers"))
        near_digits = digits.convert("L").point(lambda level: 255 * (level > 24))
        near_digits = near_digits.filter(ImageFilter.MaxFilter(5))  # a CSS px around
        shapes = ImageChops.difference(plain, await sheet_without(page)).convert("L")
        covered = ImageChops.multiply(shapes.point(lambda level: 255 * (level > 24)), near_digits)
        assert covered.getbbox() is None, f"a shape covers digits inside {covered.getbbox()}"

    play_in_browser(table, server, steps)


def test_colour_blind_players_tell_a_cells_states_apart(tmp_path):
    """Red 6 open, legal, selected and crossed on Dora's phone, skipped on Ben's: under both
    simulations every two states differ clearly in tone or shape (the number is the same)."""
    table, _, server = phone_tower(tmp_path)
    cell = "#sheet .row.red .cell[data-number='6']"

    async def steps(browser) -> None:
        dora = await seated_phone(browser, server, "Dora")
        ben = await seated_phone(browser, server, "Ben")
        table.new_game()
        await dora.wait_for_selector(cell)
        states = {"open": await picture(dora, cell)}
        table.submit(Roll((4, 2), {colour: 1 for colour in table.game.dice_in_play()}))
        await dora.wait_for_selector(cell + ".legal")
        states["legal"] = await picture(dora, cell)
        await dora.click("#moves .move[data-row='red'][data-number='6']")
        states["selected"] = await picture(dora, cell)
        await dora.click("#confirm-button")
        await dora.wait_for_selector(cell + ".crossed")
        await settled(dora)
        states["crossed"] = await picture(dora, cell)
        for name in ("Bot", "Ben", "Bot"):
            table.submit(Pass(name))
        table.submit(Roll((4, 3), {colour: 1 for colour in table.game.dice_in_play()}))
        table.submit(Mark("Ben", "red", 7))
        await ben.wait_for_selector(cell + ".skipped")
        states["skipped"] = await picture(ben, cell)
        assert closest_pair(states, tone_difference)[0] >= 15

    play_in_browser(table, server, steps)


# ---- large text, zoom, landscape -----------------------------------------------------------------


async def deciding(page) -> dict:
    """The page in action 1 with a mark selected: where things are."""
    await page.wait_for_selector("#moves .move")
    await page.click("#moves .move")
    await page.wait_for_selector("#confirm-button:not([hidden])")
    return await page.evaluate(LAYOUT)


def test_at_200_percent_text_the_numbers_grow_and_nothing_runs_off_the_side(tmp_path):
    """Rows wrap onto more lines (a row of twelve 45 px cells is wider than the phone): every
    cell stays in view."""
    table, _, server = phone_tower(tmp_path)

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora")
        first_roll(table)
        usual = await deciding(page)
        await page.evaluate("document.documentElement.style.fontSize = '200%'")  # the setting
        await page.evaluate(AFTER_A_FRAME)
        large = await page.evaluate(LAYOUT)
        assert large["number"] >= 1.9 * usual["number"]
        assert large["page"] <= 360 and large["spilled"] == 0
        assert large["total"]["right"] <= 360
        assert await page.evaluate(CELLS_OUT_OF_VIEW) == []
        assert await controls_too_small(page) == []

    play_in_browser(table, server, steps)


def test_at_200_percent_zoom_the_sheet_grows_and_its_rows_wrap(tmp_path):
    """A 360 px phone zoomed to 200 % is 180 CSS px wide: the numbers keep their CSS size (so
    look twice as large), rows wrap onto more lines rather than shrink or scroll sideways (half
    of each row was out of view, with no sign that it scrolled), and the page does not
    scroll sideways."""
    table, _, server = phone_tower(tmp_path)

    async def steps(browser) -> None:
        usual_page = await seated_phone(browser, server, "Dora")
        zoomed_page = await seated_phone(
            browser, server, "Zoe", viewport={"width": 180, "height": 370}
        )
        first_roll(table)
        usual, zoomed = await deciding(usual_page), await deciding(zoomed_page)
        assert zoomed["number"] == usual["number"]
        assert zoomed["page"] <= 180 and zoomed["spilled"] == 0
        assert zoomed["total"]["right"] <= 180
        assert await zoomed_page.evaluate(CELLS_OUT_OF_VIEW) == []
        assert await controls_too_small(zoomed_page) == []

    play_in_browser(table, server, steps)


@pytest.mark.parametrize("variant", ["classic", "longo"])
def test_at_400_percent_zoom_every_cell_is_in_view_without_scrolling_sideways(tmp_path, variant):
    """WCAG 1.4.10: a desktop browser of 1280 x 1024 zoomed to 400 % is 320 x 256 CSS px, wider
    than high but no phone on its side (whose layout left the sheet 100 px, 2.5 cells of a
    row): one column, rows wrapped, numbers at their size, nothing wider than the page."""
    table, _, server = phone_tower(tmp_path, variant=variant)

    async def steps(browser) -> None:
        usual_page = await seated_phone(browser, server, "Dora")
        page = await seated_phone(browser, server, "Zoe", viewport={"width": 320, "height": 256})
        table.new_game()
        if table.draft is not None:
            table.press()  # longo: the tower draws the lucky numbers
        await page.wait_for_function("() => document.body.dataset.phase === 'roll'")
        table.submit(Roll((4, 1), {colour: 1 for colour in table.game.dice_in_play()}))
        usual, zoomed = await deciding(usual_page), await deciding(page)
        assert await page.evaluate(CELLS_OUT_OF_VIEW) == []
        assert zoomed["number"] == usual["number"] and zoomed["spilled"] == 0
        assert zoomed["page"] <= 320 and zoomed["total"]["right"] <= 320
        assert await controls_too_small(page) == []

    play_in_browser(table, server, steps)


@pytest.mark.parametrize("variant", ["classic", "longo"])
def test_in_landscape_the_sheet_and_the_decision_controls_are_all_in_view(tmp_path, variant):
    """A phone on its side (740 x 360): the sheet and, beside it, the moves, the confirm button
    and Pass, all without scrolling; the page uses the width."""
    table, _, server = phone_tower(tmp_path, variant=variant)

    async def steps(browser) -> None:
        page = await seated_phone(browser, server, "Dora", viewport={"width": 740, "height": 360})
        table.new_game()
        if variant == "longo":  # lucky 5 and 9: with white 4 + 1, eight moves to choose from
            for number in (5, 9):
                await page.click(f"#lucky .lucky-number[data-number='{number}']")
                await page.wait_for_selector("#lucky >> text=lucky numbers: 5")
        await page.wait_for_function("() => document.body.dataset.phase === 'roll'")
        table.submit(Roll((4, 1), {colour: 2 for colour in table.game.dice_in_play()}))
        layout = await deciding(page)
        for part in ("sheet", "moves", "confirm", "pass"):
            assert layout[part]["bottom"] <= 360 and layout[part]["right"] <= 740, part
        assert layout["sheet"]["right"] <= layout["pass"]["left"], "side by side"
        assert layout["pass"]["right"] - layout["sheet"]["left"] > 640
        assert layout["spilled"] == 0

    play_in_browser(table, server, steps)
