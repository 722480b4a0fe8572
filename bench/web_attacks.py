"""The phones' door under attack from many devices (issue 39), run by `bench/web.py --attacks`.

The tower is `qwixx-tower run --plain` itself, its web server on 127.0.0.1; every attacker
speaks from an address of its own and every victim from another (127.x.y.z: Linux answers the
whole 127/8 on the loopback), in processes of their own. Each attack runs for --seconds while,
after a few seconds, four new phones open the QR code's link and join (each from its own
address, a second after opening the page, as a person types a name) and a seated player reloads
her page eight times. Printed for each: the devices and the load, how many new phones joined
within 5 s, how many reloads were back in the seat within 5 s, the tower's resident memory
growth (and peak), and what it logged, in bytes per minute.

    nice .venv/bin/python bench/web.py --attacks sockets guess idle taps [--seconds 20]

- `sockets`: D devices each holding S WebSockets, each reopened the moment the tower closes it
  (7 x 4, and 50 x 20).
- `guess`: 300 addresses typing table codes one after another, each reconnecting when closed:
  codes judged, and the time the rest of the 10,000 would take at the rate after the first.
- `idle`: one device holding 2,000 idle TCP connections (reopened as the tower closes them),
  the tower started at 1024 open files (soft and hard), and 8,000 at the unit's 8192.
- `taps`: a seated player tapping ten times a second (200 taps): how many were answered;
  then her page floods, is cut off, and retries as the page does (0.5, 1, 2, 4, 8 s apart):
  the time until she is back in her seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import multiprocessing
import socket
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from support.tower import Tower  # noqa: E402

JOIN_WITHIN = 5.0  # seconds: a new phone joins, a seated player is back, within this
NEWCOMERS, RELOADS = 4, 8  # (four: the seated player and four make a full table)
WARM_UP = 3.0  # seconds the attack runs before the victims start
FIRST_CODES = 20  # wrong codes judged at once, before a steady rate (the table's, today)

Guessed = dict[str, float]  # a guesser's counts by what a guess got back, and its seconds


def address(group: int, number: int) -> str:
    return f"127.{group}.{number // 250}.{number % 250 + 1}"


def run_tower(folder: Path, open_files: str = "") -> Tower:
    """`qwixx-tower run --plain` with [web] on 127.0.0.1 (the tests' one tower helper), exec'd
    as systemd starts it: at `open_files` ("SOFT:HARD") when given."""
    folder.mkdir(parents=True, exist_ok=True)
    tower = Tower(folder=folder, pace=30, web=True, open_files=open_files, fork=False)
    tower.join_url()
    return tower


def printed_bytes(tower: Tower) -> int:
    """Bytes the tower has printed so far (its news and its log)."""
    return len(tower.output.encode()) + len(tower.errors.encode())


@contextlib.asynccontextmanager
async def device(source: str) -> AsyncIterator[aiohttp.ClientSession]:
    connector = aiohttp.TCPConnector(local_addr=(source, 0), limit=0, force_close=True)
    async with aiohttp.ClientSession(connector=connector) as session:
        yield session


async def answer(
    socket_: aiohttp.ClientWebSocketResponse, kinds: tuple[str, ...], timeout: float
) -> dict[str, Any]:
    """The first message of one of `kinds` (a closed socket is a refusal)."""
    async with asyncio.timeout(timeout):
        async for message in socket_:
            if message.type is aiohttp.WSMsgType.TEXT:
                data: dict[str, Any] = json.loads(message.data)
                if data.get("type") in kinds:
                    return data
    return {"type": "refused", "reason": "closed"}


async def one_join(source: str, tower: Tower, name: str) -> bool:
    """A new phone opens the QR link's page, its player types a name for a second, joins:
    True when it has joined within JOIN_WITHIN seconds of opening."""
    started = time.monotonic()
    with contextlib.suppress(aiohttp.ClientError, OSError, TimeoutError):
        async with device(source) as session, session.ws_connect(tower.ws_url) as socket_:
            await asyncio.sleep(1.0)
            await socket_.send_json({"type": "join", "code": tower.code, "name": name})
            said = await answer(socket_, ("joined", "refused"), 2 * JOIN_WITHIN)
            return said["type"] == "joined" and time.monotonic() - started <= JOIN_WITHIN
    return False


async def one_reload(tower: Tower, token: str) -> bool:
    """The seated player's page reloads: True when back in her seat within JOIN_WITHIN."""
    started = time.monotonic()
    with contextlib.suppress(aiohttp.ClientError, OSError, TimeoutError):
        async with device(address(3, 0)) as session, session.ws_connect(tower.ws_url) as socket_:
            await socket_.send_json({"type": "hello", "token": token})
            said = await answer(socket_, ("view", "refused"), 2 * JOIN_WITHIN)
            return said["type"] == "view" and time.monotonic() - started <= JOIN_WITHIN
    return False


async def seat(tower: Tower, name: str = "Dora") -> str:
    async with device(address(3, 0)) as session, session.ws_connect(tower.ws_url) as socket_:
        await socket_.send_json({"type": "join", "code": tower.code, "name": name})
        said = await answer(socket_, ("joined", "refused"), 30)
        if said["type"] != "joined":
            raise SystemExit(f"the seated player could not join: {said}")
        return str(said["token"])


async def victims(tower: Tower, token: str) -> tuple[int, int]:
    """New phones joining (at once) and the seated player's reloads (one after another)."""
    joins = await asyncio.gather(*(one_join(address(2, n), tower, f"New {n}")
                                   for n in range(NEWCOMERS)))  # fmt: skip
    reloads = [await one_reload(tower, token) for _ in range(RELOADS)]
    return sum(joins), sum(reloads)


# ---- the attackers, each kind in a process of its own ----------------------------------------


def hold_sockets(ws_url: str, devices: int, sockets: int, seconds: float) -> None:
    async def one(session: aiohttp.ClientSession, deadline: float) -> None:
        while time.monotonic() < deadline:
            with contextlib.suppress(aiohttp.ClientError, OSError, TimeoutError):
                async with session.ws_connect(ws_url) as socket_:
                    left = deadline - time.monotonic()
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(max(0.0, left)):
                            async for _ in socket_:
                                pass
            await asyncio.sleep(0.001)

    async def attack() -> None:
        deadline = time.monotonic() + seconds
        sessions = [device(address(1, n)) for n in range(devices)]
        opened = [await session.__aenter__() for session in sessions]
        await asyncio.gather(*(one(s, deadline) for s in opened for _ in range(sockets)))
        for session in sessions:
            await session.__aexit__(None, None, None)

    asyncio.run(attack())


def guess_codes(
    ws_url: str, devices: int, seconds: float, found: multiprocessing.Queue[Guessed]
) -> None:
    """`devices` addresses typing codes 0000 to 9999 between them; what each guess got back is
    counted: judged wrong, made to wait, joined."""
    counts = {"judged": 0, "waited": 0, "joined": 0}

    async def one(number: int, codes: list[str], deadline: float) -> None:
        async with device(address(1, number)) as session:
            while codes and time.monotonic() < deadline:
                with contextlib.suppress(aiohttp.ClientError, OSError, TimeoutError):
                    async with session.ws_connect(ws_url) as socket_:
                        while codes and time.monotonic() < deadline:
                            code = codes[-1]
                            await socket_.send_json({"type": "join", "code": code, "name": "G"})
                            said = await answer(socket_, ("joined", "refused"), 10)
                            if said["type"] == "joined":
                                counts["joined"] += 1
                                return
                            if "is not this table's code" in said.get("reason", ""):
                                counts["judged"] += 1
                                codes.pop()
                            elif said.get("reason") == "closed":
                                break
                            else:
                                counts["waited"] += 1
                                await asyncio.sleep(1.0)
                await asyncio.sleep(0.01)

    async def attack() -> None:
        deadline = time.monotonic() + seconds
        codes = [f"{n:04d}" for n in range(10_000)]
        shares = [codes[n::devices] for n in range(devices)]
        await asyncio.gather(*(one(n, shares[n], deadline) for n in range(devices)))

    started = time.monotonic()
    asyncio.run(attack())
    found.put({**counts, "seconds": time.monotonic() - started})


def hold_idle(port: int, count: int, seconds: float) -> None:
    held: list[socket.socket] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        alive = []
        for sock in held:
            try:
                gone = sock.recv(1, socket.MSG_PEEK) == b""
            except BlockingIOError:
                gone = False
            except OSError as error:
                gone = error.errno != errno.ENOTCONN  # still connecting: not gone
            (sock.close() if gone else alive.append(sock))
        held = alive
        while len(held) < count:
            sock = socket.socket()
            sock.setblocking(False)
            sock.bind((address(1, 0), 0))
            sock.connect_ex(("127.0.0.1", port))
            held.append(sock)
        time.sleep(0.5)
    for sock in held:
        sock.close()


# ---- the measurements ------------------------------------------------------------------------


def measured(tower: Tower, attacker: multiprocessing.Process, seconds: float) -> str:
    """Run `attacker` against `tower` while the victims try: joins, reloads, memory, log."""
    token = asyncio.run(seat(tower))
    time.sleep(1.0)
    before, logged, started = tower.resident_mb(), printed_bytes(tower), time.monotonic()
    attacker.start()
    time.sleep(WARM_UP)
    joins, reloads = asyncio.run(victims(tower, token))
    attacker.join(seconds + 120)
    minutes = (time.monotonic() - started) / 60
    growth, peak = tower.resident_mb() - before, tower.resident_mb("VmHWM")
    per_minute = (printed_bytes(tower) - logged) / minutes
    return (f"new phones joined within 5 s: {joins} of {NEWCOMERS}; seated player back within "
            f"5 s: {reloads} of {RELOADS} reloads; RSS {growth:+.1f} MB (peak {peak:.0f} MB); "
            f"log {per_minute / 1024:.1f} kB a minute")  # fmt: skip


def under_attack(
    folder: Path,
    seconds: float,
    target: Callable[..., None],
    args: tuple[object, ...],
    open_files: str = "",
) -> str:
    """A new tower in `folder`, attacked by `target(ws_url or port, *args)` in a process of its
    own: what `measured` says."""
    tower = run_tower(folder, open_files=open_files)
    try:
        port = int(tower.ws_url.rsplit(":", 1)[1].split("/")[0])
        where = port if target is hold_idle else tower.ws_url
        attacker = multiprocessing.Process(target=target, args=(where, *args))
        return measured(tower, attacker, seconds)
    finally:
        tower.stop()


def attack_sockets(folder: Path, seconds: float) -> None:
    for devices, sockets in ((7, 4), (50, 20)):
        result = under_attack(folder / f"sockets-{devices}", seconds, hold_sockets,
                              (devices, sockets, seconds))  # fmt: skip
        print(f"sockets: {devices} devices x {sockets} WebSockets reopened at once, "
              f"{seconds:.0f} s: {result}")  # fmt: skip


def attack_guess(folder: Path, seconds: float, devices: int = 300) -> None:
    tower = run_tower(folder / "guess")
    found: multiprocessing.Queue[Guessed] = multiprocessing.Queue()
    try:
        attacker = multiprocessing.Process(
            target=guess_codes, args=(tower.ws_url, devices, seconds, found)
        )
        result = measured(tower, attacker, seconds)
    finally:
        tower.stop()
    counts = found.get(timeout=60)
    steady = max(0, counts["judged"] - FIRST_CODES) / counts["seconds"]  # after the first
    every = (10_000 - counts["judged"]) / steady if steady else float("inf")
    print(f"guess: {devices} addresses typing codes for {counts['seconds']:.0f} s: "
          f"{counts['judged']} judged, {counts['waited']} made to wait, "
          f"{'the code found' if counts['joined'] else 'not found'}; the other codes would "
          f"take {every / 3600:.1f} h more at the rate after the first {FIRST_CODES}; "
          f"{result}")  # fmt: skip


def attack_idle(folder: Path, seconds: float) -> None:
    for count, limit in ((2000, "1024:1024"), (8000, "8192:8192")):
        result = under_attack(folder / f"idle-{count}", seconds, hold_idle, (count, seconds),
                              open_files=limit)  # fmt: skip
        print(f"idle: 1 device holding {count} idle connections, open files {limit}, "
              f"{seconds:.0f} s: {result}")  # fmt: skip


async def tapping(tower: Tower, taps: int = 200, gap: float = 0.1) -> tuple[int, float]:
    """The seated player taps ten times a second, a thumb's utmost, one tap after the answer
    to the last: taps answered; then her page floods (2,000 messages), is cut off and
    retries as the page does: seconds until she is back."""
    token = await seat(tower)
    answered = 0
    async with device(address(3, 0)) as session, session.ws_connect(tower.ws_url) as socket_:
        await socket_.send_json({"type": "hello", "token": token})
        await answer(socket_, ("view",), 10)
        with contextlib.suppress(aiohttp.ClientError, OSError, TimeoutError):
            for tap in range(taps):
                request = f"tap/{tap}"
                await socket_.send_json({"type": "decide", "request": request, "action": "pass"})
                said = await answer(socket_, ("answer", "refused"), 10)
                if said["type"] != "answer":
                    break
                answered += 1
                await asyncio.sleep(gap)
    await asyncio.sleep(2.0)  # (should a tap have been cut off, its wait is over)
    return answered, await back_after_flood(tower, token)


async def back_after_flood(tower: Tower, token: str) -> float:
    async with device(address(3, 0)) as session, session.ws_connect(tower.ws_url) as socket_:
        await socket_.send_json({"type": "hello", "token": token})
        await answer(socket_, ("view",), 10)
        with contextlib.suppress(aiohttp.ClientError, OSError):
            for _ in range(2000):
                await socket_.send_str('{"type":"ping"}')
        with contextlib.suppress(TimeoutError):
            await answer(socket_, ("never",), 30)  # until the tower closes it
    cut, wait = time.monotonic(), 0.5
    while time.monotonic() - cut < 60:
        await asyncio.sleep(wait)
        if await one_reload(tower, token):
            return time.monotonic() - cut
        wait = min(wait * 2, 8.0)
    return float("inf")


def attack_taps(folder: Path) -> None:
    tower = run_tower(folder / "taps")
    try:
        answered, back = asyncio.run(tapping(tower))
    finally:
        tower.stop()
    print(f"taps: 1 seated player tapping 10 times a second, 200 taps: {answered} answered; "
          f"after a flood of 2,000 messages her page was back in {back:.1f} s")  # fmt: skip


def main(kinds: list[str], seconds: float) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        if "sockets" in kinds:
            attack_sockets(folder, seconds)
        if "guess" in kinds:
            attack_guess(folder, seconds)
        if "idle" in kinds:
            attack_idle(folder, seconds)
        if "taps" in kinds:
            attack_taps(folder)
