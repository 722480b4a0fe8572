"""Qwixx X-Change from the roll button's menu: the variant page lists it ("X-Change", as a
menu line's width has it), taps step to it, a hold keeps it, and the next game is X-Change;
the lock lights and the table's view know its swap fields in action 1."""

from __future__ import annotations

from support.table import clocked_table, hold, run_table, tap, until

from firmware_py.rules import Roll
from firmware_py.seating import KEYBOARD, SeatSpec
from sheets import sheet_names


def test_x_change_is_picked_on_the_variant_page_and_played(tmp_path):
    table, clock = clocked_table(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Bot")])
    names = sheet_names()

    async def steps() -> None:
        await hold(table, clock)
        await tap(table, clock)  # the variant line
        await hold(table, clock)  # the variant page: every sheet
        assert "X-Change" in table.view().menu.lines
        while table.view().menu.selected != names.index("x-change"):
            await tap(table, clock)
        assert table.view().menu.lines[table.view().menu.selected] == "X-Change"
        await hold(table, clock)  # keep it: back on the list
        assert table.view().menu.lines[1] == "variant: X-Change"
        for _ in range(4):
            await tap(table, clock)  # players, level, name a pad, back
        await hold(table, clock)  # back
        await tap(table, clock)  # a tap outside the menu starts the game
        await until(lambda: table.game is not None)
        assert table.game.sheet.name == "x-change"
        table.submit(Roll((5, 6), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
        await until(lambda: table.view().swaps == ((3, 3), (8, 9)))

    run_table(table, steps)
