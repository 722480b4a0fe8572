"""Fuzz targets for what a maker writes by hand on the tower's disk (tools/fuzz.py): the
tower's configuration, the league's, and a sheet file. Each file is read by the tower's own
loader from a real file, and the target raises only on a bug: anything but the loader's own
error in words (ConfigError, SheetError) means a mistake in a file would end in a traceback.

Kept inputs: tests/fuzz/seeds/TARGET/ (the shipped example configuration and sheets, so that
mutation starts from files that load) and tests/fuzz/found/TARGET/ (what made a target fail).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from firmware_py.app.config import ConfigError, load_config
from firmware_py.app.config.league import load_league_config
from sheets import SheetError, load_sheet_file

_FOLDER = tempfile.TemporaryDirectory(prefix="qwixx-fuzz-disk-")  # removed when the process ends
FOLDER = Path(_FOLDER.name)


def _written(data: bytes) -> Path:
    """`data` as the file a maker saved."""
    path = FOLDER / "written.toml"
    path.write_bytes(data)
    return path


def tower_config(data: bytes) -> None:
    try:
        load_config(_written(data))
    except ConfigError as error:
        assert str(error), "a configuration refused without words"


def league_config(data: bytes) -> None:
    try:
        load_league_config(_written(data))
    except ConfigError as error:
        assert str(error), "a league configuration refused without words"


def sheet_file(data: bytes) -> None:
    try:
        load_sheet_file(_written(data))
    except SheetError as error:
        assert str(error), "a sheet refused without words"


TARGETS: dict[str, Callable[[bytes], None]] = {
    "tower_config": tower_config,
    "league_config": league_config,
    "sheet_file": sheet_file,
}
