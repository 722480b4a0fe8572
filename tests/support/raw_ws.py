"""A hostile client on a plain TCP socket: it opens a WebSocket by hand and then sends frames
without ever reading what the tower sends back (a browser always reads; this one does not).
Only for 127.0.0.1, with counts the caller bounds."""

from __future__ import annotations

import base64
import os
import socket
import struct


def open_websocket(port: int, *, receive_buffer: int = 4096, then: bytes = b"") -> socket.socket:
    """A socket on 127.0.0.1:`port` that has done the WebSocket handshake at /ws (a small
    receive buffer: what the tower sends piles up on its side); `then` is sent with the
    handshake, before its answer (pipelined)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
        + then
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(1)  # one byte at a time: nothing after the headers is taken
        assert chunk, "the tower closed the connection during the handshake"
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


def text_frame(text: str) -> bytes:
    """One masked text frame, as a client must send it."""
    data = text.encode()
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(data))
    if len(data) < 126:
        header = struct.pack("!BB", 0x81, 0x80 | len(data))
    else:
        header = struct.pack("!BBH", 0x81, 0x80 | 126, len(data))
    return header + mask + masked


def flood(sock: socket.socket, frame: bytes, count: int) -> int:
    """Send `frame` up to `count` times; how many went out before the tower cut the socket."""
    batch = frame * 100
    sent = 0
    try:
        while sent < count:
            sock.sendall(batch)
            sent += 100
    except OSError:  # reset by the tower: it dropped this client
        pass
    return sent
