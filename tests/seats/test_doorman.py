"""The doorman at the phones' port and the quiet accept errors: one device holds its share of
connections and no more, the whole stays within the open-file budget, a connection that closes
gives its place back; asyncio's "accept() out of system resource" is one line a minute."""

from __future__ import annotations

import asyncio
import errno
import logging

from firmware_py.seats.phones.doorman import MIN_PER_ADDRESS, PER_ADDRESS, Doorman
from firmware_py.seats.phones.guard import QuietAcceptErrors


class Transport(asyncio.Transport):
    def __init__(self, address: str) -> None:
        super().__init__()
        self.address, self.aborted = address, False

    def get_extra_info(self, name: str, default=None):
        return (self.address, 40000) if name == "peername" else default

    def abort(self) -> None:
        self.aborted = True


class Handler(asyncio.Protocol):
    def __init__(self) -> None:
        self.made = self.lost = False

    def connection_made(self, transport) -> None:
        self.made = True

    def connection_lost(self, exc) -> None:
        self.lost = True


def arrive(doorman: Doorman, address: str) -> tuple[asyncio.Protocol, Transport]:
    door, transport = doorman(), Transport(address)
    door.connection_made(transport)
    return door, transport


def test_one_device_holds_its_share_and_a_closed_connection_gives_its_place_back():
    doorman = Doorman(Handler, budget=10_000)
    assert doorman.per_address == PER_ADDRESS
    held = [arrive(doorman, "192.168.1.66") for _ in range(PER_ADDRESS)]
    door, turned_away = arrive(doorman, "192.168.1.66")
    assert turned_away.aborted and not any(t.aborted for _, t in held)
    _, newcomer = arrive(doorman, "192.168.1.20")  # another device: let in
    assert not newcomer.aborted
    door.connection_lost(None)  # the one turned away was never counted
    held[0][0].connection_lost(None)
    assert held[0][0].inner.lost
    assert not arrive(doorman, "192.168.1.66")[1].aborted
    assert doorman.total == PER_ADDRESS + 1


def test_a_small_budget_shares_itself_among_fifty_devices_and_is_never_exceeded():
    doorman = Doorman(Handler, budget=300)
    assert doorman.per_address == 300 // 50
    for device in range(60):
        for _ in range(10):
            arrive(doorman, f"10.0.{device}.1")
    assert doorman.total == 300 and max(doorman.held.values()) == 300 // 50
    assert Doorman(Handler, budget=20).per_address == MIN_PER_ADDRESS


def test_accept_errors_are_one_line_a_minute_and_other_errors_go_on(caplog):
    now = [100.0]
    heard = []
    quiet = QuietAcceptErrors(lambda loop, context: heard.append(context), clock=lambda: now[0])
    error = OSError(errno.EMFILE, "Too many open files")
    context = {"message": "socket.accept() out of system resource", "exception": error}
    with caplog.at_level(logging.WARNING):
        for _ in range(1000):
            quiet(None, context)
        now[0] += 61
        quiet(None, context)
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2 and "999 more in the last minute" in lines[1]
    assert all(record.exc_info is None for record in caplog.records)
    quiet(None, {"message": "something else"})
    assert heard == [{"message": "something else"}]
