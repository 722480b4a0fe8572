"""What a player needs from their chair is large on the main display, and what does not fit
takes turns (pages) instead of being cut (issue 24: "carrying on game 1:", "the green die
leaves" were cut; whom the table waits for was 10 px)."""

from __future__ import annotations

from dataclasses import replace

from firmware_py.show.font import width
from firmware_py.show.screens import WIDTH, paged, pieces, render, wrap
from firmware_py.view import TableView

DICE = {"red": 6, "yellow": 2, "green": 3, "blue": 6}


def test_each_name_the_table_waits_for_has_a_page_of_its_own():
    view = TableView("action1", active="Ann", white=(4, 1), colours=DICE,
                     waiting_for=("Ben", "Cleo", "Dmitri"))  # fmt: skip
    pages = [render(replace(view, page=page)).tobytes() for page in range(3)]
    alone = [render(replace(view, waiting_for=(name,))).tobytes() for name in view.waiting_for]
    assert pages == alone
    assert render(replace(view, page=3)).tobytes() == pages[0]  # and round again


def test_a_long_name_takes_turns_in_pieces_never_cut():
    shown = pieces("Alexandra-Charlotte", (WIDTH - 58) // 2)
    assert len(shown) > 1 and "~" not in "".join(shown)
    assert "".join(piece.removesuffix("-") for piece in shown) == "Alexandra-Charlotte"


def test_a_long_message_takes_turns_whole():
    message = "carrying on game 1: Alexandra, Benedict, Cleopatra, Dmitri, classic"
    lines = wrap(message)
    assert " ".join(line for page in range(len(lines)) for line in paged(lines, 1, page)) == (
        message
    )
    assert all(width(line) <= WIDTH for line in lines)
