"""The words docs/troubleshooting.md and docs/pads.md quote are words the tower or a pad says:
a maker matches them against a screen or a log line, so words the product no longer says (the
pads' table quoted a pad asking "which row?", where it says "row? press one") send them
looking for something that never comes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.doc_quotes import headings, product_text, quotes
from support.paths import ROOT

PAGES = [ROOT / "docs" / "troubleshooting.md", ROOT / "docs" / "pads.md"]
EXAMPLE_NAMES = ("Zoe", "Dora")  # a page's example players, in words the tower fills in
INCH = re.compile(r'(\d\.\d+)"')  # 1.3" is a display's size, not a quote's end


def quoted_in(page: Path) -> list[str]:
    return quotes(INCH.sub(r"\1 inch", page.read_text(encoding="utf-8")))


def fragments(quote: str) -> list[str]:
    """The pieces of a quote the product says as written: "..." stands for what it fills in
    (a port, a name), and after a colon may come words said in another place."""
    pieces = (piece.strip() for part in quote.split("...") for piece in part.split(": "))
    return [piece for piece in pieces if piece and not any(n in piece for n in EXAMPLE_NAMES)]


@pytest.fixture(scope="module")
def said() -> str:
    return product_text()


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_quoted_sentence_is_one_the_product_says(page, said):
    sections = headings()
    quoted = [quote for quote in quoted_in(page) if quote not in sections]
    assert quoted, f"{page.name} quotes nothing: the test reads it wrong"
    unsaid = [piece for quote in quoted for piece in fragments(quote) if piece not in said]
    assert not unsaid, f"{page.name} quotes words the product does not say: {unsaid}"
