"""A pad's player named on the roll button's menu with the league's players (issue 42: "pads at
a table join as a named player from the phone or the menu"): Debian's mosquitto and the real
`qwixx-tower league` started here; the league has rated people at another table, and tells
each tower its players (retained on qwixx/TOWER/players). A tower on simulated hardware (its
roll button through gpiozero's MockFactory, a pad on a pseudo-terminal) with [mqtt] commands
"players" offers them on its menu, none that looks like a name at its table, and the pad's
seat goes by the one kept: on the pad, at the table and in the league, once the game is in."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from support.bus_listener import BusListener
from support.doors import PadDoor
from support.league import League
from support.mosquitto import PASSWORD, USER, Broker
from support.table import clocked_table, hold, run_table, tap, until

from firmware_py.app.assembly import attach_bus
from firmware_py.bus.settings import MqttConfig
from firmware_py.seating import KEYBOARD, SeatSpec

GAMES = [("Oma", "Ben", "kim"), ("Oma", "Ben", "Cleo"), ("Ida", "Oma")]  # at table t9


def people_result(tower: str, number: int, names: tuple[str, ...]) -> bytes:
    """A result as a tower publishes it, of people on phones (the first named wins)."""
    players = [{"name": name, "seat": seat, "kind": "phone", "level": None,
                "score": 40 - seat, "penalties": 0, "place": seat}
               for seat, name in enumerate(names, start=1)]  # fmt: skip
    return json.dumps({
        "id": f"{tower}-{number:06d}", "tower": tower, "game": number, "variant": "classic",
        "started": None, "finished": f"2026-11-27T19:{number:02d}:00+00:00", "reason": "locks",
        "players": players, "winners": [names[0]],
    }).encode()  # fmt: skip


def settings_for(broker: Broker, folder: Path) -> MqttConfig:
    password_file = folder / "password"
    password_file.write_text(PASSWORD + "\n")
    return MqttConfig(
        host="localhost", port=broker.port, tls=True, ca_file=broker.pki.ca, username=USER,
        password_file=password_file, tower_id="t1", commands=("players",),
    )  # fmt: skip


def test_a_pad_s_player_is_named_on_the_menu_among_the_league_s_players(tmp_path, broker):
    with League(tmp_path / "league", broker) as league, BusListener(broker) as guest:
        league.wait_on_the_bus()
        for number, names in enumerate(GAMES, start=1):
            guest.publish("qwixx/t9/result", people_result("t9", number, names), qos=1)
        league.output.wait_until(lambda _: len(league.games()) == 3 or None, 60, 0.1)
        table, clock = clocked_table(tmp_path / "t1", [SeatSpec("Kim", KEYBOARD)])
        client = attach_bus(table, settings_for(broker, tmp_path))
        assert client is not None
        pad = PadDoor(tmp_path, table)

        async def steps() -> None:
            client.start()
            await pad.open()
            assert (await pad.join("")).ok
            told = await asyncio.to_thread(guest.wait_for, "qwixx/t1/players")
            assert json.loads(told.payload) == {"players": ["Oma", "Ben", "Cleo", "Ida", "kim"]}
            await until(lambda: table.button_menu.naming.namer.known)  # (the tower heard it)
            await hold(table, clock)  # the menu
            for _ in range(4):
                await tap(table, clock)  # variant, players, level, name a pad
            await hold(table, clock)
            assert table.view().menu.lines == ("Player 2",)  # the pads' seats
            await hold(table, clock)
            page = table.view().menu
            assert page.title == "Player 2 is"  # kim is not offered: Kim is at the table
            assert page.lines == ("Player 2 (as now)", "Oma", "Ben", "Cleo", "Ida")
            await tap(table, clock)
            await hold(table, clock)  # Oma
            assert table.seating.names() == ["Kim", "Oma"]
            await asyncio.to_thread(pad.pad.expect, "state", player="Oma")
            await tap(table, clock)  # "back"
            await hold(table, clock)  # the menu closes on the set-up: who joined
            assert table.view().message == "Oma joins the table"
            await client.stop()

        run_table(table, steps, hub=pad.hub)
