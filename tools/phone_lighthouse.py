"""Lighthouse's accessibility score of the phone page, on the join page, mid-game or at game
over (the game's figures), and of the history's pages (the players, a player's figures, a
game's story).

    npm install --prefix /tmp/lh -E lighthouse@12.8.2
    .venv/bin/python tools/phone_lighthouse.py /tmp/lh/node_modules/.bin/lighthouse [join|game|over]
    .venv/bin/python tools/phone_lighthouse.py LIGHTHOUSE [players|player|story]

A maintainer's tool for docs/accessibility.md's figure (the tests run axe-core, which Lighthouse's
accessibility audits are built on). It runs a tower on simulated hardware with Bot, a computer
player; a phone (Debian's chromium, with a debugging port) joins as Dora and Bot rolls, so Dora
has four marks to choose from; or the game is played to its end (`play_to_the_end`), and
the page shows its breakdown and story. The history's pages are those of the tests' journal
(tests/support/history.py: the known game, the same with a player named in markup, an abandoned
game). Lighthouse then opens the page in the same browser, keeping the
phone's seat token (--disable-storage-reset), and audits what Dora sees (its default: a mobile
phone, 412 px wide). Prints the score and the audits that failed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from playwright.async_api import async_playwright
from support.browser import CHROMIUM, FLAGS
from support.history import history_tower
from support.phone_page import CODE, SMALL_PHONE, first_roll, phone_tower, play_to_the_end
from support.table import until

if TYPE_CHECKING:
    from playwright.async_api import ViewportSize

PORT = 9333  # chromium's debugging port, where Lighthouse finds the browser
VIEWPORT: ViewportSize = {"width": SMALL_PHONE["width"], "height": SMALL_PHONE["height"]}
HISTORY = {"players": "/history", "player": "/history/player?name=Cleo", "story": "/history/game/2"}


async def audit(lighthouse: str, state: str, folder: Path) -> dict[str, Any]:
    """Lighthouse's report of the page in `state` ("join", "game", or a history page)."""
    table, server = history_tower(folder) if state in HISTORY else phone_tower(folder)[::2]
    task = asyncio.create_task(table.run())
    await until(lambda: table.button is not None)
    assert await server.start() is None
    url = f"http://127.0.0.1:{server.port}{HISTORY.get(state, f'/?code={CODE}')}"
    try:
        async with async_playwright() as playwright:
            context = await playwright.chromium.launch_persistent_context(
                str(folder / "profile"), executable_path=CHROMIUM, viewport=VIEWPORT,
                args=[*FLAGS, f"--remote-debugging-port={PORT}"],
            )  # fmt: skip
            page = await context.new_page()
            await page.goto(url)
            if state not in HISTORY:
                await page.wait_for_selector("#join:not([hidden])")
            if state in ("game", "over"):
                await page.fill("#name", "Dora")
                await page.click("#join-button")
                await page.wait_for_selector("#game:not([hidden])")
            if state == "game":
                first_roll(table)
                await page.wait_for_selector("#moves .move")
            if state == "over":
                play_to_the_end(table)
                await page.wait_for_selector("#figures-box:not([hidden])")
            report = folder / "lighthouse.json"
            lighthouse_run = await asyncio.create_subprocess_exec(
                lighthouse, url, f"--port={PORT}", "--only-categories=accessibility",
                "--disable-storage-reset", "--output=json", f"--output-path={report}", "--quiet",
            )  # fmt: skip
            await lighthouse_run.wait()
            await context.close()
            audited: dict[str, Any] = json.loads(report.read_text())
            return audited
    finally:
        await server.stop()
        table.stop()
        await task
        table.hardware.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lighthouse", help="the lighthouse command (from npm)")
    states = ["join", "game", "over", *HISTORY]
    parser.add_argument("state", nargs="?", default="game", choices=states)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        report = asyncio.run(audit(arguments.lighthouse, arguments.state, Path(folder)))
    score = report["categories"]["accessibility"]["score"]
    failed = [name for name, audit in report["audits"].items() if audit.get("score") == 0]
    print(f"Lighthouse {report['lighthouseVersion']}, {arguments.state}: accessibility "
          f"{round(score * 100)}; failed: {', '.join(failed) or 'none'}")  # fmt: skip


if __name__ == "__main__":
    main()
