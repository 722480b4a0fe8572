"""The tower's screens as pictures: each drawn on luma's dummy device and compared with a
reference PNG in tests/golden/. After a deliberate change of a screen, look at the new pictures
and refresh them with QWIXX_UPDATE_GOLDEN=1 ./dev test tests/test_screens.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from luma.core.device import dummy
from luma.core.render import canvas
from PIL import Image, ImageChops

from firmware_py.menu import CONFIRM, PLAYERS, VARIANT, Menu, menu_view
from firmware_py.rules import Game, Mark, Pass, Roll, Start
from firmware_py.screens import draw_screen, render
from firmware_py.view import Seat, TableView, table_view

GOLDEN = Path(__file__).parent / "golden"
SEATS = (Seat("Ann", 70, 2, True), Seat("Ben", 59, 0, False), Seat("Cleo", 26, 4, True))
DICE = {"red": 6, "yellow": 2, "blue": 6}
TITLES = ["Qwixx Bonus, version A", "Qwixx Bonus, version B", "Qwixx", "Qwixx Longo",
          "Qwixx gemixxt, version A", "Qwixx gemixxt, version B"]  # fmt: skip
NAMES = ["Ann", "Ben", "Computer 1", "Computer 2", "Bartholomew"]


def menu_at(page: str, index: int = 0, *, playing: bool = False) -> TableView:
    """The menu screen on `page`, with line `index` picked, for the sheets above."""
    menu = Menu(0.0)
    menu.page, menu.index = page, index
    view = menu_view(menu, titles=TITLES, chosen=5, seats=NAMES, playing=playing)
    return TableView("menu", menu=view)


VIEWS = {
    "attract": TableView("attract"),
    "setup": TableView("setup", title="Qwixx", seats=SEATS, message="press: start"),
    "roll": TableView("roll", active="Ben", locked=("green",)),
    "rolling": TableView("rolling", active="Ben", frame=2),
    "action1": TableView(
        "action1", active="Ann", white=(4, 1), colours=DICE, locked=("green",),
        waiting_for=("Ben", "Cleo"),
    ),
    "action2": TableView("action2", active="Ann", white=(6, 6), colours={**DICE, "green": 3}),
    "lock": TableView("lock", active="Ann", white=(6, 6), colours=DICE, locked=("green",)),
    # a lock in action 2 ends the turn: no dice on the table, so the options show the scores
    "lock-turn-over": TableView("lock", active="Ben", seats=SEATS, locked=("green", "red")),
    "over": TableView("over", seats=SEATS, locked=("green", "red"), winners=("Ann",)),
    "error": TableView("error", message="Ben's pad is not answering: check its USB cable"),
    "menu": menu_at("list", 1, playing=True),
    "menu-variant": menu_at(VARIANT),
    "menu-players": menu_at(PLAYERS),
    "menu-confirm": menu_at(CONFIRM),
    "lucky": TableView(
        "lucky", title="Qwixx Longo", waiting_for=("Ben", "Cleo"),
        seats=(Seat("Ann", lucky=(5, 10)), Seat("Ben", lucky=(7,)), Seat("Cleo"),
               Seat("Computer 1", lucky=(3, 14))),
    ),
}  # fmt: skip


def on_luma(view: TableView, role: str) -> Image.Image:
    device = dummy(width=128, height=64, mode="1")
    with canvas(device) as draw:
        draw_screen(draw, view, role)
    return device.image


@pytest.mark.parametrize("role", ["main", "options"])
@pytest.mark.parametrize("name", list(VIEWS))
def test_screen_matches_its_reference_picture(name, role):
    picture = on_luma(VIEWS[name], role)
    golden = GOLDEN / f"{name}-{role}.png"
    if os.environ.get("QWIXX_UPDATE_GOLDEN"):
        picture.save(golden)
    assert golden.exists(), f"no reference picture {golden.name}; see this module's docstring"
    reference = Image.open(golden).convert("1")
    changed = ImageChops.logical_xor(picture, reference).getbbox()
    assert changed is None, f"{golden.name} differs inside the box {changed}"


def test_the_white_sum_stands_at_least_40_pixels_tall():
    """Readable from across the table (the issue asks for at least 40 px)."""
    picture = render(VIEWS["action1"], "main").crop((0, 12, 58, 64))
    _, top, _, bottom = picture.getbbox()
    assert bottom - top >= 40


def test_every_moment_of_a_game_has_a_screen_on_both_displays():
    for view in VIEWS.values():
        for role in ("main", "options"):
            assert render(view, role).getbbox() is not None, f"{view.screen} {role} is blank"


def test_the_options_show_each_colours_sums_and_gone_for_a_locked_colour():
    view = VIEWS["action1"]
    assert view.colour_sums("red") == (10, 7)
    assert view.colour_sums("green") == ()  # green is locked: its die is out of the game
    assert view.colour_sums("blue") == (10, 7)


def test_the_view_of_a_game_follows_the_turn():
    """The rulebook's first turn: Max (here Ann) rolls white 4 and 1; Ann crosses red 5."""
    game = Game.start(Start("classic", ("Ann", "Ben", "Cleo")))
    assert table_view(game).screen == "roll"
    game.apply(Roll((4, 1), {"red": 6, "yellow": 2, "green": 3, "blue": 6}))
    game.apply(Mark("Ann", "red", 5))
    view = table_view(game)
    assert (view.screen, view.white_sum, view.waiting_for) == ("action1", 5, ("Ben", "Cleo"))
    assert [seat.decided for seat in view.seats] == [True, False, False]
    game.apply(Pass("Ben"))
    game.apply(Pass("Cleo"))
    view = table_view(game)
    assert (view.screen, view.waiting_for) == ("action2", ("Ann",))
    assert view.seats[0].total == 1


def test_the_menu_keeps_the_picked_line_on_screen_and_says_how_to_go_on():
    """Six variants, room for four: the window follows the picked one; the hint is there."""
    view = menu_at(VARIANT)
    assert view.menu.lines[view.menu.selected] == "gemixxt B"
    picture = render(view, "main")
    bar = picture.crop((0, 13 + 3 * 10, 128, 13 + 4 * 10)).convert("L")  # the fourth line: lit
    assert bar.histogram()[255] > 128 * 10 // 2
    assert view.menu.hints == ("tap: next hold: keep",)


@pytest.mark.parametrize("screen", ["setup", "roll", "over", "menu"])
def test_any_name_is_drawn_letters_the_font_lacks_as_their_plain_letter(screen):
    """Names come from players and pads, in any script. The bitmap font has Latin-1 only: a
    letter it lacks is drawn as the plain letter (Łukasz as Lukasz, Dvořák as Dvorák), a
    character with no such letter as ?, and no name stops the tower (it once raised
    UnicodeEncodeError at start)."""
    menu = menu_view(Menu(0.0), titles=["Qwixx"], chosen=0, seats=["Łukasz"], playing=False)

    def picture(*people: str) -> bytes:
        seats = tuple(Seat(name, 12) for name in people)
        view = TableView(screen, title="Qwixx", seats=seats, active=people[0],
                         winners=people[:1], menu=menu)  # fmt: skip
        return b"".join(render(view, role).tobytes() for role in ("main", "options"))

    assert picture("Łukasz", "Zoë", "Dvořák") == picture("Lukasz", "Zoë", "Dvorák")
    assert picture("李", "Zoë") == picture("?", "Zoë")
