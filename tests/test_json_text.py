"""The one reader of JSON from outside (firmware_py/json_text.py): what it refuses, it refuses
as ValueError with words, so that every caller's `except ValueError` holds."""

from __future__ import annotations

import pytest

from firmware_py.json_text import json_value


def test_half_a_character_is_refused_where_it_is_read_not_where_it_is_shown():
    """A player's name in the history's index written "Ann\\ud800" (half of a character, which
    JSON can escape and no UTF-8 can hold) was read without a word; the phones' history page
    then said "The history cannot be shown just now" at every visit (found by fuzzing the
    index with the dictionary's "\\ud800"). Refused where it is read, the line is one the
    reader sets aside, as any other that is not JSON."""
    with pytest.raises(ValueError, match=r"^text that is not Unicode \(a lone surrogate\)"):
        json_value(b'{"players": [["Ann\\ud800", 29]]}')
    with pytest.raises(ValueError, match="lone surrogate"):
        json_value('{"\\udfff": 1}')  # a key too


def test_a_character_written_as_its_two_halves_is_read_as_itself():
    assert json_value(b'{"name": "\\ud83c\\udfb2 Ann"}') == {"name": "\U0001f3b2 Ann"}
