"""A kiosk runs for years: what the table keeps in memory stays bounded; the journal keeps all.

(Request ids are bounded in test_exactly_once, simulated pins in test_drivers_gpio, waiting
sounds in test_drivers_buzzer; bench/soak.py measures the whole over 1,000 games.)
"""

import asyncio

from support import HANG

from firmware_py.app.assembly import build_table
from firmware_py.app.config import SIMULATED
from firmware_py.app.hardware import build_hardware
from firmware_py.journal.journal import Journal, read_game
from firmware_py.seating import BENCHED_KEPT, COMPUTER, MAX_SEATS, PHONE, Seating, SeatSpec
from firmware_py.seats.devices import RemoteSeats
from firmware_py.show.font import GLYPHS_KEPT, _glyph, drawable
from firmware_py.table.news_feed import NEWS_KEPT


def test_evenings_of_new_players_set_aside_by_the_menu_leave_only_the_latest_to_come_back():
    """Every evening five new phones join and the menu later sets them all aside: the taps
    that add seats bring back the latest evening's players first, and no more than
    BENCHED_KEPT seats set aside are remembered however many evenings pass."""
    seating = Seating([])
    for evening in range(500):
        for seat in range(MAX_SEATS):
            seating.add(SeatSpec(f"guest {evening}-{seat}", PHONE, f"phone-{evening}-{seat}"))
        seating.one_more()  # five seats: the next tap sets every seat aside
        assert seating.seats == []
    assert len(seating.benched) == BENCHED_KEPT
    for _ in range(MAX_SEATS):
        seating.one_more()
    assert seating.names() == [f"guest 499-{seat}" for seat in range(MAX_SEATS)]


def test_phones_that_joined_once_and_never_came_back_are_forgotten(tmp_path):
    """Every evening five new phones join and the menu later sets their seats aside; the
    devices the table remembers are the ones seated, however many evenings pass, and a name
    of a player who left can be taken again."""
    table = build_table(
        build_hardware(SIMULATED, 6),
        seats=[],
        variant="classic",
        journal=Journal(tmp_path),
    )
    seats = RemoteSeats(table.door(PHONE))
    try:
        for evening in range(300):
            for seat in range(MAX_SEATS):
                phone, device = object(), f"phone-{evening}-{seat}"
                assert seats.connect(device, phone) is None
                assert seats.join(device, phone, f"guest {seat}") is None
                seats.disconnect(phone)
            assert table.seating.names() == [f"guest {seat}" for seat in range(MAX_SEATS)]
            table.seating.one_more()  # five seats: the menu sets them all aside
        assert len(seats.seated) <= MAX_SEATS
    finally:
        table.hardware.close()


def test_names_in_every_script_leave_the_display_s_glyph_memory_bounded():
    """Phones may type names in any script: each character is looked up in the display's font
    once, and no more than GLYPHS_KEPT lookups are kept however many different ones come."""
    ideographs = [chr(0x4E00 + n) for n in range(4 * GLYPHS_KEPT)]  # CJK: none is composed
    names = ["".join(ideographs[n : n + 4]) for n in range(0, len(ideographs), 4)]
    for name in names:
        assert drawable(name).strip()  # drawn (as such or transliterated), never left out
    assert _glyph.cache_info().currsize <= GLYPHS_KEPT


def test_game_after_game_the_news_in_memory_stays_at_its_bound_and_the_journal_keeps_all(
    tmp_path,
):
    """Computer players play game after game: the table keeps the last NEWS_KEPT lines of news
    (the newest is the last game's end), while every game stays whole in the journal."""
    seats = [SeatSpec(name, COMPUTER) for name in ("Ann", "Ben", "Cleo")]
    table = build_table(
        build_hardware(SIMULATED, 6),
        seats=seats,
        variant="classic",
        journal=Journal(tmp_path),
        pace=0.0,
        autoplay=True,
    )
    try:
        asyncio.run(asyncio.wait_for(table.run(games=4), timeout=HANG))
    finally:
        table.hardware.close()
    games = [read_game(path) for path in Journal(tmp_path).games()]
    assert len(games) == 4 and all(game.game.over for game in games)
    events = sum(game.events for game in games)
    assert table.newsfeed.count >= events > NEWS_KEPT  # a line of news for every event, at least
    assert len(table.newsfeed.lines) == NEWS_KEPT
    assert table.newsfeed.lines[-1].startswith("Game over")
