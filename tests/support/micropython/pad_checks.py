"""Pad-protocol checks that run unchanged under CPython (pytest) and MicroPython.

Each check takes the protocol module (`firmware_py.pad.protocol` on CPython, `protocol` on
MicroPython) and raises AssertionError on a failure. `VECTORS` pins the exact bytes of one or more
messages of every type: both interpreters must encode them to these bytes and decode them back.
Written in the subset of Python that both run: no pytest, no f-strings, no bytes.hex().
"""

import json
import struct
from binascii import hexlify, unhexlify


def _row(colour, numbers, crossed, flags):
    """A STATE row whose cells are all the row's colour."""
    return {
        "colour": colour,
        "numbers": bytes(numbers),
        "cells": b"",
        "crossed": crossed,
        "flags": flags,
    }


# name, seq, fields, wire bytes in hex
VECTORS = [
    (
        "hello",
        1,
        {
            "protocol": 1,
            "role": 2,
            "boot": 0xBEEF,
            "ident": "pad-e6614c3185a61f2b",  # a Pico's: "pad-" and its 8-byte unique_id in hex
            "firmware": "0.1.0",
        },
        "0004010101240102efbe147061642d6536363134633331383561363166326205302e312e304220ef6500",
    ),
    (
        "hello",
        1,
        {"protocol": 1, "role": 1, "boot": 0x0102, "ident": "qwixx-tower", "firmware": "0.1.0"},
        "00040101011b010102010b71776978782d746f77657205302e312e3066b397ee00",
    ),
    ("hello_ack", 2, {"protocol": 1, "status": 0, "text": ""}, "000401020202010105964cd10d00"),
    (
        "hello_ack",
        3,
        {"protocol": 1, "status": 8, "text": "tower speaks protocol 1"},
        "00040102031f010817746f77657220737065616b732070726f746f636f6c20316b2e41bd00",
    ),
    ("heartbeat", 65535, {"state": 17}, "00060103ffff1105da197a0e00"),
    (
        "state",
        17,
        {
            "player": "Ann",
            "phase": 2,
            "flags": 1 | 4,
            "penalties": 1,
            "total": -3,
            "locked": 2,
            "dice": b"\x04\x01\x06\x02\x03\x06",
            "lucky": b"",
            "text": "Ann rolled: white 5",
            "rows": [
                _row(1, range(2, 13), 5, 0),
                _row(2, range(2, 13), 0, 2),
                _row(3, range(12, 1, -1), 1, 0),
                _row(4, range(12, 1, -1), 0, 0),
            ],
            "moves": [
                {"row": 1, "number": 5, "flags": 0},
                {"row": 3, "number": 5, "flags": 0},
                {"row": 4, "number": 5, "flags": 0},
            ],
        },
        "00040104111203416e6e020501fdff02060401060203062313416e6e20726f6c6c65643a2077686974652035"
        "04010b02030405060708090a0b0c0205010e020b02030405060708090a0b0c01010f02030b0c0b0a09080706"
        "050403020201010e040b0c0b0a090807060504030201010104030105030305030405058605ee1200",
    ),
    (
        "state",
        18,
        {
            "player": "Zo\u00eb",
            "phase": 3,
            "flags": 2 | 8,
            "penalties": 0,
            "total": 27,
            "locked": 0,
            "dice": b"\x08\x01\x07\x00\x03\x02",
            "lucky": b"\x05\x0a",
            "text": "",
            "rows": [_row(2, range(2, 17), 0x4001, 1)],
            "moves": [{"row": 2, "number": 9, "flags": 1}, {"row": 1, "number": 7, "flags": 2}],
        },
        "000401041208045a6fc3ab030a021b01050608010706030202050a1301020f02030405060708090a0b0c0d0e0f"
        "100f01400102020901010702e5424a4000",
    ),
    (
        "request",
        4,
        {"action": 1, "row": 2, "number": 5, "flags": 0, "choice": 0},
        "00040105040401020501054a097fdc00",
    ),
    (
        "request",
        5,
        {"action": 1, "row": 3, "number": 12, "flags": 1, "choice": 4},
        "00040105050a01030c01044cab13d300",
    ),
    (
        "request",
        6,
        {"action": 2, "row": 0, "number": 0, "flags": 0, "choice": 0},
        "0004010506020201010105d36882a000",
    ),
    (
        "request",
        7,
        {"action": 3, "row": 0, "number": 0, "flags": 0, "choice": 0},
        "0004010507020301010105d74a953b00",
    ),
    ("answer", 19, {"req": 4, "status": 0, "text": ""}, "00040106130204010105af0d78c000"),
    (
        "answer",
        20,
        {"req": 5, "status": 1, "text": "Ben cannot lock red: needs 5 crosses in red first, has 4"},
        "000401061402053f013842656e2063616e6e6f74206c6f636b207265643a206e6565647320352063726f7373"
        "657320696e207265642066697273742c206861732034b5e35c0c00",
    ),
    (
        "notice",
        21,
        {"seconds": 5, "text": "Game over: Ann wins"},
        "00040107151a051347616d65206f7665723a20416e6e2077696e73c8c4bee500",
    ),
]


def hex_of(data):
    return hexlify(data).decode()


def wire(hex_text):
    return unhexlify(hex_text)


def good_frame(p):
    """A frame a decoder must always get through: the first vector."""
    return wire(VECTORS[0][3])


def good_message(p):
    name, seq, fields, _ = VECTORS[0]
    return p.Message(name, seq, fields)


def framed(p, body):
    """`body` (a decoded frame) on the wire: delimiters around its COBS form."""
    return b"\x00" + p.cobs_encode(body) + b"\x00"


def with_crc(p, body):
    return body + struct.pack("<I", p.crc32(body))


def raises(error, fn, *args):
    """The `error` that fn(*args) raises; AssertionError if it raises none."""
    try:
        fn(*args)
    except error as caught:
        return caught
    raise AssertionError(repr(fn) + " did not raise " + repr(error))


def drops(decoder, p):
    """The decoder's non-zero drop counts."""
    return dict((kind, n) for kind, n in decoder.stats.items() if n and kind in p.DROPS)


def after_good(p, junk):
    """Feed `junk` then a good frame; return (messages, decoder)."""
    decoder = p.FrameDecoder()
    found = decoder.feed(junk)
    found += decoder.feed(good_frame(p))
    return found, decoder


def plain(value):
    """A JSON-ready form of decoded fields, the same under both interpreters (sorted keys)."""
    if isinstance(value, dict):
        return [[key, plain(value[key])] for key in sorted(value)]
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, (bytes, bytearray)):
        return "hex:" + hex_of(value)
    return value


def as_json(message):
    return json.dumps([message.name, message.seq, plain(message.fields)])


# --- the checks ---


def check_vectors_encode_to_pinned_bytes(p):
    for name, seq, fields, expected in VECTORS:
        got = hex_of(p.encode(name, seq, fields))
        assert got == expected, name + " " + str(seq) + " encodes to " + got


def check_pinned_bytes_decode_to_their_messages(p):
    for name, seq, fields, hex_text in VECTORS:
        assert p.decode(wire(hex_text)) == p.Message(name, seq, fields), name


def check_every_message_type_has_a_vector(p):
    named = [vector[0] for vector in VECTORS]
    for _, name, _, _ in p.MESSAGES:
        assert name in named, name + " has no vector"


def check_stream_of_every_vector_decodes_in_order(p):
    decoder = p.FrameDecoder()
    stream = b"".join(wire(vector[3]) for vector in VECTORS)
    got = decoder.feed(stream)
    assert got == [p.Message(name, seq, fields) for name, seq, fields, _ in VECTORS]
    assert decoder.stats["frames"] == len(VECTORS) and decoder.dropped() == 0


def check_feeding_byte_by_byte_gives_the_same_messages(p):
    decoder = p.FrameDecoder()
    stream = b"".join(wire(vector[3]) for vector in VECTORS)
    got = []
    for i in range(len(stream)):
        got += decoder.feed(stream[i : i + 1])
    assert got == p.FrameDecoder().feed(stream)


def check_missing_fields_are_zero_or_empty(p):
    message = p.decode(p.encode("request", 9, {"action": p.PASS}))
    assert message.fields == {"action": 2, "row": 0, "number": 0, "flags": 0, "choice": 0}
    state = p.decode(p.encode("state", 1, {})).fields
    assert state["player"] == "" and state["rows"] == [] and state["dice"] == b""


def check_cobs_round_trips_at_block_edges(p):
    for size in (0, 1, 253, 254, 255, 300, 507, 508, 509):
        for data in (bytes(size), bytes([7]) * size, bytes((i % 255) + 1 for i in range(size))):
            coded = p.cobs_encode(data)
            assert 0 not in coded, "COBS output holds 0x00 at size " + str(size)
            assert p.cobs_decode(coded) == data, "COBS round trip fails at size " + str(size)


def check_garbage_is_dropped_and_the_next_frame_decoded(p):
    found, decoder = after_good(p, b"\x13\x37garbage\xff\xfe\x00\x01\x02\x03\x00\x00\x42")
    assert found == [good_message(p)]
    assert decoder.dropped() == 3, drops(decoder, p)


def check_truncated_frame_is_dropped_and_the_next_decoded(p):
    whole = wire(VECTORS[5][3])
    found, decoder = after_good(p, whole[: len(whole) // 2])
    assert found == [good_message(p)]
    assert drops(decoder, p) == {"truncated": 1}, drops(decoder, p)


def check_frame_shorter_than_header_and_crc_is_truncated(p):
    found, decoder = after_good(p, framed(p, b"\x01\x05\x01"))
    assert found == [good_message(p)]
    assert drops(decoder, p) == {"truncated": 1}, drops(decoder, p)


def check_bad_crc_is_dropped_and_counted(p):
    body = bytearray(p.cobs_decode(good_frame(p).strip(b"\x00")))
    body[10] ^= 0x20  # one bit of the identity string
    found, decoder = after_good(p, framed(p, bytes(body)))
    assert found == [good_message(p)]
    assert drops(decoder, p) == {"crc": 1}, drops(decoder, p)


def check_run_longer_than_any_frame_is_oversize(p):
    found, decoder = after_good(p, b"\x00" + b"\x55" * (p.MAX_ENCODED * 3) + b"\x00")
    assert found == [good_message(p)]
    assert drops(decoder, p) == {"oversize": 1}, drops(decoder, p)


def check_oversize_split_across_feeds_is_still_one_drop(p):
    decoder = p.FrameDecoder()
    for _ in range(10):
        assert decoder.feed(b"\x55" * 100) == []
    assert decoder.feed(good_frame(p)) == [good_message(p)]
    assert drops(decoder, p) == {"oversize": 1}, drops(decoder, p)


def check_decoded_frame_over_the_limit_is_oversize(p):
    body = with_crc(p, struct.pack("<BBH", p.FRAME_FORMAT, 3, 1) + b"\x01\x00" * 124 + b"\x01")
    assert len(body) == p.MAX_FRAME + 1 and len(p.cobs_encode(body)) <= p.MAX_ENCODED
    found, decoder = after_good(p, framed(p, body))
    assert found == [good_message(p)]
    assert drops(decoder, p) == {"oversize": 1}, drops(decoder, p)


def check_wrong_frame_format_is_dropped_as_version(p):
    body = with_crc(p, struct.pack("<BBHH", p.FRAME_FORMAT + 1, 3, 1, 0))
    found, decoder = after_good(p, framed(p, body))
    assert found == [good_message(p)]
    assert drops(decoder, p) == {"version": 1}, drops(decoder, p)


def check_unknown_message_type_is_dropped(p):
    body = with_crc(p, struct.pack("<BBH", p.FRAME_FORMAT, 200, 1) + b"hi")
    found, decoder = after_good(p, framed(p, body))
    assert found == [good_message(p)]
    assert drops(decoder, p) == {"unknown": 1}, drops(decoder, p)


def check_payload_that_does_not_fit_its_layout_is_malformed(p):
    head = struct.pack("<BBH", p.FRAME_FORMAT, 6, 1)  # answer: req u16, status u8, text str
    short, overlong, extra = b"\x01", b"\x01\x00\x00\x05ab", b"\x01\x00\x00\x00extra"
    for payload in (short, overlong, extra, b"\x01\x00\x00\x02\xc3\x28"):  # last: not UTF-8
        found, decoder = after_good(p, framed(p, with_crc(p, head + payload)))
        assert found == [good_message(p)], payload
        assert drops(decoder, p) == {"malformed": 1}, drops(decoder, p)


def check_idle_delimiters_are_not_drops(p):
    found, decoder = after_good(p, b"\x00" * 50)
    assert found == [good_message(p)] and decoder.dropped() == 0


def check_decode_names_the_kind_of_bad_frame(p):
    assert raises(p.BadFrame, p.decode, b"\x09\x01").kind == "truncated"
    assert raises(p.BadFrame, p.decode, b"\x55" * 400).kind == "oversize"
    bad = bytearray(good_frame(p))
    bad[-2] ^= 1
    assert raises(p.BadFrame, p.decode, bytes(bad)).kind == "crc"
    assert isinstance(raises(p.BadFrame, p.decode, b""), p.ProtocolError)


def check_encode_refuses_what_does_not_fit_the_table(p):
    raises(p.BadMessage, p.encode, "shout", 1, {})
    raises(p.BadMessage, p.encode, "heartbeat", 1, {"sate": 3})
    raises(p.BadMessage, p.encode, "heartbeat", 1, {"state": 70000})
    raises(p.BadMessage, p.encode, "heartbeat", 1, {"state": "3"})
    raises(p.BadMessage, p.encode, "heartbeat", 70000, {})
    raises(p.BadMessage, p.encode, "notice", 1, {"text": "x" * 256})
    raises(p.BadMessage, p.encode, "notice", 1, {"text": b"bytes"})
    raises(p.BadMessage, p.encode, "state", 1, {"dice": 6})
    raises(p.BadMessage, p.encode, "state", 1, {"rows": [{"colour": 1, "shade": 2}]})
    error = raises(p.BadMessage, p.encode, "state", 1, {"text": "x" * 200, "player": "y" * 60})
    assert isinstance(error, p.ProtocolError) and isinstance(error, ValueError)


def check_largest_frame_fits_and_one_more_byte_does_not(p):
    room = p.MAX_PAYLOAD - 3  # answer: req u16, status u8, then the text's length byte
    frame = p.encode("answer", 1, {"text": "x" * (room - 1)})
    assert p.decode(frame).fields["text"] == "x" * (room - 1)
    raises(p.BadMessage, p.encode, "answer", 1, {"text": "x" * room})


def check_bool_values_encode_as_integers(p):
    message = p.decode(p.encode("request", 1, {"action": 1, "flags": True}))
    assert message.fields["flags"] == 1


def check_sequence_numbers_wrap_past_zero(p):
    assert p.next_seq(0) == 1 and p.next_seq(1) == 2
    assert p.next_seq(65535) == 1


def check_deduper_answers_a_repeat_instead_of_applying_it(p):
    dedupe = p.RequestDeduper()
    mark = p.Message("request", 4, {"action": 1, "row": 2, "number": 5, "flags": 0, "choice": 0})
    assert dedupe.admit("pad-a", mark)
    assert not dedupe.admit("pad-a", mark)  # repeated before it was answered
    assert dedupe.answer_for("pad-a", mark) is None
    dedupe.record("pad-a", mark, {"req": 4, "status": 0, "text": ""})
    assert not dedupe.admit("pad-a", mark)
    assert dedupe.answer_for("pad-a", mark) == {"req": 4, "status": 0, "text": ""}
    assert dedupe.admit("pad-b", mark), "another pad's request with the same number is new"


def check_deduper_takes_a_different_request_as_new(p):
    dedupe = p.RequestDeduper()
    mark = p.Message("request", 4, {"action": 1, "row": 2, "number": 5, "flags": 0, "choice": 0})
    undo = p.Message("request", 4, {"action": 3, "row": 0, "number": 0, "flags": 0, "choice": 0})
    later = p.Message("request", 5, mark.fields)
    assert dedupe.admit("pad-a", mark)
    dedupe.record("pad-a", mark, {"req": 4, "status": 0, "text": ""})
    assert dedupe.admit("pad-a", undo), "same number, other fields: the pad restarted"
    assert dedupe.admit("pad-a", later)
    dedupe.record("pad-a", mark, {"req": 4, "status": 1, "text": "stale"})
    assert dedupe.answer_for("pad-a", later) is None, "an old answer must not stick to a new one"
    dedupe.forget("pad-a")
    assert dedupe.admit("pad-a", later)


def check_clip_cuts_text_at_a_character(p):
    assert p.clip("abc", 5) == "abc"
    assert p.clip("Zo\u00eb!", 3) == "Zo"
    assert p.clip("\u2713\u2713", 4) == "\u2713"


def check_rows_travel_as_codes(p):
    assert [p.row_code(colour) for colour in p.COLOURS] == [1, 2, 3, 4]
    assert p.row_code(None) == 0 and p.row_colour(0) is None
    assert p.row_colour(3) == "green"
    raises(ValueError, p.row_colour, 5)


def check_crc_fallback_matches_binascii(p):
    for data in (b"", b"abc", bytes(range(256)), good_frame(p)):
        assert p.crc32_fallback(data) == p.crc32(data)
    assert p.crc32(b"123456789") == 0xCBF43926  # the standard check value


def check_message_knows_equality_and_fields(p):
    a = p.Message("heartbeat", 3, {"state": 1})
    assert a == p.Message("heartbeat", 3, {"state": 1})
    assert a != p.Message("heartbeat", 4, {"state": 1})
    assert a["state"] == 1 and "heartbeat" in repr(a)


CHECKS = [value for name, value in sorted(globals().items()) if name.startswith("check_")]
