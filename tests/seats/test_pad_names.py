"""A pad's player named from a phone (firmware_py/seats/phones/pad_names.py; issue 42: "pads
at a table join as a named player from the phone"): a pad joins as "Player 2" (a pad cannot
type); between games anyone with the table code names its seat on the phone page, and the pad,
the table, the journal and so the results the league rates carry that name. A name that looks
like another player's at the table is refused in words, as a phone's own join is."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from support.doors import PadDoor, PhoneDoor
from support.table import run_table, until
from support.web import BOT, CODE, bot_rolls_five, web_tower

from firmware_py.bus.results import result_of
from firmware_py.journal.journal import noted_seats
from firmware_py.league.core import League
from firmware_py.league.store import Store


def at_the_table(tmp_path, steps) -> None:
    """A table with Bot, a pad on a pseudo-terminal and a phone's page not seated."""
    table, _, server = web_tower(tmp_path, [BOT])
    pad, phone = PadDoor(tmp_path, table), PhoneDoor(server)

    async def play() -> None:
        await pad.open()
        await phone.open()
        try:
            assert (await pad.join("")).ok
            await until(lambda: len(table.seating.seats) == 2)
            await steps(table, pad, phone)
        finally:
            await phone.close()
            await pad.close()

    run_table(table, play)


async def name_the_pad(phone: PhoneDoor, seat: str, name: str) -> dict:
    await phone._send({"type": "join", "code": CODE, "name": name, "pad": seat})
    return await phone._expect("named", "refused")


def test_a_pad_s_seat_named_from_a_phone_plays_and_is_noted_under_that_name(tmp_path):
    async def steps(table, pad, phone) -> None:
        lobby = await phone._expect("lobby")
        assert lobby["pads"] == ["Player 2"]  # the phone offers the pad's seat
        answer = await name_the_pad(phone, "Player 2", "Oma")
        assert answer == {"type": "named", "pad": "Player 2", "player": "Oma"}
        assert table.seating.names() == ["Bot", "Oma"]
        state = await asyncio.to_thread(pad.pad.expect, "state", player="Oma")
        assert state.fields["player"] == "Oma"  # the pad shows its player's name
        bot_rolls_five(table)
        assert (await pad.pass_("a pass")).ok  # the pad decides for Oma
        log = table.journal.games()[-1]
        assert {"name": "Oma", "kind": "pad"}.items() <= noted_seats(log)[1].items()
        published = result_of("t1", log, table.game)  # as the tower publishes it at the end
        published["reason"] = "penalties"  # (the game is cut short here, in its first roll)
        league = League(Store(Path(":memory:")), "qwixx")
        league.take("qwixx/t1/result", json.dumps(published).encode())
        rated = {one.name: one.kind for one in league.ratings.standings()}
        assert rated == {"Bot": "computer", "Oma": "pad"}  # the league rates Oma by her name

    at_the_table(tmp_path, steps)


def test_a_name_like_another_player_s_or_a_game_on_is_refused_in_words(tmp_path):
    async def steps(table, pad, phone) -> None:
        refused = await name_the_pad(phone, "Player 2", "B\u043et")  # a Cyrillic o
        assert "looks like Bot, who is at the table: add a letter" in refused["reason"]
        refused = await name_the_pad(phone, "Bot", "Oma")  # a computer's seat is no pad's
        assert "reload the page" in refused["reason"]
        bot_rolls_five(table)
        refused = await name_the_pad(phone, "Player 2", "Oma")
        assert "reload the page" in refused["reason"]  # no pad's seat to name while a game is on
        assert table.seating.names() == ["Bot", "Player 2"]

    at_the_table(tmp_path, steps)
