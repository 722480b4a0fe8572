"""Runs the shared pad-protocol checks under MicroPython, and speaks hex for interoperability.

usage: micropython protocol_check.py PAD_DIR < HEX_FRAMES

PAD_DIR holds protocol.py, imported as the top-level module `protocol`, as on the pad. Prints
`pass NAME` or `FAIL NAME: ERROR` for each check of pad_checks.py, `frame INDEX HEX` for each
vector as this interpreter encodes it, then for each line of standard input (a frame in hex)
`decoded JSON` or `dropped KIND`, and last `done`. tests/pad/test_pad_protocol.py runs it and reads
the output. Frames come on standard input, not as arguments: the unix port aborts on an argument
of 256 characters or more.
"""

import sys

sys.path.insert(0, sys.argv[1])
sys.path.insert(0, __file__.rsplit("/", 1)[0])

import pad_checks
import protocol


def run_checks():
    for check in pad_checks.CHECKS:
        try:
            check(protocol)
            print("pass", check.__name__)
        except Exception as error:  # report every failure, not only the first
            print("FAIL", check.__name__ + ":", type(error).__name__, error)


def print_frames():
    for index, vector in enumerate(pad_checks.VECTORS):
        name, seq, fields, _ = vector
        print("frame", index, pad_checks.hex_of(protocol.encode(name, seq, fields)))


def decode_input():
    for hex_text in sys.stdin.read().split():
        try:
            message = protocol.decode(pad_checks.wire(hex_text))
            print("decoded", pad_checks.as_json(message))
        except protocol.BadFrame as error:
            print("dropped", error.kind)


run_checks()
print_frames()
decode_input()
print("done")
