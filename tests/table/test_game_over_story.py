"""A finished game's story at the table: read from its log in the journal when the game ends,
carried by the game-over view to every presenter (the displays' pages, the terminal, the
phones), and gone when the next game begins."""

from __future__ import annotations

import asyncio

from support import HANG
from support.table import make_table

from firmware_py.journal.journal import Journal
from firmware_py.journal.lines import parse_line
from firmware_py.seating import SeatSpec
from firmware_py.show.terminal import chart_parts
from firmware_py.story import story_of


def test_the_game_over_view_carries_the_story_the_journal_tells(tmp_path):
    seats = [SeatSpec(name) for name in ("Ann", "Ben", "Cleo")]
    table = make_table(tmp_path, seats)
    asyncio.run(asyncio.wait_for(table.run(games=1), timeout=HANG))
    try:
        view = table.view()
        assert view.screen == "over" and view.story is not None
        log = Journal(tmp_path).games()[-1]
        events = [parse_line(line) for line in log.read_text().splitlines() if line.strip()]
        assert view.story == story_of(events, number=1)
        assert view.story.totals[-1] == tuple(table.game.total(n) for n in ("Ann", "Ben", "Cleo"))
        breakdown, story = chart_parts(view)
        assert len(breakdown) == 3 and len(story) == 1 + 3
        table.games.referee.set_aside()  # a new game is being set up (the seats test plays one)
        assert table.games.referee.played().story is None, "the last game's story stayed"
    finally:
        table.hardware.close()


def test_an_80x24_terminal_shows_the_figures_at_game_over(tmp_path):
    from firmware_py.show.terminal import Terminal

    seats = [SeatSpec(name) for name in ("Ann", "Ben", "Cleo")]
    table = make_table(tmp_path, seats)
    asyncio.run(asyncio.wait_for(table.run(games=1), timeout=HANG))
    try:
        terminal = Terminal(table.hardware.displays, table.hardware.lights, full_screen=False)
        terminal._view = table.view()
        lines = terminal.screen_lines(80, 23)
        assert len(lines) <= 23 and all(len(line) <= 80 for line in lines)
        winner = table.view().story.breakdown.ranked()[0].name
        assert any(line.startswith(f"*{winner}") and "█" in line for line in lines)
        assert any("the game: a column per roll" in line for line in lines)
    finally:
        table.hardware.close()
