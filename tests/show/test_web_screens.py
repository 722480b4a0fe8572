"""The join QR code between games: on the main display (golden pictures, and the code read back
by a real QR decoder, zxing-cpp) and in the terminal of `qwixx-tower run`."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest
import zxingcpp
from luma.core.device import dummy
from luma.core.render import canvas
from PIL import Image, ImageChops
from support.paths import GOLDEN
from support.views import VIEWS as GOLDEN_VIEWS

from firmware_py.show.qr import join_lines, terminal_lines
from firmware_py.show.screens import draw_screen
from firmware_py.view import Seat, TableView

URL = "http://192.168.178.23:8080/?code=4821"
VIEWS = {
    "attract": TableView("attract", join_url=URL, join_code="4821"),
    "setup": TableView(
        "setup", title="Qwixx", seats=(Seat("Ann"), Seat("Dora"), Seat("Computer 1")),
        message="Dora joins the table", join_url=URL, join_code="4821",
    ),
}  # fmt: skip


def on_luma(view: TableView, role: str = "main") -> Image.Image:
    device = dummy(width=128, height=64, mode="1")
    with canvas(device) as draw:
        draw_screen(draw, view, role)
    return device.image


def read_qr(picture: Image.Image) -> list[str]:
    return [found.text for found in zxingcpp.read_barcodes(picture.convert("L"))]


@pytest.mark.parametrize("name", list(VIEWS))
def test_between_games_the_main_display_shows_the_join_qr_code_and_table_code(name):
    picture = on_luma(VIEWS[name])
    golden = GOLDEN / f"web-join-{name}-main.png"
    if os.environ.get("QWIXX_UPDATE_GOLDEN"):
        picture.save(golden)
    reference = Image.open(golden).convert("1")
    changed = ImageChops.logical_xor(picture.convert("1"), reference).getbbox()
    assert changed is None, f"{golden.name} differs inside the box {changed}"


@pytest.mark.parametrize("name", list(VIEWS))
def test_the_qr_code_on_the_display_reads_back_as_the_join_address(name):
    assert read_qr(on_luma(VIEWS[name])) == [URL]


def test_a_long_ipv6_address_still_fits_and_reads_back():
    url = "http://[fd00:1234:5678:9abc:def0:1234:5678:9abc]:8080/?code=0042"
    assert read_qr(on_luma(TableView("attract", join_url=url, join_code="0042"))) == [url]


def test_without_a_web_server_the_screens_are_the_usual_ones():
    usual = GOLDEN_VIEWS["attract"]  # the view of the golden picture
    assert read_qr(on_luma(usual)) == []
    assert on_luma(usual).tobytes() == Image.open(
        GOLDEN / "attract-main.png").convert("1").tobytes()  # fmt: skip


def test_with_five_players_seated_the_setup_screen_has_no_qr_code():
    seats = tuple(Seat(f"P{n}") for n in range(5))
    full = TableView("setup", title="Qwixx", seats=seats, join_url=URL, join_code="4821")
    assert read_qr(on_luma(full)) == []
    assert (
        on_luma(full).tobytes() == on_luma(TableView("setup", title="Qwixx", seats=seats)).tobytes()
    )


def test_during_a_game_no_qr_code_is_shown():
    view = TableView("roll", active="Ann", join_url=URL, join_code="4821")
    assert read_qr(on_luma(view)) == []


def test_the_terminal_qr_code_reads_back_as_the_join_address():
    """Half blocks back to pixels (light modules drawn), then a real decoder."""
    lines = terminal_lines(URL)
    picture = Image.new("L", (len(lines[0]), 2 * len(lines)), 0)
    halves = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}
    for y, line in enumerate(lines):
        for x, char in enumerate(line):
            top, bottom = halves[char]
            picture.putpixel((x, 2 * y), 255 if top else 0)
            picture.putpixel((x, 2 * y + 1), 255 if bottom else 0)
    big = picture.resize((picture.width * 8, picture.height * 8), Image.Resampling.NEAREST)
    assert read_qr(big) == [URL]


def test_plain_output_is_the_address_line_only():
    assert join_lines(URL, with_code=False) == [f"Phones join at {URL}"]
    assert join_lines(URL, with_code=True)[-1] == f"Phones join at {URL}"


def test_the_kiosk_at_power_on_with_phones_says_the_variant_and_how_to_join():
    """Nobody seated yet (the kiosk at power-on): beside the QR code the variant, the code and
    how to join; once seated, the names and how to start."""
    empty = TableView("setup", title="Qwixx Longo", join_url=URL, join_code="4821")
    picture = on_luma(empty)
    golden = GOLDEN / "web-join-setup-empty-main.png"
    if os.environ.get("QWIXX_UPDATE_GOLDEN"):
        picture.save(golden)
    reference = Image.open(golden).convert("1")
    assert ImageChops.logical_xor(picture.convert("1"), reference).getbbox() is None
    assert read_qr(picture) == [URL]


@pytest.mark.parametrize(
    "view", [VIEWS["setup"], TableView("setup", title="Qwixx", join_url=URL, join_code="4821")]
)
def test_before_the_first_game_the_table_code_is_as_tall_as_between_games(view):
    """Issue 39: at power-on the code was drawn in the small font (6 px tall), unreadable
    across a table. Where two codes differ on the main display is where a code is drawn: as
    tall there before the first game as on the attract screen between games."""

    def code_height(shown: TableView) -> int:
        box = ImageChops.logical_xor(
            on_luma(replace(shown, join_code="4821")).convert("1"),
            on_luma(replace(shown, join_code="8888")).convert("1"),
        ).getbbox()
        assert box is not None
        return box[3] - box[1]

    between_games = code_height(VIEWS["attract"])
    assert between_games >= 12 and code_height(view) == between_games  # twice the small font
