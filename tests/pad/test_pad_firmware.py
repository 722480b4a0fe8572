"""The real pad firmware, under the MicroPython unix port, at a real tower: buttons pressed on its
standard input, its screen read from its standard output, a pseudo-terminal cable to the tower's
PadLink + PadHub + Table (simulated hardware, journal on disk). A pad plugged in joins the table
at a press of one of its buttons, as a player would. The rig is
tests/support/micropython/firmware_rig.py. Computer seats wait (pace 60 s): the test submits their
decisions and every roll, so the order of things is the test's. Waits are bounded and generous;
nothing is timed.
"""

from __future__ import annotations

import itertools
import random
import signal
import threading
import time

import pytest
from support import sheet_pads
from support.firmware import IDENT, PROMPT, PadTable, rig

from firmware_py.pad import padapp, protocol, robot
from firmware_py.rules import Mark, Pass, Undo
from firmware_py.seating import SeatSpec
from firmware_py.show.screens import render
from firmware_py.view import SETUP, Seat, TableView

IDENT_LINES = ["pad-", "e6614c3185a61f2b"]  # lines 1 and 2 of a pad without a seat
PLAYING = "a game is being played: you can join when it ends"


def test_a_plugged_in_pad_takes_no_seat_until_a_button_is_pressed(table):
    t = table(join=False)
    screen = t.pad.wait_screen(lambda s: s[3:5] == PROMPT, what="the join prompt")
    assert screen[:3] == ["qwixx pad", *IDENT_LINES]
    t.pad.wait_led(True)  # connected: the link is up
    link = t.tower.link()
    assert link.pad["ident"] == IDENT and link.pad["firmware"] == padapp.FIRMWARE
    assert t.tower.seat_names() == [("Bot", "computer")], "plugged in, not seated"
    assert t.tower.call(lambda: dict(t.tower.hub.seated)) == {}
    t.pad.press("tap green")  # any button
    screen = t.pad.wait_screen(lambda s: s[0] == "Ann         0 P0", what="Ann's header")
    assert screen[1] == "no game"
    assert t.tower.seat_names() == [("Bot", "computer"), ("Ann", "pad")]


def test_a_press_joins_and_the_main_display_and_the_news_name_the_new_player(table):
    t = table(join=False)
    t.pad.wait_screen(lambda s: s[3:5] == PROMPT, what="the join prompt")
    t.pad.press("tap undo")
    t.pad.wait_screen(lambda s: s[0].startswith("Ann"), what="Ann's header")
    assert "Ann joins the table" in t.tower.call(lambda: list(t.tower.table.newsfeed.lines))
    expected = TableView(
        SETUP, title="Qwixx", seats=(Seat("Bot"), Seat("Ann")), message="Ann joins the table"
    )
    main = t.tower.call(lambda: t.tower.table.hardware.displays["main"].frame.copy())
    assert main.tobytes() == render(expected, "main").tobytes()


def test_a_join_during_a_game_is_refused_in_words_and_the_pad_shows_them(tmp_path):
    cable = rig.Cable(tmp_path)
    tower = rig.Tower(tmp_path, str(cable.tower_path), seats=[SeatSpec("Bot")])
    tower.call(tower.table.new_game)  # a game without a pad seat is on
    pad = rig.Firmware(cable.pad_path, IDENT)
    try:
        screen = pad.wait_screen(lambda s: s[3] == "a game is being", what="why not now")
        assert screen[:3] == ["qwixx pad", *IDENT_LINES] and screen.words(3) == PLAYING
        pad.press("tap red")
        screen = pad.wait_screen(lambda s: s[2].startswith("NO:"), what="the refusal")
        assert screen.words() == "NO: " + PLAYING
        pad.press("tap red")  # a press puts it away: the pad has no seat, so no sheet
        screen = pad.wait_screen(lambda s: s[3] == "a game is being", what="the refusal away")
        assert tower.call(lambda: dict(tower.hub.seated)) == {}
        assert tower.seat_names() == [("Bot", "computer")]
    finally:
        assert pad.stop() == 0, pad.errors
        tower.close()
        cable.close()


def test_ctrl_c_bytes_before_the_pad_starts_and_inside_frames_are_data(tmp_path):
    """The tower is already talking when the pad starts (a pad plugged into a running tower):
    Ctrl-C, Ctrl-D and raw-REPL keys wait on the line before the firmware runs, and every
    heartbeat carries a 0x03. The pad answers, joins and keeps running. (That a Pico turns
    Ctrl-C off before such a byte can interrupt it: test_pad_firmware_boot.py.)"""
    cable = rig.Cable(tmp_path)
    tower = rig.Tower(tmp_path, str(cable.tower_path), seats=[SeatSpec("Bot")], beat=0.2)
    cable.inject(b"\x03" * 40 + b"\x03\x01\x04\x02\x03" * 20)
    pad = rig.Firmware(cable.pad_path, IDENT, beat_ms=200)
    try:
        pad.wait_screen(lambda s: s[3:5] == PROMPT, what="the join prompt", since=0)
        beats = tower.call(lambda: tower.link().stats["frames"])
        pad.press("tap red")
        pad.wait_screen(lambda s: s[0].startswith("Player"), what="the pad joined")
        deadline = time.monotonic() + rig.WAIT
        while tower.call(lambda: tower.link().stats["frames"]) < beats + 10:
            assert time.monotonic() < deadline, "the pad stopped talking"
            time.sleep(0.05)
        assert pad.process.poll() is None, pad.errors
    finally:
        assert pad.stop() == 0, pad.errors
        tower.close()
        cable.close()


TAKEN = 10  # the tower's hello_ack status for "another pad with this ident is connected"


def test_a_refused_hello_is_said_again_until_the_tower_takes_the_pad(tmp_path):
    """The tower refuses the pad's hello (another pad with its ident is connected): the pad
    shows the tower's words and says hello again by itself, later each time; once the other
    pad is gone the tower accepts, and the pad is in without being replugged."""
    cable = rig.Cable(tmp_path)
    reason = "another pad with this ident is connected"
    tower = rig.ScriptedTower(str(cable.tower_path), beat=0.1, refusal=(TAKEN, reason))
    pad = rig.Firmware(cable.pad_path, IDENT, beat_ms=100)
    try:
        screen = pad.wait_screen(lambda s: s[3] == "tower says no:", what="the refusal")
        assert screen.words(3) == f"tower says no: {reason} will try again"
        deadline = time.monotonic() + rig.WAIT
        while tower.hello_count(accepted=False) < 4:
            assert time.monotonic() < deadline, f"the pad gave up after {tower.hello_count()}"
            time.sleep(0.05)
        with tower._lock:
            times = [at for at, _ in tower.hellos]
        gaps = [b - a for a, b in itertools.pairwise(times)]
        assert gaps[2] > gaps[0], f"hellos come later each time: {gaps}"
        tower.refuse(None)  # the other pad was unplugged
        pad.wait_screen(lambda s: s[3:5] == PROMPT, what="the join prompt")
        assert tower.hello_count(accepted=True) == 1
        assert not [m for m in tower.heard if m.name == "hello" and m["ident"] != IDENT]
    finally:
        assert pad.stop() == 0, pad.errors
        tower.close()
        cable.close()


def test_a_replugged_or_restarted_pad_keeps_its_seat_without_a_press(table):
    t = table()
    unplug(t)
    t.cable.plug()
    since = t.pad.mark()
    t.pad.wait_screen(lambda s: s[0] == "Ann         0 P0", what="Ann back", since=since)
    assert not [s for s in t.pad.screens[since:] if s[3:5] == PROMPT], "no press was needed"
    t.pad.kill()  # the pad restarts: a new boot number, the same ident
    t.pad = t.start_pad()
    t.pad.wait_screen(lambda s: s[0] == "Ann         0 P0", what="Ann after the restart", since=0)
    assert not [s for s in t.pad.screens if s[3:5] == PROMPT], "no press was needed"
    assert t.tower.seat_names() == [("Bot", "computer"), ("Ann", "pad")]
    assert t.tower.call(lambda: t.tower.table.newsfeed.lines.count("Ann joins the table")) == 1


def fall_quiet(t: PadTable) -> None:
    """The pad is not heard for longer than the missed beats (its bytes lost on the cable),
    then heard again: the tower calls it gone, then back."""
    link = t.tower.link()
    t.cable.mute()
    t.wait_for_tower(lambda: not link.present, "the pad called gone")
    t.cable.mute(False)
    t.wait_for_tower(lambda: link.present, "the pad heard again")


def test_a_pad_without_a_seat_that_went_quiet_joins_at_its_next_press(table):
    """Issue 39: the quiet join, on the firmware: a pad left unplayed falls quiet for longer
    than the missed beats; heard again, a press joins (not 'say hello first')."""
    t = table(join=False)
    t.pad.wait_screen(lambda s: s[3:5] == PROMPT, what="the join prompt")
    fall_quiet(t)
    t.pad.press("tap green")
    t.pad.wait_screen(lambda s: s[0] == "Ann         0 P0", what="Ann's header")
    assert t.tower.seat_names() == [("Bot", "computer"), ("Ann", "pad")]


def test_a_seated_pad_that_went_quiet_plays_the_next_game(table):
    """Issue 39: Ann's pad falls quiet for longer than the missed beats between games (the
    tower calls it gone), then is heard again: it speaks for Ann again, so the next game is
    hers too (without PadHub._on_back taking it back, she sat that game out)."""
    t = table()
    fall_quiet(t)
    t.tower.call(t.tower.table.new_game)
    assert [p.name for p in t.tower.game().players] == ["Bot", "Ann"]
    t.pad.wait_screen(lambda s: s[1] == "no roll yet", what="Ann's new game")


def test_after_a_tower_restart_the_resumed_games_pad_seat_is_taken_at_hello(table, tmp_path):
    t = table(bots=())
    t.start_game()
    t.roll((4, 1))
    t.play(robot.mark("red", 5))
    t.wait_for_tower(lambda: t.tower.table.game.phase == "action2", "Ann's mark")
    t.tower.close()  # the tower restarts; the pad stays plugged in
    t.pad.wait_screen(lambda s: "no tower" in s[0], what="the tower gone")
    since = t.pad.mark()
    t.tower = rig.Tower(tmp_path, str(t.cable.tower_path), names={IDENT: "Ann"})
    screen = t.pad.wait_screen(
        lambda s: s[0] == "Ann         1 P0", what="Ann's sheet back", since=since
    )
    assert screen[2] == "R---x.......   1"
    assert not [s for s in t.pad.screens[since:] if s[3:5] == PROMPT], "no press was needed"
    assert t.tower.seat_names() == [("Ann", "pad")]


def test_action1_shows_the_white_sum_and_the_rows_it_may_go_in(table):
    t = table(bots=())
    t.start_game()
    t.roll((3, 6))
    t.tower.submit(Mark("Ann", "red", 9))
    t.tower.submit(Pass("Ann"))  # action 2: Ann marked in action 1, so no penalty
    screen = t.roll((4, 1), {"red": 6, "yellow": 2, "green": 3, "blue": 6})
    assert screen[1] == "4+1=5 r6y2g3b6"
    screen = t.pad.wait_screen(lambda s: s[6].startswith("white"), what="the offer")
    assert screen[6] == "white 5: -YGB"  # red is crossed up to 9: 5 is behind it
    assert screen[7] == "hold P: pass"
    assert screen[2] == "R-------x...   1"


def test_a_mark_chosen_with_the_buttons_is_accepted_and_shown_on_the_sheet(table):
    t = table()
    t.start_game()
    t.roll((4, 1))
    t.pad.press("tap yellow")
    selected = t.pad.wait_screen(lambda s: s[6] == "> Y 5", what="yellow 5 selected")
    assert selected[3] == "Y...*.......   0" and selected[7] == "P:send U:cancel"
    t.pad.press("tap pass")
    screen = t.pad.wait_screen(lambda s: s[3] == "Y---x.......   1", what="yellow 5 crossed")
    assert screen[0] == "Ann         1 P0"
    assert t.decisions() == [Mark("Ann", "yellow", 5)]


def test_a_refused_request_shows_the_towers_reason(table):
    """Ann presses undo on a stale screen, just as Bot's decision has closed action 1."""
    t = table()
    t.start_game()
    t.roll((4, 1))
    t.play(robot.mark("green", 5))
    t.pad.wait_screen(lambda s: s[7] == "U: take back", what="Ann decided")
    t.cable.hold()  # the tower's next words are late
    t.tower.submit(Pass("Bot"))  # action 1 is over: nothing left to take back
    t.pad.press("tap undo")
    deadline = time.monotonic() + rig.WAIT
    while not [m for m in t.cable.held_messages() if m.name == "answer"]:
        assert time.monotonic() < deadline, "the tower never answered the undo"
        time.sleep(0.01)
    t.cable.release()
    screen = t.pad.wait_screen(lambda s: s[2].startswith("NO:"), what="the refusal")
    assert screen.words().startswith("NO: Ann has nothing to take back: action 1 is over")
    assert t.decisions() == [Mark("Ann", "green", 5)]
    t.pad.press("tap red")  # a press puts the refusal away
    t.pad.wait_screen(lambda s: s[3].startswith("Y") and "waiting for Bot" in s.words(6))


def test_pass_takes_a_long_press_and_undo_takes_it_back(table):
    t = table()
    t.start_game()
    t.roll((4, 1))
    t.pad.press("tap pass")
    t.pad.wait_screen(lambda s: s[7] == "hold P to pass", what="the hint")
    t.pad.press("hold pass")
    t.pad.wait_screen(lambda s: s[7] == "U: take back", what="Ann passed")
    assert t.decisions() == [Pass("Ann")], "a tap never passes; the hold passed once"
    t.pad.press("tap undo")
    screen = t.pad.wait_screen(lambda s: s[6] == "white 5: RYGB", what="action 1 open again")
    assert t.decisions() == [Pass("Ann"), Undo("Ann")]
    assert screen[7] == "hold P: pass"


def test_a_hold_of_pass_while_a_busy_machine_holds_the_pad_up_still_passes(table):
    """The machine holds the pad's process up (SIGSTOP) for longer than the whole hold of
    pass: the pad sees the hold as a Pico would (its clock moves a loop at a time while a
    finger is down), so the player passes. It used to see only the release, and nothing
    passed: the test waited for the pass until its limit."""
    t = table()
    t.start_game()
    t.roll((4, 1))
    t.pad.press("hold pass")
    time.sleep(0.1)  # pass is down by now on an idle machine (if not: the pause is harmless)
    t.pad.process.send_signal(signal.SIGSTOP)
    time.sleep(padapp.HOLD_MS / 1000 + 0.5)
    t.pad.process.send_signal(signal.SIGCONT)
    t.pad.wait_screen(lambda s: s[7] == "U: take back", what="Ann passed")
    assert t.decisions() == [Pass("Ann")]


def test_waiting_line_says_who_the_table_waits_for(table):
    t = table()
    t.start_game()
    screen = t.pad.screen
    assert "Bot rolls next" in screen.words(6)
    t.roll((4, 1))
    t.play(robot.mark("red", 5))
    screen = t.pad.wait_screen(lambda s: s[7] == "U: take back", what="Ann decided")
    assert screen[6] == "waiting for Bot"
    t.tower.submit(Pass("Bot"))  # action 2: Bot's own
    t.pad.wait_screen(lambda s: s[6] == "waiting for Bot" and s[7] == "", what="action 2")
    t.tower.submit(Pass("Bot"))
    screen = t.pad.wait_screen(lambda s: "your roll" in s.words(6), what="Ann's roll")
    assert screen.words(6) == "your roll: press the button"


@pytest.mark.parametrize(
    ("variant", "dice", "button", "steps", "mark"),
    [
        # classic: whites 2 and 5 with red 3 make red 5 and red 8
        ("classic", ((2, 5), {"red": 3}), "red", ["> R 5", "> R 8", "> R 5", "> R 8"], 8),
        # mixx-a: whites 1 and 5 with blue 5 make 6 and 10; the blue cells with those numbers
        # are in the red row (6) and the green row (10)
        (
            "mixx-a",
            ((1, 5), {"blue": 5}),
            "blue",
            ["> R 6 b-die", "> G 10 b-die", "> R 6 b-die", "> G 10 b-die"],
            10,
        ),
    ],
)
def test_action2_colour_button_steps_through_that_dies_moves(
    table, variant, dice, button, steps, mark
):
    t = table(bots=(), variant=variant)
    t.start_game()
    t.roll(dice[0], dice[1])
    t.tower.submit(Pass("Ann"))  # action 1 passed: action 2 is Ann's, as the active player
    t.pad.wait_screen(lambda s: s[6].startswith("act2"), what="action 2 offer")
    for step in steps:
        t.pad.press(f"tap {button}")
        t.pad.wait_screen(lambda s, step=step: s[6] == step, what=step)
    t.pad.press("tap pass")
    t.wait_for_tower(lambda: t.tower.table.game.phase == "roll", "Ann's action 2")
    decided = t.decisions()[-1]
    assert decided.number == mark and decided.row == ("red" if variant == "classic" else "green")


def test_longo_lucky_numbers_are_entered_on_the_pad_before_the_game(table):
    sheet_pads.longo_lucky_numbers_are_entered_on_the_pad_before_the_game(table)


def test_longo_a_hold_on_the_pad_lets_the_tower_draw_the_lucky_numbers(table):
    t = table(bots=("Bot",), variant="longo")
    t.pad.wait_screen(lambda s: s[0].startswith("Ann"), what="Ann's name")
    t.tower.call(t.tower.table.new_game)
    t.pad.wait_screen(lambda s: s[1] == "choose 2 numbers", what="the question")
    t.play(robot.lucky(0))
    t.pad.wait_screen(lambda s: s[1] == "no roll yet", what="the game started")
    lucky = dict(t.tower.journal_events()[0].lucky)
    assert set(lucky) == {"Bot", "Ann"}
    assert all(len(set(n)) == 2 and all(2 <= x <= 16 for x in n) for n in lucky.values())


def test_bonus_b_mark_that_needs_a_row_asks_which(table):
    sheet_pads.bonus_b_mark_that_needs_a_row_asks_which(table)


def test_noise_between_frames_does_not_disturb_the_pad(table):
    t = table(bots=())
    t.start_game()
    rnd = random.Random(7)
    state_frame = protocol.encode("state", 999, t.tower.pad_state("Ann"))
    bad_crc = bytearray(protocol.encode("notice", 998, {"text": "not me"}))
    bad_crc[-2] ^= 0xFF
    noise = [
        bytes(rnd.randrange(256) for _ in range(500)),
        b"\x03\x03\x04\x01\x02" * 20,  # Ctrl-C, Ctrl-D, raw-REPL keys: data like any other
        state_frame[: len(state_frame) // 2],  # a frame cut short
        bytes(bad_crc),
        b"\x55" * 700,  # longer than any frame
        b"\x00" * 50,
    ]
    stop = threading.Event()

    def make_noise():
        while not stop.is_set():
            t.cable.inject(rnd.choice(noise))
            stop.wait(0.01)

    noisy = threading.Thread(target=make_noise)
    noisy.start()
    try:
        for turn, (white, move) in enumerate([((4, 1), ("red", 5)), ((6, 5), ("red", 11))]):
            t.roll(white)
            t.play(robot.mark(*move))
            crossed = f"{turn + 1}"
            t.pad.wait_screen(lambda s, c=crossed: s[2].endswith(f" {c}"), what=f"turn {turn}")
            t.tower.submit(Pass("Ann"))
    finally:
        stop.set()
        noisy.join()
    t.cable.inject(protocol.encode("notice", 1000, {"text": "after the noise"}))
    t.pad.wait_screen(lambda s: s[2] == "after the noise", what="a good frame after noise")
    marks = [Mark("Ann", "red", 5), Mark("Ann", "red", 11)]
    assert t.decisions() == [marks[0], Pass("Ann"), marks[1], Pass("Ann")]
    assert not any("no tower" in s[0] for s in t.pad.screens), "noise is not silence"
    assert t.tower.link().stats["opened"] == 1


def test_unplugged_and_replugged_many_times_nothing_lost_or_applied_twice(table):
    t = table(bots=(), beat_ms=400)
    t.start_game()
    marks = []
    rolls = [(1, 1), (1, 2), (2, 2), (2, 3), (3, 3), (3, 4)]
    for turn, white in enumerate(rolls):
        t.roll(white)
        state = t.tower.pad_state("Ann")
        move = state["moves"][0]
        request = robot.mark(protocol.row_colour(move["row"]), move["number"])
        commands = robot.presses(state, request)
        how = turn % 3
        if how == 0:  # confirmed just after the cable is pulled: in flight when the pad notices
            t.pad.press(*commands[:-1])
            t.pad.wait_screen(lambda s: s[6].startswith("> "), what="the selection")
            t.cable.unplug()
            t.pad.press(commands[-1])
            unplug(t)
        elif how == 1:  # pulled the moment the tower decided: the answer may be lost
            t.pad.press(*commands)
            t.wait_for_tower(lambda: t.tower.table.game.phase == "action2", f"mark {turn}")
            unplug(t)  # (pulled earlier, see the test below)
        else:  # pulled with nothing pending, then confirmed while the tower is gone
            unplug(t)
            t.pad.press(*commands)
        if how != 1:
            t.pad.wait_screen(lambda s: s[7] == "no tower: kept", what="the request kept")
        t.cable.plug()
        t.pad.wait_screen(lambda s: s[0].startswith("Ann") and "no tower" not in s[0])
        marks.append(Mark("Ann", protocol.row_colour(move["row"]), move["number"]))
        t.wait_for_tower(lambda: t.tower.table.game.phase == "action2", f"mark {turn}")
        t.tower.submit(Pass("Ann"))
        if turn == 3:  # the pad restarts (a new boot number): still Ann, the same sheet
            t.pad.kill()
            t.pad = t.start_pad()
    sheet = t.sheet_lines()
    t.pad.wait_screen(lambda s: s[2:6] == sheet, what=f"the tower's sheet {sheet}")
    assert [d for d in t.decisions() if isinstance(d, Mark)] == marks
    assert t.decisions() == [e for m in marks for e in (m, Pass("Ann"))]
    assert sum(t.tower.game().player("Ann").crosses(row) for row in range(4)) == len(rolls)
    assert t.tower.link().stats["opened"] == len(rolls) + 1
    refusals = [s.words() for s in t.pad.screens if s[2].startswith("NO:")]
    assert refusals == [], "a request sent again must get its first answer, not a refusal"
    assert t.cable.lost_to_unplug > 0


def test_a_request_admitted_just_before_the_cable_is_pulled_is_still_decided(table):
    t = table(beat_ms=400)  # Bot has not decided: action 1 stays open after Ann's mark
    t.start_game()
    t.roll((4, 1))
    t.pad.press("tap yellow")
    t.pad.wait_screen(lambda s: s[6] == "> Y 5", what="yellow 5 selected")
    link = t.tower.link()
    hand_on, admitted, busy = link.when_message, threading.Event(), threading.Event()

    def when_message(link, message):
        hand_on(link, message)
        if message.name == "request":
            admitted.set()

    link.when_message = when_message
    t.tower.loop.call_soon_threadsafe(busy.wait, rig.WAIT)  # the table is busy a moment
    try:
        t.pad.press("tap pass")
        assert admitted.wait(rig.WAIT), "the link never handed the request on"
        unplug(t)  # pulled before the table got to the request
    finally:
        busy.set()
    t.cable.plug()
    screen = t.pad.wait_screen(
        lambda s: s[7] == "U: take back" or s[2].startswith("NO:"), what="the request settled"
    )
    assert t.decisions() == [Mark("Ann", "yellow", 5)], screen.text


def unplug(t: PadTable) -> None:
    """Pull the cable (if not yet) and wait until the pad says the tower is gone (LED blinking)."""
    t.cable.unplug()
    t.pad.wait_screen(lambda s: "no tower" in s[0], what="the link lost")
    t.pad.wait_led(False)


# A Pico's heap: stock MicroPython gives the RP2040's garbage collector 192 KiB (ports/rp2/main.c
# `static char gc_heap[192 * 1024]` up to v1.19; since then memmap_mp_rp2040.ld hands it all RAM
# after .bss and the C heap, `__GcHeapStart`..`__GcHeapEnd`, about 190 KB). The unix port here is
# 64-bit, where pointers and object headers take twice the bytes of the Pico's 32-bit build, so
# 96 KiB here is a stricter budget than half of what a Pico has.
PICO_LIKE_HEAP = "96k"
# What the firmware may hold of that heap at any turn of a game (bytes allocated after a
# collection, as it reports them): two thirds, the last third left for a STATE in flight and
# the garbage of a frame. Compiled, it holds about 57 KiB (bench/pad_heap.py), so growing by
# some 7 KiB of code or state fails this test, however much the heap still has free.
HEAP_BUDGET = 64 * 1024


def test_firmware_plays_a_whole_game_within_its_heap_budget(table):
    """The firmware as `pad install` puts it on a Pico (compiled), in a Pico-like heap, plays
    a longo game (the largest STATE) to its end: what it holds stays within its budget, and
    does not grow turn by turn."""
    t = table(bots=(), variant="longo", heap=PICO_LIKE_HEAP)
    t.start_longo_game(2, 16)
    used = t.play_to_the_end()
    assert len(used) >= 10, "a whole game is more than a few turns"
    assert t.sheet_lines() == t.pad.screen[2:6], "the pad shows Ann's final sheet"
    over = [(turn, held) for turn, held in enumerate(used, 1) if held > HEAP_BUDGET]
    assert not over, f"the firmware held more than {HEAP_BUDGET} bytes at (turn, bytes) {over}"
    assert max(used[-5:]) - min(used[:5]) < 4 * 1024, f"the heap grows turn by turn: {used}"


# Compiling its own sources at import takes the firmware more heap than the game (93 KiB at the
# peak on this 64-bit port: bench/pad_heap.py); a Pico's 32-bit heap of 190 KB has the room.
SOURCE_HEAP = "128k"


def test_the_sources_play_a_whole_game_as_a_pad_without_mpy_cross_gets_them(table):
    """`pad install` copies the .py sources when mpy-cross is missing (or the pad's MicroPython
    does not say its .mpy version): they compile on the pad at import, and play as well."""
    t = table(bots=(), heap=SOURCE_HEAP, source=True)
    t.start_game()
    used = t.play_to_the_end(seed=2)
    assert t.sheet_lines() == t.pad.screen[2:6], "the pad shows Ann's final sheet"
    assert len(used) >= 10 and max(used) <= HEAP_BUDGET, used
