"""How fast the pad firmware takes bytes off its line, under MicroPython: KB/s of line bytes.

    .venv/bin/micropython bench/pad_read.py [ROUNDS]

Runs board_pico's USB reader (UsbReader) and, for comparison, the loop it replaced (a byte at
a time through read(1), a method call and a bytearray that grows), each alone and then with
everything the pad does with the bytes (PadApp.receive: decode, check, hand on). The stream is a
busy table's traffic to one pad (heartbeats, a full STATE after every change, answers, notices).
The bytes come from an io.BytesIO and "is a byte waiting?" is a builtin, both C and without
system calls, as the rp2 port's USB ring buffer is, so the loops differ only in their own
Python. A Pico runs this Python some 20 to 40 times slower than a PC: compare the loops with
each other, not with the line's speed.
"""

import gc
import io
import sys
import time

HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, HERE + "/../firmware_py/pad")

import board_pico  # noqa: E402
import padapp  # noqa: E402
import protocol  # noqa: E402

LIMIT = board_pico.READ_LIMIT
PASSES = 5


def state(seq):
    rows = []
    for colour in (1, 2, 3, 4):
        numbers = bytes(range(2, 13)) if colour < 3 else bytes(range(12, 1, -1))
        rows.append({"colour": colour, "numbers": numbers, "crossed": 0b10101})
    return {
        "player": "Ann",
        "phase": 2,
        "flags": protocol.MAY_PASS | protocol.ACTIVE,
        "penalties": 1,
        "total": 27,
        "dice": bytes([4, 1, 6, 2, 3, 6]),
        "text": "Ann rolled: white 5 (" + str(seq) + ")",
        "rows": rows,
        "moves": [{"row": r, "number": 5} for r in (1, 2, 3, 4)],
    }


def stream():
    """A few seconds of a busy table's bytes to one pad, starting with the session."""
    out = bytearray(protocol.encode("hello_ack", 1, {"protocol": protocol.PROTOCOL_VERSION}))
    seq = 2
    for turn in range(40):
        for name, fields in (
            ("heartbeat", {"state": seq}),
            ("state", state(turn)),
            ("answer", {"req": turn + 1, "status": protocol.RULE, "text": "Ben cannot cross 5"}),
            ("notice", {"seconds": 2, "text": "Ben locks red"}),
        ):
            out += protocol.encode(name, seq, fields)
            seq += 1
    return bytes(out)


class OldReader:
    """The loop UsbReader replaced (board_pico before it), kept here to compare against."""

    def __init__(self, stream, poller):
        self.stdin = stream
        self.poller = poller

    def read(self):
        data = bytearray()
        while len(data) < LIMIT and self._readable():
            data += self.stdin.read(1)
        return data

    def _readable(self):
        for _ in self.poller.ipoll(0):
            return True
        return False


class AlwaysReady:
    """A poller that says a byte is waiting as cheaply as the rp2 port does (a look at its USB
    ring buffer, in C, no system call): `ipoll(0)` is the builtin str, which yields "0"."""

    ipoll = str


def measure(make_reader, data, with_pad):
    """KB/s of line bytes through `make_reader(stream, poller).read` (and PadApp.receive),
    over a few passes of the stream."""
    source = io.BytesIO(data)
    reader = make_reader(source, AlwaysReady())
    pad = padapp.PadApp(lambda frame: None, "pad-bench", 1, 0) if with_pad else None
    total = 0
    started = time.ticks_us()
    for _ in range(PASSES):
        source.seek(0)
        for _ in range(len(data) // LIMIT):
            chunk = reader.read()
            total += len(chunk)
            if pad is not None:
                pad.receive(chunk, 0)
    elapsed = time.ticks_diff(time.ticks_us(), started) / 1e6
    return total / elapsed / 1000


def best(make_reader, data, with_pad, rounds):
    """The best of `rounds` measurements: on a shared machine, the one least disturbed."""
    return max(measure(make_reader, data, with_pad) for _ in range(rounds))


def allocated(make_reader, data):
    """Heap bytes allocated per KB of line bytes read (the collector held off meanwhile):
    unlike a time, the same on every machine."""
    source = io.BytesIO(data)
    reader = make_reader(source, AlwaysReady())
    total = 0
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    for _ in range(len(data) // LIMIT):
        total += len(reader.read())
    used = gc.mem_alloc() - before
    gc.enable()
    return used * 1000 / total


# (MicroPython has no argparse: its usage, in argparse's form)
USAGE = """usage: pad_read.py [-h] [ROUNDS]

How fast the pad firmware takes bytes off its line, under MicroPython: KB/s of line bytes.

positional arguments:
  ROUNDS      rounds of each reader, the best taken (default 15)"""


def rounds_asked():
    """ROUNDS from the command line; None when only the usage was asked for (or is due)."""
    if len(sys.argv) < 2:
        return 15
    if sys.argv[1] in ("-h", "--help"):
        print(USAGE)
        return None
    if not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        print(USAGE)
        print(
            "pad_read.py: ROUNDS is a whole number of rounds, 1 or more, not " + sys.argv[1],
            file=sys.stderr,
        )
        sys.exit(2)
    return int(sys.argv[1])


def main():
    rounds = rounds_asked()
    if rounds is None:
        return
    data = stream()
    print("pad line read, MicroPython", sys.version, "-", len(data), "bytes of traffic,")
    print("best of", rounds, "rounds of", PASSES, "passes each")
    for with_pad in (False, True):
        what = "read + PadApp.receive" if with_pad else "read alone"
        old = best(OldReader, data, with_pad, rounds)
        new = best(board_pico.UsbReader, data, with_pad, rounds)
        print(f"  {what:24s} before {old:8.0f} KB/s   now {new:8.0f} KB/s   x{new / old:.2f}")
    old, new = allocated(OldReader, data), allocated(board_pico.UsbReader, data)
    print(f"  heap allocated per KB read: before {old:.0f} bytes, now {new:.0f} bytes")


main()
