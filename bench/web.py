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

With --hostile, one misbehaving device beside the table (issue 22), all traffic to 127.0.0.1,
bounded in count and time: `sheets` (a tap to every phone's sheet updated, five phones playing
and ten watching, each from an address of its own on the loopback; then again with a client
flooding junk at full speed), `memory` (the tower's RSS before and after 60 s of every flood
at once: junk never read, pings never read, connects, unparsable requests, silent
connections), `idle` (2,000 TCP connections held open while four phones play, a fifth joins
and games go on; the tower's log lines counted), `stop` (Ctrl-C to the end of `qwixx-tower
run` with a seated phone connected).

    nice .venv/bin/python bench/web.py --hostile sheets memory idle stop --taps 300

With --attacks, many devices at `qwixx-tower run` itself, each from an address of its own
(issue 39; bench/web_attacks.py says how): `sockets`, `guess`, `idle`, `taps`.

    nice .venv/bin/python bench/web.py --attacks sockets guess idle taps [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import multiprocessing
import os
import random
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import serial

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware_py.app.assembly import attach_pads, attach_phones, build_table  # noqa: E402
from firmware_py.pad import protocol  # noqa: E402

if TYPE_CHECKING:  # the tower process imports neither: its baseline memory is without them
    from multiprocessing.synchronize import Event as ProcessEvent

    import aiohttp
    from aiohttp import ClientWebSocketResponse as WebSocket

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
    from firmware_py.view import TableView
    from sheets import load_sheet

    async def main() -> None:
        hardware = build_hardware(SIMULATED, load_sheet("classic").dice_faces)
        table = build_table(
            hardware, seats=[], variant="classic", journal=Journal(Path(state_dir)), pace=0.01
        )
        loop = asyncio.get_running_loop()
        names = {PAD_IDENT.format(n): PAD_NAME.format(n) for n in range(1, PADS + 1)}
        pads = attach_pads(table, ports, names)
        pads.open(loop)
        started: list[object] = []  # the game (None: none yet) after which one was started

        def finger(view: TableView) -> None:
            game = table.game
            seated = len(table.seating.seats) == PLAYING_PHONES + PLAYING_PADS
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

            server = build(attach_phones(table), WebConfig(enabled=True, host="127.0.0.1", port=0))
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

    async def _ask_to_join(self, socket: WebSocket) -> None:
        kind = "phone join" if self.player else "phone refused"
        self.timings.sent(self.name, "join", kind)
        await socket.send_json({"type": "join", "code": self.code, "name": self.name})

    async def _keep_asking(self, socket: WebSocket, every: float, done: asyncio.Event) -> None:
        while not done.is_set():
            if not self.timings.waiting(self.name):
                await self._ask_to_join(socket)
            await asyncio.sleep(every)

    async def _read(self, socket: WebSocket) -> None:
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

    async def _decide(self, socket: WebSocket, view: dict[str, Any]) -> None:
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
        # seq, fields, when last sent
        self._in_flight: tuple[int, dict[str, Any], float] | None = None

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

    def _send(self, name: str, fields: dict[str, Any]) -> int:
        self.seq = protocol.next_seq(self.seq)
        self._write(name, self.seq, fields)
        return self.seq

    def _write(self, name: str, seq: int, fields: dict[str, Any]) -> None:
        self.port.write(protocol.encode(name, seq, fields))

    def _request(self, fields: dict[str, Any], kind: str) -> None:
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

    def _decide(self, state: dict[str, Any]) -> None:
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
) -> tuple[subprocess.Popen[str], str]:
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


def stop_tower(tower: subprocess.Popen[str]) -> None:
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


# ---- one hostile device beside the table (issue 22) --------------------------------------------
# Five phones play (games started and rolled by the robot finger), ten watch; one device on the
# same machine misbehaves. All traffic goes to 127.0.0.1 only, bounded in count and in time.

SHEET_PLAYERS, SHEET_WATCHERS = 5, 10
TAP_GAP = 0.05  # seconds between two taps at the table: robots at a human pace (a phone's
# message budget is 10 a second: a robot tapping flat out is cut off as a flood would be)


def raw_websocket(port: int) -> socket.socket:
    """A WebSocket opened by hand on a plain socket that will never read what it is sent."""
    sock = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.250", 0))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n".encode())  # fmt: skip
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(1)
        if not chunk:
            raise ConnectionError("closed during the handshake")
        answer += chunk
    return sock


def masked_frame(text: str) -> bytes:
    data, mask = text.encode(), os.urandom(4)
    return (
        struct.pack("!BB", 0x81, 0x80 | len(data))
        + mask
        + bytes(byte ^ mask[index % 4] for index, byte in enumerate(data))
    )


def flood(port: int, kind: str, seconds: float) -> None:
    """One hostile client for `seconds` (run in its own process), reconnecting whenever the
    tower cuts it off: `junk` (messages that are not JSON, never reading the refusals),
    `ping` (asks for a full view, never reading them), `connect` (WebSockets opened and
    dropped), `bad-http` (requests aiohttp cannot parse), `silent` (TCP connections that
    never send a byte)."""
    deadline = time.monotonic() + seconds
    frames = {"junk": masked_frame("junk") * 200, "ping": masked_frame('{"type":"ping"}') * 100}
    held: list[socket.socket] = []
    while time.monotonic() < deadline:
        try:
            if kind in frames:
                with raw_websocket(port) as sock:
                    while time.monotonic() < deadline:
                        sock.sendall(frames[kind])
            elif kind == "connect":
                raw_websocket(port).close()
            elif kind == "bad-http":
                with socket.create_connection(("127.0.0.1", port)) as sock:
                    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
                    sock.recv(4096)
            elif kind == "silent":
                held.append(socket.create_connection(("127.0.0.1", port)))
                held = held[-500:]  # at most 500 at once from this client
        except OSError:
            time.sleep(0.001)  # cut off: again
    for sock in held:
        sock.close()


def flooders(port: int, kinds: list[str], seconds: float) -> list[multiprocessing.Process]:
    processes = [multiprocessing.Process(target=flood, args=(port, kind, seconds), daemon=True)
                 for kind in kinds]  # fmt: skip
    for process in processes:
        process.start()
    return processes


class Listener:
    """A phone's page that records when it last heard from the tower, and its newest view."""

    socket: WebSocket  # from open()

    def __init__(self, name: str) -> None:
        self.name, self.heard = name, asyncio.Event()
        self.view: dict[str, Any] | None = None
        self.answers: dict[str, bool] = {}
        self.joined = asyncio.Event()

    async def open(self, address: str, base: str) -> None:
        """Connect from `address` (127.x.y.z: each phone a device of its own to the tower)."""
        import aiohttp

        connector = aiohttp.TCPConnector(local_addr=(address, 0))
        self.session = aiohttp.ClientSession(connector=connector)
        self.socket = await self.session.ws_connect(base + "/ws")
        self.reading = asyncio.create_task(self._read())

    async def close(self) -> None:
        await self.session.close()

    async def _read(self) -> None:
        async for message in self.socket:
            data = json.loads(message.data)
            self.heard.set()
            if data["type"] == "view":
                self.view = data["view"]
            elif data["type"] == "joined":
                self.joined.set()
            elif data["type"] == "answer":
                self.answers[data["request"]] = data["ok"]


def decision(view: dict[str, Any] | None) -> dict[str, Any] | None:
    if view is None:
        return None
    if view["moves"]:
        move = view["moves"][0]
        return {"action": "mark", "row": move["row"], "number": move["number"],
                "lucky": move["lucky"], "choice": (move["choices"] or [""])[0]}  # fmt: skip
    return {"action": "pass"} if view["may_pass"] else None


async def taps_to_sheets(url: str, taps: int, newcomer_at: int | None = None) -> list[float]:
    """Seconds from a player's tap to the moment every phone (players and watchers) has heard
    of it, one tap at a time. `newcomer_at`: only four play at first; the fifth phone joins
    after that many seconds (while the tower is busy), and then the games start."""
    base, code = url.split("/?code=")
    players = [Listener(f"P{n}") for n in range(SHEET_PLAYERS)]
    watchers = [Listener(f"W{n}") for n in range(SHEET_WATCHERS)]
    seated = players if newcomer_at is None else players[:-1]
    for number, phone in enumerate([*seated, *watchers], 10):
        await phone.open(f"127.0.0.{number}", base)
    for phone in seated:
        await phone.socket.send_json({"type": "join", "code": code, "name": phone.name})
        await asyncio.wait_for(phone.joined.wait(), 30)
    if newcomer_at is not None:
        await asyncio.sleep(newcomer_at)
        started = time.perf_counter()
        await players[-1].open("127.0.0.40", base)
        await players[-1].socket.send_json({"type": "join", "code": code, "name": "P4"})
        await asyncio.wait_for(players[-1].joined.wait(), 60)
        print(f"  a new phone joined in {(time.perf_counter() - started) * 1000:.0f} ms")
    everyone = [*players, *watchers]
    samples: list[float] = []
    count = 0
    while len(samples) < taps:
        ready = [(p, d) for p in players if (d := decision(p.view)) is not None]
        if not ready:
            await asyncio.sleep(0.001)
            continue
        player, fields = ready[0]
        count += 1
        request = f"bench/{count}"
        for phone in everyone:
            phone.heard.clear()
        player.view = None  # it taps again on a view that comes after this tap
        sent = time.perf_counter()
        await player.socket.send_json({"type": "decide", "request": request, **fields})
        await asyncio.wait_for(asyncio.gather(*(p.heard.wait() for p in everyone)), 30)
        if player.answers.get(request):
            samples.append(time.perf_counter() - sent)
        await asyncio.sleep(TAP_GAP)
    for phone in everyone:
        await phone.close()
    return samples


def tower_for(folder: Path, name: str) -> tuple[subprocess.Popen[str], str]:
    tower, url = start_tower(str(folder / name), [], 10_000, web=True)
    return tower, url


def port_of(url: str) -> int:
    return int(url.split("/?")[0].rsplit(":", 1)[1])


def hostile_sheets(folder: Path, taps: int) -> None:
    for flooded in (False, True):
        tower, url = tower_for(folder, f"sheets-{flooded}")
        processes = flooders(port_of(url), ["junk"], 600) if flooded else []
        try:
            ms = [t * 1000 for t in asyncio.run(taps_to_sheets(url, taps))]
        finally:
            for process in processes:
                process.terminate()
            stop_tower(tower)
        beside = "one client flooding junk at full speed" if flooded else "no hostile client"
        print(f"tap -> every phone's sheet, {SHEET_PLAYERS} phones + {SHEET_WATCHERS} watchers, "
              f"{beside}: n={len(ms)} p50 {statistics.median(ms):.1f} ms "
              f"p99 {percentile(ms, 0.99):.1f} ms max {max(ms):.1f} ms")  # fmt: skip


def hostile_memory(folder: Path, seconds: float) -> None:
    kinds = ["junk", "ping", "connect", "bad-http", "silent"]
    tower, url = tower_for(folder, "memory")
    try:
        time.sleep(1.0)
        before = resident_mb(tower.pid)
        for process in flooders(port_of(url), kinds, seconds):
            process.join(seconds + 30)
        after = resident_mb(tower.pid)
        peak = resident_mb(tower.pid, "VmHWM")
    finally:
        stop_tower(tower)
    print(
        f"tower RSS before {before:.1f} MB, after {seconds:.0f} s of {', '.join(kinds)} "
        f"floods at once: {after:.1f} MB ({after - before:+.1f} MB; peak {peak:.1f} MB)"
    )


def hostile_idle(folder: Path, connections: int, taps: int) -> None:
    """`connections` TCP connections held open (opened again as the tower closes them) by
    another process, while four phones play, a fifth joins, and games go on; the tower's
    log lines are counted."""
    tower, url = start_tower_logged(folder / "idle")
    stop = multiprocessing.Event()
    holder = multiprocessing.Process(target=hold_idle, args=(port_of(url), connections, stop))
    holder.start()
    try:
        ms = [t * 1000 for t in asyncio.run(taps_to_sheets(url, taps, newcomer_at=3))]
    finally:
        stop.set()
        holder.join(30)
        stop_tower(tower)
    assert tower.stderr is not None
    lines = tower.stderr.read().splitlines()
    print(
        f"{connections} idle connections held: taps p50 {statistics.median(ms):.1f} ms "
        f"p99 {percentile(ms, 0.99):.1f} ms (n={len(ms)}); tower log {len(lines)} lines"
    )


def still_open(sock: socket.socket) -> bool:
    """Whether `sock` is still held: one the tower closed is closed here too."""
    if closed_by_tower(sock):
        sock.close()
        return False
    return True


def hold_idle(port: int, connections: int, stop: ProcessEvent) -> None:
    """In its own process: `connections` silent connections, reopened as the tower closes
    them (after its idle time), until `stop` is set."""
    held: list[socket.socket] = []
    while not stop.is_set():
        held = [sock for sock in held if still_open(sock)]
        while len(held) < connections and not stop.is_set():
            try:
                held.append(socket.create_connection(("127.0.0.1", port)))
            except OSError:
                break
            held[-1].setblocking(False)
        stop.wait(0.5)
    for sock in held:
        sock.close()


def closed_by_tower(sock: socket.socket) -> bool:
    """True when the other end closed `sock` (a non-blocking socket that reads nothing)."""
    try:
        return sock.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def start_tower_logged(state: Path) -> tuple[subprocess.Popen[str], str]:
    """The tower of `start_tower`, its standard error kept (what it logs)."""
    command = [sys.executable, __file__, "--serve", str(state), "--games", "10000"]
    tower = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert tower.stdout is not None
    line = tower.stdout.readline().strip()
    while not line.startswith("http"):
        line = tower.stdout.readline().strip()
    return tower, line


async def read_all(socket_: WebSocket) -> None:
    async for _ in socket_:
        pass


def hostile_stop(folder: Path) -> None:
    """`qwixx-tower run` itself (as systemd runs it), a seated phone connected: the time
    from SIGINT (Ctrl-C; SIGTERM is `systemctl restart`) to the process's end."""
    import aiohttp

    held = socket.socket()
    held.bind(("127.0.0.1", 0))  # the configured port, held: the tower takes a free one
    config = folder / "stop.toml"
    config.write_text(f'[web]\nhost = "127.0.0.1"\nport = {held.getsockname()[1]}\n')
    command = [sys.executable, "-m", "firmware_py.app.cli", "run", "--plain", "--config",
               str(config), "--state-dir", str(folder / "stop")]  # fmt: skip
    tower = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
    assert tower.stdout is not None
    while not (line := tower.stdout.readline()).startswith("Phones join at "):
        pass
    base, code = line.split()[-1].split("/?code=")

    async def seated_then_stopped() -> float:
        async with aiohttp.ClientSession() as session:
            socket_ = await session.ws_connect(base + "/ws")
            await socket_.send_json({"type": "join", "code": code, "name": "Dora"})
            while json.loads((await socket_.receive()).data)["type"] != "joined":
                pass
            reading = asyncio.create_task(read_all(socket_))  # as a page does
            started = time.perf_counter()
            tower.send_signal(signal.SIGINT)
            await asyncio.to_thread(tower.wait, 60)
            stopped = time.perf_counter() - started
            reading.cancel()
            return stopped

    seconds = asyncio.run(seated_then_stopped())
    held.close()
    print(f"stop (SIGINT) with a seated phone connected: {seconds * 1000:.0f} ms")


def hostile_main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        if "sheets" in args.hostile:
            hostile_sheets(folder, args.taps)
        if "memory" in args.hostile:
            hostile_memory(folder, args.seconds)
        if "idle" in args.hostile:
            hostile_idle(folder, args.idle, args.taps)
        if "stop" in args.hostile:
            hostile_stop(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games to play (default 3)")
    parser.add_argument("--ask", type=float, default=0.25,
                        help="seconds between a watcher's joins (default 0.25)")  # fmt: skip
    parser.add_argument("--serve", metavar="STATE_DIR", help=argparse.SUPPRESS)
    parser.add_argument("--ports", default="", help=argparse.SUPPRESS)
    parser.add_argument("--no-web", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--hostile", nargs="+", choices=("sheets", "memory", "idle", "stop"),
                        help="one hostile device beside the table: tap -> sheets with and "
                        "without a flood, memory under floods, idle connections")  # fmt: skip
    parser.add_argument("--attacks", nargs="+", choices=("sockets", "guess", "idle", "taps"),
                        help="many devices at `qwixx-tower run`, each from its own address "
                        "(bench/web_attacks.py): new phones' joins, a seated player's "
                        "reloads, memory and log under each attack")  # fmt: skip
    parser.add_argument("--taps", type=int, default=400, help="taps measured (--hostile)")
    parser.add_argument("--seconds", type=float, default=60,
                        help="flood time (--hostile memory; 20 for --attacks)")  # fmt: skip
    parser.add_argument("--idle", type=int, default=2000, help="idle connections (--hostile idle)")
    args = parser.parse_args()
    ports = [port for port in args.ports.split(",") if port]
    if args.serve:
        with contextlib.suppress(KeyboardInterrupt):
            serve(args.serve, ports, args.games, web=not args.no_web)
        return
    if args.hostile:
        hostile_main(args)
        return
    if args.attacks:
        import web_attacks  # (aiohttp: only for the attacks)

        seconds = args.seconds if "--seconds" in sys.argv else 20.0
        web_attacks.main(args.attacks, seconds)
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
