"""Every kind of seat decides through its own door: a seat decides for its own player only,
and a person deciding wakes the displays while the tower's own players do not."""

from __future__ import annotations

import io
from pathlib import Path

from firmware_py.app.assembly import attach_terminal, build_table
from firmware_py.app.config import SIMULATED
from firmware_py.app.hardware import build_hardware
from firmware_py.journal.journal import Journal
from firmware_py.rules import Pass, Roll
from firmware_py.seating import COMPUTER, KEYBOARD, PAD, PHONE, SeatSpec
from firmware_py.seats.devices import RemoteDecision, RemoteSeats
from firmware_py.table import RULE, Table

ROLLED = Roll((3, 4), {"red": 1, "yellow": 2, "green": 3, "blue": 4})


def table_in_action_1(tmp_path: Path, seats: list[SeatSpec], clock=lambda: 0.0) -> Table:
    """A table (not running: nothing plays by itself) whose game waits for action 1."""
    hardware = build_hardware(SIMULATED, 6)
    table = build_table(
        hardware,
        seats=seats,
        variant="classic",
        journal=Journal(tmp_path),
        idle_dim=300,
        idle_blank=1800,
        clock=clock,
    )
    table.new_game()
    assert table.submit(ROLLED) is None
    return table


def test_a_seat_decides_for_its_own_player_only(tmp_path):
    table = table_in_action_1(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Pat", PAD, "p1")])
    keyboard = table.door(KEYBOARD)
    refusal = keyboard.decide(Pass("Pat"))  # the keyboard speaking for the pad's player
    assert refusal.reason == "Pat's seat is not a keyboard seat" and refusal.kind == RULE
    assert table.door(PHONE).decide(Pass("Kim")).reason == "Kim's seat is not a phone seat"
    assert table.game.waiting_for() == ["Kim", "Pat"]  # nothing was applied
    assert keyboard.decide(Pass("Kim")) is None
    pads = RemoteSeats(table.door(PAD))
    assert pads.connect("p1", "cable 1") is None  # Pat's pad is back: it holds Pat's seat
    assert pads.decide("p1", "1/1", RemoteDecision("pass")) is None
    assert (
        table.games.referee.last_decisions["Pat"] == Pass("Pat")
        and "Pat" not in table.game.waiting_for()
    )
    table.hardware.close()


def test_the_keyboard_s_answers_go_through_its_door(tmp_path):
    table = table_in_action_1(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Bot", COMPUTER)])
    _, keys = attach_terminal(table, table.hardware, full_screen=False, out=io.StringIO())
    keys.see(table.view())  # the keyboard is asked for Kim's decision
    assert keys.asking == "Kim"
    keys.answer("p")
    assert table.game.waiting_for() == ["Bot"]
    assert table.games.referee.last_decisions["Kim"] == Pass("Kim")
    table.hardware.close()


def test_computer_players_moves_leave_resting_displays_alone_and_a_person_s_wake_them(tmp_path):
    now = [0.0]
    table = table_in_action_1(
        tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Bot", COMPUTER)], clock=lambda: now[0]
    )
    powers = []
    for display in table.hardware.displays.values():
        for name in ("dim", "wake"):
            setattr(display, name, lambda name=name: powers.append(name))
    now[0] = 301.0
    table.screens.rest()
    assert powers == ["dim", "dim"]
    table.computers.decide("Bot")  # the computer player decides (rule of thumb, at once)
    assert table.game.waiting_for() == ["Kim"] and powers == ["dim", "dim"]
    assert table.door(KEYBOARD).decide(Pass("Kim")) is None
    assert powers[-2:] == ["wake", "wake"]
    table.hardware.close()


def test_a_phone_typing_a_seated_name_in_other_capitals_gets_a_name_people_can_tell_apart(tmp_path):
    """Two players called "Bot" and "bot" would read the same on the displays and the news."""
    hardware = build_hardware(SIMULATED, 6)
    table = build_table(
        hardware,
        seats=[SeatSpec("Bot", COMPUTER)],
        variant="classic",
        journal=Journal(tmp_path),
        idle_dim=300,
        idle_blank=1800,
        clock=lambda: 0.0,
    )
    phones = RemoteSeats(table.door(PHONE))
    assert phones.connect("phone-1", "socket 1") is None
    assert phones.join("phone-1", "socket 1", name="bot") is None
    assert table.seating.names() == ["Bot", "bot 2"]
    hardware.close()
