"""Fuzz target for the command line (tools/fuzz.py): any list of arguments given to
`qwixx-tower` (docs/commands.md) ends in the parsed options or in the one-line usage error
(`OneLineParser`: exit status 2, the mistake in words), never a traceback. For `run` without
--config, the seats are then asked as `main()` asks them before the tower starts
(`asked_seats`: a ConfigError in words, or the seats). Nothing is started: no tower, display,
league or serial port.

The arguments are what a real argv can carry: any text but NUL, and bytes that are not UTF-8
decoded as Python decodes argv (`os.fsdecode`: surrogates). Kept inputs: tests/fuzz/seeds/
command_line/ (the command lines of docs/commands.md) and tests/fuzz/found/command_line/.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from unittest import mock

from support.fuzz_input import ODD_TEXT, FuzzInput

from firmware_py.app import cli
from firmware_py.app.arguments import screens_folder
from firmware_py.app.asked import asked_seats
from firmware_py.app.config import ConfigError, TowerConfig, load_config

_FOLDER = tempfile.TemporaryDirectory(prefix="qwixx-fuzz-argv-")  # removed when the process ends
FOLDER = Path(_FOLDER.name)

# Every command, action and option docs/commands.md names, and a few near misses.
WORDS = ("run", "demo", "pad", "install", "replay", "doctor", "history", "sheets", "list",
         "show", "league", "--config", "--variant", "--players", "--human", "--pace", "--games",
         "--look-ahead", "--level", "--state-dir", "--plain", "--screens", "--new", "--player",
         "--game", "--json", "--csv", "--database", "--rebuild", "--version", "--help", "-h",
         "--", "-", "--var", "--play", "--gam", "--players=", "--level=", "hard", "Ada=hard",
         "easy", "=", "classic", "Longo", "Ann,Ben,Cleo", "Ann,ann", ",,,", "0", "-1", "1e999",
         "nan", "1000001", "99999999999999999999", "0.8", "/dev/ttyACM0", "ann")  # fmt: skip


def argument(fuzz: FuzzInput) -> str:
    """One argument as a shell hands it over: a known word, odd text, or any bytes."""
    how = fuzz.number(0, 3)
    if how == 0:
        text = fuzz.pick(WORDS)
    elif how == 1:
        text = fuzz.pick(ODD_TEXT)
    elif how == 2:
        text = fuzz.text(40)
    else:
        text = os.fsdecode(fuzz.raw(40))  # undecodable bytes become surrogates, as in sys.argv
    return text.replace("\x00", "")  # an argv is C strings: no NUL in them


def arguments(fuzz: FuzzInput) -> list[str]:
    return [argument(fuzz) for _ in range(fuzz.number(0, 12))]


@functools.cache
def _default_config() -> TowerConfig:
    return load_config(None)


def _screens_here(text: str) -> Path:
    """`--screens` checks a folder by writing in it: here always the fuzzer's own folder."""
    return screens_folder(str(FOLDER / "screens"))


def command_line(data: bytes) -> None:
    argv = arguments(FuzzInput(data))
    said = io.StringIO()
    with (
        mock.patch.object(cli, "screens_folder", _screens_here),
        contextlib.redirect_stderr(said),
        contextlib.redirect_stdout(io.StringIO()),
    ):
        try:
            args = cli._parser().parse_args(argv)
        except SystemExit as exit:
            assert exit.code in (0, 2), f"{argv!r} exited {exit.code!r}"
            if exit.code == 2:
                assert said.getvalue().startswith("qwixx-tower"), f"{argv!r}: {said.getvalue()!r}"
                assert "(see qwixx-tower" in said.getvalue(), f"{argv!r}: {said.getvalue()!r}"
            return
    _seats_asked(args)


def _seats_asked(args: argparse.Namespace) -> None:
    """`run`'s seats, as `_run` asks them before the tower starts (a --config is a file the
    target does not read: the configuration's own fuzz target reads files)."""
    if getattr(args, "handler", None) is not cli._run or args.config is not None:
        return
    try:
        seats = asked_seats(args, _default_config())
    except ConfigError as error:
        assert str(error), "seats refused without words"
        return
    assert seats, "a tower started with no seat"


TARGETS: dict[str, Callable[[bytes], None]] = {"command_line": command_line}
