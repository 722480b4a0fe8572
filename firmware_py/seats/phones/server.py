"""The tower's small web server for phones: the page, its script and style, and one WebSocket
per phone, served by aiohttp inside the tower's own asyncio loop (no thread, no second loop).

The page is plain HTML, CSS and JavaScript shipped in the package (`static/`), so nothing is
built on the Pi. Requests are small by design: the HTTP body limit is a few kilobytes, a
WebSocket frame above `MAX_FRAME` closes that socket (aiohttp's own limit, code 1009), and a
message above the hub's `MAX_MESSAGE` is refused in words.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, WSMsgType, web, web_response

from firmware_py.seats.phones.doorman import BACKLOG, Doorman, Entrance, open_files_budget
from firmware_py.seats.phones.guard import OwnHosts, few_log_lines
from firmware_py.seats.phones.history_pages import HistoryPages
from firmware_py.seats.phones.hub import MAX_MESSAGE, TOO_FAST, Phone, WebHub

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
MAX_FRAME = 16 * MAX_MESSAGE  # bytes; a longer frame closes the socket (code 1009)
READ_CHUNK = 16 * 1024  # bytes read from a phone's socket at once (asyncio reads 256 KiB)
HEARTBEAT = 10.0  # seconds between pings, so a phone that vanished is noticed
CLOSE_WAIT = 0.5  # seconds a closing socket waits for the phone's reply (or its last words)
RESTARTING = "the tower is restarting: this phone reconnects by itself"
CROWDED = "too many connections from this phone to the tower: close the other tabs"
HUB = web.AppKey("hub", WebHub)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
Transport = asyncio.BaseTransport | None
SOCKETS = web.AppKey("sockets", dict[web.WebSocketResponse, Transport])
HOSTS = web.AppKey("hosts", OwnHosts)
IDLE = 10.0  # seconds a connection may take to send its request (or idle between requests)
SERVER_NAME = "qwixx-tower"  # the Server header: no versions for anyone to look up
NOT_OURS = "this is the Qwixx tower: open it by its own address (the QR code on its display)"
HEADERS = {
    "Cache-Control": "no-cache",
    "Content-Security-Policy": (
        "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",  # no other page may show this one in a frame
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # the table code in the address stays on the table
}
EVERY_NETWORK = ("0.0.0.0", "::")


def make_app(hub: WebHub, history: HistoryPages | None = None) -> web.Application:
    """The routes: the page at /, its files under /static/, the phone's WebSocket at /ws, and
    the history's pages under /history (`history_pages`)."""
    app = web.Application(client_max_size=4096, middlewares=[read_little, own_host_only])
    app[HUB] = hub
    app[HOSTS] = OwnHosts()
    app[SOCKETS] = {}  # the phones' open sockets, told and closed when the tower stops
    app.router.add_get("/", _page)
    app.router.add_get("/ws", _websocket)
    app.router.add_static("/static/", STATIC)
    if history is not None:
        history.add_routes(app)
    app.on_response_prepare.append(security_headers)
    return app


@web.middleware
async def read_little(request: web.Request, handler: Handler) -> web.StreamResponse:
    """From its first request on, a connection is read a little at a time (see
    `read_little_at_once`): also one refused (429) goes on being read after its answer."""
    read_little_at_once(request.transport)
    return await handler(request)


@web.middleware
async def own_host_only(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Only requests that name the tower (DNS rebinding: a site whose name the attacker points
    at the tower sends its own name, in Host as in Origin)."""
    if not request.app[HOSTS].allows(request.host):
        raise web.HTTPMisdirectedRequest(text=NOT_OURS)
    return await handler(request)


async def security_headers(request: web.Request, response: web.StreamResponse) -> None:
    for key, value in HEADERS.items():
        response.headers.setdefault(key, value)
    response.headers["Server"] = SERVER_NAME


async def _page(request: web.Request) -> web.FileResponse:
    return web.FileResponse(STATIC / "index.html")


async def _websocket(request: web.Request) -> web.WebSocketResponse:
    """One phone: its messages go to the hub; what the hub queues for it is written back."""
    hub = request.app[HUB]
    if from_another_site(request):
        raise web.HTTPForbidden(text="only the tower's own page may connect here")
    if hub.cooling(request.remote or ""):  # it flooded a moment ago: refused before upgrading
        raise web.HTTPTooManyRequests(text=TOO_FAST, headers={"Connection": "close"})
    socket_ = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=HEARTBEAT, timeout=CLOSE_WAIT)
    await socket_.prepare(request)
    phone = hub.open(request.remote or "")
    if phone is None:
        with contextlib.suppress(ConnectionError):
            await socket_.send_json({"type": "refused", "reason": CROWDED, "final": True})
        await close_soon(socket_, request.transport)
        return socket_
    writer = asyncio.create_task(_write_then_close(phone, socket_, request.transport))
    request.app[SOCKETS][socket_] = request.transport
    try:
        async for message in socket_:
            if message.type is WSMsgType.TEXT:
                hub.receive(phone, message.data)
            elif message.type is WSMsgType.BINARY:
                hub.receive(phone, "binary")  # refused in words: not JSON
    finally:
        request.app[SOCKETS].pop(socket_, None)
        hub.close(phone)
        if not writer.done() and not socket_.closed:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(writer), CLOSE_WAIT)  # last words out
        writer.cancel()
        await close_soon(socket_, request.transport)
    return socket_


def from_another_site(request: web.Request) -> bool:
    """True when a page of another web site asks (its Origin names another host): another
    site open on the phone may not play for it (a cross-site WebSocket). An Origin that is no
    URL ("http://[") is no page of the tower's either."""
    origin = request.headers.get("Origin")
    if origin is None:
        return False
    try:
        return urlsplit(origin).netloc != request.host
    except ValueError:
        return True


def read_little_at_once(transport: Transport) -> None:
    """A phone's socket is read READ_CHUNK bytes at a time, not asyncio's 256 KiB: a client
    flooding small frames made each read a burst of thousands of messages, parsed before any
    was handled (the tower's memory grew by 40 MB in seconds, and stayed grown). A page's
    messages are a few hundred bytes. asyncio's socket transports read `max_size` bytes per
    call; a transport without it (another event loop) is left as it is."""
    if transport is not None and hasattr(transport, "max_size"):
        transport.max_size = READ_CHUNK


def listening_socket(host: str, port: int) -> socket.socket:
    """The phones' listening socket, its receive buffer READ_CHUNK: a connection inherits it
    from the start, so even a client that sends its handshake and a flood in one go is read a
    little at a time (`read_little_at_once` takes over once its first request is parsed)."""
    family, kind, protocol, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, protocol)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, READ_CHUNK)
        sock.bind(address)
        sock.listen(BACKLOG)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


async def close_soon(
    socket_: web.WebSocketResponse, transport: Transport, code: int = WSCloseCode.OK
) -> None:
    """Close a socket without waiting long: a phone that does not read (its buffers full) or
    never answers the close is cut off after CLOSE_WAIT seconds."""
    try:
        await asyncio.wait_for(socket_.close(code=code), CLOSE_WAIT)
    except (TimeoutError, ConnectionError):
        if isinstance(transport, asyncio.WriteTransport):
            transport.abort()


async def say_goodbye(sockets: dict[web.WebSocketResponse, Transport]) -> None:
    """The tower stops: every phone is told it restarts, and its socket closed with the
    WebSocket code for a restart (1012), all at once and bounded; the page reconnects."""

    async def goodbye(socket_: web.WebSocketResponse, transport: Transport) -> None:
        with contextlib.suppress(Exception):
            words = {"type": "restarting", "text": RESTARTING}
            await asyncio.wait_for(socket_.send_json(words), CLOSE_WAIT)
        await close_soon(socket_, transport, WSCloseCode.SERVICE_RESTART)

    await asyncio.gather(*(goodbye(*pair) for pair in list(sockets.items())))


async def _write_then_close(
    phone: Phone, socket_: web.WebSocketResponse, transport: Transport
) -> None:
    """What the hub queues for the phone, until the hub ends the connection (or the phone goes:
    then what was queued for it is dropped; it gets a fresh view at its next hello)."""
    with contextlib.suppress(ConnectionError):
        await phone.write(socket_.send_str)
    if phone.dropped and isinstance(transport, asyncio.WriteTransport):
        transport.abort()  # it reads nothing: no close handshake to wait for
    elif phone.cut_off and transport is not None:
        transport.close()  # its last words go out; nothing more it sends is read
    await close_soon(socket_, transport)


class GuardedSite(web.SockSite):
    """aiohttp's site on the phones' listening socket, accepted from by the doorman rather
    than by asyncio's server (`doorman.Entrance`): otherwise as `SockSite.start`."""

    doorman: Doorman | None = None

    async def start(self) -> None:
        await web.BaseSite.start(self)  # the site joins its runner (which stops it)
        handler = self._runner.server
        assert handler is not None  # the runner is set up
        self.doorman = Doorman(open_files_budget())
        loop = asyncio.get_running_loop()
        self._server = Entrance(self._sock, handler, self.doorman, loop)  # type: ignore[assignment]


class WebServer:
    """The web server's life inside the tower's loop: `start` (None, or why phones cannot join,
    in one sentence) and `stop`."""

    def __init__(self, hub: WebHub, host: str, port: int, history: HistoryPages | None = None
                 ) -> None:  # fmt: skip
        self.hub = hub
        self.history = history
        if history is not None:  # a game's end: the history reads it before anyone asks
            hub.game_over.ended = history.game_ended
        self.host = host
        self.port = port
        self.moved_from: int | None = None  # the configured port, when another program held it
        self._runner: web.AppRunner | None = None

    async def start(self) -> str | None:
        """Listen on the configured port; when another program holds it, on a free port the
        system picks (the QR code and the address say which). None, or why phones cannot join."""
        self.hub.stopping = False
        try:
            self._runner = await self._listen(self.port)
        except OSError as error:
            if error.errno != errno.EADDRINUSE or self.port == 0:
                return self._cannot_listen(error)
            taken = self.port
            try:
                self._runner = await self._listen(0)
            except OSError as again:
                return self._cannot_listen(again)
            self.moved_from = taken
        self.port = self._runner.addresses[0][1]  # the port chosen, when asked for port 0
        log.debug("phones join at %s", self.url)
        return None

    async def _listen(self, port: int) -> web.AppRunner:
        few_log_lines()
        # Also the answers aiohttp writes itself, to requests it cannot parse (they never reach
        # the app's hooks), carry no versions: this is the process's only web server.
        web_response.SERVER_SOFTWARE = SERVER_NAME  # type: ignore[attr-defined]
        runner = web.AppRunner(
            make_app(self.hub, self.history),
            access_log=None,
            handle_signals=False,
            shutdown_timeout=CLOSE_WAIT,
            keepalive_timeout=IDLE,  # also a connection that never sends (all) its headers
        )
        await runner.setup()
        try:
            await GuardedSite(runner, listening_socket(self.host, port)).start()
        except OSError:
            await runner.cleanup()
            raise
        return runner

    def _cannot_listen(self, error: OSError) -> str:
        why = error.strerror or str(error)
        return (
            f"phones cannot join: the tower cannot listen on {self.host} port {self.port} "
            f"({why}); it plays on without phones"
        )

    async def stop(self) -> None:
        """Stop within about a second, phones connected or not: each is told the tower
        restarts and its socket closed; then the server ends (no request waits longer)."""
        if self._runner is not None:
            self.hub.stopping = True  # the phones leave with the tower, not their players
            await say_goodbye(self._runner.app[SOCKETS])
            await self._runner.cleanup()
            self._runner = None

    @property
    def url(self) -> str:
        """The address a phone opens, with the table's key in it (what the QR code holds: the
        same across games and restarts, so a printed QR code keeps working)."""
        host = lan_address() if self.host in EVERY_NETWORK else self.host
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/?code={self.hub.key}"


def lan_address() -> str:
    """This machine's address on its network (where phones reach it), else its name. A UDP
    socket 'connected' to a private address sends nothing; it only picks the route."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.254.254.254", 9))
        address: str = probe.getsockname()[0]
        if address and not address.startswith("127."):
            return address
    return socket.gethostname()
