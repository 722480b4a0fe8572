"""A page of a guest's device on the same Wi-Fi, for the browser tests of what another origin
may do to the tower's and the league's pages (frame them, post their forms): `html` served
on a free port of 127.0.0.1 for as long as the context lasts."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from aiohttp import web


@contextlib.asynccontextmanager
async def guest_page(html: str) -> AsyncIterator[str]:
    """The page's address while it is served."""

    async def page(_: web.Request) -> web.Response:
        return web.Response(text=html, content_type="text/html")

    app = web.Application()
    app.router.add_get("/", page)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/"
    finally:
        await runner.cleanup()
