"""The dice reader while Bluetooth cannot scan (the adapter switched off mid-game): said once,
no die reported out of range for a silence that says nothing of the dice, and silence counted
afresh once Bluetooth is back. The scanner's side of it (noticing, scanning anew) runs through
bleak and the BlueZ stand-in in test_pixels_bluez.py; here a clock the test moves decides when
dice fall silent, so nothing depends on how fast the machine is."""

import asyncio

from drivers.pixels import DiceEventKind, PixelsReader

DICE = {"white 1": 0x1A2B_0001, "white 2": 0x1A2B_0002}


class QuietRadio:
    """A scanner that hears nothing: the test tells the reader what the scanner would."""

    async def start(self, listener):
        pass

    async def stop(self):
        pass


def reader_events(steps):
    """Run `steps(reader, clock)` on a started reader; the messages it reported, by kind."""
    now = [0.0]
    events = []

    async def main():
        reader = PixelsReader(
            DICE, scanner=QuietRadio(), on_event=events.append, clock=lambda: now[0],
            out_of_range_after=10, poll_interval=3600,
        )  # fmt: skip
        async with reader:
            steps(reader, now)

    asyncio.run(main())
    return [(event.kind, event.message) for event in events]


def test_bluetooth_off_is_said_once_and_silence_meanwhile_reports_no_die_out_of_range():
    def steps(reader, now):
        reader.on_trouble("the tower's Bluetooth is switched off")
        reader.on_trouble("the tower's Bluetooth is switched off")  # the next try fails too
        now[0] += 60
        reader.poll()

    assert reader_events(steps) == [
        (
            DiceEventKind.NO_BLUETOOTH,
            "the dice cannot be heard: the tower's Bluetooth is switched off",
        )
    ]


def test_once_bluetooth_is_back_silence_counts_from_then():
    def steps(reader, now):
        reader.on_trouble("the tower's Bluetooth is switched off")
        now[0] += 60
        reader.on_trouble(None)
        now[0] += 9
        reader.poll()  # not yet: 9 s of silence since Bluetooth came back
        now[0] += 1
        reader.poll()

    kinds = [kind for kind, _message in reader_events(steps)]
    assert kinds == [
        DiceEventKind.NO_BLUETOOTH,
        DiceEventKind.BLUETOOTH_BACK,
        DiceEventKind.OUT_OF_RANGE,
        DiceEventKind.OUT_OF_RANGE,
    ]
