"""Fuzz targets for what a maker writes by hand on the tower's disk (tools/fuzz.py): the
tower's configuration, the league's, and a sheet file. Each file is read by the tower's own
loader from a real file, and the target raises only on a bug: anything but the loader's own
error in words (ConfigError, SheetError) means a mistake in a file would end in a traceback.

A file that loads is then used as far as the start uses it without the network or writing:
each host name is encoded as the resolver encodes it (socket.getaddrinfo's first step, where
"a..b" raises UnicodeError) and each path is looked at (os.stat, where a NUL raises
ValueError), so that a value the loader lets through but the start cannot use is found here.
Not done: connecting, listening, reading the password files, globbing the pads' ports, making
the state folder (a fuzzed path may be anywhere on this machine). A sheet that loads is played:
a game of two on it, by random players to its end, as the rules play any variant.

Kept inputs: tests/fuzz/seeds/TARGET/ (the shipped example configuration and sheets, so that
mutation starts from files that load) and tests/fuzz/found/TARGET/ (what made a target fail).
"""

from __future__ import annotations

import contextlib
import os
import random
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from firmware_py.app.config import ConfigError, load_config
from firmware_py.app.config.league import LeagueConfig, load_league_config
from firmware_py.app.config.settings import TowerConfig
from firmware_py.bus.settings import MqttConfig
from firmware_py.rules import Game, Refused, tables
from firmware_py.rules.rollout import play_out
from sheets import Sheet, SheetError, load_sheet_file

_FOLDER = tempfile.TemporaryDirectory(prefix="qwixx-fuzz-disk-")  # removed when the process ends
FOLDER = Path(_FOLDER.name)


def _written(data: bytes) -> Path:
    """`data` as the file a maker saved."""
    path = FOLDER / "written.toml"
    path.write_bytes(data)
    return path


def _used(hosts: Iterable[str], paths: Iterable[Path | None]) -> None:
    """What the start does first with the values, short of the network and of writing."""
    for host in hosts:
        host.encode("idna")  # as socket.getaddrinfo does before it asks anyone
    for path in paths:
        if path is not None:
            with contextlib.suppress(OSError):  # (missing, or not ours to see: said in words)
                os.stat(path)


def _broker(mqtt: MqttConfig | None) -> tuple[list[str], list[Path | None]]:
    if mqtt is None:
        return [], []
    return [mqtt.host], [mqtt.ca_file, mqtt.password_file]


def tower_config(data: bytes) -> None:
    try:
        config: TowerConfig = load_config(_written(data))
    except ConfigError as error:
        assert str(error), "a configuration refused without words"
        return
    hosts, paths = _broker(config.mqtt)
    _used([*hosts, config.web.host], [*paths, config.state_dir])


def league_config(data: bytes) -> None:
    try:
        config: LeagueConfig = load_league_config(_written(data))
    except ConfigError as error:
        assert str(error), "a league configuration refused without words"
        return
    hosts, paths = _broker(config.mqtt)
    _used([*hosts, config.host], [*paths, config.database, config.organiser_password_file])


def sheet_file(data: bytes) -> None:
    try:
        sheet = load_sheet_file(_written(data))
    except SheetError as error:
        assert str(error), "a sheet refused without words"
        return
    _played(sheet)


def _played(sheet: Sheet) -> None:
    """A game of two on `sheet` played to its end: a sheet that loads is one the rules can
    play (or refuse in words, as a Longo game without its lucky numbers)."""
    try:
        play_out(Game(sheet, ["Ann", "Ben"]), random.Random(0))
    except Refused as error:
        assert str(error), "a game refused without words"
    finally:
        _forget_tables(sheet)


def _forget_tables(sheet: Sheet) -> None:
    """The rules keep each sheet's tables for good (a tower reads each sheet once); here
    each input is a new sheet, and kept they grew the fuzzer by 10 MB a second."""
    tables._TABLES.pop(id(sheet), None)


TARGETS: dict[str, Callable[[bytes], None]] = {
    "tower_config": tower_config,
    "league_config": league_config,
    "sheet_file": sheet_file,
}
