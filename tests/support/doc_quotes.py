"""What the docs quote, and what the product says: for the tests that hold a page's quotes to
the product's own words (tests/system/test_docs_quotes*.py)."""

from __future__ import annotations

import re

from support.paths import ROOT

PRODUCT = [ROOT / "firmware_py", ROOT / "drivers"]
SAID_IN = ("*.py", "*.html", "*.js")
QUOTE = re.compile(r'"([^"]+)"')


def one_line(text: str) -> str:
    return " ".join(text.split())


def product_text() -> str:
    """All the product's source on one line, string literals split over lines joined again (a
    quote may run across two of them)."""
    files = (path for folder in PRODUCT for pattern in SAID_IN for path in folder.rglob(pattern))
    text = one_line("\n".join(path.read_text(encoding="utf-8") for path in sorted(files)))
    return re.sub(r'" f?"', "", text)


def quotes(text: str) -> list[str]:
    """The double-quoted words of a page's `text`, outside code blocks and spans, on one line
    each (a quote may be wrapped)."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return [one_line(words) for words in QUOTE.findall(re.sub(r"`[^`]*`", "", text))]


def headings() -> set[str]:
    """Every heading of the docs: a quote that names one is a section, not product words."""
    pages = [ROOT / "README.md", ROOT / "wiring.md", *(ROOT / "docs").glob("*.md")]
    lines = (line for page in pages for line in page.read_text(encoding="utf-8").splitlines())
    return {line.lstrip("#").strip() for line in lines if line.startswith("#")}
