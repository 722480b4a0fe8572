"""What a player needs from their chair is large on the main display, and what does not fit
takes turns (pages) instead of being cut (issue 24: "carrying on game 1:", "the green die
leaves" were cut; whom the table waits for was 10 px)."""

from __future__ import annotations

import string
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st
from support.drawn_words import shows

from firmware_py.seats.names import MAX_NAME
from firmware_py.show.font import HEIGHT as FONT_HEIGHT
from firmware_py.show.font import drawable, width
from firmware_py.show.screens import WIDTH, paged, render, wrap
from firmware_py.show.whole import LARGE, SMALL, TALL, fitted
from firmware_py.view import Seat, TableView

DICE = {"red": 6, "yellow": 2, "green": 3, "blue": 6}


def test_each_name_the_table_waits_for_has_a_page_of_its_own():
    view = TableView("action1", active="Ann", white=(4, 1), colours=DICE,
                     waiting_for=("Ben", "Cleo", "Dmitri"))  # fmt: skip
    pages = [render(replace(view, page=page)).tobytes() for page in range(3)]
    alone = [render(replace(view, waiting_for=(name,))).tobytes() for name in view.waiting_for]
    assert pages == alone
    assert render(replace(view, page=3)).tobytes() == pages[0]  # and round again


def test_a_long_name_the_table_waits_for_is_drawn_whole_on_one_page():
    """Issue 39: "Alexandra-Charlotte Bell" took turns in pieces cut inside its words (a
    page read "arlotte"). Too long to be large beside the sum, it is small on two lines, broken
    after its hyphen, all on one page."""
    name = "Alexandra-Charlotte Bell"
    assert fitted(name, WIDTH - 58, 21).pages == (("Alexandra-", "Charlotte Bell"),)
    view = TableView("action1", active="Ann", white=(4, 1), colours=DICE, waiting_for=(name,))
    first, second = (render(replace(view, page=page)) for page in (0, 1))
    assert first == second
    assert shows(first, "Alexandra-") and shows(first, "Charlotte Bell")


def test_a_name_that_fits_large_beside_the_sum_is_drawn_large():
    view = TableView("action1", active="Ann", white=(4, 1), colours=DICE, waiting_for=("Cleo",))
    assert shows(render(view), "Cleo", LARGE)
    alexandra = render(replace(view, waiting_for=("Alexandra",)))
    assert shows(alexandra, "Alexandra", TALL)  # as tall, half as wide: not cut "Alexan-"


def test_a_long_message_takes_turns_whole():
    message = "carrying on game 1: Alexandra, Benedict, Cleopatra, Dmitri, classic"
    lines = wrap(message)
    assert " ".join(line for page in range(len(lines)) for line in paged(lines, 1, page)) == (
        message
    )
    assert all(width(line) <= WIDTH for line in lines)


BOXES = [(70, 21), (WIDTH, 20), (WIDTH, 40), (61, 30), (WIDTH, 10), (20, 10)]


@settings(max_examples=300)
@given(st.text(max_size=MAX_NAME), st.sampled_from(BOXES))
def test_a_name_fitted_to_a_box_keeps_every_letter_in_lines_that_fit(name, box):
    """Whatever the name and the room, its layout loses no letter (only spaces and the
    hyphens of a split are between its lines), and each line fits across the box, but for
    a single character wider than the box."""
    shape = fitted(name, *box)
    lines = [line for page in shape.pages for line in page]
    assert all(len(page) * FONT_HEIGHT * shape.size[1] <= max(box[1], FONT_HEIGHT * 2)
               for page in shape.pages)  # fmt: skip
    assert all(width(line) * shape.size[0] <= box[0] for line in lines if len(line) > 1)

    def letters(text: str) -> str:
        return "".join(text.split()).replace("-", "")

    assert letters("".join(lines)) == letters(drawable(name))


@given(st.text(string.ascii_letters + " -", max_size=MAX_NAME))
def test_a_latin_name_of_the_longest_length_fits_one_small_line(name):
    """So the winner screen can always show the longest name whole."""
    assert fitted(name, WIDTH, 10, (SMALL,)).pages == ((" ".join(name.split()),),) or not (
        name.strip()
    )


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=MAX_NAME))
def test_no_name_stops_a_screen(name):
    """A name from anywhere draws on every screen that shows names, never raising."""
    seats = (Seat(name, 3, 1, lucky=(5,)), Seat("Ben", 9))
    views = [TableView("setup", title="Qwixx", seats=seats, message=f"{name} joined"),
             TableView("action1", active=name, seats=seats, white=(3, 4), colours=DICE,
                       waiting_for=(name, "Ben")),
             TableView("over", seats=seats, winners=(name,)),
             TableView("over", seats=seats, winners=(name, "Ben", "Cleo"), page=1),
             TableView("lucky", title="Qwixx Longo", seats=seats, waiting_for=(name,))]  # fmt: skip
    for view in views:
        for page in range(3):
            render(replace(view, page=page), "main")
            render(replace(view, page=page), "options")
