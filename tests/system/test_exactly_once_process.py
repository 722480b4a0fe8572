"""Exactly once through the real process: `qwixx-tower run` is killed with SIGKILL right after
it journals a pad's decision (before or after its answer went out, whichever the kill hits);
started again, it resumes the game, and the pad's retry of the same request is answered ok and
is not applied a second time: for a pass, a mark, an undo, longo's lucky numbers and a
game-ending pass. Also through the process: an old request replayed after a restart is refused,
a second device saying hello with a seated pad's ident on another port is refused `taken`, and
a decision on a full tmpfs is refused unsaved, and applied once when there is room again.

The pad is a pseudo-terminal speaking the pad protocol; the tower finds it through `[pads]
ports` in its configuration. The game is one the journal already holds (Ann on her pad, Bot a
computer player), so no button needs pressing.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from support import HANG
from support.disk import FULL, fill, tmpfs
from support.tower import Tower

from drivers.simulated.pad import PtyPad, pad_hello
from firmware_py.journal.journal import Journal, read_game, seat_records
from firmware_py.journal.lines import event_to_line
from firmware_py.pad import protocol
from firmware_py.rules import Mark, Pass, Roll, Start, Undo
from firmware_py.seating import COMPUTER, PAD, SeatSpec

WAIT = HANG
PASS = {"action": protocol.PASS}
MARK_RED_5 = {"action": protocol.MARK, "row": 1, "number": 5, "flags": 0, "choice": 0}
UNDO = {"action": protocol.UNDO}
ROLLED = Roll((4, 1), dict.fromkeys(("red", "yellow", "green", "blue"), 3))


def saved_game(state: Path, *events) -> Path:
    """A game of Ann (pad-1) and Bot (computer) in the journal, as if the tower had played it."""
    state.mkdir(parents=True, exist_ok=True)
    log = state / "game-000001.jsonl"
    lines = [Start("classic", ("Ann", "Bot")), *events]
    log.write_text("".join(event_to_line(event) for event in lines))
    seats = [SeatSpec("Ann", PAD, "pad-1"), SeatSpec("Bot", COMPUTER)]
    log.with_suffix(".seats.json").write_text(json.dumps(seat_records(seats)))
    return log


def greet(pad: PtyPad, seated: bool = True) -> None:
    """Ann's pad says hello; `seated`: and waits for her sheet (none comes after the game)."""
    pad.expect("hello")
    pad.send("hello", {**pad_hello(boot=300), "ident": "pad-1"})
    if seated:
        pad.expect("state", player="Ann")


def retry_after_restart(tower: Tower, pad: PtyPad, fields: dict, seq: int, seated: bool = True):
    """The pad missed whatever the killed tower said; the tower starts again, the pad says
    hello and asks again under the same seq, as it does: the answer is ok."""
    pad.drain()
    tower.start()
    greet(pad, seated)
    pad.send("request", fields, seq=seq)
    answer = pad.expect("answer", req=seq)
    assert (answer["status"], answer["text"]) == (protocol.OK, "")


def lines_of(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def kill_once_journalled(tower: subprocess.Popen, log: Path, count: int) -> None:
    """SIGKILL the tower the moment its log has `count` lines."""
    deadline = time.monotonic() + WAIT
    while not log.exists() or len(log.read_text().splitlines()) < count:
        assert time.monotonic() < deadline, "the tower never journalled the decision"
        time.sleep(0.001)
    os.kill(tower.pid, signal.SIGKILL)
    tower.wait()


@pytest.mark.parametrize(
    ("request_fields", "event"),
    [(PASS, "pass"), (MARK_RED_5, "mark")],
    ids=["pass", "mark"],
)
def test_a_decision_killed_after_its_fsync_is_applied_once_and_answered_ok(
    tmp_path, request_fields, event
):
    pad = PtyPad(tmp_path / "pad")
    log = saved_game(tmp_path / "state", ROLLED)
    with Tower(folder=tmp_path, pace=30, pads=[pad]) as tower:
        greet(pad)
        seq = pad.send("request", request_fields)
        kill_once_journalled(tower.process, log, 3)
        retry_after_restart(tower, pad, request_fields, seq)
    mine = [line for line in lines_of(log) if line.get("player") == "Ann"]
    assert [line["event"] for line in mine] == [event], "applied exactly once"
    assert mine[0]["request"] == {"Ann": [f"pad-1/300/{seq}"]}
    assert read_game(log).game.player("Ann").penalties == 0


def test_the_retry_of_the_game_ending_pass_after_a_kill_is_answered_ok(tmp_path):
    """Ann's fourth penalty ends the game; the tower is killed once it is journalled; the
    retry after the restart hears ok, not "this pad has no seat"."""
    pad = PtyPad(tmp_path / "pad")
    turns = []
    for turn in range(7):  # Ann passes through turns 0, 2, 4 (three penalties) and Bot likewise
        turns += [ROLLED, Pass("Bot"), Pass("Ann"), Pass("Ann" if turn % 2 == 0 else "Bot")]
    log = saved_game(tmp_path / "state", *turns[:-2], Pass("Ann"))  # turn 6: action 2 is Ann's
    assert read_game(log).game.phase == "action2"
    count = len(log.read_text().splitlines())
    with Tower(folder=tmp_path, pace=30, pads=[pad]) as tower:
        greet(pad)
        seq = pad.send("request", PASS)
        kill_once_journalled(tower.process, log, count + 1)
        retry_after_restart(tower, pad, PASS, seq, seated=False)
    assert read_game(log).game.over
    assert Journal(tmp_path / "state").games() == [log]


def test_an_undo_killed_after_its_fsync_is_applied_once_and_answered_ok(tmp_path):
    """Ann marks red 5, then takes it back; the tower is killed once the undo is journalled.
    After the restart her retry of the undo hears ok, and the mark stays taken back once (a
    second undo would be refused: nothing left to take back)."""
    pad = PtyPad(tmp_path / "pad")
    log = saved_game(tmp_path / "state", ROLLED)
    with Tower(folder=tmp_path, pace=30, pads=[pad]) as tower:
        greet(pad)
        marked = pad.send("request", MARK_RED_5)
        assert pad.expect("answer", req=marked)["status"] == protocol.OK
        seq = pad.send("request", UNDO)
        kill_once_journalled(tower.process, log, 4)
        retry_after_restart(tower, pad, UNDO, seq)
    mine = [line for line in lines_of(log) if line.get("player") == "Ann"]
    assert [line["event"] for line in mine] == ["mark", "undo"], "applied exactly once"
    assert mine[1]["request"] == {"Ann": [f"pad-1/300/{seq}"]}
    game = read_game(log).game
    assert game.player("Ann").crosses(0) == 0 and game.phase == "action1"


def lucky_draft(state: Path) -> Path:
    """Longo's lucky numbers being chosen, as the tower notes them: Ann (pad-1) has none yet,
    Bot's were drawn."""
    seats = [SeatSpec("Ann", PAD, "pad-1"), SeatSpec("Bot", COMPUTER)]
    Journal(state).note_draft("longo", seats, {"Ann": [], "Bot": [3, 9]})
    return state / "lucky-draft.json"


def kill_once_noted(tower: subprocess.Popen, note: Path, ann: list[int]) -> None:
    """SIGKILL the tower the moment its note of the lucky numbers gives Ann `ann`."""
    deadline = time.monotonic() + WAIT
    while json.loads(note.read_text() or "{}").get("lucky", {}).get("Ann") != ann:
        assert time.monotonic() < deadline, "the tower never noted the lucky number"
        time.sleep(0.001)
    os.kill(tower.pid, signal.SIGKILL)
    tower.wait()


def test_lucky_numbers_killed_after_their_fsync_are_chosen_once_and_answered_ok(tmp_path):
    """Ann enters her two lucky numbers on her pad before a longo game. The tower is killed
    once the first is noted (lucky-draft.json), and again once the second has begun the game
    (its start line); each retry after a restart hears ok, chooses nothing twice, and the one
    game holds her 5 and 10."""
    pad = PtyPad(tmp_path / "pad")
    state = tmp_path / "state"
    note = lucky_draft(state)
    with Tower(folder=tmp_path, pace=30, pads=[pad]) as tower:
        greet(pad)
        first = pad.send("request", lucky(5))
        kill_once_noted(tower.process, note, [5])
        retry_after_restart(tower, pad, lucky(5), first)
        second = pad.send("request", lucky(10))
        kill_once_journalled(tower.process, state / "game-000001.jsonl", 1)
        retry_after_restart(tower, pad, lucky(10), second)
    [log] = Journal(state).games()
    start = lines_of(log)[0]
    assert start["lucky"] == {"Ann": [5, 10], "Bot": [3, 9]}
    assert start["request"] == {"Ann": [f"pad-1/300/{first}", f"pad-1/300/{second}"]}
    assert len(lines_of(log)) == 1, "nothing applied after the start"


def lucky(number: int) -> dict:
    return {"action": protocol.LUCKY_NUMBER, "number": number}


def test_an_old_request_replayed_after_a_restart_is_refused_and_not_applied(tmp_path):
    """Ann crossed red 5 and took it back 35 times (requests 1 to 70, in the journal). After a
    restart, a replay of her first request is an old frame: refused as such, nothing applied;
    a replay of a recent one hears its original ok, nothing applied; a new mark is applied."""
    pad = PtyPad(tmp_path / "pad")
    events, requests = [], []
    for seq in range(1, 71):
        events.append(Mark("Ann", "red", 5) if seq % 2 else Undo("Ann"))
        requests.append([("Ann", f"pad-1/300/{seq}")])
    log = saved_game(tmp_path / "state", ROLLED)
    with log.open("a") as file:
        file.writelines(map(event_to_line, events, requests))
    before = lines_of(log)
    with Tower(folder=tmp_path, pace=30, pads=[pad]):
        greet(pad)
        pad.send("request", MARK_RED_5, seq=1)
        answer = pad.expect("answer", req=1)
        assert answer["status"] == protocol.BAD_REQUEST and "old request" in answer["text"]
        pad.send("request", MARK_RED_5, seq=69)
        assert pad.expect("answer", req=69)["status"] == protocol.OK
        assert lines_of(log) == before, "neither replay was applied"
        pad.seq = 70
        fresh = pad.send("request", MARK_RED_5)
        assert pad.expect("answer", req=fresh)["status"] == protocol.OK
    assert lines_of(log)[:-1] == before
    assert lines_of(log)[-1]["request"] == {"Ann": ["pad-1/300/71"]}
    assert read_game(log).game.player("Ann").crosses(0) == 1


def test_a_second_pty_saying_hello_with_a_seated_pads_ident_is_refused_taken(tmp_path):
    """A device on another port says hello as Ann's pad (pad-1) while hers is plugged in: it
    hears `taken`, gets no state, and its pass is refused with no session; Ann's pad keeps her
    seat and marks."""
    ann, spoof = PtyPad(tmp_path / "ann"), PtyPad(tmp_path / "spoof")
    log = saved_game(tmp_path / "state", ROLLED)
    with Tower(folder=tmp_path, pace=30, pads=[ann, spoof]):
        greet(ann)
        spoof.expect("hello")
        spoof.send("hello", {**pad_hello(boot=301), "ident": "pad-1"})
        ack = spoof.expect("hello_ack")
        assert ack["status"] == protocol.TAKEN and "another pad" in ack["text"]
        passed = spoof.send("request", PASS)
        assert spoof.expect("answer", req=passed)["status"] == protocol.NO_SESSION
        marked = ann.send("request", MARK_RED_5)
        assert ann.expect("answer", req=marked)["status"] == protocol.OK
        assert "state" not in spoof.names(), "the other device never saw Ann's sheet"
    mine = [line for line in lines_of(log) if line.get("player") == "Ann"]
    assert [(line["event"], line["request"]) for line in mine] == [
        ("mark", {"Ann": [f"pad-1/300/{marked}"]})
    ]


def test_a_decision_on_a_full_disk_is_refused_unsaved_and_applied_once_there_is_room(tmp_path):
    """The state directory is a tmpfs that fills up while Ann's game is on, its log a few bytes
    short of the end of its last page: her mark cannot be saved, her pad hears why, and nothing
    is applied. Once there is room, her next press (a new request) is saved and applied once."""
    with tmpfs(tmp_path / "state", size="64k") as state:
        pad = PtyPad(tmp_path / "pad")
        log = saved_game(state, ROLLED)
        with log.open("a") as file:  # Ann crossed red 5 and took it back, time after time
            while file.tell() < 4000:
                file.write(event_to_line(Mark("Ann", "red", 5)) + event_to_line(Undo("Ann")))
        assert 4000 <= log.stat().st_size < 4096
        before = lines_of(log)
        with Tower(folder=tmp_path, pace=30, pads=[pad]):
            greet(pad)
            filler = fill(state)
            refused = pad.send("request", MARK_RED_5)
            answer = pad.expect("answer", req=refused)
            assert (answer["status"], answer["text"]) == (protocol.STORAGE, FULL)
            assert lines_of(log) == before
            filler.unlink()
            pressed_again = pad.send("request", MARK_RED_5)
            assert pad.expect("answer", req=pressed_again)["status"] == protocol.OK
        assert lines_of(log)[:-1] == before
        assert lines_of(log)[-1]["request"] == {"Ann": [f"pad-1/300/{pressed_again}"]}
        assert read_game(log).game.player("Ann").crosses(0) == 1
