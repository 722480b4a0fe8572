"""Every libFuzzer dictionary under tests/fuzz/dicts/ is one libFuzzer reads, for a target that
exists: tools/fuzz.py passes `-dict=` only where TARGET.dict is found, and libFuzzer refuses a
whole dictionary for one bad line (the run then stops before its first input), while a token
longer than 64 bytes is dropped without a word. A typo must fail here, not silently cost a
target its dictionary.

The reading below is libFuzzer's (`ParseDictionaryFile` in FuzzerUtil.cpp): a line empty or
starting with "#" is skipped; any other is `"..."`, optionally after a name and "=", with only
`\\\\`, `\\"` and `\\xNN` escapes, printable ASCII or spaces between the quotes, and nothing after
the closing quote (an inline comment breaks it).
"""

from __future__ import annotations

import re
import string

import pytest
from support.paths import ROOT

FUZZ = ROOT / "tests" / "fuzz"
DICTS = sorted((FUZZ / "dicts").glob("*"))
LONGEST = 64  # libFuzzer's Word::GetMaxSize(): longer tokens are left out silently
NAME = re.compile(r"[A-Za-z0-9_]+(@[0-9]+)?=")
PRINTABLE = set(string.printable.encode())  # C's isprint() or isspace(), as libFuzzer allows


def token(line: str) -> bytes:
    """The bytes libFuzzer reads from one dictionary line; ValueError where it would refuse
    the whole file."""
    text = line.strip()
    start = text.find('"')
    if not text.endswith('"') or start >= len(text) - 2:
        raise ValueError("not a quoted token of at least one byte")
    if text[:start] and not NAME.fullmatch(text[:start]):
        raise ValueError(f"{text[:start]!r} before the token is no name=")
    return unescaped(text[start + 1 : -1].encode())


def unescaped(quoted: bytes) -> bytes:
    word, at = bytearray(), 0
    while at < len(quoted):
        byte = quoted[at]
        if byte not in PRINTABLE:
            raise ValueError(f"byte {byte:#x} must be written \\x{byte:02X}")
        if byte != ord("\\"):
            word.append(byte)
            at += 1
        elif quoted[at + 1 : at + 2] in (b"\\", b'"'):
            word += quoted[at + 1 : at + 2]
            at += 2
        elif re.fullmatch(rb"x[0-9A-Fa-f]{2}", quoted[at + 1 : at + 4]):
            word.append(int(quoted[at + 2 : at + 4], 16))
            at += 4
        else:
            raise ValueError(f"an escape libFuzzer does not know: {quoted[at : at + 4]!r}")
    return bytes(word)


def tokens(text: str) -> list[bytes]:
    """Every token of a dictionary, as libFuzzer reads the file."""
    found = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            found.append(token(line))
        except ValueError as error:
            raise ValueError(f"line {number}: {line!r}: {error}") from None
    return found


def test_every_target_has_a_dictionary():
    """A reader's words and traps are what mutation alone seldom builds (a 64-letter label, a
    lone surrogate, a seat record of a blank name were found through dictionaries): a new
    target comes with its own."""
    from test_fuzz_found import TARGETS

    named = {path.stem for path in DICTS}
    assert sorted(set(TARGETS) - named) == []


@pytest.mark.parametrize("path", DICTS, ids=lambda p: p.name)
def test_a_dictionary_is_read_whole_by_libfuzzer_for_a_target_that_exists(path):
    from test_fuzz_found import TARGETS

    assert path.suffix == ".dict", f"{path.name}: tools/fuzz.py reads only TARGET.dict"
    assert path.stem in TARGETS, f"{path.name} names no target; there are {sorted(TARGETS)}"
    words = tokens(path.read_bytes().decode("latin-1"))
    assert words, f"{path.name} has no token"
    too_long = [word for word in words if len(word) > LONGEST]
    assert not too_long, f"{path.name}: libFuzzer drops tokens over {LONGEST} bytes: {too_long}"


def test_the_traps_the_lead_found_by_reading_are_in_the_dictionaries():
    """The four kinds of input hours of fuzzing missed (JSON and TOML nested past Python's
    depth, a time that overflows, a NUL as TOML writes it, a host name IDNA refuses)."""
    words = {path.stem: set(tokens(path.read_bytes().decode("latin-1"))) for path in DICTS}
    for name in ("league_bus", "bus_inbox", "phone_messages", "game_log", "history_index"):
        assert b"[" * 64 in words[name], name
    for name in ("league_bus", "bus_inbox", "game_log", "history_index"):
        assert {b"0001-01-01T00:00:00+01:00", b"9999-12-31T23:59:59-01:00"} <= words[name], name
    for name in ("tower_config", "league_config", "sheet_file"):
        assert {b"[" * 64, b"\\u0000"} <= words[name], name
    for name in ("tower_config", "league_config"):
        assert {b"..", b"a" * 64} <= words[name], name


@pytest.mark.parametrize(
    ("line", "read"),
    [('"abc"', b"abc"), ('  key_1="a\\"b"  ', b'a"b'), ('x="\\\\u0000"', b"\\u0000"),
     ('"\\x0A["', b"\n["), ('kw1@3="\\xff"', b"\xff"), ('"a b\tc"', b"a b\tc")],
)  # fmt: skip
def test_the_reading_takes_what_libfuzzer_takes(line, read):
    assert tokens(f"# a comment\n\n{line}\n") == [read]


@pytest.mark.parametrize(
    "line",
    [
        '"abc" # an inline comment',
        "abc",
        '"',
        '""x',
        'name "abc"',
        'a-b="c"',
        '"\\u0000"',
        '"\\x4"',
        '"\\n"',
        'x=""',
        '"tab\\"',
        '"caf\u00e9"',
        "x='abc'",
    ],
)
def test_a_broken_line_is_refused_as_libfuzzer_refuses_the_file(line):
    with pytest.raises(ValueError, match="line 2"):
        tokens(f"# a comment\n{line}\n")
