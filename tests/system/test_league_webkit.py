"""The league's pages in WebKit, the engine of Safari and of every browser on an iPhone
(Debian's WebKitGTK through WebDriver, tests/support/webkit.py), as the chromium tests beside it
use them: a guest reads the standings, a name that is markup shown as typed, and taps through to
a player's page; the café's organiser signs in on a phone, creates a tournament, draws and starts
its first round and sees the tables' points, while a guest's phone sees the same points and no
organiser's button. No error of a page's script, nothing its security policy refuses."""

from __future__ import annotations

import asyncio

from support.guest_page import guest_page
from support.league_evening import before_the_tournament, evening_served
from support.organiser import PASSWORD
from support.page_probes import AFTER_A_FRAME, TEXT_SIZE, ZOOMED_ON_FOCUS
from support.tournament_results import result
from support.webkit import webkit_module, webkit_phone

pytestmark = webkit_module("webkit-league")
ROWS = "(s) => [...document.querySelectorAll(s)].map(row => row.innerText)"
TEXT = "(s) => document.querySelector(s).innerText"
BOLD = "(t) => [...document.querySelectorAll('main b')].filter(b => b.textContent === t).length"
PLAYERS = "Ann\nBen\nCleo\n<b>Zed\nEve\nRobo (hard)"


def test_in_webkit_a_guest_reads_the_standings_and_taps_through_to_a_player(tmp_path):
    with webkit_phone() as phone:

        async def look() -> None:
            async with evening_served(tmp_path) as url:
                await phone.goto(url)
                assert await phone.evaluate("() => document.title") == "Qwixx league"
                standings = await phone.evaluate(ROWS, "table.standings tbody tr")
                assert len(standings) == 2
                assert standings[0].startswith("1\t<i>Zoë") and "±" in standings[0]
                assert await phone.evaluate("() => document.querySelectorAll('main i').length") == 0
                tables = await phone.evaluate(TEXT, "ul.tables")
                assert "t2: classic: Ben 12, Cleo 9; Ben rolls" in tables
                assert len(await phone.evaluate(ROWS, "table.games tbody tr")) == 3
                await phone.click("table.standings tbody tr:first-child a")
                await phone.wait_for_function("() => location.pathname.includes('/player/')")
                assert await phone.evaluate(TEXT, "h1") == "<i>Zoë"
                assert "Place 1 with a rating of" in await phone.evaluate(TEXT, "p.rating")
                assert await phone.script_errors() == []

        asyncio.run(look())


def test_in_webkit_the_organiser_runs_a_round_and_a_guest_sees_its_points(tmp_path):
    with webkit_phone() as organiser, webkit_phone() as guest:

        async def organise() -> None:
            league, server = before_the_tournament(tmp_path)
            url = f"http://127.0.0.1:{await server.start()}/tournament"
            try:
                await organiser.goto(url)
                assert await organiser.evaluate(ZOOMED_ON_FOCUS) == []  # the password's field
                await organiser.fill("input[name=password]", PASSWORD)
                await organiser.click_button("Sign in")
                await organiser.wait_for_text("signed in as the organiser")
                assert await organiser.evaluate(ZOOMED_ON_FOCUS) == []  # (as an iPhone would)
                await organiser.fill("input[name=name]", "Friday cup")
                await organiser.fill("input[name=rounds]", "2")
                await organiser.fill("textarea[name=players]", PLAYERS)
                await organiser.click_button("Create the tournament")
                await organiser.wait_for_text("6 players, 2 rounds")
                await organiser.click_button("Draw the next round's tables")
                await organiser.wait_for_text("round 1's tables are drawn")
                await organiser.click_button("Start the round")
                await organiser.wait_for_text("round 1 has begun at every table")
                _, tables = league.tournament.round_now()
                for number, table in enumerate(tables, start=1):
                    scores = {name: 60 - 10 * seat for seat, name in enumerate(table.players)}
                    league.take(f"qwixx/{table.tower}/result",
                                result(table.tower, number, scores, (1, 1)))  # fmt: skip
                await organiser.reload()
                assert "over: every table reported" in await organiser.evaluate(TEXT, "p.round")
                points = await organiser.evaluate(ROWS, "table.points tbody tr")
                assert len(points) == 6 and points[0].split("\t")[2] == "5", points
                assert await organiser.evaluate(BOLD, "Zed") == 0  # "<b>Zed" shown as typed
                await guest.goto(url)
                assert await guest.evaluate(ROWS, "table.points tbody tr") == points
                buttons = await guest.evaluate(ROWS, "button")
                assert "Start the round" not in buttons and "Sign in" in buttons
                assert await organiser.script_errors() == [] and await guest.script_errors() == []
            finally:
                await server.stop()

        asyncio.run(organise())


def test_in_webkit_a_guest_s_page_neither_shows_the_organiser_s_page_nor_acts_for_them(tmp_path):
    """The organiser, signed in on an iPhone, opens a guest's page on the Wi-Fi (another
    origin): one that puts the tournament's page in a frame, to steer the organiser's taps,
    shows nothing of it; one that posts "draw the next round's tables" to the league in the
    organiser's name, their browser and session at hand, draws nothing. The organiser's own
    tap on the league's page then draws."""
    with webkit_phone() as organiser:

        async def organise() -> None:
            league, server = before_the_tournament(tmp_path)
            url = f"http://127.0.0.1:{await server.start()}/tournament"
            framing = f'<p id="bait">Free drinks!</p><iframe id="league" src="{url}"></iframe>'
            posting = (f'<form id="draw" method="post" action="{url}/draw"></form>'
                       '<script>document.getElementById("draw").submit()</script>')  # fmt: skip
            try:
                await organiser.goto(url)
                await organiser.fill("input[name=password]", PASSWORD)
                await organiser.click_button("Sign in")
                await organiser.wait_for_text("signed in as the organiser")
                await organiser.fill("textarea[name=players]", PLAYERS)
                await organiser.click_button("Create the tournament")
                await organiser.wait_for_text("6 players, 5 rounds")
                async with guest_page(framing) as guest:
                    await organiser.goto(guest)
                    await organiser.wait_for_selector("#bait")
                    assert await organiser.framed_text("league") == ""
                async with guest_page(posting) as guest:
                    await organiser.goto(guest)
                    await organiser.wait_for_function("(u) => location.href.startsWith(u)", url)
                    await organiser.wait_for_function("() => document.readyState === 'complete'")
                assert league.tournament.rounds() == {}, "a guest's page drew a round"
                await organiser.goto(url)
                await organiser.click_button("Draw the next round's tables")
                await organiser.wait_for_text("round 1's tables are drawn")
                assert list(league.tournament.rounds()) == [1]
            finally:
                await server.stop()

        asyncio.run(organise())


# What a phone's screen cannot show whole: the page's width, and each table's box that scrolls
WIDER = """() => ({page: document.documentElement.scrollWidth,
    boxes: [...document.querySelectorAll('.table-box')].filter(
        (box) => box.scrollWidth > box.clientWidth).map(
        (box) => [box.getAttribute('aria-label'), box.tabIndex])})"""


def test_in_webkit_the_league_s_pages_never_scroll_sideways_on_a_phone(tmp_path):
    """On a 360 px phone the standings were 368 px wide ("Wins" cut at the edge) and the page
    scrolled sideways; at 200 % text 753 px. Now, at the usual size, the standings and the
    evening's games fit whole; at 200 % text the page still never scrolls sideways: a table
    wider than the phone scrolls in its own box, which a keyboard can reach and a screen
    reader names. The same on a player's page."""
    with webkit_phone() as phone:

        async def look() -> None:
            async with evening_served(tmp_path) as url:
                for page in ("front", "player"):
                    for size in ("100%", "200%"):
                        await phone.goto(url)
                        if page == "player":
                            await phone.click("table.standings tbody tr:first-child a")
                            await phone.wait_for_function("() => location.pathname !== '/'")
                        await phone.evaluate(TEXT_SIZE, size)
                        await phone.evaluate(f"() => {AFTER_A_FRAME}")
                        wider = await phone.evaluate(WIDER)
                        assert wider["page"] <= 360, (page, size, wider)
                        boxes = wider["boxes"]
                        if size == "100%":
                            assert boxes == [], (page, boxes)  # the tables fit whole
                        else:  # wider than the phone: each in its own box, named, reachable
                            assert boxes and all(name and focus == 0 for name, focus in boxes)

        asyncio.run(look())
