"""Exactly once through the real process: `qwixx-tower run` is killed with SIGKILL right after
it journals a pad's decision (before or after its answer went out, whichever the kill hits);
started again, it resumes the game, and the pad's retry of the same request is answered ok and
is not applied a second time.

The pad is a pseudo-terminal speaking the pad protocol; the tower finds it through `[pads]
ports` in its configuration. The game is one the journal already holds (Ann on her pad, Bot a
computer player), so no button needs pressing.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_padlink import PtyPad, pad_hello

from firmware_py.gamelog import event_to_line
from firmware_py.journal import Journal, read_game, seat_records
from firmware_py.pad import protocol
from firmware_py.rules import Pass, Roll, Start
from firmware_py.seating import COMPUTER, PAD, SeatSpec

WAIT = 20.0
PASS = {"action": protocol.PASS}
MARK_RED_5 = {"action": protocol.MARK, "row": 1, "number": 5, "flags": 0, "choice": 0}


def saved_game(state: Path, *events) -> Path:
    """A game of Ann (pad-1) and Bot (computer) in the journal, as if the tower had played it."""
    state.mkdir(parents=True, exist_ok=True)
    log = state / "game-000001.jsonl"
    lines = [Start("classic", ("Ann", "Bot")), *events]
    log.write_text("".join(event_to_line(event) for event in lines))
    seats = [SeatSpec("Ann", PAD, "pad-1"), SeatSpec("Bot", COMPUTER)]
    log.with_suffix(".seats.json").write_text(json.dumps(seat_records(seats)))
    return log


def start_tower(tmp_path: Path, pad: PtyPad) -> subprocess.Popen:
    config = tmp_path / "config.toml"
    config.write_text(f'[pads]\nports = ["{pad.path}"]\n')
    command = [sys.executable, "-m", "firmware_py.cli", "run", "--plain", "--pace", "30"]
    command += ["--config", str(config), "--state-dir", str(tmp_path / "state")]
    return subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def greet(pad: PtyPad) -> None:
    pad.expect("hello")
    pad.send("hello", {**pad_hello(boot=300), "ident": "pad-1"})
    pad.expect("state", player="Ann")


def lines_of(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def kill_once_journalled(tower: subprocess.Popen, log: Path, count: int) -> None:
    """SIGKILL the tower the moment its log has `count` lines."""
    deadline = time.monotonic() + WAIT
    while len(log.read_text().splitlines()) < count:
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
    log = saved_game(tmp_path / "state", Roll((4, 1), {c: 3 for c in ("red", "yellow", "green",
                                                                      "blue")}))  # fmt: skip
    tower = start_tower(tmp_path, pad)
    try:
        greet(pad)
        seq = pad.send("request", request_fields)
        kill_once_journalled(tower, log, 3)
        pad.drain()  # whatever the tower said before dying, the pad missed it
        tower = start_tower(tmp_path, pad)
        greet(pad)
        pad.send("request", request_fields, seq=seq)  # the pad asks again, as it does
        answer = pad.expect("answer", req=seq)
        assert (answer["status"], answer["text"]) == (protocol.OK, "")
    finally:
        tower.kill()
        tower.wait()
        pad.unplug()
    mine = [line for line in lines_of(log) if line.get("player") == "Ann"]
    assert [line["event"] for line in mine] == [event], "applied exactly once"
    assert mine[0]["request"] == {"Ann": [f"pad-1/300/{seq}"]}
    assert read_game(log).game.player("Ann").penalties == 0


def test_the_retry_of_the_game_ending_pass_after_a_kill_is_answered_ok(tmp_path):
    """Ann's fourth penalty ends the game; the tower is killed once it is journalled; the
    retry after the restart hears ok, not "this pad has no seat"."""
    pad = PtyPad(tmp_path / "pad")
    roll = Roll((4, 1), {c: 3 for c in ("red", "yellow", "green", "blue")})
    turns = []
    for turn in range(7):  # Ann passes through turns 0, 2, 4 (three penalties) and Bot likewise
        turns += [roll, Pass("Bot"), Pass("Ann"), Pass("Ann" if turn % 2 == 0 else "Bot")]
    log = saved_game(tmp_path / "state", *turns[:-2], Pass("Ann"))  # turn 6: action 2 is Ann's
    assert read_game(log).game.phase == "action2"
    count = len(log.read_text().splitlines())
    tower = start_tower(tmp_path, pad)
    try:
        greet(pad)
        seq = pad.send("request", PASS)
        kill_once_journalled(tower, log, count + 1)
        pad.drain()
        tower = start_tower(tmp_path, pad)
        pad.expect("hello")
        pad.send("hello", {**pad_hello(boot=300), "ident": "pad-1"})
        pad.send("request", PASS, seq=seq)
        answer = pad.expect("answer", req=seq)
        assert (answer["status"], answer["text"]) == (protocol.OK, "")
    finally:
        tower.kill()
        tower.wait()
        pad.unplug()
    assert read_game(log).game.over
    assert Journal(tmp_path / "state").games() == [log]
