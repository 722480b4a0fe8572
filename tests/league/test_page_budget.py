"""The league's page under a flood (docs/league.md, "Every device is a possible guest"): each
address may ask for pages as the phones' history pages allow (the same `PageBudget`): a device
asking too often is told in words to wait, while a guest from another address still gets the
page, also when many addresses flood at once. The budgets' clock stands still here: the
buckets never refill, so what each may ask at once is counted exactly."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
import pytest

from firmware_py.league import web as league_web
from firmware_py.league.core import League
from firmware_py.league.store import Store
from firmware_py.league.web import Evening, LeaguePage
from firmware_py.seats.phones.history_pages import FOR_EVERYONE, PER_ADDRESS


async def pages(port: int, source: str, count: int) -> list[tuple[int, str]]:
    """`count` front pages asked for one after another from address `source`."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0), force_close=True)
    async with aiohttp.ClientSession(connector=connector) as session:
        answers = []
        for _ in range(count):
            async with session.get(f"http://127.0.0.1:{port}/") as response:
                answers.append((response.status, await response.text()))
        return answers


def flood(monkeypatch: pytest.MonkeyPatch, steps) -> None:
    monkeypatch.setattr(league_web, "monotonic", lambda: 0.0)

    async def run() -> None:
        site = LeaguePage(League(Store(Path(":memory:")), "qwixx"), "127.0.0.1", 0, Evening())
        port = await site.start()
        try:
            await steps(port)
        finally:
            await site.stop()

    asyncio.run(run())


def test_an_address_asking_too_often_is_told_to_wait_and_another_gets_the_page(monkeypatch):
    async def steps(port: int) -> None:
        flooding = await pages(port, "127.0.0.2", PER_ADDRESS[0] + 20)
        statuses = [status for status, _ in flooding]
        assert statuses == [200] * int(PER_ADDRESS[0]) + [429] * 20
        assert "wait a moment and reload it" in flooding[-1][1]
        [(status, guest)] = await pages(port, "127.0.0.3", 1)
        assert status == 200 and "Standings" in guest

    flood(monkeypatch, steps)


def test_a_guest_gets_the_page_while_many_addresses_spend_everyone_s_budget(monkeypatch):
    """Enough addresses, each within its own budget, spend the whole page's budget; a guest
    who has asked for nothing yet is still served, and the floods are not."""

    async def steps(port: int) -> None:
        floods = int(FOR_EVERYONE[0] // PER_ADDRESS[0]) + 1
        for number in range(floods):
            await pages(port, f"127.0.1.{number + 1}", int(PER_ADDRESS[0]))
        [(refused, _)] = await pages(port, "127.0.1.1", 1)
        [(status, _)] = await pages(port, "127.0.2.1", 1)
        assert (refused, status) == (429, 200)

    flood(monkeypatch, steps)
