"""The words docs/league.md and docs/home-assistant.md quote are words the league, the tower or
its page says. Unlike troubleshooting.md's (test_docs_quotes.py), these quotes show a line as a
reader meets it, with the values filled in ("kitchen: between games / its clock is 3 h 12 min
behind the league's"), so each page names its example values (a table, a player, a time, a
broker's address): they and every number are taken out, and what is left, piece by piece, is
in the product's source. An organiser matching the page against the log or the screen, or a
family writing an automation on a log line, then finds the words the page promised.
"""

from __future__ import annotations

import re

import pytest
from support.doc_quotes import headings, product_text, quotes
from support.paths import ROOT

NUMBER = r"\d+(?:[.:]\d+)*(?: ?(?:h|min|s|ms|MB|KB|%))?\b"  # a count, a time, a span
SEAMS = re.compile(r"\.\.\.|: | / | \(|\)")  # where a line joins words said in two places
# league.md's example tables, players and tournament, and what the product fills in there
TABLES = ["Friday cup", "kitchen", "t1", "t2", "t3"]
PLAYERS = ["Ann", "Ben", "Cleo", "Zoe", "Zoë", "Dan", "Ian", "Player 2"]
FILLED = ["'12a'", "database is locked", "/var/lib/qwixx-league/league.sqlite", "league.toml"]
# the German championship's announcement, quoted as its organisers wrote it
CHAMPIONSHIP = (
    "fünf Runden mit allen Teilnehmern, deren Tischzusammensetzung vor jeder Runde neu ausgelost "
    "wird"
)
HOME_VALUES = ["kitchen", "homeassistant.local:8883", "'qwixx/kitchen/command/new_game'", "'HELLO'"]
PAGES = {  # page: (its example values, its quotes that are not the product's words)
    "league.md": ([*TABLES, *PLAYERS, *FILLED], [CHAMPIONSHIP]),
    "home-assistant.md": (HOME_VALUES, ["Automations"]),  # (Home Assistant's own menu)
}


def pieces(quote: str, examples: list[str]) -> list[str]:
    """The words of `quote` the product says as written: split where a line joins two
    sayings and at each example value or number, keeping the pieces with a word in them."""
    values = [re.escape(value) for value in sorted(examples, key=len, reverse=True)]
    value = re.compile("|".join([*values, NUMBER]))
    cut = (piece.strip(" .,;") for part in SEAMS.split(quote) for piece in value.split(part))
    return [piece for piece in cut if sum(char.isalpha() for char in piece) >= 4]


@pytest.fixture(scope="module")
def said() -> str:
    """The product's words in small letters (a quote's first word may begin a sentence)."""
    return product_text().lower()


@pytest.mark.parametrize("name", PAGES)
def test_every_quoted_line_is_one_the_product_says_with_its_values_filled_in(name, said):
    examples, not_ours = PAGES[name]
    sections = headings()
    page = (ROOT / "docs" / name).read_text(encoding="utf-8")
    quoted = [q for q in quotes(page) if q not in sections and q not in not_ours]
    assert len(quoted) > 10, f"{name} quotes almost nothing: the test reads it wrong"
    unsaid = [piece for q in quoted for piece in pieces(q, examples) if piece.lower() not in said]
    assert not unsaid, f"{name} quotes words the product does not say: {unsaid}"
