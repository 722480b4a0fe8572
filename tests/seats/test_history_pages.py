"""The history on the phones' web server, as a guest's phone meets it: the players and the
table's last games with a link to each game's story, a player's figures, a game's charts; every
page a page in words (refusals too), no name ever read as markup, bounded inputs and a budget
of pages per device. Real aiohttp server and client, a real journal."""

from __future__ import annotations

import re
import shutil
import time
import xml.etree.ElementTree as ElementTree

import aiohttp
from support.history import HOSTILE, history_tower
from support.web import run_with_server

from firmware_py.seats.phones import history_pages as pages


def browse(tmp_path, steps, tower=None) -> None:
    """Run a tower with the history's pages (`tower`: a table and server made already) while
    `await steps(get)` plays; `get(path)` is (status, text)."""
    table, server = tower or history_tower(tmp_path)

    async def with_session() -> None:
        async with aiohttp.ClientSession() as session:

            async def get(path: str, host: str = "") -> tuple[int, str]:
                headers = {"Host": host} if host else {}
                url = f"http://127.0.0.1:{server.port}{path}"
                async with session.get(url, headers=headers) as response:
                    return response.status, await response.text()

            await steps(get)

    run_with_server(table, server, with_session)


def links(html: str) -> list[str]:
    return re.findall(r'href="([^"]+)"', html)


def test_the_history_lists_the_players_and_the_last_games_with_a_link_to_each_story(tmp_path):
    async def steps(get) -> None:
        status, html = await get("/history")
        assert status == 200
        assert "Left out of the figures: 1 game abandoned." in html
        assert "/history/game/1" in links(html) and "/history/game/2" in links(html)
        assert "/history/game/3" not in links(html)  # abandoned: said, not linked
        assert "Game 3, abandoned, not in the figures." in html or "abandoned, not in" in html
        assert "/history/player?name=Ben" in links(html)
        status, story = await get("/history/game/1")
        assert status == 200 and story.count("<svg") == 2
        assert "Ben won with 47 points." in story

    browse(tmp_path, steps)


def test_games_left_out_are_listed_in_plain_words_without_a_link(tmp_path):
    """An unfinished game, and one that could not be read and was set aside in quarantine/,
    are said in the table's list as a family would put it, not as the journal's states."""

    def more(games) -> None:
        known = (games / "game-000001.jsonl").read_text().splitlines(keepends=True)
        (games / "game-000004.jsonl").write_text("".join(known[:12]))
        (games / "quarantine").mkdir()
        (games / "quarantine" / "game-000005.jsonl").write_text("not a game\n")

    tower = history_tower(tmp_path, more)

    async def steps(get) -> None:
        _, html = await get("/history")
        items = re.findall(r"<li>(Game [45]: [^<]*)</li>", html)
        assert items == ["Game 5: could not be read (set aside), not in the figures.",
                         "Game 4: not finished, not in the figures."]  # fmt: skip
        assert not {"/history/game/4", "/history/game/5"} & set(links(html))

    browse(tmp_path, steps, tower)


def test_a_players_page_has_their_figures_as_charts_each_with_words_and_a_table(tmp_path):
    async def steps(get) -> None:
        status, html = await get("/history/player?name=CLEO")
        assert status == 200
        assert "<h1>Cleo</h1>" in html and "2 games" in html
        for chart in re.findall(r"<svg.*?</svg>", html, re.S):
            root = ElementTree.fromstring(chart)  # well-formed: a name cannot break out
            assert root.get("role") == "img" and root.find("{*}title").text
            assert root.find("{*}desc").text
        assert "<table" in html

    browse(tmp_path, steps)


def test_a_game_just_ended_is_in_the_pages_its_game_over_links_to_even_on_a_slow_disk(tmp_path):
    """A page waits WAIT (0.1 s) for the journal's newest games; the game-over page links to
    the history and to the game, so a game's end starts the reading at once and the pages wait
    for it (up to ENDED_WAIT). Here reading the journal takes half a second, five times WAIT:
    the game that has just ended is listed all the same, and its story is there."""
    table, server = history_tower(tmp_path)
    index = server.history.standings.index
    slow_refresh = index.refresh

    def refresh():
        time.sleep(0.5)  # a busy tower's disk
        return slow_refresh()

    index.refresh = refresh

    async def steps(get) -> None:
        games = index.directory
        shutil.copyfile(games / "game-000001.jsonl", games / "game-000004.jsonl")
        server.hub.game_over.ended()  # as the phones' hub does when a game's end is shown
        _, html = await get("/history")
        assert "/history/game/4" in links(html)
        status, story = await get("/history/game/4")
        assert status == 200 and "Ben won with 47 points." in story

    browse(tmp_path, steps, (table, server))


def test_a_name_that_is_markup_is_shown_as_text_everywhere(tmp_path):
    async def steps(get) -> None:
        for path in ("/history", "/history/game/2", "/history/player?name=Ben",
                     f"/history/player?name={aiohttp.helpers.quote(HOSTILE)}"):  # fmt: skip
            status, html = await get(path)
            assert status in (200, 404), path
            assert "<img" not in html and "onerror=1>" not in html, path
            assert "&lt;img src=x onerror=1&gt;" in html, path

    browse(tmp_path, steps)


def test_bad_requests_get_a_page_in_words(tmp_path):
    async def steps(get) -> None:
        status, html = await get("/history/player?name=" + "x" * 500)
        assert status == 400 and "No player has a name that long." in html
        status, html = await get("/history/player?name=Zed")
        assert status == 404 and "No finished game has a player named Zed." in html
        status, html = await get("/history/game/99")
        assert status == 404 and "There is no game 99 in the journal." in html
        status, html = await get("/history/game/3")
        assert status == 404 and "Game 3 was abandoned before its end" in html
        status, html = await get("/history?before=99999999999999999999")
        assert status == 200 and "The last games at this table" in html

    browse(tmp_path, steps)


def test_older_games_before_a_number_in_other_digits_are_the_first_page_not_an_error(tmp_path):
    """`before=²` (a digit to str.isdigit, not to int) answered "The history cannot be shown
    just now" with a traceback in the log (found by tools/fuzz.py phone_pages); it is no
    number, as a number too long is."""

    async def steps(get) -> None:
        for digits in ("%C2%B2", "%D9%A3", "1%C2%B2"):  # ², Arabic-Indic 3, 1²
            status, html = await get(f"/history?before={digits}")
            assert status == 200 and "The last games at this table" in html, html

    browse(tmp_path, steps)


def test_a_phone_asking_too_often_is_told_to_wait_and_other_hosts_are_refused(tmp_path):
    """The budget's clock stands still here: what a phone may ask at once, and no more."""
    table, server = history_tower(tmp_path)
    server.history.clock = lambda: 0.0  # (the buckets refill by the clock: never, here)

    async def steps(get) -> None:
        statuses = [(await get("/history"))[0] for _ in range(pages.PER_ADDRESS[0] + 3)]
        assert statuses == [200] * pages.PER_ADDRESS[0] + [429] * 3
        status, html = await get("/history")
        assert status == 429 and "wait a moment and reload the page" in html
        status, _ = await get("/history", host="evil.example")
        assert status != 200

    browse(tmp_path, steps, (table, server))


def test_the_overview_does_not_link_to_itself_and_every_other_page_links_to_it(tmp_path):
    """A link to the page one is on only reloads it: /history offers the way back to the table
    alone; a player's page, a game's story and an older page of games offer /history too."""

    async def steps(get) -> None:
        _, overview = await get("/history")
        assert "/history" not in links(overview) and "/" in links(overview)
        for path in ("/history/player?name=Ben", "/history/game/1", "/history?before=2"):
            _, html = await get(path)
            assert "/history" in links(html), path

    browse(tmp_path, steps)
