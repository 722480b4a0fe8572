"""A player whose pad or phone has gone (issue 39, item 1): told by name at once and once, on
the displays, in the news and on every device; waited for a grace period, or until a press;
then played on without (they pass, as docs/rules.md's house rule says); back, they decide
again. Real table, a pad's seat through the table's door for pads."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from support.table import make_table, run_table, until

from firmware_py.rules import ACTION2, ROLL, Pass, Roll
from firmware_py.seating import KEYBOARD, PAD, SeatSpec
from firmware_py.seats.devices import RemoteDecision, RemoteSeats
from firmware_py.table import Table

ROLLED = Roll((3, 4), {"red": 1, "yellow": 2, "green": 3, "blue": 4})
GONE = "Pat's pad is not answering"
PRESS = "press the roll button to play on without Pat"


def table_with_pat(tmp_path: Path, grace: float) -> tuple[Table, RemoteSeats]:
    """Pat on a pad (connected on "cable 1", first to roll) and Kim at the keyboard; the table
    waits `grace` seconds for a player whose device has gone."""
    table = make_table(tmp_path, [SeatSpec("Pat", PAD, "p1"), SeatSpec("Kim", KEYBOARD)])
    table.settings = replace(table.settings, absent_grace=grace)
    pads = RemoteSeats(table.door(PAD))
    assert pads.connect("p1", "cable 1") is None
    return table, pads


async def in_action_1(table: Table) -> None:
    table.new_game()
    assert table.submit(ROLLED) is None


def test_a_pad_gone_in_action_1_is_told_at_once_and_its_player_passes_after_the_grace(tmp_path):
    table, pads = table_with_pat(tmp_path, grace=0.05)

    async def steps() -> None:
        await in_action_1(table)
        pads.gone("p1", "cable 1")  # unplugged
        assert table.newsfeed.lines[-1] == f"{GONE}: check its cable, or {PRESS}"
        assert table.newsfeed.alert_shown() == table.newsfeed.lines[-1]  # on the displays
        assert table.view().absent == f"{GONE}: {PRESS}"  # after the alert, still shown
        assert table.doors.now().absence == f"{GONE}: {PRESS}"  # every pad and phone
        await until(lambda: "Pat" not in table.game.waiting_for())
        assert table.games.referee.last_decisions["Pat"] == Pass("Pat")
        assert "Pat has been away 0.05 s: the game goes on without Pat" in table.newsfeed.lines
        assert table.view().absent == "" and table.doors.now().absence == GONE

    run_table(table, steps)


def test_with_no_grace_the_table_waits_for_a_press_and_the_press_plays_on_without_them(
    tmp_path,
):
    table, pads = table_with_pat(tmp_path, grace=0)

    async def steps() -> None:
        await in_action_1(table)
        pads.gone("p1", "cable 1")
        await asyncio.sleep(0.2)  # (the table's pace is 5 ms: nothing is on its way)
        assert table.game.waiting_for() == ["Pat", "Kim"], "it waits for ever"
        table.press()
        await until(lambda: "Pat" not in table.game.waiting_for())
        assert "The roll button is pressed: the game goes on without Pat" in table.newsfeed.lines
        assert table.games.referee.last_decisions["Pat"] == Pass("Pat")

    run_table(table, steps)


def test_a_press_in_a_turn_with_nobody_gone_changes_nothing(tmp_path):
    table, _ = table_with_pat(tmp_path, grace=0)

    async def steps() -> None:
        await in_action_1(table)
        version = table.moments.version
        table.press()
        assert table.moments.version == version and table.game.waiting_for() == ["Pat", "Kim"]

    run_table(table, steps)


def test_an_absent_active_player_passes_action_2_and_takes_the_penalty_as_anyone(tmp_path):
    """The house rule (docs/rules.md): the roll was Pat's, and Pat crossed nothing."""
    table, pads = table_with_pat(tmp_path, grace=0)

    async def steps() -> None:
        await in_action_1(table)
        assert table.door(KEYBOARD).decide(Pass("Kim")) is None
        pads.gone("p1", "cable 1")
        table.press()
        await until(lambda: table.game.phase is ROLL)
        game = table.game
        assert game.player("Pat").penalties == 1 and game.active_name == "Kim"
        assert "Pat crossed nothing and takes penalty 1" in table.newsfeed.lines

    run_table(table, steps)


def test_a_device_gone_twice_is_told_once_and_back_it_decides_the_next_decision(tmp_path):
    table, pads = table_with_pat(tmp_path, grace=0)

    async def steps() -> None:
        await in_action_1(table)
        pads.gone("p1", "cable 1")
        assert pads.connect("p1", "cable 2") is None  # back on another cable at once
        assert table.newsfeed.lines[-1] == "Pat's pad is back"
        pads.gone("p1", "cable 1")  # the old cable's silence, heard late: no news
        assert table.newsfeed.lines[-1] == "Pat's pad is back"
        assert table.doors.now().absence == "" and table.view().absent == ""
        told = [line for line in table.newsfeed.lines if line.startswith(GONE)]
        assert len(told) == 1
        table.press()  # nobody is gone: nothing to play on without
        assert table.game.waiting_for() == ["Pat", "Kim"]
        assert pads.decide("p1", "1/1", RemoteDecision("pass")) is None
        assert table.door(KEYBOARD).decide(Pass("Kim")) is None
        assert table.game.phase is ACTION2

    run_table(table, steps)


def test_a_pad_gone_between_games_is_news_and_its_player_sits_the_next_game_out(tmp_path):
    table, pads = table_with_pat(tmp_path, grace=60)

    async def steps() -> None:
        pads.gone("p1", "cable 1")
        assert table.newsfeed.lines[-1] == f"{GONE}: check its cable"
        table.new_game()
        assert [player.name for player in table.game.players] == ["Kim"]

    run_table(table, steps)
