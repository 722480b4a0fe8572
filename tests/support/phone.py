"""A phone's page as the tower sees it, for tests of the real tower process: one WebSocket to the
tower's web server (aiohttp), JSON messages both ways, each wait bounded by support.HANG."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp

from support import HANG

WAIT = HANG  # seconds: bounds a hang only


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
