"""How fast the pad-protocol decoder reads a byte stream: frames per second and MB/s.

A realistic mix from a busy table (heartbeats, requests, answers and full STATE syncs), fed in
64-byte chunks as a serial read returns them, plus the same stream with 1 byte in 50 corrupted
(the decoder's slow path: drops and resyncs).

    .venv/bin/python bench/pad_decoder.py [--seconds 2]
"""

from __future__ import annotations

import argparse
import random
import time

from firmware_py.pad import protocol

CHUNK = 64

STATE = {
    "player": "Ann",
    "phase": 2,
    "flags": protocol.MAY_PASS | protocol.ACTIVE,
    "penalties": 1,
    "total": 27,
    "dice": bytes([4, 1, 6, 2, 3, 6]),
    "text": "Ann rolled: white 5",
    "rows": [
        {"colour": c, "numbers": bytes(range(2, 13)), "crossed": 0b10101} for c in (1, 2, 3, 4)
    ],
    "moves": [{"row": r, "number": 5} for r in (1, 2, 3, 4)],
}

MIX = [
    ("heartbeat", {"state": 17}),
    ("request", {"action": protocol.MARK, "row": 2, "number": 5}),
    ("answer", {"req": 4, "status": protocol.RULE, "text": "Ben cannot cross 5 in yellow"}),
    ("state", STATE),
    ("heartbeat", {"state": 18}),
    ("request", {"action": protocol.PASS}),
]


def stream(frames: int) -> bytes:
    """`frames` frames of the mix, back to back as on the wire."""
    encoded = []
    for i in range(frames):
        name, fields = MIX[i % len(MIX)]
        encoded.append(protocol.encode(name, protocol.next_seq(i), fields))
    return b"".join(encoded)


def corrupted(data: bytes, every: int = 50) -> bytes:
    """`data` with one byte in each `every` flipped, at a random place."""
    rnd = random.Random(1)
    out = bytearray(data)
    for at in range(0, len(out) - every, every):
        out[at + rnd.randrange(every)] ^= 0x5A
    return bytes(out)


def run(data: bytes, seconds: float) -> tuple[float, float, dict[str, int]]:
    """Frames/s and MB/s decoding `data` repeatedly for about `seconds`; the last stats."""
    chunks = [data[i : i + CHUNK] for i in range(0, len(data), CHUNK)]
    passes, good, start = 0, 0, time.perf_counter()
    while True:
        decoder = protocol.FrameDecoder()
        for chunk in chunks:
            good += len(decoder.feed(chunk))
        passes += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return good / elapsed, passes * len(data) / elapsed / 1e6, decoder.stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    seconds = parser.parse_args().seconds
    clean = stream(6000)
    average = len(clean) / 6000
    print(
        f"stream: 6000 frames, {len(clean)} bytes ({average:.0f} bytes/frame), {CHUNK}-byte reads"
    )
    fps, mbps, _ = run(clean, seconds)
    print(f"clean:     {fps:>9,.0f} frames/s  {mbps:6.2f} MB/s")
    fps, mbps, stats = run(corrupted(clean), seconds)
    dropped = sum(stats[kind] for kind in protocol.DROPS)
    print(f"corrupted: {fps:>9,.0f} good frames/s  {mbps:6.2f} MB/s  ({dropped} dropped a pass)")
    baud = 115200 / 10 / average
    print(f"a 115200-baud link carries at most {baud:,.0f} such frames/s")


if __name__ == "__main__":
    main()
