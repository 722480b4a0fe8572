"""A tournament's person sits down at their drawn seat with whatever device they bring
(docs/league.md, "Tournaments": "the drawn seat is the person's, whatever device they bring").
A table of five drawn has no room for a sixth: a pad without a seat is offered the drawn
people whose phone or pad has not come, a button each (a pad cannot type), and takes the seat
of the one pressed; a phone types the name. A stranger's name, or a button of no waiting seat,
is refused in words, and the table keeps its five. The phone is a page on the tower's real
web server (aiohttp's WebSocket client), the pad a pseudo-terminal through the pad hub."""

from __future__ import annotations

import asyncio
import json

import pytest
from support.doors import Answer, PadDoor, PhoneDoor, door_at
from support.table import run_table, until

from firmware_py.app.assembly import attach_bus
from firmware_py.bus.inbox import Verdict
from firmware_py.bus.settings import MqttConfig
from firmware_py.bus.topics import Topics
from firmware_py.pad import protocol
from firmware_py.seating import PAD, PHONE

SETTINGS = MqttConfig(host="localhost", tower_id="t1", commands=("tournament",))
TOPICS = Topics.of(SETTINGS)
FIVE = [{"name": "Zoë", "computer": None}, {"name": "Ann", "computer": "easy"},
        {"name": "Ben", "computer": "easy"}, {"name": "Cleo", "computer": "medium"},
        {"name": "Dan", "computer": None}]  # fmt: skip
PAD_OFFER = "drawn here? press red for Zoe, pass for Dan"  # (the pad's font is ASCII)


def seating(players: list[dict]) -> bytes:
    return json.dumps({
        "tournament": 3, "name": "Friday cup", "round": 2, "rounds": 5, "players": players,
        "drawn": "2026-11-27T20:00:00+00:00", "started": None,
    }).encode()  # fmt: skip


def at_a_drawn_table(kind, tmp_path, players, steps) -> None:
    """A table on simulated hardware with its web server and pad hub, told its round's
    seating on the bus (as the league's retained message), and a device of `kind` not seated."""
    table, door = door_at(kind, tmp_path, [])
    client = attach_bus(table, SETTINGS)
    assert client is not None

    async def play() -> None:
        await door.open()
        try:
            assert client.inbox.take(TOPICS.tournament, seating(players), retained=True) is (
                Verdict.TAKEN)  # fmt: skip
            await until(lambda: len(table.seating.seats) == len(players))
            await steps(table, door)
        finally:
            await door.close()

    run_table(table, play)


def test_a_pad_at_a_full_drawn_table_takes_the_seat_of_the_person_it_presses(tmp_path):
    async def steps(table, pad: PadDoor) -> None:
        state = await asyncio.to_thread(pad.pad.expect, "state", text=PAD_OFFER)
        assert state.fields["flags"] & protocol.MAY_JOIN  # any button asks; the text says which
        refused = await pad.press(2)  # yellow: Ann's seat, a computer's
        assert not refused.ok and refused.words == f"no seat for a new player: {PAD_OFFER}"
        refused = await pad.join("")  # a pad that names no button (its firmware before this)
        assert not refused.ok and PAD_OFFER in refused.words
        assert table.seating.names() == ["Zoë", "Ann", "Ben", "Cleo", "Dan"]  # never a sixth
        assert (await pad.press(5)).ok  # pass: Dan's seat
        assert table.seating.names() == ["Zoë", "Ann", "Ben", "Cleo", "Dan"]
        assert table.seating.seats[4].kind == PAD  # Dan plays on the pad
        await asyncio.to_thread(pad.pad.expect, "state", player="Dan")

    at_a_drawn_table("pad", tmp_path, FIVE, steps)


def test_a_phone_at_a_full_drawn_table_takes_its_person_s_seat_and_a_stranger_is_refused(
    tmp_path,
):
    """Through the tower's web server: the page may join at a full table whose drawn people
    have not all sat down, and says who is drawn; a name drawn at no seat here is refused."""

    async def steps(table, phone: PhoneDoor) -> None:
        lobby = await phone._expect("lobby")
        while "Zoë" not in lobby["text"]:
            lobby = await phone._expect("lobby")
        assert lobby["may_join"]
        assert lobby["text"] == "type the table code and your name as drawn here: Zoë, Dan"
        refused = await phone.join("Mallory")
        assert refused == Answer(False, "Mallory is not drawn at this table: its seats wait "
                                        "for Zoë and Dan")  # fmt: skip
        assert (await phone.join("zoë")).ok  # as the seats compare names: Zoë's
        assert table.seating.names() == ["Zoë", "Ann", "Ben", "Cleo", "Dan"]
        assert table.seating.seats[0].kind == PHONE and table.seating.seats[0].pad != "(drawn)"

    at_a_drawn_table("phone", tmp_path, FIVE, steps)


@pytest.mark.parametrize("kind", ["pad", "phone"])
def test_a_stranger_s_join_at_a_table_with_room_is_no_seat_of_a_drawn_person(kind, tmp_path):
    """At a table of three drawn, Zoë's seat waiting: a phone typing another name is refused
    (only the drawn sit down); a pad's press of no offered button joins as before, a seat the
    menu then names (tests/bus/test_pad_named_on_menu.py), and Zoë's seat still waits."""
    three = [FIVE[0], FIVE[1], FIVE[2]]

    async def steps(table, door) -> None:
        answer = await (door.press(6) if kind == "pad" else door.join("Mallory"))
        if kind == "pad":
            assert answer.ok and table.seating.names() == ["Zoë", "Ann", "Ben", "Player 4"]
        else:
            assert not answer.ok and "not drawn at this table" in answer.words
            assert table.seating.names() == ["Zoë", "Ann", "Ben"]
        assert table.seating.seats[0].pad == "(drawn)"

    at_a_drawn_table(kind, tmp_path, three, steps)
