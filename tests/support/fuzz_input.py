"""A fuzzer's bytes read as a structured input: numbers, choices, text, JSON values.

atheris ships `FuzzedDataProvider` for this, but it is atheris's own C++ and the replays of
`tests/fuzz/test_fuzz_found.py` run without atheris: an input saved under tests/fuzz/found/
must mean the same thing in both. So the door targets read their bytes with this small reader
instead, the same way everywhere; once the bytes run out every read gives its smallest answer,
so any input, even an empty one, is a whole case.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

# Values a careless or hostile sender puts where a number or a name is expected.
ODD_NUMBERS = (0, -1, 1, 255, 256, 65535, 65536, 2**31, -(2**63), 10**30, 1.5, math.nan,
               math.inf, -math.inf, True, False)  # fmt: skip
ODD_TEXT = ("", " ", "red", "Ann", "all", "online", "PRESS", "²", "٣", "\u0000", "\ufffd",
            "\u202e", "\U0001d7d7", "NaN", "1e999", "-0", "0x10", "🎲", "a" * 300)  # fmt: skip


class FuzzInput:
    """Reads `data` from the front; never fails, whatever is left."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    @property
    def left(self) -> int:
        return len(self.data) - self.pos

    def byte(self) -> int:
        if self.pos >= len(self.data):
            return 0
        self.pos += 1
        return self.data[self.pos - 1]

    def number(self, low: int, high: int) -> int:
        """A whole number in low..high, from as few bytes as the range needs."""
        span = high - low
        value, shift = 0, 0
        while span >> shift:
            value |= self.byte() << shift
            shift += 8
        return low + value % (span + 1)

    def flag(self) -> bool:
        return bool(self.byte() & 1)

    def pick(self, choices: Sequence[T]) -> T:
        return choices[self.number(0, len(choices) - 1)]

    def raw(self, most: int = 255) -> bytes:
        """A run of bytes, its length first."""
        size = min(self.number(0, most), self.left)
        self.pos += size
        return self.data[self.pos - size : self.pos]

    def rest(self) -> bytes:
        chunk, self.pos = self.data[self.pos :], len(self.data)
        return chunk

    def text(self, most: int = 64) -> str:
        """Text: an odd string a sender might try, or bytes read as UTF-8 (what does not
        decode becomes U+FFFD), or single code points anywhere in Unicode (no surrogates)."""
        how = self.byte() % 4
        if how == 0:
            return self.pick(ODD_TEXT)
        if how == 3:
            points = (self.number(0, 0x10FFFF) for _ in range(self.number(0, 8)))
            return "".join(chr(p) for p in points if not 0xD800 <= p <= 0xDFFF)
        return self.raw(most).decode("utf-8", "replace")

    def whole(self) -> Any:
        """A number a sender might put in a field: small, odd (bools, floats), or large."""
        how = self.byte() % 4
        if how == 0:
            return self.pick(ODD_NUMBERS)
        if how == 1:
            return self.number(-(2**40), 2**40)
        return self.number(0, 20)

    def json(self, depth: int = 2) -> Any:
        """Any value JSON carries (and NaN, which Python's json reads and writes)."""
        kind = self.byte() % (7 if depth > 0 else 5)
        if kind == 0:
            return None
        if kind == 1:
            return self.flag()
        if kind == 2:
            return self.whole()
        if kind in (3, 4):
            return self.text()
        if kind == 5:
            return [self.json(depth - 1) for _ in range(self.number(0, 6))]
        return {self.text(16): self.json(depth - 1) for _ in range(self.number(0, 6))}
