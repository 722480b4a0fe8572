"""The league's page under a flood (issue 42): DEVICES devices each looping LOOPS GETs of the
front page as fast as the league answers, each device from its own 127.x address, in processes
of their own, while a guest from another address opens the page once a second. The real
`qwixx-tower league` process on Debian's mosquitto (as bench/league.py starts them), with
STORED games in its file. Printed: the pages the flood was answered (and refused, 429) per
second, and the guest's pages loaded, with their median, p99 and worst in milliseconds.

    .venv/bin/python bench/league_flood.py [--devices 50] [--loops 4] [--seconds 20]
                                           [--stored 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import MutableMapping
from multiprocessing.managers import DictProxy
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from league import fill  # noqa: E402
from support.league import League  # noqa: E402
from support.mosquitto import Broker, Pki  # noqa: E402
from web_attacks import address, device  # noqa: E402

PROCESSES = 2  # attacking processes (the machine's cores)
GUEST_EVERY = 1.0  # seconds between two of the guest's loads
TIMEOUT = 10.0  # seconds the guest waits for a page (longer: not loaded)


def flood(
    url: str, devices: range, loops: int, seconds: float, counts: MutableMapping[str | int, int]
) -> None:
    """Devices of `devices` (numbers), each looping `loops` GETs of `url` until the time is up;
    the answers by status added to `counts` (a shared dict)."""

    async def one_device(number: int, deadline: float, seen: Counter[str | int]) -> None:
        async with device(address(1, number)) as session:

            async def loop() -> None:
                while time.monotonic() < deadline:
                    try:
                        async with session.get(url) as answer:
                            await answer.read()
                            seen[answer.status] += 1
                    except (aiohttp.ClientError, OSError, TimeoutError):
                        seen["error"] += 1
                        await asyncio.sleep(0.01)

            await asyncio.gather(*(loop() for _ in range(loops)))

    async def run() -> None:
        seen: Counter[str | int] = Counter()
        deadline = time.monotonic() + seconds
        await asyncio.gather(*(one_device(number, deadline, seen) for number in devices))
        for status, count in seen.items():
            counts[status] = counts.get(status, 0) + count

    asyncio.run(run())


async def guest(url: str, seconds: float) -> list[float | None]:
    """The guest's loads, one a second: milliseconds each, None for a page not loaded."""
    took: list[float | None] = []
    deadline = time.monotonic() + seconds
    async with device(address(2, 0)) as session:
        while time.monotonic() < deadline:
            began = time.perf_counter()
            with contextlib.suppress(aiohttp.ClientError, OSError, TimeoutError):
                async with asyncio.timeout(TIMEOUT), session.get(url) as answer:
                    body = await answer.text()
                    if answer.status == 200 and "Standings" in body:
                        took.append((time.perf_counter() - began) * 1000)
                        await asyncio.sleep(max(0.0, GUEST_EVERY - (time.perf_counter() - began)))
                        continue
            took.append(None)
            await asyncio.sleep(max(0.0, GUEST_EVERY - (time.perf_counter() - began)))
    return took


def guest_during(
    url: str, workers: list[multiprocessing.Process], seconds: float
) -> list[float | None]:
    """`workers` (the attack) started, and the guest's loads while they run: from a second
    after their start (the attack under way) to a second before their end."""
    for worker in workers:
        worker.start()
    time.sleep(1.0)
    loads = asyncio.run(guest(url, seconds - 2.0))
    for worker in workers:
        worker.join()
    return loads


def load_words(loads: list[float | None]) -> str:
    """The guest's loads in words: how many loaded, their median, p99 and worst."""
    loaded = sorted(each for each in loads if each is not None)
    words = "none"
    if loaded:
        p99 = loaded[max(0, int(len(loaded) * 0.99) - 1)]
        words = (f"median {statistics.median(loaded):.0f} ms, p99 {p99:.0f} ms, "
                 f"worst {loaded[-1]:.0f} ms")  # fmt: skip
    return f"{len(loaded)} of {len(loads)} pages loaded; {words}"


def attack(
    url: str, devices: int, loops: int, seconds: float
) -> tuple[dict[str | int, int], list[float | None]]:
    with multiprocessing.Manager() as manager:
        counts: DictProxy[str | int, int] = manager.dict()
        shares = [range(part, devices, PROCESSES) for part in range(PROCESSES)]
        workers = [multiprocessing.Process(target=flood, args=(url, share, loops, seconds, counts))
                   for share in shares]  # fmt: skip
        loads = guest_during(url, workers, seconds)
        return dict(counts), loads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", type=int, default=50)
    parser.add_argument("--loops", type=int, default=4, help="GETs looping on each device")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--stored", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        with Broker(base / "broker", Pki.make(base / "pki")) as broker:
            league = League(base / "league", broker)
            league.stop()
            fill(league.database, args.stored)
            league.start()
            counts, loads = attack(league.url, args.devices, args.loops, args.seconds)
            league.stop()
    answered = {str(status): count for status, count in sorted(counts.items(), key=str)}
    per_second = {status: round(count / args.seconds) for status, count in answered.items()}
    print(f"flood: {args.devices} devices x {args.loops} looping GETs for {args.seconds:.0f} s "
          f"({args.stored} games stored): answers {answered}, per second {per_second}")  # fmt: skip
    print(f"guest (one load a second): {load_words(loads)}")


if __name__ == "__main__":
    main()
