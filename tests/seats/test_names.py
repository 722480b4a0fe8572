"""Names that look alike are one seat's: Unicode TR39's skeleton, from Unicode's own
confusables.txt (issue 22), with case folded too. Cyrillic "Вот" beside the computer "Bot",
full-width "Ａｎｎ" beside "Ann", "Ian" beside "lan" are numbered, as a player reading the
display could not tell them apart; a phone back in its seat is never refused its own name."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from support.table import make_table

from firmware_py.seating import PHONE
from firmware_py.seats.devices import RemoteSeats
from firmware_py.seats.names import clean_name, looks_alike, skeleton, why_not_name

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
