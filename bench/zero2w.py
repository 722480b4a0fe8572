"""A Raspberry Pi Zero 2 W's budget: the real tower in a cgroup with the memory a Zero 2 W has
left after Raspberry Pi OS Lite and one of its cores (bench/budget.py: how, and the published
figure it is calibrated on), at a full table.

`qwixx-tower run --plain` with the reference build's two SH1106 displays on a FUSE /dev/i2c-1
clocked at 400 kHz (tests/support/fakebus: each transfer takes its wire time), a hard computer
player, two pads (the pad protocol on pseudo-terminal cables) and five phones (WebSockets from
addresses of their own on the loopback): two phones, the two pads and the computer sit at the
table, three phones watch. Phones and pads decide as soon as their view lets them (their first
legal mark, else a pass); the robot presses the roll button (Enter at the tower's terminal)
when a person is to roll. Only the tower is in the cgroup: the bus, the phones and the pads are
other devices. As root the tower runs at niceness -10, so that on a shared machine its quota,
not a busy neighbour, is what holds it back.

Printed, each against its goal: start to READY=1 (< 3 s); a roll to every phone and pad (p99 <
100 ms from the dice landing: Enter holds the simulated button 80 ms, a press counts when it is
let go, and the dice then roll 0.4 s on the display, both by design and not counted); a tap
to every phone (p99 < 100 ms: a seated phone's decision until every phone has heard the change
it made); a hard decision (p99 < 100 ms: the hard level deciding every position of whole
games, in a process of its own in the same budget); resident memory (< 100 MB, and the
cgroup's peak under its limit); then the history's pages (the phones' "Past games and
players") of the games just played, each from an address of its own at the table's pace, as
bench/history.py asks them (which times them against a journal of 10,000 games, unbounded).

    sudo nice .venv/bin/python bench/zero2w.py [--rolls 60] [--history-pages 60]
        [--memory 320] [--share S]
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = Path(__file__).resolve().parent
sys.path[:] = [str(ROOT), str(ROOT / "tests"), str(BENCH), *sys.path[1:]]

import aiohttp  # noqa: E402
from arena import play as play_game  # noqa: E402
from budget import ZERO2W_EVENTS, Budget, sysbench_events  # noqa: E402
from history import timed_pages  # noqa: E402
from support.fakebus.harness import fuse_bus  # noqa: E402
from support.tower import Tower  # noqa: E402
from web import PAD_IDENT, PAD_NAME, Pad, Timings, decision  # noqa: E402

from firmware_py.app.demo import Cable  # noqa: E402
from firmware_py.pad import protocol  # noqa: E402
from firmware_py.seats.keyboard import PRESS_SECONDS  # noqa: E402

# What a Zero 2 W leaves the tower: 512 MB, less the firmware's and the kernel's reservations
# for the GPU and its contiguous memory (Linux sees about 430 MB of a 512 MB board), less what
# Raspberry Pi OS Lite runs after boot (systemd, journald, NetworkManager, wpa_supplicant,
# bluetoothd, sshd, cron, udev: about 100 MB): an estimate from those parts, not a reading.
ZERO2W_FREE_MB = 320
ANIMATION = 0.4  # seconds the dice roll on the display at the kiosk's pace, by design
GOAL_MS = 100.0
PHONES, SEATED_PHONES, PADS = 5, 2, 2
WAIT = 60.0  # seconds before the bench gives up on something that should happen
# The tower runs ahead of the shared machine's other work (root may raise its priority), so
# that its quota, not a busy neighbour, is what holds it back, as on a Pi of its own; the
# quota bounds what it can take from the others.
TOWER_NICENESS = -10 if os.geteuid() == 0 else 0


def config(bus_path: Path, cables: list[Cable]) -> str:
    """The reference build's configuration: displays on the bus, the pads, the hard player."""
    ports = ", ".join(f'"{cable.tower_path}"' for cable in cables)
    names = ", ".join(f'"{PAD_IDENT.format(n)}" = "{PAD_NAME.format(n)}"'
                      for n in range(1, PADS + 1))  # fmt: skip
    displays = "".join(
        f'[[displays]]\nrole = "{role}"\nchip = "sh1106"\naddress = {address}\n'
        f'bus_device = "{bus_path}"\n'
        for role, address in (("main", "0x3C"), ("options", "0x3D"))
    )
    return (f'[table]\ncomputer_players = [{{name = "Robo", level = "hard"}}]\n{displays}'
            f"[pads]\nports = [{ports}]\nnames = {{{names}}}\n"
            '[web]\nhost = "127.0.0.1"\nport = 8080\n')  # fmt: skip


class Heard:
    """When a device heard from the tower, and what its player's phase was then."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.phases: list[str] = []

    def note(self, phase: str) -> None:
        self.times.append(time.perf_counter())
        self.phases.append(phase)

    def first_after(self, moment: float, phase: str | None = None) -> float | None:
        """The first time after `moment` it heard anything (or its player at `phase`)."""
        start = bisect.bisect_right(self.times, moment)
        for when, seen in zip(self.times[start:], self.phases[start:], strict=True):
            if phase is None or seen == phase:
                return when
        return None


class Phone:
    """A phone's page: joins (seated) or watches; a seated one decides as soon as its view
    lets it, and notes when (`taps`)."""

    def __init__(self, name: str, address: str, seated: bool) -> None:
        self.name, self.address, self.seated = name, address, seated
        self.heard = Heard()
        self.view: dict[str, Any] | None = None
        self.taps: list[float] = []
        self.joined = asyncio.Event()

    async def open(self, base: str, code: str) -> None:
        connector = aiohttp.TCPConnector(local_addr=(self.address, 0))
        self.session = aiohttp.ClientSession(connector=connector)
        self.socket = await self.session.ws_connect(base + "/ws")
        self.reading = asyncio.create_task(self._read())
        if self.seated:
            await self.socket.send_json({"type": "join", "code": code, "name": self.name})
            await asyncio.wait_for(self.joined.wait(), WAIT)

    async def _read(self) -> None:
        async for message in self.socket:
            data = json.loads(message.data)
            view = data.get("view") if data["type"] == "view" else None
            self.heard.note(view["phase"] if view else "")
            if data["type"] == "joined":
                self.joined.set()
            elif view is not None:
                self.view = view
                await self._decide()

    async def _decide(self) -> None:
        fields = decision(self.view) if self.seated else None
        if fields is None:
            return
        self.taps.append(time.perf_counter())
        request = f"{self.name}/{len(self.taps)}"
        await self.socket.send_json({"type": "decide", "request": request, **fields})

    async def close(self) -> None:
        self.reading.cancel()
        await self.session.close()


class TimedPad(Pad):
    """bench/web.py's pad, which also notes when it heard a STATE, and its player's phase."""

    def __init__(self, path: str, number: int) -> None:
        super().__init__(path, number, Timings(), player=True)
        self.heard = Heard()
        self.phase = ""
        self.active = False

    def _on_message(self, message: protocol.Message) -> None:
        if message.name == "state":
            self.phase = protocol.PHASES[message["phase"]]
            self.active = bool(message["flags"] & protocol.ACTIVE)
            self.heard.note(self.phase)
        super()._on_message(message)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.perf_counter() + WAIT
    while not condition():
        if time.perf_counter() > deadline:
            raise SystemExit(f"the bench gave up waiting for {what}")
        await asyncio.sleep(0.002)


class Round:
    """The devices around the tower, the roll button, and the times they measure."""

    def __init__(self, tower: Tower, phones: list[Phone], pads: list[TimedPad]) -> None:
        self.tower, self.phones, self.pads = tower, phones, pads
        self.rolls: list[float] = []

    def person_to_roll(self) -> bool:
        """A seated phone's or pad's player is to roll (the computer rolls by itself)."""
        phone_rolls = any(p.view and p.view["active"] and p.view["phase"] == "roll"
                          for p in self.phones if p.seated)  # fmt: skip
        return phone_rolls or any(pad.phase == "roll" and pad.active for pad in self.pads)

    async def roll(self) -> None:
        """Press; the time from the dice landing until every phone and pad has heard them."""
        pressed = time.perf_counter()
        self.tower.press()
        landed = pressed + PRESS_SECONDS + ANIMATION  # the finger lets go, the dice roll
        await until(lambda: self._heard_roll(pressed) is not None, "every device to see a roll")
        last = self._heard_roll(pressed)
        assert last is not None
        self.rolls.append(last - landed)

    def _heard_roll(self, pressed: float) -> float | None:
        """When the last device heard the roll: a seated one's player at action 1, a
        watching phone anything (nothing new is pushed while the dice roll)."""
        seated = [p.heard for p in self.phones if p.seated] + [pad.heard for pad in self.pads]
        watching = [p.heard for p in self.phones if not p.seated]
        times = [h.first_after(pressed, "action1") for h in seated]
        times += [h.first_after(pressed) for h in watching]
        return None if None in times else max(t for t in times if t is not None)

    def taps(self) -> list[float]:
        """Each seated phone's decision: until every phone had heard from the tower after it."""
        samples = []
        for phone in (p for p in self.phones if p.seated):
            for tapped in phone.taps:
                heard = [p.heard.first_after(tapped) for p in self.phones]
                if None not in heard:
                    samples.append(max(t for t in heard if t is not None) - tapped)
        return samples


async def play(tower: Tower, cables: list[Cable], rolls: int) -> Round:
    """Seat the phones and pads, start a game and press for every person's roll, game after
    game, until `rolls` rolls have been timed."""
    loop = asyncio.get_running_loop()
    base, code = tower.join_url().split("/?code=")
    phones = [Phone(f"Phone {n}", f"127.0.0.{10 + n}", n <= SEATED_PHONES)
              for n in range(1, PHONES + 1)]  # fmt: skip
    pads = [TimedPad(cable.pad_path, n) for n, cable in enumerate(cables, 1)]
    done = asyncio.Event()
    for pad in pads:
        pad.start(loop)
    beats = [asyncio.create_task(pad.beat(done, 1.0)) for pad in pads]
    await until(lambda: all(pad.session.is_set() for pad in pads), "the pads' hellos")
    for phone in phones:
        await phone.open(base, code)
    for pad in pads:
        pad.ask_to_join()
        await asyncio.wait_for(pad.seated.wait(), WAIT)
    table = Round(tower, phones, pads)
    while len(table.rolls) < rolls:
        if table.person_to_roll() or _between_games(phones):
            await (table.roll() if table.person_to_roll() else _start(tower, phones))
        await asyncio.sleep(0.005)
    done.set()
    await asyncio.gather(*beats)
    for phone in phones:
        await phone.close()
    for pad in pads:
        pad.stop(loop)
    return table


def _between_games(phones: list[Phone]) -> bool:
    view = next(p.view for p in phones if p.seated)
    return view is None or view["phase"] in ("over", "idle")


async def _start(tower: Tower, phones: list[Phone]) -> None:
    """A press starts the next game; wait until it has."""
    tower.press()
    await until(lambda: not _between_games(phones), "a game to start")


async def history_pages(tower: Tower, pages: int) -> list[float]:
    """Seconds to answer each of `pages` history pages (the table's, each seat's, the first
    game's story), after one that makes the history's figures once."""
    base = tower.join_url().split("/?")[0]
    names = ["Robo", *(f"Phone {n}" for n in range(1, SEATED_PHONES + 1)),
             *(PAD_NAME.format(n) for n in range(1, PADS + 1))]  # fmt: skip
    kinds = ["/history", "/history/game/1",
             *(f"/history/player?name={urllib.parse.quote(name)}" for name in names)]  # fmt: skip
    await timed_pages(base, ["/history"])
    times = await timed_pages(base, [kinds[n % len(kinds)] for n in range(pages)])
    return [t for kind in times.values() for t in kind]


def hard_decisions(games: int) -> list[float]:
    """Wall-clock seconds of every decision of hard players in whole 3-player games."""
    from firmware_py.players import decide, prepare

    prepare()  # as the tower does once it is ready
    seconds: list[float] = []
    rng = random.Random(1)

    def hard(game, name):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        chosen = decide(game, name, "hard", rng)
        seconds.append(time.perf_counter() - started)
        return chosen

    for seed in range(games):
        play_game("classic", [hard, hard, hard], seed)
    return seconds


def line(what: str, value: float, unit: str, goal: float) -> str:
    verdict = "meets" if value < goal else "MISSES"
    return f"  {what}: {value:.{0 if unit == 'ms' else 2}f} {unit} ({verdict} < {goal:g} {unit})"


def report(ready: float, table: Round, history: list[float], rss: float, peak: float,
           hard: list[float]) -> None:  # fmt: skip
    rolls = [1000 * t for t in table.rolls]
    taps = [1000 * t for t in table.taps()]
    pages = [1000 * t for t in history]
    hard_ms = [1000 * t for t in hard]
    print(line("start to READY=1", ready, "s", 3.0))
    for what, values in (("a roll to every phone and pad", rolls),
                         ("a tap to every phone", taps), ("a history page", pages),
                         ("a hard decision", hard_ms)):  # fmt: skip
        print(line(f"{what}, p99 of {len(values)}", percentile(values, 0.99), "ms", GOAL_MS)
              + f"; median {statistics.median(values):.0f} ms")  # fmt: skip
    print(line("resident memory (VmHWM)", rss, "MB", 100.0) + f"; the cgroup's peak {peak:.0f} MB")


def run(args: argparse.Namespace, budget: Budget, folder: Path) -> None:
    """The tower in the budget with its devices; then the hard player in the same budget."""
    cables = [Cable(folder, f"pad-{n}") for n in range(1, PADS + 1)]
    with fuse_bus(folder, {0x3C: "sh1106", 0x3D: "sh1106"}, khz=400) as bus:
        (folder / "config.toml").write_text(config(bus.path, cables))
        # the kiosk runs from compiled modules (pip compiles them at install): so does this one
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["QWIXX_WEB_PORT"] = "0"
        started = time.perf_counter()
        tower = Tower("--config", str(folder / "config.toml"), state=folder / "state",
                      keyboard=True, fork=False, env=env, enter=budget.enter,
                      niceness=TOWER_NICENESS)  # fmt: skip
        with tower:
            tower.wait_ready(WAIT)
            ready = time.perf_counter() - started
            table = asyncio.run(play(tower, cables, args.rolls))
            history = asyncio.run(history_pages(tower, args.history_pages))
            rss = _status_mb(tower.process.pid, "VmHWM")
            tower.stop()
    for cable in cables:
        cable.close()
    command = [sys.executable, __file__, "--hard-games", str(args.hard_games)]
    env = {**os.environ, "QWIXX_BENCH_HARD": "1"}
    out = subprocess.run(command, capture_output=True, text=True, check=True, env=env,
                         preexec_fn=budget.enter)  # fmt: skip
    report(ready, table, history, rss, budget.peak_mb(), json.loads(out.stdout))
    print(f"  the quota: {budget.throttled()}")


def _status_mb(pid: int, key: str) -> float:
    for line_ in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line_.startswith(key + ":"):
            return int(line_.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=60, help="rolls timed")
    parser.add_argument("--memory", type=int, default=ZERO2W_FREE_MB, help="the limit, in MB")
    parser.add_argument("--share", type=float, help="of one core here (default: calibrated)")
    parser.add_argument("--history-pages", type=int, default=60, help="history pages timed")
    parser.add_argument("--hard-games", type=int, default=5, help="games of hard decisions")
    args = parser.parse_args()
    if os.environ.get("QWIXX_BENCH_HARD"):
        print(json.dumps(hard_decisions(args.hard_games)))
        return
    share = args.share
    if share is None:
        here = sysbench_events()
        share = ZERO2W_EVENTS / here
        print(f"sysbench cpu, one thread: {here:.0f} events/s here; a Zero 2 W core "
              f"{ZERO2W_EVENTS:.0f} (a Pi 3B+'s published 687.45, at 1.0 of 1.4 GHz)")  # fmt: skip
    budget = Budget(f"qwixx-zero2w-{os.getpid()}", args.memory, share)
    print(budget.describe())
    try:
        with tempfile.TemporaryDirectory() as folder:
            run(args, budget, Path(folder))
    finally:
        budget.close()


if __name__ == "__main__":
    main()
