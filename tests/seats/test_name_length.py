"""One limit on a player's name, wherever it is typed: the command line, the configuration,
the phone page (its text box and the tower's check), a pad's configured name. Issue 24: names
were cut at 16 characters on the phone and allowed up to 60 on the command line."""

from __future__ import annotations

import argparse
import re
from importlib.resources import files

import pytest

from firmware_py.app.arguments import names_list, player_name
from firmware_py.app.config import ConfigError, parse_config
from firmware_py.seating import NAME_LENGTH
from firmware_py.seats.devices import clean_name as kept_name
from firmware_py.seats.phones.hub import PageRefused
from firmware_py.seats.phones.hub import typed_name as typed_on_a_phone

LONGEST = "Alexandra-Charlotte Bell"  # 24 characters
TOO_LONG = LONGEST + "e"


def test_the_longest_name_is_kept_whole_everywhere():
    assert len(LONGEST) == NAME_LENGTH
    assert names_list(f"{LONGEST},Ben") == [LONGEST, "Ben"]
    assert player_name(LONGEST) == LONGEST
    assert typed_on_a_phone(LONGEST) == LONGEST
    assert kept_name(LONGEST) == LONGEST
    config = parse_config({"table": {"computer_players": [LONGEST]}})
    assert config.computer_players == (LONGEST,)


def test_a_name_one_character_longer_is_refused_everywhere_in_the_same_words():
    words = f"longer than {NAME_LENGTH} characters"
    with pytest.raises(argparse.ArgumentTypeError, match=words):
        player_name(TOO_LONG)
    with pytest.raises(argparse.ArgumentTypeError, match=words):
        names_list(TOO_LONG)
    with pytest.raises(PageRefused, match=f"at most {NAME_LENGTH} characters"):
        typed_on_a_phone(TOO_LONG)
    for section in ({"table": {"computer_players": [TOO_LONG]}},
                    {"pads": {"names": {"e6614c31": TOO_LONG}}}):  # fmt: skip
        with pytest.raises(ConfigError, match=words):
            parse_config(section)


def test_the_phone_page_lets_a_player_type_the_whole_name():
    page = files("firmware_py.seats.phones").joinpath("static/index.html").read_text()
    box = re.search(r'<input id="name" maxlength="(\d+)"', page)
    assert box is not None and int(box.group(1)) == NAME_LENGTH
