"""The tower's pad link over a pseudo-terminal, as a pad at the other end of the cable sees it.

The tower opens a symlink to the pty's slave side, as it opens a udev /dev/serial/by-id link on
the appliance; the test plays the pad on the master side. Unplugging closes the pty and removes
the link; plugging in again makes a new pty behind the same link. The link's clock is a fake one
that the test moves, so heartbeats and silence happen when the test says, not when time passes.
Waits have generous limits, and no test asserts how long anything took.
"""

import logging
import os
import subprocess
import sys
import threading
import time

import pytest
import serial
from support.pads import WAIT, Events, Rig

from drivers.errors import DriverClosedError, DriverConfigError
from drivers.padlink import PadLink
from drivers.padport import PadPort
from drivers.simulated.pad import PtyPad, pad_hello
from firmware_py.pad import protocol

MARK_RED_5 = {"action": protocol.MARK, "row": 1, "number": 5}


@pytest.fixture
def rig(tmp_path):
    made = Rig(tmp_path)
    yield made
    made.close()


def test_tower_says_hello_with_its_version_when_it_opens_the_port(rig):
    hello = rig.pad.expect("hello")
    assert hello["role"] == protocol.ROLE_TOWER
    assert hello["protocol"] == protocol.PROTOCOL_VERSION
    assert rig.pad.expect("heartbeat")["state"] == 0


def test_pad_hello_opens_a_session_and_is_handed_on(rig):
    rig.greet()
    assert rig.link.present
    assert rig.link.pad["ident"] == "pad-e6614c31"


def test_pad_of_another_version_is_refused_and_told_the_tower_version(rig):
    rig.pad.expect("hello")
    rig.pad.send("hello", pad_hello(version=protocol.PROTOCOL_VERSION + 1))
    ack = rig.pad.expect("hello_ack")
    assert ack["status"] == protocol.VERSION
    assert ack["protocol"] == protocol.PROTOCOL_VERSION
    assert f"protocol {protocol.PROTOCOL_VERSION}" in ack["text"]
    assert ack["text"].startswith("this pad needs the tower's software")  # a player's words
    seq = rig.pad.send("request", MARK_RED_5)
    assert rig.pad.expect("answer", req=seq)["status"] == protocol.NO_SESSION
    assert rig.events.next() == ("back",)  # the pad is there, but nothing it said was handed on
    assert rig.events.none_pending()
    assert rig.link.pad is None


def test_a_pad_from_before_the_connections_is_let_in_and_one_older_is_refused(rig):
    """docs/pad-protocol.md: version 6 only adds records a version 5 pad skips (where a Qwixx
    Connected pad's connections lie), so a version 5 pad plays on; version 4 knew no Qwixx
    Double, and is told to take the tower's software."""
    rig.pad.expect("hello")
    rig.pad.send("hello", pad_hello(version=protocol.OLDEST_PAD_PROTOCOL))
    assert rig.pad.expect("hello_ack")["status"] == protocol.OK
    assert protocol.OLDEST_PAD_PROTOCOL == 5
    rig.pad.send("hello", pad_hello(boot=8, version=protocol.OLDEST_PAD_PROTOCOL - 1))
    ack = rig.pad.expect("hello_ack")
    assert ack["status"] == protocol.VERSION
    assert "pad protocol 4" in ack["text"]


def test_request_before_hello_is_answered_no_session_and_not_handed_on(rig):
    rig.pad.expect("hello")  # the port is open: bytes sent before that are flushed on opening
    seq = rig.pad.send("request", MARK_RED_5)
    assert rig.pad.expect("answer", req=seq)["status"] == protocol.NO_SESSION
    assert rig.events.next() == ("back",)
    assert rig.events.none_pending()


def test_request_is_handed_on_once_and_a_repeat_gets_the_same_answer(rig):
    rig.greet()
    seq = rig.pad.send("request", MARK_RED_5)
    request = rig.events.next_message("request")
    assert request.seq == seq and request["number"] == 5
    rig.link.answer(request, protocol.OK)
    first = rig.pad.expect("answer", req=seq)
    rig.pad.send("request", MARK_RED_5, seq=seq)  # the pad missed the answer and asks again
    again = rig.pad.expect("answer", req=seq)
    assert again.fields == first.fields == {"req": seq, "status": protocol.OK, "text": ""}
    assert rig.events.none_pending(), "a repeated request must not be applied twice"
    rig.pad.send("request", MARK_RED_5)  # same move, new number: a new request
    assert rig.events.next_message("request").seq == seq + 1


def test_repeat_while_the_tower_decides_waits_for_the_one_answer(rig):
    rig.greet()
    seq = rig.pad.send("request", MARK_RED_5)
    request = rig.events.next_message("request")
    rig.pad.send("request", MARK_RED_5, seq=seq)
    rig.pad.send("hello", pad_hello())  # same boot: the same run of the pad, no restart
    rig.pad.expect("hello_ack")
    assert rig.events.next_message("hello")  # the repeat was not handed on before it
    rig.link.answer(request, protocol.RULE, "Ann cannot cross 5 in red")
    answer = rig.pad.expect("answer", req=seq)
    assert answer["status"] == protocol.RULE and answer["text"] == "Ann cannot cross 5 in red"
    rig.pad.send("hello", pad_hello())
    rig.pad.expect("hello_ack")
    assert "answer" not in rig.pad.names(), "one request, one answer"


def test_pad_that_restarted_has_its_requests_applied_afresh(rig):
    rig.greet(boot=7)
    seq = rig.pad.send("request", MARK_RED_5)
    rig.link.answer(rig.events.next_message("request"), protocol.OK)
    rig.pad.expect("answer", req=seq)
    rig.pad.send("hello", pad_hello(boot=8))
    rig.pad.expect("hello_ack")
    rig.events.next_message("hello")
    rig.pad.send("request", MARK_RED_5, seq=seq)  # numbered afresh: the same number, a new move
    assert rig.events.next_message("request").seq == seq


def test_long_answer_text_is_cut_to_fit_a_frame(rig):
    rig.greet()
    seq = rig.pad.send("request", MARK_RED_5)
    rig.link.answer(rig.events.next_message("request"), protocol.RULE, "\u00e9" * 500)
    text = rig.pad.expect("answer", req=seq)["text"]
    assert 100 < len(text) < 500 and set(text) == {"\u00e9"}


def test_pad_gone_after_missed_beats_and_back_when_heard(rig):
    rig.greet()
    rig.pad.drain()
    rig.clock.advance(protocol.MISSED_BEATS * protocol.BEAT_SECONDS - 0.1)
    rig.pad.expect("heartbeat")  # the tower judged silence at this time before it beat
    assert rig.events.none_pending() and rig.link.present
    rig.clock.advance(0.2)
    assert rig.events.next() == ("gone",)
    assert not rig.link.present
    rig.pad.send("heartbeat", {"state": 0})
    assert rig.events.next() == ("back",)
    assert rig.link.present


def test_tower_beats_once_per_beat_of_its_clock(rig):
    rig.greet()
    state_seq = rig.link.send("state", {"player": "Ann"})
    rig.pad.drain()
    rig.clock.advance(protocol.BEAT_SECONDS)
    assert rig.pad.expect("heartbeat")["state"] == state_seq


def test_state_is_sent_again_to_a_pad_that_missed_it(rig):
    rig.greet()
    fields = {"player": "Ann", "phase": 1, "text": "Ann rolls"}
    seq = rig.link.send("state", fields)
    assert rig.pad.expect("state").seq == seq
    rig.clock.advance(protocol.BEAT_SECONDS)
    rig.pad.send("heartbeat", {"state": 0})  # as if that state had been lost on the line
    again = rig.pad.expect("state")
    assert again.seq != seq
    assert again["text"] == "Ann rolls" and again["phase"] == 1


def test_the_link_knows_which_state_the_pad_holds(rig):
    """A pad's first press is nobody's until its STATE arrived: the emulated Pico's test waits
    for this before it presses (its LED is on from the boot, before the tower answers)."""
    rig.greet()
    assert rig.link.pad_holds == 0
    seq = rig.link.send("state", {"player": "Ann"})
    assert rig.pad.expect("state").seq == seq
    rig.pad.send("heartbeat", {"state": seq})
    deadline = time.monotonic() + 5
    while rig.link.pad_holds != seq:
        assert time.monotonic() < deadline, "the pad's heartbeat was not read"
        time.sleep(0.01)


def test_noise_on_the_line_is_dropped_counted_and_survived(rig):
    rig.pad.expect("hello")
    rig.pad.write(b"\xde\xad\xbe\xef" * 40 + b"\x00\x07\x01\x02\x00" + b"\x55" * 1000)
    rig.pad.send("hello", pad_hello())
    assert rig.pad.expect("hello_ack")["status"] == protocol.OK
    stats = rig.link.stats
    assert stats["frames"] == 1
    assert stats["oversize"] == 1 and stats["truncated"] + stats["crc"] >= 1


def test_unplugged_pad_is_gone_and_back_after_replug_with_its_answer_kept(rig):
    rig.greet()
    seq = rig.pad.send("request", MARK_RED_5)
    rig.link.answer(rig.events.next_message("request"), protocol.OK)
    rig.pad.unplug()  # pulled out before the pad read its answer
    assert rig.events.next() == ("gone",)
    assert rig.link.stats["port_errors"] >= 1
    rig.pad = PtyPad(rig.path)  # plugged in again, the same run of the same pad
    rig.greet(first=True)
    assert rig.link.stats["opened"] == 2
    rig.pad.send("request", MARK_RED_5, seq=seq)  # still waiting for its answer
    assert rig.pad.expect("answer", req=seq)["status"] == protocol.OK
    assert rig.events.none_pending(), "the request must not be applied a second time"


def test_link_waits_for_a_port_that_is_not_there_yet(tmp_path):
    rig = Rig(tmp_path, plugged=False)
    try:
        with pytest.raises(serial.SerialException):  # nothing there yet
            serial.serial_for_url(str(rig.path), timeout=0)
        assert rig.link.send("notice", {"text": "hi"}) is None
        rig.pad = PtyPad(rig.path)
        rig.greet()
        assert rig.link.stats["opened"] == 1
    finally:
        rig.close()


@pytest.mark.parametrize("device", ["/dev/null", "/dev/zero"])
def test_a_device_that_is_not_a_serial_port_is_said_so(device, caplog):
    """[pads] ports naming /dev/null: pyserial's "Could not configure port: (25, 'Inappropriate
    ioctl for device')" told a maker nothing; the log now says what the device is not."""
    port = PadPort(device, baudrate=115200, retry=(0.1, 1.0))
    with caplog.at_level(logging.WARNING, logger="drivers.padlink"):
        assert not port.open()
    assert caplog.messages == [
        f"pad port {device} cannot be opened: it is not a serial port "
        "(a pad's is a device such as /dev/ttyACM0)"
    ]


def test_a_port_another_program_holds_is_said_so(caplog):
    """pyserial's words were "[Errno 11] Could not exclusively lock port /dev/ttyACM0:
    [Errno 11] Resource temporarily unavailable"; what a maker needs is who has it."""
    main, side = os.openpty()
    device = os.ttyname(side)
    other = serial.Serial(device, exclusive=True)  # a serial monitor left open
    try:
        port = PadPort(device, baudrate=115200, retry=(0.1, 1.0))
        with caplog.at_level(logging.WARNING, logger="drivers.padlink"):
            assert not port.open()
        assert caplog.messages == [
            f"pad port {device} cannot be opened: another program has it open "
            f"(`sudo fuser -v {device}` names it)"
        ]
    finally:
        other.close()
        os.close(main), os.close(side)


def test_callback_that_raises_does_not_stop_the_link(tmp_path):
    rig = Rig(tmp_path)
    rig.link.when_message = lambda link, message: 1 / 0
    try:
        rig.pad.expect("hello")
        rig.pad.send("hello", pad_hello())
        rig.pad.expect("hello_ack")
        rig.pad.send("hello", pad_hello())  # handled after the first callback blew up
        assert rig.pad.expect("hello_ack")["status"] == protocol.OK
        assert rig.link.stats["callback_errors"] >= 1
    finally:
        rig.close()


def test_close_releases_the_port_and_refuses_further_sends(rig):
    rig.pad.expect("hello")
    with pytest.raises(serial.SerialException):  # the link holds the port exclusively
        serial.serial_for_url(str(rig.path), timeout=0, exclusive=True)
    rig.link.close()
    rig.link.close()
    serial.serial_for_url(str(rig.path), timeout=0, exclusive=True).close()
    with pytest.raises(DriverClosedError):
        rig.link.send("notice", {"text": "hi"})


def test_tower_wired_to_itself_is_not_taken_for_a_pad():
    events = Events()
    with PadLink("loop://", when_message=events.message, when_back=events.back) as link:
        assert events.next() == ("back",)  # it hears its own frames...
        deadline = time.monotonic() + WAIT
        while link.stats["unexpected"] == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert link.stats["unexpected"] >= 1  # ...including its own refusal of its hello
        assert link.pad is None
        assert events.none_pending()


def test_a_state_re_sent_for_a_heartbeat_never_goes_out_after_a_newer_one(rig):
    """The reader thread re-sends the last STATE to a pad whose heartbeat reports an older
    one. It read that state, then wrote it: a newer state the table sent in between went out
    first, and the old one after it, with a newer sequence number, so the pad held the old
    one (a player's options of the roll before: "no red move"; seen once in the suite beside
    busy loops). The re-send is held here between its choice and its write until the newer
    state is written, which the state lock makes wait for it instead."""
    rig.greet()
    rig.link.send("state", {"player": "Ann", "phase": 1, "text": "before the roll"})
    assert rig.pad.expect("state")["text"] == "before the roll"
    resending, newer_written = threading.Event(), threading.Event()
    write = rig.link._port.write

    def held_write(name, fields, sent):
        if name == "state" and threading.current_thread() is rig.link._thread:
            resending.set()
            newer_written.wait(1.0)  # (never set while the state lock holds the newer back)
        elif name == "state":
            newer_written.set()
        return write(name, fields, sent)

    rig.link._port.write = held_write
    rig.clock.advance(protocol.BEAT_SECONDS)
    rig.pad.send("heartbeat", {"state": 0})  # the pad missed "before the roll"
    assert resending.wait(WAIT)
    rig.link.send("state", {"player": "Ann", "phase": 2, "text": "after the roll"})
    said = [rig.pad.expect("state")["text"] for _ in range(2)]
    assert said == ["before the roll", "after the roll"]  # the newest last: the pad holds it
    rig.link._port.write = write


@pytest.mark.parametrize("options", [{"beat": 0}, {"missed": 0}, {"retry": (2.0, 1.0)}])
def test_timings_that_cannot_work_are_refused(options):
    with pytest.raises(DriverConfigError):
        PadLink("loop://", **options)


def test_pad_link_does_not_import_the_rules_engine():
    code = (
        "import sys, drivers.padlink; "
        "print(sorted(m for m in sys.modules if m.startswith('firmware_py.rules')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_a_pad_unplugged_as_the_tower_writes_to_it_is_gone_quietly_and_back_on_replug(
    tmp_path, caplog
):
    """Issue 24: an unplug just after a failed write logged 'internal error' with a traceback
    (the port's buffer could not be flushed on a port already gone). Here the pad is pulled
    just as the tower answers its request, on the link's own thread, every time."""
    rig = Rig(tmp_path)
    writes = []

    def pulled_as_it_answers(link, message):
        rig.events.message(link, message)
        if message.name == "request":
            rig.pad.unplug()
            writes.append(link.answer(message, protocol.OK))  # fails: the pad is gone

    rig.link.when_message = pulled_as_it_answers
    try:
        rig.greet()
        rig.pad.send("request", MARK_RED_5)
        assert rig.events.next_message("request")
        assert rig.events.next() == ("gone",)
        assert writes == [None]
        rig.pad = PtyPad(rig.path)  # plugged in again
        rig.greet()  # back, and its hello
        assert rig.link.stats["internal_errors"] == 0
        assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    finally:
        rig.close()
