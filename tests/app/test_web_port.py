"""The phones' port is kept across restarts: when the configured port is taken, the tower
picks a free one and listens there again at the next start, so the phones' bookmarks and the
QR code stay good (issue 24: a new port at every restart)."""

from __future__ import annotations

import asyncio
import io
import socket
from pathlib import Path

import pytest
from support import HANG

from firmware_py.app import web as web_tower
from firmware_py.app.assembly import attach_phones, attach_terminal, build_table
from firmware_py.app.config import SIMULATED, WebConfig
from firmware_py.app.hardware import build_hardware
from firmware_py.journal.journal import Journal
from firmware_py.seating import SeatSpec


@pytest.fixture(autouse=True)
def the_configured_port(monkeypatch):
    """These tests are about [web] port itself: no port for the run over it."""
    monkeypatch.delenv(web_tower.PORT_VARIABLE, raising=False)


def start_and_stop(state_dir: Path, config: WebConfig) -> tuple[str, list[str]]:
    """A tower's web server started and stopped, as `run` does: the address phones were
    given (without the table code), and the news."""
    hardware = build_hardware(SIMULATED, 6)
    table = build_table(
        hardware,
        seats=[SeatSpec("Ann")],
        variant="classic",
        journal=Journal(state_dir),
    )
    console, _ = attach_terminal(table, hardware, out=io.StringIO(), full_screen=False)
    note = web_tower.port_note(config, state_dir)

    async def session() -> str:
        server = web_tower.build(attach_phones(table), config, note)
        assert server is not None
        assert await web_tower.start(server, table, console, io.StringIO(), note)
        await server.stop()
        return server.url

    try:
        url = asyncio.run(asyncio.wait_for(session(), timeout=HANG))
    finally:
        hardware.close()
    return url.partition("?")[0], list(table.newsfeed.lines)  # the table code is drawn anew


def test_the_port_chosen_when_the_configured_one_was_taken_is_kept_at_restarts(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = WebConfig(enabled=True, host="127.0.0.1", port=port)
        first, news = start_and_stop(tmp_path, config)
        assert f":{port}/" not in first
        moved = [line for line in news if line.startswith(f"port {port} is in use")]
        assert moved and moved[0].endswith(" from now on")
        again, news = start_and_stop(tmp_path, config)
        assert again == first  # the same address: the phones' bookmarks still work
        assert not [line for line in news if "is in use" in line]
    last, _ = start_and_stop(tmp_path, config)  # the configured port is free now: kept anyway
    assert last == first


def test_another_configured_port_forgets_the_kept_one(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        first, _ = start_and_stop(tmp_path, WebConfig(enabled=True, host="127.0.0.1", port=port))
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        other = free.getsockname()[1]
    url, _ = start_and_stop(tmp_path, WebConfig(enabled=True, host="127.0.0.1", port=other))
    assert f":{other}/" in url and url != first


@pytest.mark.parametrize("value", ["²", "99999", "port"])
def test_a_run_port_that_is_no_port_is_said_and_the_configured_one_used(monkeypatch, caplog, value):
    """$QWIXX_WEB_PORT of "²" (a digit to str.isdigit, not to int) stopped the tower at its
    start with a traceback; any value that is no port is said in the log and passed over."""
    monkeypatch.setenv(web_tower.PORT_VARIABLE, value)
    assert web_tower.port_override() is None
    assert "is not a port: the configured port is used" in caplog.text
