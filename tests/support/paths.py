"""Where things are, for tests at any depth under tests/: the checkout, the golden pictures and
the scripts that MicroPython runs."""

from pathlib import Path

SUPPORT = Path(__file__).resolve().parent
ROOT = SUPPORT.parents[1]  # the checkout
GOLDEN = ROOT / "tests" / "golden"
MICROPYTHON = SUPPORT / "micropython"
