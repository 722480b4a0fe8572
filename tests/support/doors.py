"""The two kinds of device a player holds, behind one small driver each, so that one suite of
seat behaviour runs against both (as python-can runs one suite over every bus): a pad on a
pseudo-terminal through the pad hub, and a phone on a WebSocket through the web server. Each
driver speaks its device's own wire; the suite only says what a player does."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from drivers.simulated.pad import PtyPad, pad_hello
from firmware_py.app.assembly import attach_pads
from firmware_py.pad import protocol
from firmware_py.table import Table
from support import HANG
from support.web import CODE, web_tower


@dataclass(frozen=True)
class Answer:
    """The tower's answer to a request, as the device shows it."""

    ok: bool
    words: str = ""


class PadDoor:
    """A pad on a pseudo-terminal, through the pad hub."""

    kind = "pad"

    def __init__(self, tmp_path: Path, table: Table) -> None:
        self.pad = PtyPad(tmp_path / "pad")
        self.hub = attach_pads(table, [str(self.pad.path)])
        self.sent: dict[str, int] = {}  # the test's request key -> the pad's sequence number

    async def open(self) -> None:
        self.hub.open(asyncio.get_running_loop())
        await asyncio.to_thread(self.pad.expect, "hello")
        self.pad.send("hello", pad_hello())
        await asyncio.to_thread(self.pad.expect, "state", flags=protocol.MAY_JOIN)

    async def join(self, name: str) -> Answer:
        """A press of a button on a pad without a seat (a pad is named by the tower)."""
        return await self._request("join", {"action": protocol.JOIN})

    async def press(self, button: int) -> Answer:
        """A press of button `button` (1: red ... 5: pass, 6: undo) on a pad without a seat:
        a join saying which button, as the pad's firmware sends it."""
        return await self._request(f"press {button}", {"action": protocol.JOIN, "number": button})

    async def moves(self, phase: int) -> set[tuple[str, int]]:
        """The marks the pad offers once the game is in `phase` (2: action 1, 3: action 2)."""
        state = await asyncio.to_thread(self.pad.expect, "state", phase=phase)
        return {(protocol.row_colour(m["row"]), m["number"]) for m in state.fields["moves"]}

    async def mark(self, key: str, row: str, number: int) -> Answer:
        request = {"action": protocol.MARK, "row": protocol.row_code(row), "number": number,
                   "flags": 0, "choice": 0}  # fmt: skip
        return await self._request(key, request)

    async def pass_(self, key: str) -> Answer:
        return await self._request(key, {"action": protocol.PASS})

    async def _request(self, key: str, fields: dict) -> Answer:
        """A request; the same `key` again is the same request sent again (its answer lost)."""
        seq = self.pad.send("request", fields, seq=self.sent.get(key))
        self.sent[key] = seq
        answer = await asyncio.to_thread(self.pad.expect, "answer", req=seq)
        return Answer(answer.fields["status"] == protocol.OK, answer.fields["text"])

    async def close(self) -> None:
        self.hub.close()
        self.pad.unplug()


class PhoneDoor:
    """A phone's page on a WebSocket, through the web server."""

    kind = "phone"

    def __init__(self, server) -> None:
        self.server = server
        self.session: aiohttp.ClientSession | None = None
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.sent: dict[str, dict] = {}

    async def open(self) -> None:
        assert await self.server.start() is None
        self.session = aiohttp.ClientSession()
        self.socket = await self.session.ws_connect(f"http://127.0.0.1:{self.server.port}/ws")
        await self._expect("lobby")

    async def join(self, name: str) -> Answer:
        await self._send({"type": "join", "code": CODE, "name": name})
        while True:
            message = await self._expect("joined", "refused", "error")
            if message["type"] == "joined":
                return Answer(True)
            return Answer(False, message.get("reason", ""))

    async def moves(self, phase: int) -> set[tuple[str, int]]:
        wanted = {2: "action1", 3: "action2"}[phase]
        while True:
            view = (await self._expect("view"))["view"]
            if view["phase"] == wanted:
                return {(move["row"], move["number"]) for move in view["moves"]}

    async def mark(self, key: str, row: str, number: int) -> Answer:
        return await self._decide(key, {"action": "mark", "row": row, "number": number})

    async def pass_(self, key: str) -> Answer:
        return await self._decide(key, {"action": "pass"})

    async def _decide(self, key: str, fields: dict) -> Answer:
        message = self.sent.setdefault(key, {"type": "decide", "request": f"t/{key}", **fields})
        await self._send(message)
        while True:
            answer = await self._expect("answer")
            if answer.get("request") == message["request"]:
                return Answer(answer["ok"], answer.get("reason", ""))

    async def _send(self, message: dict) -> None:
        assert self.socket is not None
        await self.socket.send_str(json.dumps(message))

    async def _expect(self, *kinds: str) -> dict:
        assert self.socket is not None
        while True:
            received = await asyncio.wait_for(self.socket.receive(), HANG)
            assert received.type is aiohttp.WSMsgType.TEXT, f"the socket closed: {received}"
            data = json.loads(received.data)
            if data["type"] in kinds:
                return data

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()
        await self.server.stop()


def door_at(kind: str, tmp_path: Path, seats) -> tuple[Table, PadDoor | PhoneDoor]:
    """A table with `seats` and a device of `kind` ("pad" or "phone") at its door."""
    table, _, server = web_tower(tmp_path, seats)
    door: PadDoor | PhoneDoor = PadDoor(tmp_path, table) if kind == "pad" else PhoneDoor(server)
    return table, door
