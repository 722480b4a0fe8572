"""The tournament's page in Debian's headless chromium (Playwright), as a café's organiser uses
it on a phone: signed in with the organiser's password, a tournament created from a typed list,
the first round drawn and started, the tables' results shown as placement points; a guest's
phone on the same Wi-Fi sees the round and the points and no organiser's button. Nothing the
page's security headers refuse (no console error), and no script on the page."""

from __future__ import annotations

import json

from support import HANG
from support.browser import browser_module, connected, run_in_browser_loop
from support.league_evening import before_the_tournament
from support.organiser import PASSWORD

pytestmark = browser_module("browser-tournament")
SMALL_PHONE = {"width": 360, "height": 740}
PLAYERS = "Ann\nBen\nCleo\n<b>Zed\nEve\nRobo (hard)"


def result(tower: str, number: int, players: list[str], tag: dict[str, int]) -> bytes:
    """The tower's result, the players in the order they finish."""
    placings = [
        {"name": name, "seat": seat, "kind": "phone", "level": None, "score": 60 - 10 * seat,
         "penalties": 0, "place": seat}
        for seat, name in enumerate(players, start=1)
    ]  # fmt: skip
    return json.dumps({
        "id": f"{tower}-{number:06d}", "tower": tower, "game": number, "variant": "classic",
        "started": None, "finished": "2026-11-27T19:30:00+00:00", "reason": "locks",
        "players": placings, "winners": [players[0]], "round": tag,
    }).encode()  # fmt: skip


def test_the_organiser_runs_a_round_from_a_phone(tmp_path):
    async def organise() -> None:
        league, server = before_the_tournament(tmp_path)
        port = await server.start()
        url = f"http://127.0.0.1:{port}/tournament"
        try:
            async with connected() as browser:
                phone = await (await browser.new_context(viewport=SMALL_PHONE)).new_page()
                phone.set_default_timeout(HANG * 1000)
                complaints: list[str] = []
                phone.on("console", lambda message: complaints.append(message.text))
                await phone.goto(url)
                await phone.get_by_label("Organiser's password").fill(PASSWORD)
                await phone.get_by_role("button", name="Sign in").click()
                await phone.get_by_text("signed in as the organiser").wait_for()
                await phone.get_by_label("Name").fill("Friday cup")
                await phone.get_by_label("Rounds").fill("2")
                await phone.get_by_label("Players, one a line").fill(PLAYERS)
                await phone.get_by_role("button", name="Create the tournament").click()
                await phone.get_by_text("6 players, 2 rounds").wait_for()
                await phone.get_by_role("button", name="Draw the next round's tables").click()
                await phone.get_by_text("round 1's tables are drawn").wait_for()
                assert "waiting for the start" in await phone.locator("ul.tables").inner_text()
                await phone.get_by_role("button", name="Start the round").click()
                await phone.get_by_text("round 1 has begun at every table").wait_for()
                _, tables = league.tournament.round_now()
                assert sorted(len(table.players) for table in tables) == [3, 3]
                for number, table in enumerate(tables, start=1):
                    tag = {"tournament": 1, "round": 1}
                    league.take(f"qwixx/{table.tower}/result",
                                result(table.tower, number, list(table.players), tag))  # fmt: skip
                await phone.reload()
                assert "over: every table reported" in await phone.locator("p.round").inner_text()
                rows = phone.locator("table.points tbody tr")
                assert await rows.count() == 6
                assert (await rows.nth(0).inner_text()).split("\t")[2] == "5"
                assert await phone.locator("main b:text-is('Zed')").count() == 0  # as typed
                await phone.screenshot(path=str(tmp_path / "organiser.png"), full_page=True)
                guest = await (await browser.new_context(viewport=SMALL_PHONE)).new_page()
                await guest.goto(url)
                assert await guest.get_by_role("button", name="Start the round").count() == 0
                assert await guest.locator("table.points tbody tr").count() == 6
                assert await guest.locator("script").count() == 0
                assert complaints == []
        finally:
            await server.stop()

    run_in_browser_loop(organise)
