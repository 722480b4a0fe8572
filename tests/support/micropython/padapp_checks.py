"""Checks of the pad's logic (padapp.py, padscreen.py) on a fake clock, run by MicroPython.

usage: micropython padapp_checks.py PAD_DIR

PAD_DIR holds the firmware (protocol.py, padapp.py, padscreen.py), imported as top-level modules as
on the pad. Prints `pass NAME` or `FAIL NAME: ERROR` for each check, then `done`;
tests/pad/test_pad_firmware_unit.py runs it under MicroPython and reads the output, and runs the
same checks under CPython. Time is whatever the check says: no check waits for a real clock.
"""

import sys

if sys.implementation.name == "micropython" and __name__ == "__main__":
    sys.path.insert(0, sys.argv[1])

if sys.implementation.name == "micropython":
    import padapp
    import padscreen
    import protocol
else:
    from firmware_py.pad import padapp, padscreen, protocol

RED, YELLOW, PASS, UNDO = 1, 2, 1 << padapp.PASS_BUTTON, 1 << padapp.UNDO_BUTTON
MARK_RED_5 = {"action": 1, "row": 1, "number": 5, "flags": 0, "choice": 0}


class Wire:
    """The tower's view of what a pad writes: the messages, decoded."""

    def __init__(self):
        self.decoder = protocol.FrameDecoder()
        self.messages = []

    def write(self, data):
        self.messages.extend(self.decoder.feed(data))

    def named(self, name):
        return [m for m in self.messages if m.name == name]

    def clear(self):
        self.messages = []


def tower(name, seq, fields=None):
    return protocol.encode(name, seq, fields)


def open_link(now=0):
    wire = Wire()
    link = padapp.Link(wire.write, "pad-check", 77, now)
    link.start(now)
    link.receive(tower("hello_ack", 1, {"protocol": protocol.PROTOCOL_VERSION}), now)
    assert link.up
    wire.clear()
    return link, wire


def sample_state(flags=protocol.MAY_PASS):
    rows = []
    for colour in (1, 2, 3, 4):
        numbers = bytes(range(2, 13)) if colour < 3 else bytes(range(12, 1, -1))
        rows.append({"colour": colour, "numbers": numbers, "cells": b"", "crossed": 0, "flags": 0})
    return {
        "player": "Ann",
        "phase": 2,
        "flags": flags,
        "penalties": 0,
        "total": 0,
        "locked": 0,
        "dice": bytes([4, 1, 6, 2, 3, 6]),
        "lucky": b"",
        "text": "your move",
        "rows": rows,
        "moves": [{"row": 1, "number": 5, "flags": 0}, {"row": 1, "number": 2, "flags": 1}],
    }


def pad_with_state(state):
    wire = Wire()
    pad = padapp.PadApp(wire.write, "pad-check", 77, 0)
    pad.start(0)
    pad.receive(tower("hello_ack", 1, {"protocol": protocol.PROTOCOL_VERSION}), 0)
    pad.receive(tower("state", 2, state), 0)
    wire.clear()
    return pad, wire


def tap(pad, bit, at, held=40):
    pad.sample(bit, at)
    pad.tick(at)
    pad.sample(0, at + held)
    pad.tick(at + held)


# --- checks ---


def check_debounce_counts_a_press_at_once_and_ignores_the_bounce():
    buttons = padapp.Buttons(debounce_ms=20)
    assert buttons.update(RED, 1000) == [(0, True)]
    for at, raw in ((1003, 0), (1006, RED), (1009, 0), (1012, RED), (1030, RED)):
        assert buttons.update(raw, at) == [], at
    assert buttons.update(0, 1100) == [(0, False)]
    assert buttons.update(RED, 1104) == [], "a bounce on release is not a press"
    assert buttons.update(0, 1130) == []
    assert buttons.pressed == 0


def check_debounce_sees_a_release_that_came_during_the_bounce():
    buttons = padapp.Buttons(debounce_ms=20)
    assert buttons.update(RED, 0) == [(0, True)]
    assert buttons.update(0, 5) == []
    assert buttons.update(0, 19) == []
    assert buttons.update(0, 20) == [(0, False)]


def check_debounce_keeps_buttons_apart():
    buttons = padapp.Buttons(debounce_ms=20)
    assert buttons.update(RED, 0) == [(0, True)]
    assert buttons.update(RED | PASS, 2) == [(padapp.PASS_BUTTON, True)]
    assert buttons.update(PASS, 3) == [], "red is still bouncing"
    assert buttons.update(PASS, 20) == [(0, False)]


def check_unanswered_request_is_sent_again_unchanged_with_its_seq():
    link, wire = open_link(1000)
    seq = link.submit(MARK_RED_5, 1000)
    first = wire.named("request")
    assert [m.seq for m in first] == [seq] and first[0].fields == MARK_RED_5
    link.tick(1000 + padapp.RETRY_MS - 1)
    assert len(wire.named("request")) == 1, "not again before RETRY_SECONDS"
    link.tick(1000 + padapp.RETRY_MS)
    again = wire.named("request")
    assert len(again) == 2 and again[1].seq == seq and again[1].fields == MARK_RED_5
    assert wire.messages[-1].name == "request"
    link.receive(tower("answer", 9, {"req": seq + 1, "status": 0}), 1500)
    assert link.request is not None, "an answer to another request is not ours"
    link.receive(tower("answer", 10, {"req": seq, "status": 1, "text": "no"}), 1600)
    assert link.request is None
    link.tick(5000)
    assert len(wire.named("request")) == 2, "answered: never sent again"


def check_one_request_in_flight_and_a_new_one_gets_a_new_seq():
    link, wire = open_link()
    seq = link.submit(MARK_RED_5, 0)
    assert link.submit({"action": 2, "row": 0, "number": 0, "flags": 0, "choice": 0}, 0) == 0
    link.receive(tower("answer", 5, {"req": seq, "status": 0}), 10)
    second = link.submit(MARK_RED_5, 20)
    assert second != seq and second == wire.named("request")[-1].seq


def check_request_waits_for_the_session_then_goes_at_once():
    wire = Wire()
    link = padapp.Link(wire.write, "pad-check", 77, 0)
    link.start(0)
    seq = link.submit(MARK_RED_5, 10)
    link.tick(3000)
    assert wire.named("request") == [], "no session: the tower would act on none"
    link.receive(tower("hello", 1, {"role": protocol.ROLE_TOWER}), 3100)
    assert wire.messages[-1].name == "hello", "the tower's hello is answered with ours"
    link.receive(tower("hello_ack", 2, {"protocol": protocol.PROTOCOL_VERSION}), 3200)
    assert [m.seq for m in wire.named("request")] == [seq]


def check_no_session_answer_keeps_the_request_and_says_hello():
    link, wire = open_link()
    seq = link.submit(MARK_RED_5, 0)
    link.receive(tower("answer", 3, {"req": seq, "status": protocol.NO_SESSION}), 50)
    assert link.request is not None and not link.session
    assert wire.messages[-1].name == "hello"
    link.receive(tower("hello_ack", 4, {"protocol": protocol.PROTOCOL_VERSION}), 60)
    assert [m.seq for m in wire.named("request")] == [seq, seq]


def check_tower_is_gone_after_missed_beats_and_greeted_when_back():
    link, wire = open_link(0)
    link.receive(tower("heartbeat", 2, {"state": 0}), 100)
    silent = protocol.MISSED_BEATS * padapp.BEAT_MS
    link.tick(100 + silent)
    assert link.heard, "exactly MISSED_BEATS beats of silence is not yet gone"
    seq = link.submit(MARK_RED_5, 100 + silent)
    link.tick(101 + silent)
    assert not link.heard and not link.up
    wire.clear()
    link.tick(101 + silent + 5 * padapp.RETRY_MS)
    assert wire.named("request") == [] and wire.named("hello") == [], "nobody to talk to"
    assert wire.named("heartbeat"), "beats go on, so the tower hears the pad when it is back"
    link.receive(tower("heartbeat", 3, {"state": 0}), 20000)
    assert link.heard and wire.messages[-1].name == "hello"
    link.receive(tower("hello_ack", 4, {"protocol": protocol.PROTOCOL_VERSION}), 20010)
    assert link.up and wire.named("request")[-1].seq == seq, "kept in flight, sent again"


def refuse_hello(link, wire, at, seq, text="another pad with this ident is connected"):
    """The tower refuses the hello the pad said last (status 10: a code this pad has no name
    for: only the text matters)."""
    assert wire.messages[-1].name == "hello"
    ack = {"protocol": protocol.PROTOCOL_VERSION, "status": 10, "text": text}
    return link.receive(tower("hello_ack", seq, ack), at)


def hello_times(link, wire, until, step=50, refuse=True):
    """Run the link's clock to `until` with a heartbeat from the tower every beat, refusing
    every hello; the times the pad said hello."""
    times = []
    beat = 0
    for now in range(0, until, step):
        if now >= beat:
            link.receive(tower("heartbeat", 100 + now // 1000, {"state": 0}), now)
            beat += padapp.BEAT_MS
        link.tick(now)
        if wire.messages and wire.messages[-1].name == "hello":
            times.append(now)
            if refuse:
                refuse_hello(link, wire, now, 200 + len(times))
            wire.clear()
    return times


def check_a_refused_hello_is_said_again_later_each_time_up_to_30_seconds():
    wire = Wire()
    link = padapp.Link(wire.write, "pad-check", 77, 0)
    link.start(0)
    refuse_hello(link, wire, 0, 1)
    assert link.refusal == "another pad with this ident is connected" and not link.up
    wire.clear()
    times = hello_times(link, wire, 140000)
    times.insert(0, 0)
    gaps = [(times[i + 1] - times[i]) // 1000 for i in range(len(times) - 1)]
    assert gaps[:8] == [1, 2, 4, 8, 16, 30, 30, 30], gaps
    assert set(gaps[5:]) == {30}, "never gives up, never slower than 30 s"


def check_an_accepted_hello_starts_the_backoff_afresh():
    wire = Wire()
    link = padapp.Link(wire.write, "pad-check", 77, 0)
    link.start(0)
    refuse_hello(link, wire, 0, 1)
    wire.clear()
    hello_times(link, wire, 20000)  # refused at 1, 3, 7 and 15 s: the next is due at 31 s
    link.receive(tower("heartbeat", 49, {"state": 0}), 30900)
    link.tick(31000)
    assert wire.named("hello"), "said again at 31 s"
    link.receive(tower("hello_ack", 50, {"protocol": protocol.PROTOCOL_VERSION}), 31000)
    assert link.up and link.refusal == ""
    link.receive(tower("hello", 51, {"role": protocol.ROLE_TOWER}), 40000)  # tower restarted
    refuse_hello(link, wire, 40000, 52, "tower speaks protocol 3, pad 2")
    wire.clear()
    link.receive(tower("heartbeat", 53, {"state": 0}), 40900)
    link.tick(40999)
    assert wire.named("hello") == []
    link.tick(41000)
    assert wire.named("hello"), "1 s after the first refusal since the session"


def check_a_refused_pad_answers_the_towers_hello_at_once():
    wire = Wire()
    link = padapp.Link(wire.write, "pad-check", 77, 0)
    link.start(0)
    refuse_hello(link, wire, 0, 1)
    hello_times(link, wire, 10000)
    link.receive(tower("hello", 60, {"role": protocol.ROLE_TOWER}), 10010)
    assert wire.named("hello"), "the tower's hello is answered at once"


def check_a_refusal_covers_the_sheet_with_the_towers_words():
    pad = pad_with_state(sample_state())[0]
    pad.receive(tower("hello", 9, {"role": protocol.ROLE_TOWER}), 100)
    text = "tower speaks protocol 3, pad 2"
    ack = {"protocol": 3, "status": protocol.VERSION, "text": text}
    pad.receive(tower("hello_ack", 10, ack), 110)
    screen = padscreen.render(pad)
    assert screen[0] == "Ann      hello..", screen
    assert screen[2:] == [
        "tower says no:",
        "tower speaks",
        "protocol 3, pad",
        "2",
        "",
        "will try again",
    ], screen
    empty = {"protocol": 3, "status": protocol.VERSION, "text": ""}
    pad.receive(tower("hello_ack", 11, empty), 120)
    assert padscreen.render(pad)[2:4] == ["tower says no:", "version"], "the code's name"
    pad.receive(tower("hello_ack", 12, {"protocol": protocol.PROTOCOL_VERSION}), 130)
    assert padscreen.render(pad)[2].startswith("R"), "the sheet again"


def check_heartbeat_reports_the_newest_state_held():
    link, wire = open_link(0)
    link.receive(tower("state", 41, {"player": "Ann"}), 10)
    link.tick(padapp.BEAT_MS)
    assert wire.named("heartbeat")[-1]["state"] == 41


def check_a_tap_of_pass_never_passes_a_hold_does():
    pad, wire = pad_with_state(sample_state())
    tap(pad, PASS, 100, held=padapp.LONG_MS - 50)
    assert wire.named("request") == []
    assert pad.hint == "hold P to pass"
    pad.sample(PASS, 2000)
    pad.tick(2000 + padapp.LONG_MS - 1)
    assert wire.named("request") == []
    pad.tick(2000 + padapp.LONG_MS)
    assert [m["action"] for m in wire.named("request")] == [protocol.PASS]


def check_colour_selects_again_toggles_to_lucky_and_confirm_sends():
    pad, wire = pad_with_state(sample_state())
    tap(pad, RED, 100)
    assert padscreen.render(pad)[6] == "> R 5"
    tap(pad, RED, 200)
    assert padscreen.render(pad)[6] == "> R 2 lucky"
    assert padscreen.render(pad)[2].startswith("R*"), "the selected cell is starred"
    tap(pad, PASS, 300)
    request = wire.named("request")
    assert len(request) == 1 and request[0]["number"] == 2 and request[0]["flags"] == 1
    assert padscreen.render(pad)[6] == "sent R 2 lucky"


def check_undo_clears_a_selection_or_takes_back():
    pad, wire = pad_with_state(sample_state())
    tap(pad, RED, 100)
    tap(pad, UNDO, 200)
    assert pad.selected is None and wire.named("request") == []
    pad.receive(tower("state", 3, sample_state(protocol.MAY_UNDO | protocol.DECIDED)), 300)
    tap(pad, UNDO, 400)
    assert [m["action"] for m in wire.named("request")] == [protocol.UNDO]


def check_refusal_shows_the_towers_words_until_a_press():
    pad, wire = pad_with_state(sample_state())
    tap(pad, RED, 100)
    tap(pad, PASS, 200)
    seq = wire.named("request")[0].seq
    text = "Ann cannot cross red 5: red is locked"
    pad.receive(tower("answer", 5, {"req": seq, "status": protocol.RULE, "text": text}), 300)
    screen = padscreen.render(pad)
    assert " ".join(line for line in screen[2:] if line) == "NO: " + text
    tap(pad, RED, 400)
    assert padscreen.render(pad)[6] == "> R 5"


def check_notice_shows_for_its_seconds_or_until_the_next():
    pad = pad_with_state(sample_state())[0]
    pad.receive(tower("notice", 7, {"seconds": 2, "text": "Ben locks red"}), 1000)
    assert padscreen.render(pad)[2] == "Ben locks red"
    pad.tick(2999)
    assert padscreen.render(pad)[2] == "Ben locks red"
    pad.tick(3000)
    assert padscreen.render(pad)[2].startswith("R"), "the sheet again"
    pad.receive(tower("notice", 8, {"seconds": 0, "text": "Game over: Ann wins"}), 4000)
    pad.tick(4000 + 3600 * 1000)
    assert padscreen.render(pad)[2:4] == ["Game over: Ann", "wins"]


def check_screen_lines_fit_the_display():
    state = sample_state()
    state["player"] = "Bartholomew-the-long"
    state["text"] = "waiting for Bartholomew, Christabel, Dorothea and Ebenezer to decide"
    state["rows"][0]["numbers"] = bytes(range(2, 17))
    state["rows"][0]["crossed"] = 0x7FFF
    state["rows"][0]["flags"] = protocol.ROW_LOCKED | protocol.ROW_CLOSED
    pad = pad_with_state(state)[0]
    screen = padscreen.render(pad)
    assert len(screen) == padscreen.HEIGHT
    for line in screen:
        assert len(line) <= padscreen.WIDTH, line
    assert screen[2] == "r" + "x" * 15, screen[2]


def check_a_record_with_a_flag_the_pad_does_not_know_changes_nothing_on_its_screen():
    """How a later protocol adds to STATE without shutting out older pads
    (docs/pad-protocol.md, version 6): a pad draws the first four rows and finds the others
    by the flags it knows, so records after them with another flag change nothing."""
    pad = pad_with_state(sample_state())[0]
    before = padscreen.render(pad)
    state = sample_state()
    unknown = {"colour": 1, "numbers": bytes([5, 9]), "cells": b"\x02\x05", "crossed": 3}
    state["rows"].append(dict(unknown, flags=64))
    later = pad_with_state(state)[0]
    assert padscreen.render(later) == before
    tap(later, RED, 100)
    tap(pad, RED, 100)
    assert padscreen.render(later) == padscreen.render(pad), "red 5 selected alike"


def check_a_connected_pad_marks_its_open_stair_and_chain_cells():
    """Qwixx Connected (ROW_LINKS): "^" an open stair cell, a chain's two ends one letter;
    a crossed cell is "x", a passed stair cell "-", a passed chain cell keeps its letter."""
    state = sample_state()
    state["rows"][0]["crossed"] = 1 << 4  # red 6
    links = {"crossed": 0, "flags": protocol.ROW_LINKS}
    state["rows"].append(dict(links, colour=1, numbers=bytes([3, 11]), cells=b"\x00\x00\x02\x0b"))
    state["rows"].append(dict(links, colour=2, numbers=bytes([11]), cells=b"\x01\x0b"))
    pad = pad_with_state(state)[0]
    screen = padscreen.render(pad)
    assert screen[2] == "R----x....a.   1", screen[2]
    assert screen[3] == "Y.........a.   0", screen[3]


def screens_over_pages(pad, count):
    """The screen on each of `count` pages (issue 39: what does not fit takes turns)."""
    screens = []
    for page in range(count):
        pad.page = page
        screens.append(padscreen.render(pad))
    return screens


def check_the_screen_turns_its_page_as_time_passes():
    pad = pad_with_state(sample_state())[0]
    pad.tick(padapp.PAGE_MS - 1)
    assert pad.page == 0
    version = pad.version
    pad.tick(padapp.PAGE_MS)
    assert pad.page == 1 and pad.version > version, "drawn again on the next page"


def check_a_long_name_takes_turns_beside_the_score_in_whole_words():
    state = sample_state()
    state["player"], state["total"] = "Alexandra-Charlotte Bell", 12
    screens = screens_over_pages(pad_with_state(state)[0], 4)
    headers = [screen[0] for screen in screens]
    assert headers[:3] == ["Alexandra- 12 P0", "Charlotte  12 P0", "Bell       12 P0"], headers
    assert headers[3] == headers[0], "and round again"


def check_a_name_with_a_word_too_long_beside_the_score_shows_alone_then_the_score():
    state = sample_state()
    state["player"], state["total"] = "Bartholomew", 12
    headers = [screen[0] for screen in screens_over_pages(pad_with_state(state)[0], 2)]
    assert headers == ["Bartholomew", "           12 P0"], headers


def check_a_long_text_takes_turns_never_cut():
    state = sample_state(flags=0)
    state["moves"], state["text"] = [], "waiting for Alexandra-Charlotte Bell"
    screens = screens_over_pages(pad_with_state(state)[0], 2)
    bottoms = [screen[6:8] for screen in screens]
    assert bottoms == [["waiting for", "Alexandra-"], ["Charlotte Bell", ""]], bottoms


def lucky_state(lucky=b"", flags=0, text="choose 2 numbers"):
    """Before a longo game: the numbers 2..16 not yet chosen are the moves (row 0)."""
    moves = [{"row": 0, "number": n, "flags": 0} for n in range(2, 17) if n not in lucky]
    if len(lucky) >= 2:
        moves = []
    state = sample_state(flags)
    state.update({"phase": padapp.PHASE_LUCKY, "dice": b"", "lucky": lucky, "text": text})
    state.update({"rows": [], "moves": moves})
    return state


def answer_ok(pad, wire, at):
    seq = wire.named("request")[-1].seq
    pad.receive(tower("answer", 9, {"req": seq, "status": protocol.OK}), at)


def check_lucky_numbers_step_down_and_up_and_a_tap_of_confirm_chooses_one():
    pad, wire = pad_with_state(lucky_state())
    screen = padscreen.render(pad)
    assert screen[0].endswith("lucky") and screen[1] == "choose 2 numbers", screen
    assert screen[4].strip() == "> 2 <" and screen[5] == "R:down Y:up", screen
    tap(pad, RED, 100)
    assert padscreen.render(pad)[4].strip() == "> 16 <", "down from the lowest wraps"
    for at in (200, 300, 400):
        tap(pad, YELLOW, at)
    assert padscreen.render(pad)[4].strip() == "> 4 <"
    tap(pad, PASS, 500)
    sent = [(m["action"], m["number"]) for m in wire.named("request")]
    assert sent == [(protocol.LUCKY_NUMBER, 4)], sent
    assert padscreen.render(pad)[6] == "sent lucky 4"
    answer_ok(pad, wire, 600)
    pad.receive(tower("state", 3, lucky_state(b"\x04", protocol.MAY_UNDO)), 600)
    screen = padscreen.render(pad)
    assert screen[2] == "yours: 4" and screen[3] == "U: take back", screen
    assert screen[4].strip() == "> 2 <", "the chosen number is gone: back to the lowest"


def check_lucky_numbers_hold_confirm_to_draw_and_undo_to_take_back():
    pad, wire = pad_with_state(lucky_state(b"\x04", protocol.MAY_UNDO))
    pad.sample(PASS, 100)
    pad.tick(100 + padapp.LONG_MS)
    pad.sample(0, 200 + padapp.LONG_MS)
    sent = [(m["action"], m["number"]) for m in wire.named("request")]
    assert sent == [(protocol.LUCKY_NUMBER, 0)], sent
    answer_ok(pad, wire, 2000)
    tap(pad, UNDO, 2100)
    assert [m["action"] for m in wire.named("request")][-1] == protocol.UNDO


def check_lucky_numbers_once_chosen_the_pad_says_whom_the_tower_waits_for():
    state = lucky_state(b"\x05\x09", protocol.MAY_UNDO | protocol.DECIDED, "waiting for Ben")
    pad = pad_with_state(state)[0]
    screen = padscreen.render(pad)
    assert screen[2] == "yours: 5 9" and screen[4] == "waiting for Ben", screen
    for line in screen:
        assert len(line) <= padscreen.WIDTH, line


def join_state(text="press any button to join"):
    """A pad without a seat, as the tower describes it: idle, MAY_JOIN, the tower's words."""
    state = sample_state(protocol.MAY_JOIN)
    state.update({"player": "", "phase": 0, "dice": b"", "text": text, "rows": [], "moves": []})
    return state


def check_a_pad_without_a_seat_asks_to_join_at_a_press_of_any_button():
    for bit in (RED, PASS, UNDO):
        pad, wire = pad_with_state(join_state())
        screen = padscreen.render(pad)
        assert screen[:4] == ["qwixx pad", "pad-check", "press any button", "to join"], screen
        tap(pad, bit, 100)
        assert [m["action"] for m in wire.named("request")] == [protocol.JOIN], bit
        assert padscreen.render(pad)[6:] == ["sent join", "waiting for OK"]


PICO_IDENT = "pad-e6614c3185a61f2b"  # "pad-" and an RP2040's 8-byte unique_id in hex


def check_the_whole_ident_of_a_pico_is_shown_on_two_lines():
    assert padscreen.ident_lines(PICO_IDENT) == ["pad-", "e6614c3185a61f2b"]
    assert padscreen.ident_lines("pad-unix") == ["pad-unix"]
    assert padscreen.ident_lines("x" * 20) == ["x" * 16, "xxxx"], "no dash: cut at the width"
    wire = Wire()
    pad = padapp.PadApp(wire.write, PICO_IDENT, 77, 0)
    pad.start(0)
    assert padscreen.render(pad)[:4] == ["qwixx pad", "pad-", "e6614c3185a61f2b", "waiting for the"]
    pad.receive(tower("hello_ack", 1, {"protocol": protocol.PROTOCOL_VERSION}), 0)
    words = "a game is being played: you can join when it ends"
    pad.receive(tower("state", 2, join_state(words)), 0)
    screen = padscreen.render(pad)
    assert screen[1:3] == ["pad-", "e6614c3185a61f2b"], screen
    assert " ".join(line for line in screen[3:] if line) == words, "the tower's words whole"
    tap(pad, RED, 100)
    assert padscreen.render(pad)[6:] == ["sent join", "waiting for OK"]


def check_a_refused_join_shows_the_words_and_a_press_only_puts_them_away():
    words = "a game is being played: you can join when it ends"
    pad, wire = pad_with_state(join_state(words))
    assert " ".join(line for line in padscreen.render(pad)[2:] if line) == words
    tap(pad, RED, 100)
    seq = wire.named("request")[0].seq
    pad.receive(tower("answer", 5, {"req": seq, "status": protocol.NOT_NOW, "text": words}), 200)
    screen = padscreen.render(pad)
    assert " ".join(line for line in screen[2:] if line) == "NO: " + words, screen
    tap(pad, RED, 300)
    assert len(wire.named("request")) == 1, "putting the refusal away does not ask again"
    assert padscreen.render(pad)[2] == "a game is being"
    tap(pad, RED, 400)
    assert len(wire.named("request")) == 2, "the next press asks again"


CHECKS = [value for name, value in sorted(globals().items()) if name.startswith("check_")]


def run_checks():
    for check in CHECKS:
        try:
            check()
            print("pass", check.__name__)
        except Exception as error:  # report every failure, not only the first
            print("FAIL", check.__name__ + ":", type(error).__name__, error)
    print("done")


if __name__ == "__main__":
    run_checks()
