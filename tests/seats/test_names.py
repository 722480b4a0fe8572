"""Names that look alike are one seat's: Unicode TR39's skeleton, from Unicode's own
confusables.txt (issue 22), with case folded too. Cyrillic "Вот" beside the computer "Bot",
full-width "Ａｎｎ" beside "Ann", "Ian" beside "lan" are numbered, as a player reading the
display could not tell them apart; a phone back in its seat is never refused its own name."""

from __future__ import annotations

import itertools
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from support.table import make_table

from firmware_py.seating import PHONE
from firmware_py.seats.devices import RemoteSeats
from firmware_py.seats.names import (
    IGNORABLE,
    clean_name,
    ignorable,
    looks_alike,
    skeleton,
    why_not_name,
)

# Letters a name may be made of, rich in look-alikes: Latin, Cyrillic, Greek, full-width
# forms, Roman numerals, small capitals, digits, combining marks, and any character at all.
LOOKALIKE_LETTERS = (
    "AaBbCcEeHIiKlMmnOoPpTtXxyВвОоТтАаЕеКкМмНнРрСсІіΑΒΕΙΚΜΝΟΡΤΧοιＡＢａｂⅠⅰⅼᴛʙ01| \u0301"
)
NAMES = st.text(st.sampled_from(LOOKALIKE_LETTERS), min_size=1, max_size=12) | st.text(
    st.characters(exclude_categories=("Cs",)), min_size=1, max_size=24
)


class Table:
    """A table between games with its phones' seats, for one example."""

    def __init__(self, folder: Path, *names: str) -> None:
        self.table = make_table(folder, [])
        self.seats = RemoteSeats(self.table.door(PHONE))
        self._devices = itertools.count()
        for name in names:
            self.join(name)

    def join(self, name: str) -> tuple[str, object]:
        """A new phone joins with `name`: its device and connection."""
        device, connection = f"phone-{next(self._devices)}", object()
        assert self.seats.connect(device, connection) is None
        assert self.seats.join(device, connection, name) is None
        return device, connection

    def names(self) -> list[str]:
        return [seat.name for seat in self.table.seating.seats]

    def close(self) -> None:
        self.table.hardware.close()


@pytest.fixture
def table(tmp_path):
    tables: list[Table] = []

    def make(*names: str) -> Table:
        tables.append(Table(tmp_path / str(len(tables)), *names))
        return tables[-1]

    yield make
    for each in tables:
        each.close()


@pytest.mark.parametrize(
    ("seated", "typed", "seated_as"),
    [
        ("Bot", "\u0412\u043e\u0442", "\u0412\u043e\u0442 2"),  # Cyrillic "Вот"
        ("bot", "\u0412\u043e\u0442", "\u0412\u043e\u0442 2"),  # ... also beside a small "bot"
        ("Ann", "\uff21\uff4e\uff4e", "Ann 2"),  # full-width "Ａｎｎ": NFKC makes it "Ann"
        ("lan", "Ian", "Ian 2"),  # a capital I is drawn as a small l
        ("Ian", "\u2170an", "ian 2"),  # SMALL ROMAN NUMERAL ONE, an i: NFKC and case
        ("Bob", "B0b", "B0b 2"),  # a zero is drawn as an O
        ("Ema", "Erna", "Erna 2"),  # r and n side by side are drawn as an m
        ("Ann", "\u0410nn", "\u0410nn 2"),  # a Cyrillic A
        ("Zoe", "Zoë", "Zoë"),  # an accent tells names apart
        ("Ann", "Anna", "Anna"),
    ],
)
def test_a_name_that_looks_like_a_seated_one_is_numbered(table, seated, typed, seated_as):
    tower = table(seated)
    tower.join(typed)
    assert tower.names() == [seated, seated_as]


@given(st.text(st.characters(exclude_categories=("Cs",))))
def test_a_skeleton_is_its_own_skeleton(text):
    """TR39: mapping a skeleton again changes nothing."""
    assert skeleton(skeleton(text)) == skeleton(text)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(NAMES)
def test_a_phone_back_in_its_seat_is_never_refused_its_own_name(table, typed):
    """Whatever the name, the phone that joined with it and comes back (a reload, a new
    connection) gets its seat and its name again, and its join is not refused; a second
    phone typing the same name is seated under a name that does not look like it."""
    name = clean_name(typed)
    assume(name and why_not_name(name) is None)
    tower = table()
    device, first = tower.join(typed)
    assert tower.seats.seat_of(device) == name
    tower.seats.disconnect(first)
    again = object()
    assert tower.seats.connect(device, again) is None
    assert tower.seats.join(device, again, typed) is None
    assert tower.seats.seat_of(device) == name and tower.names() == [name]
    tower.join(typed)
    assert len(tower.names()) == 2 and not looks_alike(*tower.names())


# Characters a person cannot see (issue 39): each added to a seated "Ann" made a new seat.
UNSEEN = {
    "\ufe0f": "VARIATION SELECTOR-16",
    "\u034f": "COMBINING GRAPHEME JOINER",
    "\u3164": "HANGUL FILLER",
    "\uffa0": "HALFWIDTH HANGUL FILLER",
    "\u17b4": "KHMER VOWEL INHERENT AQ",
    "\U000e0100": "VARIATION SELECTOR-17",
    "\u2800": "BRAILLE PATTERN BLANK",
    "\u115f": "HANGUL CHOSEONG FILLER",
}


@pytest.mark.parametrize("unseen", list(UNSEEN), ids=list(UNSEEN.values()))
def test_a_name_that_differs_from_a_seated_one_only_unseen_is_numbered(table, unseen):
    """Issue 39: "Ann" + an invisible character was seated as a new name, unnumbered. Such a
    character is taken out when a name is cleaned (a blank inside a name is a space): the
    name is "Ann", and numbered."""
    assert clean_name("Ann" + unseen) == "Ann" == clean_name(unseen + "Ann")
    tower = table("Ann")
    tower.join("Ann" + unseen)
    tower.join("A" + unseen + "nn")
    inside = "A nn" if unseen == "\u2800" else "Ann"
    assert tower.names() == ["Ann", "Ann 2", f"{inside} 3"]


def test_an_emoji_keeps_its_presentation_selector_but_it_tells_no_names_apart(table):
    """A red heart is U+2764 U+FE0F: the phone shows the name as typed. Compared, the selector
    counts for nothing, and neither does the emoji, which the displays may not draw: "Mia 🎲"
    beside "Mia 😀" would be two seats both drawn "Mia"."""
    assert clean_name("Mia \u2764\ufe0f") == "Mia \u2764\ufe0f"
    assert clean_name("Mia \U0001f3b2") == "Mia \U0001f3b2"
    tower = table("Mia \u2764\ufe0f")
    tower.join("Mia \u2764")
    tower.join("Mia \U0001f3b2")
    tower.join("Mia")
    assert tower.names() == ["Mia \u2764\ufe0f", "Mia \u2764 2", "Mia \U0001f3b2 3", "Mia 4"]


@settings(max_examples=200)
@given(NAMES, st.sampled_from(sorted(UNSEEN)), st.integers(0, 24))
def test_a_character_nobody_sees_never_tells_two_names_apart(name, unseen, at):
    """Wherever it goes in a name, cleaned or not, an invisible character leaves the name
    looking as it did."""
    added = name[:at] + unseen + name[at:]
    assert looks_alike(name, added) and looks_alike(clean_name(name), clean_name(added))


def test_the_ignorable_table_is_unicodes_default_ignorable_code_points():
    """IGNORABLE is DerivedCoreProperties.txt's Default_Ignorable_Code_Point (Unicode 14.0),
    checked against Perl's copy of the Unicode Character Database (Debian's perl-modules)."""
    perl = shutil.which("perl")
    script = ('for $c (0..0x10FFFF) { print sprintf("%X\\n", $c) '
              'if chr($c) =~ /\\p{Default_Ignorable_Code_Point}/ }')  # fmt: skip
    result = subprocess.run([perl or "perl", "-e", script], capture_output=True, text=True,
                            check=False) if perl else None  # fmt: skip
    if result is None or result.returncode != 0:
        pytest.skip("no perl with its Unicode tables to check against")
    by_perl = {int(code, 16) for code in result.stdout.split()}
    assert by_perl == {code for first, last in IGNORABLE for code in range(first, last + 1)}
    assert all(ignorable(chr(code)) for code in by_perl)
    assert not any(ignorable(chr(code)) for code in (0x41, 0x2800, 0x2764, 0xE1000, 0x10FFFF))
