"""`qwixx-tower run` is ready sooner when it loads only what its start needs (issues 40 and
43): the history's figures and charts, a finished game's story, the league and the bus load
when first used, and a tower without phones loads no web server and no QR code at all. What
the start loads is read from the real process at READY=1 (its own Python, not the tests'
pre-imported one); that the history still answers once asked is checked on a real tower too.
`bench/history.py` and `bench/zero2w.py` measure the time it saves."""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from pathlib import Path

import aiohttp
from support import HANG
from support.history import KNOWN
from support.tower import Tower

# Run as `python -c`: the tower's command, with systemd's READY=1 answered by printing the
# modules loaded so far (and stopping there: the start is what is looked at).
AT_READY = """
import json, os, sys
from firmware_py.app import cli, systemd

def ready(status=""):
    print(json.dumps(sorted(sys.modules)), flush=True)
    os._exit(0)

systemd.ready = ready
sys.exit(cli.main(sys.argv[1:]))
"""
LATER = (  # what no start needs: each is loaded when first used
    "firmware_py.journal.figures",  # the history's figures: at the history's first page
    "firmware_py.journal.standings",
    "firmware_py.journal.index",
    "firmware_py.show.figures_html",  # its charts
    "firmware_py.show.svg",
    "firmware_py.story",  # a finished game's story: at game over
    "firmware_py.league",  # the café's league: its own command
    "firmware_py.bus.client",  # the MQTT bus: with [mqtt] only
    "openskill",
    "aiomqtt",
)
WITH_PHONES_ONLY = ("aiohttp", "segno", "firmware_py.seats.phones.server")


def loaded_at_ready(folder: Path, config: str) -> set[str]:
    """The modules a tower with `config` had loaded when it told systemd it was ready."""
    (folder / "config.toml").write_text(config)
    command = [sys.executable, "-c", AT_READY, "run", "--plain", "--config",
               str(folder / "config.toml"), "--state-dir", str(folder / "state"),
               "--players", "Kim", "--human", "Kim"]  # fmt: skip
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=HANG, stdin=subprocess.DEVNULL
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return set(json.loads(result.stdout.splitlines()[-1]))


def of(modules: set[str], wanted: tuple[str, ...]) -> list[str]:
    """The modules of `modules` that are one of `wanted` or inside one of them."""
    return sorted(m for m in modules if any(m == w or m.startswith(w + ".") for w in wanted))


def test_a_tower_with_phones_opens_its_web_server_before_ready_and_nothing_of_the_history(
    tmp_path,
):
    loaded = loaded_at_ready(tmp_path, '[web]\nhost = "127.0.0.1"\n')
    assert "firmware_py.seats.phones.server" in loaded  # the phones' door is open at READY=1
    assert of(loaded, LATER) == []


def test_a_tower_without_phones_loads_no_web_server_and_no_qr_code(tmp_path):
    loaded = loaded_at_ready(tmp_path, "[pads]\nports = []\n")
    assert of(loaded, WITH_PHONES_ONLY + LATER) == []


def test_the_history_a_lean_start_left_for_later_answers_at_the_first_page(tmp_path):
    """The figures' modules load at the first page (or the warm-up): the page has them."""
    state = tmp_path / "state"
    state.mkdir()
    shutil.copyfile(KNOWN, state / "game-000001.jsonl")  # Ann 29, Ben 47, Cleo 43
    with Tower("--players", "Kim", "--human", "Kim", folder=tmp_path, web=True) as tower:
        tower.wait_ready()
        base = tower.join_url().split("/?")[0]
        story = asyncio.run(page(base + "/history/game/1"))
    assert "Ben won with 47 points." in story and story.count("<svg") == 2


async def page(url: str) -> str:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200
        return await response.text()
