"""A TOML file a person wrote (the configuration, a sheet), read: its tables, or NotToml in
one sentence that names the file and what to do.

tomllib has three failures besides TOMLDecodeError: text that is not UTF-8, a byte order mark
(Notepad writes one; tomllib refuses it, so it is dropped), and arrays or tables nested past
Python's recursion limit, which raise RecursionError. And a file may be no TOML at all:
`--config /dev/zero` read on until memory ran out, so at most TOML_MOST bytes are read.
OSError is left to the caller, whose words for a missing file differ (the tower's
configuration, the league's, a sheet).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from firmware_py.errors import TowerError

TOML_MOST = 1_000_000  # bytes: a whole configuration is a few kB, a sheet one or two


class NotToml(TowerError):
    """A file that is not TOML in UTF-8, said in one sentence."""


def toml_file(path: Path) -> dict[str, Any]:
    """The tables of the TOML file at `path`; NotToml for one that is not; OSError as met."""
    try:
        return tomllib.loads(_text_of(path))
    except UnicodeDecodeError as error:
        raise NotToml(
            f"{path.name}: not UTF-8 text (byte {error.start + 1}): save it as UTF-8"
        ) from error
    except tomllib.TOMLDecodeError as error:
        raise NotToml(f"{path.name}: not valid TOML: {error}") from error
    except RecursionError as error:  # arrays or tables in each other past Python's depth
        raise NotToml(f"{path.name}: not valid TOML: nested too deeply") from error


def _text_of(path: Path) -> str:
    """The file's text, a byte order mark dropped (Notepad writes one); NotToml past TOML_MOST
    bytes (read no further: a FIFO or a device has no size to look at first)."""
    with path.open("rb") as file:
        data = file.read(TOML_MOST + 1)
    if len(data) > TOML_MOST:
        raise NotToml(
            f"{path.name}: longer than {TOML_MOST // 1_000_000} MB, which no configuration or "
            "sheet is: is it the right file?"
        )
    return data.decode("utf-8-sig")
