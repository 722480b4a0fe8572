"""The pad firmware (MicroPython's unix port, on a pseudo-terminal) at a tournament's table of
five drawn (docs/league.md, "Tournaments": a drawn person sits down with the device they
bring): a pad without a seat shows which button takes whose seat among the people drawn here
whose phone or pad has not come; a button of no such seat is refused in words on the pad, and
the button of Dan's place gives the pad Dan's seat, never a sixth."""

from __future__ import annotations

import json

from firmware_py.bus.tournament import RoundSeating, read_seating, round_words, seats_of

FIVE = [{"name": "Zoë", "computer": None}, {"name": "Ann", "computer": "easy"},
        {"name": "Ben", "computer": "easy"}, {"name": "Cleo", "computer": "medium"},
        {"name": "Dan", "computer": None}]  # fmt: skip
IDENT_LINES = ["pad-", "e6614c3185a61f2b"]  # lines 1 and 2 of a pad without a seat
OFFER = "drawn here? press red for Zoe, pass for Dan"


def test_a_pad_at_a_full_drawn_table_takes_the_seat_of_the_button_it_offers(table):
    t = table(bots=(), join=False)
    seating = read_seating(json.dumps({
        "tournament": 3, "name": "Friday cup", "round": 2, "rounds": 5, "players": FIVE,
        "drawn": "2026-11-27T20:00:00+00:00", "started": None}))  # fmt: skip
    assert isinstance(seating, RoundSeating)
    t.tower.call(t.tower.table.seat_round, seats_of(seating), round_words(seating))
    screen = t.pad.wait_screen(lambda s: "Dan" in s.words(3), what="the drawn offered")
    assert screen[:3] == ["qwixx pad", *IDENT_LINES] and screen.words(3) == OFFER
    t.pad.press("tap yellow")  # Ann's place: a computer's seat
    screen = t.pad.wait_screen(lambda s: s[2].startswith("NO:"), what="the refusal")
    assert screen.words() == f"NO: no seat for a new player: {OFFER}"
    t.pad.press("tap undo")  # the refusal put away
    t.pad.wait_screen(lambda s: s.words(3) == OFFER, what="the offer again")
    t.pad.press("tap pass")  # the fifth place: Dan's
    t.pad.wait_screen(lambda s: s[0].startswith("Dan"), what="Dan's header")
    assert t.tower.seat_names() == [("Zoë", "phone"), ("Ann", "computer"), ("Ben", "computer"),
                                    ("Cleo", "computer"), ("Dan", "pad")]  # fmt: skip
