"""The keyboard's question at the terminal (firmware_py/seats/keyboard.py): a line it cannot
take is answered with what it takes, never an error."""

from __future__ import annotations

import asyncio
import io

import pytest
from support.fuzz_doors import BOT, ROLL, table_for_fuzzing

from firmware_py.app.assembly import attach_terminal
from firmware_py.seating import KEYBOARD, SeatSpec


@pytest.mark.parametrize("typed", ["²", "1²", "٣", "99", "x"])
def test_a_line_that_names_no_mark_is_answered_with_what_the_question_takes(typed):
    """ "²" is a digit to str.isdigit, not to int: typed at the question it raised in the
    keyboard's reader, a traceback on the terminal and no answer (seen while fuzzing the
    other doors, which had the same slip)."""

    async def ask() -> None:
        with table_for_fuzzing("classic", [BOT, SeatSpec("Ann", KEYBOARD)]) as table:
            _, keys = attach_terminal(table, table.hardware, out=io.StringIO())
            table.new_game()
            table.submit(ROLL)
            assert keys.asking == "Ann"
            keys.answer(typed)
            assert table.newsfeed.lines[-1] == "type the number of a mark or p to pass"
            assert table.game.player("Ann").crosses(0) == 0

    asyncio.run(ask())
