"""The real `qwixx-tower run` for whole-process tests of its doors: a configuration with pads on
pseudo-terminals and the web server on 127.0.0.1, its plain output read line by line, a saved
game in its state folder, busy processes beside it, and a phone speaking to it over aiohttp.

The web port in the configuration is one the test holds, so the tower takes a free one (as it
does when another program holds its port) and says which: two towers side by side under xdist
never meet. Every wait here waits for an event (a line, a message) with a generous limit that
only bounds a hang.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import re
import select
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp

from firmware_py.journal.journal import seat_records
from firmware_py.journal.lines import event_to_line
from firmware_py.pad import protocol
from firmware_py.rules import Start
from firmware_py.seating import SeatSpec
from support import HANG, pads, spawn
from support.lines import Lines

WAIT = HANG  # seconds: bounds a hang only
JOIN_LINE = re.compile(r"Phones join at (http://\S+)")


class PtyPad(pads.PtyPad):
    """A pad on a pseudo-terminal (support.pads), that can also answer the tower's hellos by
    itself, at once, from a thread of its own (a pad waiting for its tower)."""

    def _receive(self, timeout: float) -> None:
        if getattr(self, "_queue", None) is not None:
            with contextlib.suppress(queue.Empty):
                self._heard([self._queue.get(timeout=timeout)])
                while True:
                    self._heard([self._queue.get_nowait()])
            return
        while select.select([self.master], [], [], timeout)[0]:
            try:
                self._heard(self.decoder.feed(os.read(self.master, 4096)))
            except OSError:  # the tower closed its end (killed): nothing more to read
                return
            timeout = 0

    def answer_hellos(self, ident: str) -> None:
        """From now on, a thread answers each of the tower's hellos the moment it arrives (a
        pad waiting for its tower answers at once); everything else stays for `expect`."""
        self._answering = threading.Event()
        hello = protocol.encode("hello", 1, pad_hello(ident))
        inbox: queue.Queue[protocol.Message] = queue.Queue()
        self._queue = inbox

        def answer() -> None:
            decoder = protocol.FrameDecoder()
            while not self._answering.is_set():
                if not select.select([self.master], [], [], 0.05)[0]:
                    continue
                try:
                    messages = decoder.feed(os.read(self.master, 4096))
                except OSError:
                    return
                for message in messages:
                    if message.name == "hello":
                        os.write(self.master, hello)
                    inbox.put(message)

        threading.Thread(target=answer, daemon=True).start()

    def unplug(self) -> None:
        if getattr(self, "_answering", None) is not None:
            self._answering.set()
        super().unplug()


def pad_hello(ident: str, boot: int = 300) -> dict:
    return {"protocol": protocol.PROTOCOL_VERSION, "role": protocol.ROLE_PAD, "boot": boot,
            "ident": ident, "firmware": "0.1.0"}  # fmt: skip


def saved_game(state: Path, seats: list[SeatSpec], *events: Any) -> Path:
    """A game of `seats` in the journal, as if the tower had played it up to `events`."""
    state.mkdir(parents=True, exist_ok=True)
    log = state / "game-000001.jsonl"
    lines = [Start("classic", tuple(seat.name for seat in seats)), *events]
    log.write_text("".join(event_to_line(event) for event in lines))
    log.with_suffix(".seats.json").write_text(json.dumps(seat_records(seats)))
    return log


def journal_lines(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


@contextlib.contextmanager
def busy_cpu(processes: int = 4, niceness: int = 0) -> Iterator[None]:
    """`processes` busy loops for the block's duration, at `niceness`: a tower started at the
    same niceness (`Tower(..., niceness=)`) meets a machine as loaded as `processes` + 1
    runnable programs, while the rest of the suite beside it, at niceness 0, keeps its CPU."""
    loop = f"import os; os.nice({niceness})\nwhile True: pass"
    spinners = [subprocess.Popen([sys.executable, "-c", loop]) for _ in range(processes)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


class Tower:
    """`qwixx-tower run --plain` with pads on `pads` and the web server on 127.0.0.1 (unless
    `web` is False); its standard output read by a thread into lines the test waits for."""

    def __init__(self, tmp_path: Path, pads: list[PtyPad] = (), *, web: bool = True,
                 keyboard: bool = False, extra: tuple[str, ...] = (),
                 niceness: int = 0, table: str = "") -> None:  # fmt: skip
        self.tmp_path, self.state = tmp_path, tmp_path / "state"
        self.keyboard = os.openpty() if keyboard else None  # Enter presses the roll button
        self._held = socket.socket()  # the configured port, held: the tower takes a free one
        self._held.bind(("127.0.0.1", 0))
        self._held.listen()
        config = tmp_path / "config.toml"
        ports = ", ".join(f'"{pad.path}"' for pad in pads)
        text = f"[pads]\nports = [{ports}]\n"
        if web:
            text += f'[web]\nhost = "127.0.0.1"\nport = {self._held.getsockname()[1]}\n'
        if table:  # the [table] section's lines, e.g. "absent_grace = 1"
            text += f"[table]\n{table}\n"
        config.write_text(text)
        self.command = [sys.executable, "-m", "firmware_py.app.cli", "run", "--plain"]
        self.command += ["--pace", "30", "--config", str(config), "--state-dir", str(self.state)]
        self.command += list(extra)
        self.process: subprocess.Popen | None = None
        self.niceness = niceness
        self.start()

    def start(self) -> None:
        self.url = ""
        stdin = self.keyboard[1] if self.keyboard else subprocess.DEVNULL
        niced = ["nice", "-n", str(self.niceness)] if self.niceness else []  # (it execs)
        self.process = spawn.Popen(
            niced + self.command, stdin=stdin, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
        assert self.process.stdout is not None  # a pipe
        self.output = Lines(self.process.stdout)
        self._waited = 0  # lines before this index were read by an earlier wait_for

    def wait_for(self, pattern: str, limit: float = WAIT) -> re.Match[str]:
        """The first line from now on (after the line an earlier wait found) that matches
        `pattern`; waits for it."""
        found = self.output.first(pattern, self._waited, limit)
        if found is None:
            ended = "ended before saying" if self.output.ended else "never said"
            raise AssertionError(f"the tower {ended} {pattern!r}: {self.output.lines}")
        index, match = found
        self._waited = index + 1
        return match

    def join_url(self) -> str:
        """The address phones join at (with the table code), as the tower printed it."""
        if not self.url:
            self.url = self.wait_for(JOIN_LINE.pattern).group(1)
        return self.url

    @property
    def ws_url(self) -> str:
        base = self.join_url().split("?")[0].rstrip("/")
        return base.replace("http://", "ws://") + "/ws"

    @property
    def code(self) -> str:
        return self.join_url().rsplit("code=", 1)[1]

    def press(self) -> None:
        """Enter at the tower's terminal: the simulated roll button is pressed."""
        assert self.keyboard is not None, "start the tower with keyboard=True"
        os.write(self.keyboard[0], b"\n")

    def hold(self) -> None:
        """h and Enter at the tower's terminal: the roll button is held (the menu)."""
        assert self.keyboard is not None, "start the tower with keyboard=True"
        os.write(self.keyboard[0], b"h\n")

    def kill(self) -> None:
        """Pull the plug (SIGKILL): nothing gets to run after this moment."""
        assert self.process is not None
        self.process.kill()
        self.process.wait()

    def interrupt(self) -> int:
        """Ctrl-C (SIGINT); the exit status, once the process has ended."""
        assert self.process is not None
        self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout=WAIT)

    def __enter__(self) -> Tower:
        return self

    def __exit__(self, *_: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.kill()
        self._held.close()
        for fd in self.keyboard or ():
            os.close(fd)


class Phone:
    """A phone's page as the tower sees it: one WebSocket, JSON messages both ways."""

    def __init__(self, session: aiohttp.ClientSession, socket_: aiohttp.ClientWebSocketResponse):
        self.session, self.socket = session, socket_
        self.inbox: list[dict] = []

    @classmethod
    async def open(cls, session: aiohttp.ClientSession, url: str) -> Phone:
        return cls(session, await session.ws_connect(url))

    async def send(self, **message: Any) -> None:
        await self.socket.send_json(message)

    async def expect(self, kind: str, **fields: Any) -> dict:
        """The first message of type `kind` whose fields include `fields`; waits for it."""

        async def found() -> dict:
            while True:
                for index, message in enumerate(self.inbox):
                    if message.get("type") == kind and all(
                        message.get(k) == v for k, v in fields.items()
                    ):
                        return self.inbox.pop(index)
                received = await self.socket.receive()
                if received.type != aiohttp.WSMsgType.TEXT:
                    raise AssertionError(f"the socket ended ({received.type}) before {kind}")
                self.inbox.append(json.loads(received.data))

        try:
            return await asyncio.wait_for(found(), WAIT)
        except TimeoutError:
            raise AssertionError(f"no {kind} {fields}; got {self.inbox}") from None

    async def expect_any(self, *kinds: str) -> dict:
        """The first message of any of these types (others before it stay in the inbox)."""
        for message in self.inbox:
            if message.get("type") in kinds:
                self.inbox.remove(message)
                return message
        while True:
            received = await asyncio.wait_for(self.socket.receive(), WAIT)
            if received.type != aiohttp.WSMsgType.TEXT:
                raise AssertionError(f"the socket ended ({received.type}) before {kinds}")
            message = json.loads(received.data)
            if message.get("type") in kinds:
                return message
            self.inbox.append(message)

    async def close(self) -> None:
        await self.socket.close()
