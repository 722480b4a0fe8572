"""JSON read from outside the process (the bus, a phone, a file on disk): a value, or
ValueError for anything that is not one.

`json.loads` lets three things through that the code after it cannot take, besides its own
`JSONDecodeError` (a ValueError): arrays nested past Python's recursion limit ("[" a thousand
times: 1,000 bytes, within every message's size limit) raise RecursionError; an integer of
more than 4,300 digits a plain ValueError; and "\\ud800", an escape JSON allows, reads as a
lone surrogate, text that is not Unicode, which no encoder takes (UnicodeEncodeError wherever
it is written or compared). A reader that caught only ValueError let the first through: one
such message on a result topic stopped the league; the last closed a phone's connection.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

SURROGATE = re.compile("[\ud800-\udfff]")
ESCAPED = re.compile(r"\\u[dD][89a-fA-F]")  # the escape of a surrogate, "\\udc80"
ESCAPED_BYTES = re.compile(rb"\\u[dD][89a-fA-F]|\xed[\xa0-\xbf]")  # or its three UTF-8 bytes


def json_value(text: str | bytes) -> Any:
    """`text` read as JSON; ValueError (saying why) for anything else, however deep."""
    try:
        value = json.loads(text)
    except RecursionError as error:
        raise ValueError("nested too deeply") from error
    if _may_hold_a_surrogate(text) and any(SURROGATE.search(one) for one in texts_in(value)):
        raise ValueError("text that is not Unicode (a lone surrogate)")
    return value


def _may_hold_a_surrogate(text: str | bytes) -> bool:
    """Cheap, on the text: only a surrogate's escape, or one as such (json.loads decodes bytes
    with "surrogatepass"), can give a surrogate. Most lines have no "\\u" and are ASCII, which
    a substring test and isascii() tell at memchr's speed: no regular expression, no walk (the
    journal's lines are read by the hundred thousand at a first start)."""
    if isinstance(text, bytes):
        return (b"\\u" in text or b"\xed" in text) and ESCAPED_BYTES.search(text) is not None
    if "\\u" in text and ESCAPED.search(text):
        return True
    return not text.isascii() and SURROGATE.search(text) is not None


def texts_in(value: Any) -> Iterator[str]:
    """Every text of a value read from JSON or TOML, its tables' keys too, however deep
    (walked without recursion: a value may be nested nearly as deep as Python allows)."""
    waiting = [value]
    while waiting:
        one = waiting.pop()
        if isinstance(one, str):
            yield one
        elif isinstance(one, dict):
            waiting.extend(one)
            waiting.extend(one.values())
        elif isinstance(one, list):
            waiting.extend(one)
