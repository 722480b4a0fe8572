"""Every letter of a name the phone page accepts is drawn as itself or as a clear Latin
stand-in, on the tower's displays and on the pads (issue 24: "Ł" was drawn like a "t", an
emoji as a hollow box). An emoji is drawn as the font's own glyph of it where the font has
one (❤ as ♥), else left out: its short name (":game_die:") took a name's room and was cut
(issue 39)."""

from __future__ import annotations

import pytest

from firmware_py.seats.phones.hub import clean_name
from firmware_py.show.font import FALLBACK, drawable
from firmware_py.transliterate import ascii_words

NAMES = {  # typed on a phone -> drawn on the displays, and on a pad's ASCII font
    "Łukasz": ("Lukasz", "Lukasz"),
    "Paweł": ("Pawel", "Pawel"),
    "Zoë 😀": ("Zoë", "Zoe"),
    "❤️ Mia": ("♥ Mia", "Mia"),
    "Mia 🎲": ("Mia", "Mia"),
    "Mia 🎲 Bell": ("Mia Bell", "Mia Bell"),
    "Ann ★": ("Ann ★", "Ann *"),  # the font has a star
    "Ørjan": ("Ørjan", "Orjan"),
    "李雷": ("李雷", "LiLei"),
}


@pytest.mark.parametrize("typed", list(NAMES))
def test_a_name_typed_on_a_phone_is_drawn_in_letters_that_read_as_it(typed):
    name = clean_name(typed)  # the phone page accepts it
    on_displays, on_pads = NAMES[typed]
    assert drawable(name) == on_displays and FALLBACK not in drawable(name)
    assert ascii_words(name) == on_pads and "?" not in ascii_words(name)
