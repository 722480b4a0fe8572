"""The tower's other screens say colours in words and letters, never by colour alone (issue 26):
the terminal tower has no colour at all, and the pads' one-colour screen marks rows with letters
and cells and locks with characters, so a colour-blind player reads them as anyone does."""

from __future__ import annotations

from firmware_py.pad import protocol
from firmware_py.pad.padscreen import row_line
from firmware_py.show.terminal import status_lines
from firmware_py.view import TableView

ROLL = TableView(
    "action1", title="Qwixx", active="Ann", white=(4, 1), locked=("green",),
    colours={"red": 6, "yellow": 2, "blue": 6}, waiting_for=("Ben",),
)  # fmt: skip


def test_the_terminal_names_each_die_and_each_locked_row_in_words_without_colour_codes():
    first, second = status_lines(ROLL)
    assert "white 4+1 = 5" in first and "red 6  yellow 2  blue 6" in first
    assert "locked: green" in first
    assert "\x1b[" not in first + second  # no terminal colours: the words are the signal


def pad_row(colour: int, crossed: int, flags: int = 0) -> dict:
    return {"colour": colour, "numbers": list(range(2, 13)), "crossed": crossed, "flags": flags}


def test_a_pad_row_shows_its_letter_and_its_cells_and_lock_as_characters():
    """x crossed, - passed over, . open; L: you locked it, #: locked for all."""
    assert row_line(pad_row(1, 0b101)) == "Rx-x........   2"
    assert row_line(pad_row(3, 0b1, protocol.ROW_CLOSED)) == "Gx.......... # 1"
    assert row_line(pad_row(4, 0b11111, protocol.ROW_LOCKED)).endswith(" L 6")
