"""A pad's player named from the roll button's menu in a league's tournament (issue 42: "pads
at a table join as a named player from the phone or the menu"; docs/league.md, "Who a player
is"): the round drew a person, Zoë, for this table; a pad joins with a press as "Player 3",
and on the menu (the roll button through gpiozero's MockFactory: taps and holds) its seat
takes Zoë's, so the round's game is played with Zoë on the pad. The league's players heard on
the bus are offered after the drawn ones, none that looks like a name at the table; rubbish on
the players' topic is counted and ignored."""

from __future__ import annotations

import asyncio
import json

from support.doors import PadDoor
from support.table import clocked_table, hold, run_table, tap, until

from drivers.simulated.pad import pad_hello
from firmware_py.app.assembly import attach_bus
from firmware_py.bus.inbox import Verdict
from firmware_py.bus.settings import MqttConfig
from firmware_py.bus.topics import Topics
from firmware_py.seating import PAD
from firmware_py.table.phase import TablePhase

SETTINGS = MqttConfig(host="localhost", tower_id="t1", commands=("tournament", "players"))
TOPICS = Topics.of(SETTINGS)
DRAWN = [{"name": "Zoë", "computer": None}, {"name": "Ann", "computer": "easy"}]


def seating(started: bool) -> bytes:
    return json.dumps({
        "tournament": 2, "name": "Friday cup", "round": 1, "rounds": 3, "players": DRAWN,
        "drawn": "2026-11-27T19:00:00+00:00",
        "started": "2026-11-27T19:05:00+00:00" if started else None,
    }).encode()  # fmt: skip


async def open_pad_names(table, clock) -> None:
    """Hold: the menu; four taps: "name a pad"; hold: the pads' seats."""
    await hold(table, clock)
    for _ in range(4):
        await tap(table, clock)
    assert table.view().menu.lines[table.view().menu.selected] == "name a pad"
    await hold(table, clock)


def test_a_pad_takes_the_seat_of_a_player_drawn_here_on_the_menu(tmp_path):
    table, clock = clocked_table(tmp_path, [])
    client = attach_bus(table, SETTINGS)
    assert client is not None
    pad = PadDoor(tmp_path, table)
    inbox = client.inbox

    async def steps() -> None:
        await pad.open()
        assert inbox.take(TOPICS.tournament, seating(False), retained=True) is Verdict.TAKEN
        inbox.clock = lambda: 5000.0  # (a new second: the inbox's budget)
        players = {"players": ["Ben", "z\u043e\u00eb", "ann", "Cleo"]}  # zoë with a Cyrillic o
        assert inbox.take(TOPICS.players, json.dumps(players).encode(), retained=True) is (
            Verdict.TAKEN)  # fmt: skip
        for rubbish in (b"[1]", b'{"players": [" Ben"]}', b"{", b'{"players": "Ben"}'):
            assert inbox.take(TOPICS.players, rubbish) is Verdict.IGNORED
        assert inbox.counts.malformed == 4
        assert (await pad.join("")).ok
        await until(lambda: table.seating.names() == ["Zoë", "Ann", "Player 3"])
        await open_pad_names(table, clock)
        page = table.view().menu
        assert (page.title, page.lines) == ("Name a pad", ("Player 3",))
        await hold(table, clock)  # pick the pad's seat: the names offered
        page = table.view().menu
        assert page.title == "Player 3 is"
        assert page.lines == ("Player 3 (as now)", "Zoë", "Ben", "Cleo")  # (ann, zoë: at the table)
        await tap(table, clock)
        assert table.view().menu.selected == 1
        await hold(table, clock)  # keep Zoë: back on the menu's list
        assert table.phase is TablePhase.MENU and table.view().menu.title == "Menu"
        assert table.seating.names() == ["Zoë", "Ann"]
        assert table.seating.seats[0].kind == PAD  # Zoë's seat is the pad's now
        assert pad.hub.seats.seat_of(pad_hello()["ident"]) == "Zoë"
        await asyncio.to_thread(pad.pad.expect, "state", player="Zoe")  # (its ASCII font's)
        await tap(table, clock)  # "back"
        await hold(table, clock)  # the menu closes
        inbox.clock = lambda: 5001.0
        inbox.take(TOPICS.tournament, seating(True), retained=True)  # the organiser starts it
        await until(lambda: table.game is not None)
        assert [player.name for player in table.game.players] == ["Zoë", "Ann"]

    run_table(table, steps, hub=pad.hub)
