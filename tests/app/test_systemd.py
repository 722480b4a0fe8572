"""Readiness and watchdog pings reach systemd's notify socket; outside systemd, nothing."""

from __future__ import annotations

import os
import socket

from firmware_py.app import systemd


def listening_socket(tmp_path):
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    return sock, path


def test_ready_and_watchdog_messages_arrive(tmp_path, monkeypatch):
    sock, path = listening_socket(tmp_path)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    with sock:
        assert systemd.ready("tower ready")
        assert sock.recv(256) == b"READY=1\nSTATUS=tower ready"
        assert systemd.ping_watchdog()
        assert sock.recv(256) == b"WATCHDOG=1"


def test_abstract_namespace_sockets_work(monkeypatch):
    name = f"qwixx-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert systemd.notify("STATUS=hello")
        assert sock.recv(64) == b"STATUS=hello"


def test_outside_systemd_nothing_is_sent(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert systemd.ready() is False
    assert systemd.ping_watchdog() is False


def test_watchdog_interval_is_half_of_watchdogsec(monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert systemd.watchdog_interval() == 5.0
    monkeypatch.setenv("WATCHDOG_PID", "1")  # meant for another process
    assert systemd.watchdog_interval() is None
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    monkeypatch.setenv("WATCHDOG_USEC", "²")  # a mangled unit's environment: no watchdog, no crash
    assert systemd.watchdog_interval() is None
    monkeypatch.delenv("WATCHDOG_USEC")
    assert systemd.watchdog_interval() is None
