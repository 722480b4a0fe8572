"""The words docs/troubleshooting.md and docs/pads.md quote are words the tower or a pad says:
a maker matches them against a screen or a log line, so words the product no longer says (the
pads' table quoted a pad asking "which row?", where it says "row? press one") send them
looking for something that never comes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "docs" / "troubleshooting.md", ROOT / "docs" / "pads.md"]
PRODUCT = [ROOT / "firmware_py", ROOT / "drivers"]
SAID_IN = ("*.py", "*.html", "*.js")
EXAMPLE_NAMES = ("Zoe", "Dora")  # a page's example players, in words the tower fills in
QUOTE = re.compile(r'"([^"]+)"')


def one_line(text: str) -> str:
    return " ".join(text.split())


def quotes(page: Path) -> list[str]:
    """The double-quoted words of `page`, outside code spans, on one line each (a quote may
    be wrapped); an inch mark (1.3") is no quote."""
    text = re.sub(r"`[^`]*`", "", page.read_text(encoding="utf-8"))
    text = re.sub(r'(\d\.\d+)"', r"\1 inch", text)
    return [one_line(words) for words in QUOTE.findall(text)]


def headings() -> set[str]:
    """Every heading of the docs: a quote that names one is a section, not product words."""
    pages = [ROOT / "README.md", ROOT / "wiring.md", *(ROOT / "docs").glob("*.md")]
    lines = (line for page in pages for line in page.read_text(encoding="utf-8").splitlines())
    return {line.lstrip("#").strip() for line in lines if line.startswith("#")}


def product_text() -> str:
    """All the product's source on one line, string literals split over lines joined again."""
    files = (path for folder in PRODUCT for pattern in SAID_IN for path in folder.rglob(pattern))
    text = one_line("\n".join(path.read_text(encoding="utf-8") for path in sorted(files)))
    return re.sub(r'" f?"', "", text)


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
    quoted = [quote for quote in quotes(page) if quote not in sections]
    assert quoted, f"{page.name} quotes nothing: the test reads it wrong"
    unsaid = [piece for quote in quoted for piece in fragments(quote) if piece not in said]
    assert not unsaid, f"{page.name} quotes words the product does not say: {unsaid}"
