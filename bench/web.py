"""Phones as pads under load: request-to-answer time and the tower's memory with the web server.

A tower process (simulated hardware, the real table, remote seats, journal and web server on
127.0.0.1) waits for five phones; this script is the five phones (aiohttp WebSocket clients,
as the page speaks). They join with the table code, a robot finger presses the roll button for
every roll, and each phone decides as soon as its view lets it (its first legal mark, else a
pass) until the game is over. Printed: the time from a decision sent to its answer (median,
p99, over every decision of every phone), and the tower's resident memory.

    .venv/bin/python bench/web.py
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

PHONES = 5


def serve(state_dir: str, web: bool = True) -> None:
    """The tower (run in a child process): table, remote seats, web server (unless `web` is
    false: the baseline memory); the roll button pressed by a robot finger once five players
    sit and at every roll."""
    here = Path(__file__).resolve().parent  # bench/drivers.py would hide the drivers package
    sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != here]
    from firmware_py.config import SIMULATED, WebConfig
    from firmware_py.hardware import build_hardware
    from firmware_py.journal import Journal
    from firmware_py.table import Table
    from firmware_py.view import TableView
    from sheets import load_sheet

    async def main() -> None:
        hardware = build_hardware(SIMULATED, load_sheet("classic").dice_faces)
        table = Table(seats=[], variant="classic", journal=Journal(Path(state_dir)),
                      hardware=hardware, pace=0.01)  # fmt: skip
        loop = asyncio.get_running_loop()

        def finger(view: TableView) -> None:
            game = table.game
            ready = game is None and len(table.seats) == PHONES
            if ready or (game is not None and not game.over and view.screen == "roll"):
                loop.call_later(0.01, table.press)

        table.subscribe(finger)
        if not web:
            print("ready", flush=True)
            await table.run()
            return
        from firmware_py.web.tower import build  # aiohttp and segno: only with the server

        server = build(table, WebConfig(enabled=True, host="127.0.0.1", port=0))
        assert server is not None
        assert await server.start() is None
        print(server.url, flush=True)
        try:
            await table.run()
        finally:
            await server.stop()

    asyncio.run(main())


class Phone:
    """One phone: joins, then decides whenever its view asks, timing each answer."""

    def __init__(self, url: str, name: str) -> None:
        self.url, self.name = url, name
        self.latencies: list[float] = []
        self._sent: dict[str, float] = {}
        self._count = 0

    async def play(self, session: aiohttp.ClientSession, games_over: asyncio.Event) -> None:
        base, code = self.url.split("/?code=")
        async with session.ws_connect(base + "/ws") as socket:
            await socket.send_json({"type": "join", "code": code, "name": self.name})
            async for message in socket:
                data = json.loads(message.data)
                if data["type"] == "answer":
                    self.latencies.append(time.perf_counter() - self._sent.pop(data["request"]))
                elif data["type"] == "refused":
                    raise SystemExit(f"{self.name}: {data['reason']}")
                elif data["type"] == "view":
                    if data["view"]["phase"] == "over":
                        games_over.set()
                        return
                    await self._decide(socket, data["view"])

    async def _decide(self, socket, view: dict) -> None:
        if self._sent:
            return  # one decision at a time, as the page does
        if view["moves"]:
            move = view["moves"][0]
            fields = {"action": "mark", "row": move["row"], "number": move["number"],
                      "lucky": move["lucky"], "choice": (move["choices"] or [""])[0]}  # fmt: skip
        elif view["may_pass"]:
            fields = {"action": "pass"}
        else:
            return
        self._count += 1
        request = f"{self.name}/{self._count}"
        self._sent[request] = time.perf_counter()
        await socket.send_json({"type": "decide", "request": request, **fields})


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def one_game(url: str) -> list[float]:
    phones = [Phone(url, f"Phone {n}") for n in range(1, PHONES + 1)]
    over = asyncio.Event()
    async with aiohttp.ClientSession() as session:
        await asyncio.wait_for(
            asyncio.gather(*(phone.play(session, over) for phone in phones)), timeout=300
        )
    return [latency for phone in phones for latency in phone.latencies]


def baseline_mb() -> float:
    """The same tower's resident memory without the web server (nor aiohttp imported)."""
    with tempfile.TemporaryDirectory() as state:
        tower = subprocess.Popen(
            [sys.executable, __file__, "--serve", state, "--no-web"],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert tower.stdout is not None
            tower.stdout.readline()
            time.sleep(1.0)
            return resident_mb(tower.pid)
        finally:
            tower.terminate()
            tower.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", metavar="STATE_DIR", help=argparse.SUPPRESS)
    parser.add_argument("--no-web", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, web=not args.no_web)
        return
    without_mb = baseline_mb()
    with tempfile.TemporaryDirectory() as state:
        tower = subprocess.Popen(
            [sys.executable, __file__, "--serve", state],
            stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert tower.stdout is not None
            url = ""
            while not url.startswith("http"):  # the tower may say other things first
                url = tower.stdout.readline().strip()
            idle_mb = resident_mb(tower.pid)
            latencies = asyncio.run(one_game(url))
            playing_mb = resident_mb(tower.pid)
        finally:
            tower.terminate()
            tower.wait()
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"{PHONES} phones, one game, {len(latencies)} decisions")
    print(f"request to answer: median {statistics.median(latencies) * 1000:.1f} ms, "
          f"p99 {p99 * 1000:.1f} ms")  # fmt: skip
    print(f"tower resident memory: {without_mb:.1f} MB without a web server, "
          f"{idle_mb:.1f} MB with it up, {playing_mb:.1f} MB after the game")  # fmt: skip


if __name__ == "__main__":
    main()
