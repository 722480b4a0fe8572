"""Qwixx Connected from the roll button's menu: the variant page lists the Steps and the Chain
("Connected Steps", "Connected Chain", as a menu line's width has them), taps step to one, a
hold keeps it, and the next game is played on it, each seat on its pad."""

from __future__ import annotations

import pytest
from support.table import clocked_table, hold, run_table, tap, until

from firmware_py.seating import KEYBOARD, SeatSpec
from sheets import sheet_names


@pytest.mark.parametrize(
    ("variant", "line"),
    [("connected-steps", "Connected Steps"), ("connected-chain", "Connected Chain")],
)
def test_a_connected_sheet_is_picked_on_the_variant_page_and_played(tmp_path, variant, line):
    table, clock = clocked_table(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Bot")])
    names = sheet_names()

    async def steps() -> None:
        await hold(table, clock)
        await tap(table, clock)  # the variant line
        await hold(table, clock)  # the variant page: every sheet
        assert line in table.view().menu.lines
        while table.view().menu.selected != names.index(variant):
            await tap(table, clock)
        assert table.view().menu.lines[table.view().menu.selected] == line
        await hold(table, clock)  # keep it: back on the list
        assert table.view().menu.lines[1] == f"variant: {line}"
        for _ in range(4):
            await tap(table, clock)  # players, level, name a pad, back
        await hold(table, clock)  # back
        await tap(table, clock)  # a tap outside the menu starts the game
        await until(lambda: table.game is not None)
        assert table.game.sheet.name == variant
        assert [player.pad.name for player in table.game.players] == ["A", "A"]

    run_table(table, steps)
