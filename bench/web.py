"""Phones and pads under load: request-to-answer time and the tower's memory with the web server.

One tower process (simulated hardware, the real table, journal, pad hub and web server on
127.0.0.1) and, at once, five phones (aiohttp WebSocket clients, speaking as the page does) and
five pads (pyserial on pseudo-terminal cables, speaking the pad protocol as the firmware does:
hello, heartbeats, requests sent again until answered). A table seats five players, so the
devices split: three phones and two pads take the seats and play every game to its end (each
decides as soon as its view lets it: its first legal mark, else a pass); the other two phones
and three pads stay connected, are pushed every change, and keep asking to join (every
--ask seconds), which the tower refuses in words (a game is on, the table is full). A robot
finger in the tower presses the roll button to start each game and for every roll.

Printed: the time from a request sent to its answer (median and p99), for the players'
decisions and the watchers' refused joins, phones and pads apart; and the tower's resident
memory: the same tower without a web server (aiohttp not even imported), with it up before any
phone connects, after the games, and its peak. A pad's time includes its cable: the relay
thread copying bytes between the two pseudo-terminals (as in `qwixx-tower demo`).

    .venv/bin/python bench/web.py
    .venv/bin/python bench/web.py --games 5
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import serial

ROOT = Path(__file__).resolve().parent.parent
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]

from firmware_py.pad import protocol  # noqa: E402  (bench/drivers.py would hide drivers/)

if TYPE_CHECKING:  # the tower process imports neither: its baseline memory is without them
    import aiohttp

    from firmware_py.app.demo import Cable

PHONES, PADS = 5, 5
PLAYING_PHONES, PLAYING_PADS = 3, 2  # the five seats; the other devices watch
PAD_IDENT = "pad-bench{:011d}"
PAD_NAME = "Pad {}"
WAIT = 120.0  # seconds the whole run may take per game before the bench gives up


def serve(state_dir: str, ports: list[str], games: int, web: bool = True) -> None:
    """The tower (run in a child process): table, pad hub on `ports`, web server (unless `web`
    is false: the baseline memory); the roll button pressed by a robot finger to start each of
    `games` games once five players sit, and at every roll."""
    from firmware_py.app.config import SIMULATED, WebConfig
    from firmware_py.app.hardware import build_hardware
    from firmware_py.journal.journal import Journal
    from firmware_py.seats.pads import PadHub
    from firmware_py.table import Table
    from firmware_py.view import TableView
    from sheets import load_sheet

    async def main() -> None:
        hardware = build_hardware(SIMULATED, load_sheet("classic").dice_faces)
        table = Table(seats=[], variant="classic", journal=Journal(Path(state_dir)),
                      hardware=hardware, pace=0.01)  # fmt: skip
        loop = asyncio.get_running_loop()
        names = {PAD_IDENT.format(n): PAD_NAME.format(n) for n in range(1, PADS + 1)}
        pads = PadHub(table, ports, names)
        pads.open(loop)
        started: list[object] = []  # the game (None: none yet) after which one was started

        def finger(view: TableView) -> None:
            game = table.game
            seated = len(table.seats) == PLAYING_PHONES + PLAYING_PADS
            between = game is None or game.over
            if seated and between and len(started) < games and game not in started:
                started.append(game)
                loop.call_later(0.3 if game else 0.01, table.press)
            elif game is not None and not game.over and view.screen == "roll":
                loop.call_later(0.01, table.press)

        table.subscribe(finger)
        server = None
        if web:
            from firmware_py.app.web import build  # aiohttp and segno: only with the server

            server = build(table, WebConfig(enabled=True, host="127.0.0.1", port=0))
            assert server is not None
            assert await server.start() is None
        print(server.url if server else "ready", flush=True)
        try:
            await table.run()
        finally:
            pads.close()
            if server is not None:
                await server.stop()

    asyncio.run(main())


class Timings:
    """Request-to-answer times by kind of device and request ('phone decide', 'pad join', ...)."""

    def __init__(self) -> None:
        self.by_kind: dict[str, list[float]] = {}
        self._sent: dict[tuple[str, object], tuple[str, float]] = {}

    def sent(self, device: str, request: object, kind: str) -> None:
        self._sent[device, request] = (kind, time.perf_counter())

    def answered(self, device: str, request: object) -> None:
        kind, since = self._sent.pop((device, request), ("", 0.0))
        if kind:
            self.by_kind.setdefault(kind, []).append(time.perf_counter() - since)

    def waiting(self, device: str) -> bool:
        return any(sender == device for sender, _ in self._sent)


class Phone:
    """One phone: joins (a player) or keeps asking to join (a watcher); a player decides
    whenever its view asks, one decision at a time, as the page does."""

    def __init__(self, url: str, name: str, timings: Timings, player: bool) -> None:
        self.base, self.code = url.split("/?code=")
        self.name, self.timings, self.player = name, timings, player
        self.games_over = 0
        self.joined = asyncio.Event()
        self._count = 0
        self._over = False

    async def play(self, session: aiohttp.ClientSession, done: asyncio.Event, ask: float) -> None:
        async with session.ws_connect(self.base + "/ws") as socket:
            if self.player:
                await self._ask_to_join(socket)
            else:
                asking = asyncio.create_task(self._keep_asking(socket, ask, done))
            reading = asyncio.create_task(self._read(socket))
            await done.wait()
            reading.cancel()
            if not self.player:
                asking.cancel()

    async def _ask_to_join(self, socket) -> None:
        kind = "phone join" if self.player else "phone refused"
        self.timings.sent(self.name, "join", kind)
        await socket.send_json({"type": "join", "code": self.code, "name": self.name})

    async def _keep_asking(self, socket, every: float, done: asyncio.Event) -> None:
        while not done.is_set():
            if not self.timings.waiting(self.name):
                await self._ask_to_join(socket)
            await asyncio.sleep(every)

    async def _read(self, socket) -> None:
        async for message in socket:
            data = json.loads(message.data)
            kind = data["type"]
            if kind in ("answer", "joined"):
                self.timings.answered(self.name, data.get("request", "join"))
                self.joined.set()
            elif kind == "refused":
                if self.player:
                    raise SystemExit(f"{self.name}: {data['reason']}")
                self.timings.answered(self.name, "join")  # the watcher's join, refused in words
            elif kind == "view":
                self._count_games(data["view"]["phase"])
                await self._decide(socket, data["view"])

    def _count_games(self, phase: str) -> None:
        if phase == "over" and not self._over:
            self.games_over += 1
        self._over = phase == "over"

    async def _decide(self, socket, view: dict) -> None:
        if self.timings.waiting(self.name):
            return
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
        self.timings.sent(self.name, request, "phone decide")
        await socket.send_json({"type": "decide", "request": request, **fields})


class Pad:
    """One pad on its cable (pyserial on the pad's pseudo-terminal): says hello, beats, and asks
    to join; a player then decides whenever its STATE asks. Like the firmware, it has one request
    in flight and sends it again, same sequence number, until it is answered."""

    def __init__(self, path: str, number: int, timings: Timings, player: bool) -> None:
        self.port = serial.Serial(path, timeout=0, write_timeout=1)
        self.name = PAD_NAME.format(number)
        self.ident = PAD_IDENT.format(number)
        self.timings, self.player = timings, player
        self.boot = random.randrange(1, 0xFFFF)
        self.decoder = protocol.FrameDecoder()
        self.seq = 0
        self.state_seq = 0
        self.session = asyncio.Event()
        self.seated = asyncio.Event()
        self.games_over = 0
        self._over = False
        self._in_flight: tuple[int, dict, float] | None = None  # seq, fields, when last sent

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        loop.add_reader(self.port.fileno(), self._readable)
        self._hello()

    def stop(self, loop: asyncio.AbstractEventLoop) -> None:
        loop.remove_reader(self.port.fileno())
        self.port.close()

    async def beat(self, done: asyncio.Event, ask: float) -> None:
        """Heartbeats every second, a request unanswered for a second sent again, and (a
        watcher) a join asked every `ask` seconds."""
        last_beat = 0.0
        while not done.is_set():
            now = time.perf_counter()
            if now - last_beat >= protocol.BEAT_SECONDS:
                self._send("heartbeat", {"state": self.state_seq})
                last_beat = now
            if self._in_flight and now - self._in_flight[2] >= protocol.RETRY_SECONDS:
                seq, fields, _ = self._in_flight
                self._in_flight = (seq, fields, now)
                self._write("request", seq, fields)
            if not self.player and self.session.is_set() and self._in_flight is None:
                self._request({"action": protocol.JOIN}, "pad refused")
            await asyncio.sleep(ask if not self.player else 0.1)

    def ask_to_join(self) -> None:
        self._request({"action": protocol.JOIN}, "pad join")

    def _hello(self) -> None:
        fields = {"protocol": protocol.PROTOCOL_VERSION, "role": protocol.ROLE_PAD,
                  "boot": self.boot, "ident": self.ident, "firmware": "bench"}  # fmt: skip
        self._send("hello", fields)

    def _send(self, name: str, fields: dict) -> int:
        self.seq = protocol.next_seq(self.seq)
        self._write(name, self.seq, fields)
        return self.seq

    def _write(self, name: str, seq: int, fields: dict) -> None:
        self.port.write(protocol.encode(name, seq, fields))

    def _request(self, fields: dict, kind: str) -> None:
        seq = self._send("request", fields)
        self._in_flight = (seq, fields, time.perf_counter())
        self.timings.sent(self.name, seq, kind)

    def _readable(self) -> None:
        for message in self.decoder.feed(self.port.read(4096)):
            self._on_message(message)

    def _on_message(self, message: protocol.Message) -> None:
        if message.name == "hello":
            self._hello()  # the tower opened the port: say who we are
        elif message.name == "hello_ack" and message["status"] == protocol.OK:
            self.session.set()
        elif message.name == "answer" and self._in_flight and message["req"] == self._in_flight[0]:
            self._in_flight = None
            self.timings.answered(self.name, message["req"])
            if self.player and message["status"] == protocol.OK:
                self.seated.set()
        elif message.name == "state":
            self.state_seq = message.seq
            if self.player:
                self._count_games(message["phase"])
                self._decide(message.fields)

    def _count_games(self, phase: int) -> None:
        over = protocol.PHASES[phase] == "over"
        if over and not self._over:
            self.games_over += 1
        self._over = over

    def _decide(self, state: dict) -> None:
        if self._in_flight is not None or state["flags"] & protocol.MAY_JOIN:
            return
        if state["moves"]:
            move = state["moves"][0]
            self._request({"action": protocol.MARK, "row": move["row"],
                           "number": move["number"], "flags": move["flags"] & protocol.LUCKY},
                          "pad decide")  # fmt: skip
        elif state["flags"] & protocol.MAY_PASS:
            self._request({"action": protocol.PASS}, "pad decide")


def resident_mb(pid: int, key: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def until(condition: Callable[[], bool], what: str, timeout: float) -> None:
    deadline = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > deadline:
            raise SystemExit(f"the bench gave up waiting for {what}")
        await asyncio.sleep(0.02)


async def play(url: str, cables: list[Cable], games: int, ask: float) -> Timings:
    """Seat three phones and two pads, then let the other devices watch and ask, until every
    player has seen `games` games end."""
    import aiohttp

    timings = Timings()
    loop = asyncio.get_running_loop()
    done = asyncio.Event()
    pads = [Pad(cable.pad_path, n, timings, player=n <= PLAYING_PADS)
            for n, cable in enumerate(cables, 1)]  # fmt: skip
    phones = [Phone(url, f"Phone {n}", timings, player=n <= PLAYING_PHONES)
              for n in range(1, PHONES + 1)]  # fmt: skip
    for pad in pads:
        pad.start(loop)
    async with aiohttp.ClientSession() as session:
        tasks = [asyncio.create_task(pad.beat(done, ask)) for pad in pads]
        await until(lambda: all(pad.session.is_set() for pad in pads), "the pads' hellos", 30)
        players = [phone for phone in phones if phone.player]
        tasks += [asyncio.create_task(phone.play(session, done, ask)) for phone in players]
        await until(lambda: all(phone.joined.is_set() for phone in players), "phones joining", 30)
        for pad in pads[:PLAYING_PADS]:
            pad.ask_to_join()
            await asyncio.wait_for(pad.seated.wait(), 30)
        tasks += [asyncio.create_task(phone.play(session, done, ask))
                  for phone in phones if not phone.player]  # fmt: skip
        seated = players + pads[:PLAYING_PADS]
        await until(lambda: all(d.games_over >= games for d in seated), "the games", WAIT * games)
        done.set()
        await asyncio.gather(*tasks)
    for pad in pads:
        pad.stop(loop)
    return timings


def start_tower(
    state: str, ports: list[str], games: int, web: bool
) -> tuple[subprocess.Popen, str]:
    """The tower process and its first line that matters (its URL, or 'ready')."""
    command = [sys.executable, __file__, "--serve", state, "--games", str(games),
               "--ports", ",".join(ports)] + ([] if web else ["--no-web"])  # fmt: skip
    tower = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert tower.stdout is not None
    line = ""
    while not (line.startswith("http") or line == "ready"):  # the tower may say other things
        line = tower.stdout.readline().strip()
        if not line and tower.poll() is not None:
            raise SystemExit("the tower did not start")
    return tower, line


def stop_tower(tower: subprocess.Popen) -> None:
    tower.terminate()
    tower.wait(timeout=30)


def baseline_mb(folder: Path) -> float:
    """The same tower's resident memory without the web server (nor aiohttp imported), its
    pads' ports open, a second after it is ready."""
    from firmware_py.app.demo import Cable

    cables = [Cable(folder, f"base-{n}") for n in range(1, PADS + 1)]
    tower, _ = start_tower(str(folder / "base"), [str(c.tower_path) for c in cables], 0, web=False)
    try:
        time.sleep(1.0)
        return resident_mb(tower.pid)
    finally:
        stop_tower(tower)
        for cable in cables:
            cable.close()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def report(timings: Timings) -> None:
    every = [t for kind in timings.by_kind.values() for t in kind]
    for kind, values in [*sorted(timings.by_kind.items()), ("all requests", every)]:
        ms = [v * 1000 for v in values]
        print(f"  {kind:14} n={len(ms):5}  median {statistics.median(ms):6.1f} ms  "
              f"p99 {percentile(ms, 0.99):6.1f} ms  max {max(ms):6.1f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games to play (default 3)")
    parser.add_argument("--ask", type=float, default=0.25,
                        help="seconds between a watcher's joins (default 0.25)")  # fmt: skip
    parser.add_argument("--serve", metavar="STATE_DIR", help=argparse.SUPPRESS)
    parser.add_argument("--ports", default="", help=argparse.SUPPRESS)
    parser.add_argument("--no-web", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    ports = [port for port in args.ports.split(",") if port]
    if args.serve:
        with contextlib.suppress(KeyboardInterrupt):
            serve(args.serve, ports, args.games, web=not args.no_web)
        return
    from firmware_py.app.demo import Cable

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        without_mb = baseline_mb(folder)
        cables = [Cable(folder, f"pad-{n}") for n in range(1, PADS + 1)]
        tower, url = start_tower(str(folder / "state"), [str(c.tower_path) for c in cables],
                                 args.games, web=True)  # fmt: skip
        try:
            time.sleep(1.0)
            idle_mb = resident_mb(tower.pid)
            started = time.perf_counter()
            timings = asyncio.run(play(url, cables, args.games, args.ask))
            seconds = time.perf_counter() - started
            after_mb, peak_mb = resident_mb(tower.pid), resident_mb(tower.pid, "VmHWM")
        finally:
            stop_tower(tower)
            for cable in cables:
                cable.close()
    print(f"{PHONES} phones and {PADS} pads at one tower, {args.games} games in {seconds:.0f} s: "
          f"{PLAYING_PHONES} phones and {PLAYING_PADS} pads play, the others watch and ask to "
          f"join every {args.ask} s (refused)")  # fmt: skip
    print("request to answer:")
    report(timings)
    print(f"tower resident memory: {without_mb:.1f} MB without a web server, "
          f"{idle_mb:.1f} MB with it up, {after_mb:.1f} MB after the games "
          f"(peak {peak_mb:.1f} MB)")  # fmt: skip


if __name__ == "__main__":
    main()
