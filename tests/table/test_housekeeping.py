"""The housekeeping task is supervised, and the watchdog is fed only while the loop serves.

systemd's notify socket is a datagram socket the test binds; `WATCHDOG_USEC` asks for pings.
The table runs on a clock that moves only when the test says, so the menu's idle close (a
housekeeping chore) shows whether housekeeping still runs.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time

import pytest
from support import HANG
from support.fakes import FakeClock
from support.table import run_table

from firmware_py.app import systemd
from firmware_py.app.assembly import build_table
from firmware_py.app.config import SIMULATED
from firmware_py.app.hardware import build_hardware
from firmware_py.journal.journal import Journal
from firmware_py.menu import IDLE_SECONDS
from firmware_py.seating import KEYBOARD, SeatSpec
from firmware_py.table import Table, TablePhase

WATCHDOG_USEC = 400_000  # WatchdogSec=0.4: a ping every 0.2 s


@pytest.fixture
def notify_socket(tmp_path, monkeypatch):
    """systemd's end: a bound datagram socket named in NOTIFY_SOCKET, watchdog on."""
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", str(WATCHDOG_USEC))
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    with sock:
        yield sock


@pytest.fixture
def unreachable_systemd(tmp_path, monkeypatch):
    monkeypatch.setattr(systemd, "_unreachable", False)
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "nobody-listens"))
    monkeypatch.setenv("WATCHDOG_USEC", str(WATCHDOG_USEC))
    monkeypatch.delenv("WATCHDOG_PID", raising=False)


def received(sock: socket.socket) -> list[bytes]:
    """Every datagram waiting now, without waiting for more."""
    messages = []
    while True:
        try:
            messages.append(sock.recv(256))
        except BlockingIOError:
            return messages


async def until(condition, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "it never happened"
        await asyncio.sleep(0.01)


def kims_table(tmp_path) -> tuple[Table, FakeClock]:
    clock = FakeClock()
    table = build_table(
        build_hardware(SIMULATED, 6),
        seats=[SeatSpec("Kim", KEYBOARD)],
        variant="classic",
        journal=Journal(tmp_path / "games"),
        pace=0.01,
        clock=clock,
    )
    return table, clock


async def menu_closes_when_idle(table: Table, clock: FakeClock) -> None:
    """Open the menu, let it sit idle: housekeeping (and only it) closes it."""
    table.long_press_menu()
    assert table.phase is TablePhase.MENU or table.button_menu.open is not None
    clock.advance(IDLE_SECONDS + 1)
    await until(lambda: table.button_menu.open is None)


# ---- the notify socket ---------------------------------------------------------------------


def test_an_unreachable_notify_socket_is_logged_once_and_never_raised(unreachable_systemd, caplog):
    with caplog.at_level(logging.WARNING, logger="firmware_py.app.systemd"):
        assert systemd.ready("up") is False
        assert systemd.ping_watchdog() is False
        assert systemd.ping_watchdog() is False
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1 and warnings[0].startswith("cannot tell systemd READY")


@pytest.mark.parametrize(("usec", "pid"), [("", ""), ("abc", ""), ("0", ""), ("1000", "x")])
def test_a_missing_or_garbled_watchdog_setting_means_no_watchdog(usec, pid, monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", usec)
    monkeypatch.setenv("WATCHDOG_PID", pid)
    assert systemd.watchdog_interval() is None


# ---- the table's housekeeping ----------------------------------------------------------------


def test_the_watchdog_is_fed_only_while_the_loop_serves(notify_socket, tmp_path):
    table, _ = kims_table(tmp_path)

    async def steps() -> None:
        await until(lambda: b"WATCHDOG=1" in received(notify_socket))
        received(notify_socket)  # forget what was sent before the hang
        time.sleep(WATCHDOG_USEC / 1e6 * 2)  # the loop hangs for four ping intervals
        assert received(notify_socket) == []  # nothing pinged on its behalf meanwhile
        await until(lambda: b"WATCHDOG=1" in received(notify_socket))  # serving again

    run_table(table, steps)


def test_the_tower_serves_on_when_systemd_cannot_be_told(unreachable_systemd, tmp_path):
    table, clock = kims_table(tmp_path)

    async def steps() -> None:
        await asyncio.sleep(WATCHDOG_USEC / 1e6)  # pings have failed by now
        await menu_closes_when_idle(table, clock)

    run_table(table, steps)


def test_a_failing_chore_is_logged_and_housekeeping_carries_on(tmp_path, caplog, monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    table, clock = kims_table(tmp_path)
    main = table.hardware.displays["main"]
    refresh = main.refresh
    failures = iter([RuntimeError("the panel driver tripped")])

    def refresh_once_broken() -> None:
        failure = next(failures, None)
        if failure is not None:
            raise failure
        refresh()

    monkeypatch.setattr(main, "refresh", refresh_once_broken)

    async def steps() -> None:
        await until(lambda: "housekeeping failed" in caplog.text)
        await menu_closes_when_idle(table, clock)

    with caplog.at_level(logging.ERROR):
        run_table(table, steps)
    failed = [r for r in caplog.records if r.getMessage().startswith("housekeeping failed")]
    assert len(failed) == 1
    assert failed[0].exc_info is not None  # the traceback is in the log
    assert "the panel driver tripped" in caplog.text


def test_housekeeping_that_keeps_failing_exits_non_zero_at_once(tmp_path, caplog, monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    table, _ = kims_table(tmp_path)

    def broken() -> None:
        raise RuntimeError("the panel driver is wedged")

    monkeypatch.setattr(table.hardware.displays["main"], "refresh", broken)
    try:
        with caplog.at_level(logging.ERROR), pytest.raises(SystemExit) as exited:
            asyncio.run(asyncio.wait_for(table.run(), timeout=HANG))
    finally:
        table.hardware.close()
    assert exited.value.code != 0
    assert "housekeeping keeps failing" in caplog.text
