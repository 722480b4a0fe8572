"""JSON read from outside the process (the bus, a phone, a file on disk): a value, or
ValueError for anything that is not one.

`json.loads` has two failures besides `JSONDecodeError` (itself a ValueError): arrays nested
past Python's recursion limit ("[" a thousand times: 1,000 bytes, within every message's
size limit) raise RecursionError, and an integer of more than 4,300 digits a plain ValueError.
A reader that caught only ValueError let the first through: one such message on a result
topic stopped the league.
"""

from __future__ import annotations

import json
from typing import Any


def json_value(text: str | bytes) -> Any:
    """`text` read as JSON; ValueError (saying why) for anything else, however deep."""
    try:
        return json.loads(text)
    except RecursionError as error:
        raise ValueError("nested too deeply") from error
