"""Shared set-up for the phone tests (tests/seats/test_web.py, tests/system/test_web_browser.py): a
tower with its web server for phones, run while a test's steps play, and the roll most tests start a
game with."""

from __future__ import annotations

from dataclasses import replace

from firmware_py.app.assembly import attach_phones
from firmware_py.rules import Roll
from firmware_py.seating import COMPUTER, SeatSpec
from firmware_py.seats.phones.server import WebServer
from support import HANG
from support.table import in_a_loop_of_its_own, make_table, run_table

CODE = "4821"
BOT = SeatSpec("Bot", COMPUTER)
# Bot's roll in most tests: white 4 + 1, so every player may cross a 5 (or pass) in action 1.
ROLL = Roll((4, 1), {"red": 6, "yellow": 2, "green": 3, "blue": 6})


def web_tower(tmp_path, seats=(), variant: str = "classic"):
    """A table with `seats`, its phones' hub (table code CODE) and web server on a free port of
    127.0.0.1 (not started). Computer players wait (pace 60) unless a test speeds them up."""
    table = make_table(tmp_path / "games", list(seats), variant=variant)
    table.settings = replace(table.settings, pace=60)
    hub = attach_phones(table, code=CODE)
    return table, hub, WebServer(hub, "127.0.0.1", 0)


def run_with_server(table, server, steps, *, hub=None, timeout: float = HANG,
                    runner=in_a_loop_of_its_own) -> None:  # fmt: skip
    """Run the table and its web server while `await steps()` plays; then stop both and close
    the pad `hub` (if any) and the hardware (`runner`: as `run_table` takes it)."""

    async def play() -> None:
        assert await server.start() is None
        try:
            await steps()
        finally:
            await server.stop()

    run_table(table, play, hub=hub, timeout=timeout, runner=runner)


def bot_rolls_five(table) -> None:
    """A new game, and its first roll (Bot's): action 1 with white 4 + 1."""
    table.new_game()
    table.submit(ROLL)
