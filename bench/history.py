"""The history at any age of the tower: a journal of 10,000 games, the tower's start-up with it,
and how long the phones' history pages take to answer.

1. A journal of --games generated games (made once, kept in --journal): random legal games
   (bench/engine.py's players) of 2 to 5 players out of a dozen names, some typed in other
   cases ("ann", "BEN": names alike are one player), on classic (most), Mixx and Longo, one a
   week's evening after another; one in a hundred left half-way and marked abandoned. Each log
   is written line by line as the journal writes it (`event_to_line`), without its fsyncs.
2. The index read from the logs (`HistoryIndex.refresh`, no index on disk: a tower's first
   start with an old journal), then read back from its file (every later start).
3. `qwixx-tower run` (exec'd, not forked: Python's start and imports counted) with the web
   server on, in that state directory: seconds to READY=1 with the index on disk, and with
   none (it is read in a thread of its own, the tower does not wait for it), beside the same
   tower with an empty state directory, in turn; and the CPU seconds the tower had used then,
   which other work on a shared machine moves far less than the wall clock.
4. The pages over HTTP against that tower, each request from an address of its own on the
   loopback, paced within the table's budget (10 pages a second for everyone): the players'
   page, every player's page, random games' stories, the older games a page at a time. The
   median, p99 and worst answer, per kind and together. Then the same after a game is added to
   the journal (every figure computed afresh at the first page after it).

    .venv/bin/python bench/history.py                 # 10,000 games in /tmp/qwixx-history-10000
    .venv/bin/python bench/history.py --games 2000 --pages 200
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.append(str(ROOT / "bench"))

import aiohttp  # noqa: E402
from engine import random_decision, random_roll  # noqa: E402
from support.tower import Tower  # noqa: E402

from firmware_py.journal.index import INDEX, HistoryIndex  # noqa: E402
from firmware_py.journal.lines import event_to_line  # noqa: E402
from firmware_py.rules import ACTION1, ACTION2, Event, Game, Start  # noqa: E402

NAMES = ["Ann", "Ben", "Cleo", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]
VARIANTS = ["classic"] * 6 + ["mixx-a", "mixx-b", "longo"]
READY_WITHIN = 60.0
PACE = 0.11  # seconds between pages: within the table's 10 a second


# ---- the journal ------------------------------------------------------------------------------


def seated(rng: random.Random) -> tuple[str, ...]:
    names = rng.sample(NAMES, rng.randint(2, 5))
    return tuple(n.lower() if rng.random() < 0.05 else n for n in names)


def game_lines(rng: random.Random, when: datetime, abandon: bool) -> list[str]:
    """A random legal game as the journal writes it (left after 20 events when `abandon`)."""
    names = seated(rng)
    variant = rng.choice(VARIANTS)
    lucky = {n: tuple(rng.sample(range(2, 17), 2)) for n in names} if variant == "longo" else None
    start = Start(variant, names, lucky)
    game = Game.start(start)
    lines = [event_to_line(start, time=when.isoformat(timespec="seconds"))]

    def apply(event: Event) -> None:
        game.apply(event)
        lines.append(event_to_line(event))

    while not game.over and not (abandon and len(lines) > 20):
        apply(random_roll(game, rng))
        while game.phase == ACTION1:
            for name in game.waiting_for():
                apply(random_decision(game, name, rng))
        if game.phase == ACTION2:
            apply(random_decision(game, game.active_name, rng))
    return lines


def make_journal(folder: Path, games: int, seed: int = 40) -> None:
    """`games` game logs in `folder` (made anew unless it holds them already)."""
    if (folder / f"game-{games:06d}.jsonl").exists() and not (
        folder / f"game-{games + 1:06d}.jsonl"
    ).exists():
        return
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    rng = random.Random(seed)
    when = datetime(2024, 1, 5, 19, 0, tzinfo=UTC)
    started = time.perf_counter()
    for number in range(1, games + 1):
        abandon = rng.random() < 0.01
        log = folder / f"game-{number:06d}.jsonl"
        log.write_text("".join(game_lines(rng, when, abandon)))
        if abandon:
            log.with_suffix(".abandoned").touch()
        when += timedelta(minutes=25) if number % 6 else timedelta(days=7)
    print(f"journal: {games:,} games made in {time.perf_counter() - started:.0f} s in {folder}")


def index_figures(folder: Path) -> None:
    (folder / INDEX).unlink(missing_ok=True)
    started = time.perf_counter()
    summaries = HistoryIndex(folder).refresh()
    fresh = time.perf_counter() - started
    started = time.perf_counter()
    HistoryIndex(folder).refresh()
    again = time.perf_counter() - started
    counted = sum(s.counts for s in summaries)
    print(
        f"index: {len(summaries):,} logs ({counted:,} count) read from the logs in {fresh:.1f} s"
        f", from the index file in {again:.2f} s ({(folder / INDEX).stat().st_size:,} bytes)"
    )


# ---- the tower --------------------------------------------------------------------------------


def ready_seconds(folder: Path, state: Path) -> tuple[Tower, float]:
    started = time.perf_counter()
    tower = Tower("--players", "Kim", "--human", "Kim", folder=folder, state=state, web=True,
                  fork=False)  # fmt: skip
    tower.wait_ready(READY_WITHIN)
    return tower, time.perf_counter() - started


def start_ups(work: Path, journal: Path, runs: int) -> None:
    """READY=1 with an empty state directory, and with the journal with and without its
    index, taken in turn run after run (a shared machine's speed drifts within minutes), the
    order turned by one each run (none always comes first, or after another)."""
    empty = Path(tempfile.mkdtemp(prefix="qwixx-history-empty-"))
    kinds = [("an empty journal", empty), ("the index on disk", journal), ("no index", journal)]
    times: dict[str, list[float]] = {words: [] for words, _ in kinds}
    cpu: dict[str, list[float]] = {words: [] for words, _ in kinds}
    kept = (journal / INDEX).read_bytes()
    for run in range(runs):
        for words, state in kinds[run % 3 :] + kinds[: run % 3]:
            (journal / INDEX).unlink(missing_ok=True)
            if words == "the index on disk":
                (journal / INDEX).write_bytes(kept)
            tower, seconds = ready_seconds(work, state)
            times[words].append(seconds)
            cpu[words].append(tower.cpu_seconds())  # (a moment after READY=1)
            tower.stop()
    (journal / INDEX).write_bytes(kept)
    for words, found in times.items():
        print(f"start-up to READY=1 with {words}: median {statistics.median(found):.2f} s, "
              f"worst {max(found):.2f} s; CPU median {statistics.median(cpu[words]):.2f} s "
              f"({runs} runs)")  # fmt: skip
    shutil.rmtree(empty, ignore_errors=True)


async def timed_pages(base: str, paths: list[str]) -> dict[str, list[float]]:
    """Each page's answer time (seconds) by kind, from a new loopback address each."""
    times: dict[str, list[float]] = {}
    for number, path in enumerate(paths):
        address = f"127.0.{number // 250 % 250 + 1}.{number % 250 + 1}"
        connector = aiohttp.TCPConnector(local_addr=(address, 0), force_close=True)
        async with aiohttp.ClientSession(connector=connector) as session:
            started = time.perf_counter()
            async with session.get(base + path) as response:
                await response.read()
                if response.status not in (200, 404):
                    raise SystemExit(f"{path}: {response.status}")
            times.setdefault(path.rstrip("0123456789").split("=")[0], []).append(
                time.perf_counter() - started
            )
        await asyncio.sleep(PACE)
    return times


def page_paths(rng: random.Random, pages: int, games: int) -> list[str]:
    kinds = [["/history"], [f"/history/player?name={n}" for n in NAMES],
             [f"/history/game/{rng.randint(1, games)}" for _ in range(pages)],
             [f"/history?before={rng.randint(2, games)}" for _ in range(pages)]]  # fmt: skip
    return [rng.choice(rng.choice(kinds)) for _ in range(pages)]


def report(title: str, times: dict[str, list[float]]) -> None:
    every = sorted(t for kind in times.values() for t in kind)
    print(f"{title}: {len(every)} pages, median {1000 * statistics.median(every):.0f} ms, "
          f"p99 {1000 * every[int(0.99 * (len(every) - 1))]:.0f} ms, "
          f"worst {1000 * every[-1]:.0f} ms")  # fmt: skip
    for kind, found in sorted(times.items()):
        found.sort()
        print(f"    {kind:<22} {len(found):>4} pages, median {1000 * statistics.median(found):5.0f}"
              f" ms, worst {1000 * found[-1]:5.0f} ms")  # fmt: skip


def pages(work: Path, journal: Path, count: int, games: int) -> None:
    tower, _ = ready_seconds(work, journal)
    try:
        base = tower.join_url().split("/?")[0]
        rng = random.Random(7)
        asyncio.run(timed_pages(base, ["/history"]))  # the figures computed once
        report("pages", asyncio.run(timed_pages(base, page_paths(rng, count, games))))
        shutil.copyfile(journal / "game-000001.jsonl", journal / f"game-{games + 1:06d}.jsonl")
        after = ["/history", *(f"/history/player?name={n}" for n in NAMES[:4])]
        report("the first pages after a new game", asyncio.run(timed_pages(base, after)))
    finally:
        tower.stop()
        (journal / f"game-{games + 1:06d}.jsonl").unlink(missing_ok=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--journal", type=Path, default=None)
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5, help="start-ups timed each way")
    args = parser.parse_args()
    journal = args.journal or Path(f"/tmp/qwixx-history-{args.games}")
    make_journal(journal, args.games)
    index_figures(journal)
    work = Path(tempfile.mkdtemp(prefix="qwixx-history-bench-"))
    start_ups(work, journal, args.runs)
    pages(work, journal, args.pages, args.games)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
