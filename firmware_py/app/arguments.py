"""The command line's values, checked as argparse reads them: every mistake is one sentence
on standard error and exit status 2, never a traceback.

argparse already answers a wrong option with status 2, but with a usage block first; the
`OneLineParser` says only what is wrong and where to look. Each `type=` function here turns the
typed text into the value the tower uses, or refuses it in words a player understands.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NoReturn

from firmware_py import __version__
from firmware_py.seating import LEVELS, MAX_SEATS, NAME_LENGTH
from sheets import sheet_names


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose mistakes are one line: what is wrong, and where help is."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


class VersionAction(argparse.Action):
    """`--version`: prints `version_words()` and exits, looking the version up only when asked
    (reading the installed package's metadata costs every start about 0.03 s of CPU)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 help: str = "show the version and exit") -> None:  # fmt: skip
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> NoReturn:
        print(version_words())
        parser.exit()


def version_words() -> str:
    """`qwixx-tower 0.1.0`: the installed package's version, else the source tree's."""
    from importlib import metadata  # only when asked (VersionAction)

    try:
        version = metadata.version("qwixx-tower")
    except metadata.PackageNotFoundError:
        version = __version__
    return f"qwixx-tower {version}"


def variant_name(text: str) -> str:
    """A sheet's name, whatever its letters' case: `Longo` is `longo`."""
    name = sheet_named(text)
    if name is None:
        known = ", ".join(sheet_names())
        raise argparse.ArgumentTypeError(f"unknown variant {text!r}: one of {known}")
    return name


def sheet_named(text: str) -> str | None:
    """The sheet `text` names whatever its letters' case (`run --variant`, `sheets show`), or
    None when no sheet has that name."""
    return one_of(sheet_names(), text)


def one_of(names: Iterable[str], text: str) -> str | None:
    """The one of `names` that `text` names whatever its letters' case and the spaces around
    it (`longo` is `Longo`), or None: a name typed on the command line."""
    wanted = text.strip().casefold()
    return next((name for name in names if name.casefold() == wanted), None)


def names_list(text: str) -> list[str]:
    """Comma-separated players' names: 1 to 5, different, printable, not too long."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not 1 <= len(names) <= MAX_SEATS:
        raise argparse.ArgumentTypeError(
            f"give 1 to {MAX_SEATS} names separated by commas, not {len(names)} ({text!r})"
        )
    folded = [name.casefold() for name in names]
    for name, key in zip(names, folded, strict=True):
        if folded.count(key) > 1:
            raise argparse.ArgumentTypeError(f"{name!r} is named twice: each player needs a name")
    return [player_name(name) for name in names]


def player_name(text: str) -> str:
    """One player's name (--human): printable, not blank, not too long; spaces around it go."""
    name = text.strip()
    if not name:
        raise argparse.ArgumentTypeError(f"a player needs a name, not {text!r}")
    if not name.isprintable():
        raise argparse.ArgumentTypeError(f"{name!r} holds a control character")
    if len(name) > NAME_LENGTH:
        raise argparse.ArgumentTypeError(f"{name!r} is longer than {NAME_LENGTH} characters")
    return name


def seat_level(text: str) -> tuple[str, str]:
    """`--level hard` (every computer seat) or `--level Ada=hard` (one): (name or "", level)."""
    name, _, level = text.rpartition("=")
    level = level.strip().casefold()
    if level not in LEVELS:
        raise argparse.ArgumentTypeError(
            f"unknown level {text.rpartition('=')[2].strip()!r}: one of {', '.join(LEVELS)}"
        )
    return name.strip(), level


def number_from(low: float, high: float) -> Callable[[str], float]:
    """A type= for a number of seconds from `low` to `high`."""

    def number(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not low <= value <= high:  # NaN fails too
            raise argparse.ArgumentTypeError(
                f"must be a number of seconds from {low:g} to {high:g}, not {text!r}"
            )
        return value

    return number


def whole_number_from(low: int, high: int) -> Callable[[str], int]:
    """A type= for a whole number from `low` to `high`."""

    def whole_number(text: str) -> int:
        digits = text.strip().removeprefix("-")
        # int() takes other scripts' digits ("٣"); a number from outside is ASCII digits
        value = int(text) if digits.isascii() and digits.isdigit() else low - 1
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"must be a whole number from {low} to {high}, not {text!r}"
            )
        return value

    return whole_number


def screens_folder(text: str) -> Path:
    """A folder the tower can write its screens' pictures in (made if missing)."""
    folder = Path(text)
    if folder.exists() and not folder.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a file: give a folder for the pictures")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass  # a real write: permissions, a read-only disk, a full one all show here
    except OSError as error:
        raise argparse.ArgumentTypeError(
            f"cannot write pictures in {text}: {error.strerror or error}"
        ) from error
    return folder


def say_and_fail(words: str) -> int:
    """One sentence on standard error; the exit status of a command-line mistake."""
    print(words, file=sys.stderr)
    return 2
