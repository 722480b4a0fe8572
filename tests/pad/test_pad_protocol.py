"""The pad wire protocol: the same checks under CPython and real MicroPython, frames crossing
between the two, the written table matching the code's, and fuzzing of the decoder."""

import importlib.util
import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.fakes import run_check_script
from support.paths import MICROPYTHON, ROOT

from firmware_py.pad import protocol

CHECK_SCRIPT = MICROPYTHON / "protocol_check.py"
PAD_DIR = Path(protocol.__file__).parent


def _load_checks():
    """tests/support/micropython/pad_checks.py, which MicroPython also runs, imported by path."""
    spec = importlib.util.spec_from_file_location("pad_checks", MICROPYTHON / "pad_checks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


checks = _load_checks()
CHECK_IDS = [check.__name__ for check in checks.CHECKS]
VECTOR_MESSAGES = [protocol.Message(name, seq, fields) for name, seq, fields, _ in checks.VECTORS]
WIRE_FRAMES = [checks.wire(hex_text) for *_, hex_text in checks.VECTORS]


@pytest.mark.parametrize("check", checks.CHECKS, ids=CHECK_IDS)
def test_protocol_check_under_cpython(check):
    check(protocol)


# --- the same checks under MicroPython, and frames crossing between the two ---

# Frames CPython makes for MicroPython to read: every vector and some harder cases.
CPYTHON_MADE = [
    *VECTOR_MESSAGES,
    protocol.Message("notice", 0, {"seconds": 255, "text": "Zo\u00eb \u2713 \U0001f3b2 wins"}),
    protocol.Message("answer", 65535, {"req": 65535, "status": 9, "text": "x" * 244}),
    protocol.Message(
        "state",
        300,
        {  # a mixx-a sheet: cells of mixed colours, and a long list of moves
            "player": "B\u00e9a",
            "total": -32768,
            "rows": [
                {"colour": c, "numbers": bytes(range(2, 13)), "cells": bytes([1, 2, 3, 4] * 3)[:11]}
                for c in (1, 2, 3, 4)
            ],
            "moves": [{"row": r, "number": n, "flags": 3} for r in (1, 2) for n in (2, 12)],
        },
    ),
]


def _encoded(message):
    return protocol.encode(message.name, message.seq, message.fields)


@pytest.fixture(scope="module")
def micropython_run():
    """The output lines of protocol_check.py run by MicroPython on the CPython-made frames."""
    corrupt = bytearray(_encoded(CPYTHON_MADE[0]))
    corrupt[-2] ^= 0x01
    frames = [_encoded(message) for message in CPYTHON_MADE] + [bytes(corrupt)]
    return run_check_script(CHECK_SCRIPT, "\n".join(frame.hex() for frame in frames))


@pytest.mark.parametrize("name", CHECK_IDS)
def test_protocol_check_under_micropython(micropython_run, name):
    failures = [line for line in micropython_run if line.startswith(f"FAIL {name}:")]
    assert f"pass {name}" in micropython_run, failures


def test_frames_micropython_encodes_decode_in_cpython(micropython_run):
    frames = [line.split() for line in micropython_run if line.startswith("frame ")]
    assert len(frames) == len(VECTOR_MESSAGES)
    for _, index, hex_text in frames:
        assert protocol.decode(bytes.fromhex(hex_text)) == VECTOR_MESSAGES[int(index)]


def _verdict(line):
    """('decoded', [name, seq, fields]) or ('dropped', kind) from a line of protocol_check.py."""
    kind, _, rest = line.partition(" ")
    return (kind, json.loads(rest)) if kind == "decoded" else (kind, rest)


def test_frames_cpython_encodes_decode_in_micropython(micropython_run):
    verdicts = [
        _verdict(line) for line in micropython_run if line.startswith(("decoded", "dropped"))
    ]
    decoded_here = [protocol.decode(_encoded(message)) for message in CPYTHON_MADE]
    expected = [("decoded", json.loads(checks.as_json(message))) for message in decoded_here]
    assert verdicts == [*expected, ("dropped", "crc")]


def test_micropython_and_cpython_agree_on_text_beyond_ascii(micropython_run):
    decoded = [_verdict(line)[1] for line in micropython_run if line.startswith("decoded")]
    notice = decoded[len(VECTOR_MESSAGES)]
    assert dict(notice[2])["text"] == "Zo\u00eb \u2713 \U0001f3b2 wins"


# --- the written protocol says what the code does ---


def test_document_lists_every_message_of_the_table():
    doc = (ROOT / "docs" / "pad-protocol.md").read_text()
    for type_id, name, sender, spec in protocol.MESSAGES:
        assert f"| {type_id} | `{name}` | {sender} | `{spec}` |" in doc, name
    for record, spec in protocol.RECORDS.items():
        assert f"| `{record}` | `{spec}` |" in doc, record


def test_document_lists_every_reason_code():
    doc = (ROOT / "docs" / "pad-protocol.md").read_text()
    for code, name in protocol.REASONS.items():
        assert f"| {code} | {name} |" in doc, name


# --- fuzzing ---

FUZZ = settings(max_examples=3000, deadline=None, database=None)


def _value(kind):
    if kind == "u8":
        return st.integers(0, 0xFF)
    if kind == "u16":
        return st.integers(0, 0xFFFF)
    if kind == "i16":
        return st.integers(-0x8000, 0x7FFF)
    if kind == "str":
        return st.text(max_size=12)
    if kind == "bytes":
        return st.binary(max_size=16)
    return st.lists(_record(kind), max_size=4)


def _record(fields):
    return st.fixed_dictionaries({name: _value(kind) for name, kind in fields})


@st.composite
def messages(draw):
    """Any message the table allows, with any fields (some too large for one frame)."""
    name, (_, fields) = draw(st.sampled_from(sorted(protocol.BY_NAME.items())))
    return protocol.Message(name, draw(st.integers(0, 0xFFFF)), draw(_record(fields)))


def mutated_stream(rnd):
    """Good frames back to back, then bytes flipped, inserted, deleted, zeroed or cut off.

    `rnd` is Hypothesis's own Random (st.randoms), so a failure is reproduced and shrunk like any
    other example; drawing through it is much faster than one strategy draw per mutation.
    """
    stream = bytearray(b"".join(rnd.choice(WIRE_FRAMES) for _ in range(rnd.randint(1, 5))))
    for _ in range(rnd.randint(1, 6)):
        at = rnd.randrange(max(1, len(stream)))
        how = rnd.choice(("flip", "insert", "delete", "zero", "cut"))
        if how == "flip" and stream:
            stream[at] ^= rnd.randint(1, 255)
        elif how == "insert":
            stream[at:at] = rnd.randbytes(rnd.randint(1, 40))
        elif how == "delete":
            del stream[at : at + rnd.randint(1, 8)]
        elif how == "zero" and stream:
            stream[at] = 0
        else:
            del stream[at:]
    return bytes(stream)


RANDOMS = st.randoms(use_true_random=False)


def _good_frame_still_gets_through(stream):
    decoder = protocol.FrameDecoder()
    before = decoder.feed(stream)
    after = decoder.feed(WIRE_FRAMES[0])
    assert after[-1:] == [VECTOR_MESSAGES[0]]
    assert decoder.stats["frames"] == len(before) + len(after)


@settings(max_examples=1000, deadline=None, database=None)
@given(messages())
def test_any_message_the_table_allows_round_trips(message):
    try:
        frame = _encoded(message)
    except protocol.BadMessage as error:
        assert "more than a frame" in str(error)
        return
    assert protocol.decode(frame) == message
    assert protocol.FrameDecoder().feed(frame) == [message]


@FUZZ
@given(st.binary(max_size=700))
def test_random_bytes_never_raise_and_a_good_frame_still_gets_through(stream):
    _good_frame_still_gets_through(stream)


@FUZZ
@given(RANDOMS)
def test_mutated_frames_never_raise_and_a_good_frame_still_gets_through(rnd):
    _good_frame_still_gets_through(mutated_stream(rnd))


@settings(max_examples=1000, deadline=None, database=None)
@given(RANDOMS)
def test_how_a_stream_is_chunked_changes_nothing(rnd):
    stream = mutated_stream(rnd)
    cuts = [rnd.randint(0, len(stream)) for _ in range(rnd.randint(0, 12))]
    whole = protocol.FrameDecoder()
    expected = whole.feed(stream)
    chunked = protocol.FrameDecoder()
    got = []
    edges = [0, *sorted(cuts), len(stream)]
    for start, end in itertools.pairwise(edges):
        got += chunked.feed(stream[start:end])
    assert got == expected
    assert chunked.stats == whole.stats


@settings(max_examples=300, deadline=None, database=None)
@given(st.binary(max_size=600))
def test_decode_raises_only_bad_frame(frame):
    try:
        protocol.decode(frame)
    except protocol.BadFrame as error:
        assert error.kind in protocol.DROPS
