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
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = [ROOT / "firmware_py", ROOT / "drivers"]
SAID_IN = ("*.py", "*.html", "*.js")
QUOTE = re.compile(r'"([^"]+)"')
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


def one_line(text: str) -> str:
    return " ".join(text.split())


def product_text() -> str:
    """All the product's source on one line, in small letters, string literals split over
    lines joined again (a quote's first word may begin the product's sentence)."""
    files = (path for folder in PRODUCT for pattern in SAID_IN for path in folder.rglob(pattern))
    text = one_line("\n".join(path.read_text(encoding="utf-8") for path in sorted(files)))
    return re.sub(r'" f?"', "", text).lower()


def quotes(page: Path) -> list[str]:
    """The double-quoted words of `page`, outside code blocks and spans, on one line each."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return [one_line(words) for words in QUOTE.findall(re.sub(r"`[^`]*`", "", text))]


def headings() -> set[str]:
    """Every heading of the docs: a quote that names one is a section, not product words."""
    pages = [ROOT / "README.md", ROOT / "wiring.md", *(ROOT / "docs").glob("*.md")]
    lines = (line for page in pages for line in page.read_text(encoding="utf-8").splitlines())
    return {line.lstrip("#").strip() for line in lines if line.startswith("#")}


def pieces(quote: str, examples: list[str]) -> list[str]:
    """The words of `quote` the product says as written: split where a line joins two
    sayings and at each example value or number, keeping the pieces with a word in them."""
    values = [re.escape(value) for value in sorted(examples, key=len, reverse=True)]
    value = re.compile("|".join([*values, NUMBER]))
    cut = (piece.strip(" .,;") for part in SEAMS.split(quote) for piece in value.split(part))
    return [piece for piece in cut if sum(char.isalpha() for char in piece) >= 4]


@pytest.fixture(scope="module")
def said() -> str:
    return product_text()


@pytest.mark.parametrize("name", PAGES)
def test_every_quoted_line_is_one_the_product_says_with_its_values_filled_in(name, said):
    examples, not_ours = PAGES[name]
    sections = headings()
    quoted = [q for q in quotes(ROOT / "docs" / name) if q not in sections and q not in not_ours]
    assert len(quoted) > 10, f"{name} quotes almost nothing: the test reads it wrong"
    unsaid = [piece for q in quoted for piece in pieces(q, examples) if piece.lower() not in said]
    assert not unsaid, f"{name} quotes words the product does not say: {unsaid}"
