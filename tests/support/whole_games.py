"""A whole game of computer players through the real `run` process, as each sheet's tests play
it: one player of each level, random dice, the journal replayed and `history` asked.

`play_whole_game` checks what holds on every sheet (the run ends well and announces the game,
says "Game over" once, the journal replays to a finished game of the sheet with the totals the
run announced, every line and the replay's output use only what docs/game-log.md names, a
referee written apart from the tower (outside_referee.py) reads the journal alike, `history`
lists it) and hands back what a sheet's own checks read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from support.log_forms import undocumented_in_line, undocumented_in_report
from support.side_by_side import SHEETS_IT_READS, hold_to_the_outside_referee
from support.spawn import qwixx_tower
from support.tower import Tower

LEVELS = ("Ann=easy", "Ben=medium", "Cleo=hard")


@dataclass(frozen=True)
class WholeGame:
    output: str  # what the run printed
    final: str  # its one "Game over" line
    state: dict  # the journal replayed (`qwixx-tower replay`)
    events: list[dict]  # the journal's lines


def play_whole_game(folder: Path, variant: str, title: str) -> WholeGame:
    """Ann, Ben and Cleo (easy, medium, hard) play one game of `variant` through `run`, its
    state in `folder`; `title` is the sheet's name as the run announces it."""
    output = _run_one_game(folder, variant)
    assert f"New game of {title}: Ann, Ben, Cleo" in output
    final = [line for line in output.splitlines() if line.startswith("Game over")]
    assert len(final) == 1, output
    journal = folder / "game-000001.jsonl"
    replayed = qwixx_tower("replay", str(journal))
    assert replayed.returncode == 0, replayed.stderr
    state = json.loads(replayed.stdout)
    assert state["variant"] == variant and state["over"] is True
    for name, player in state["players"].items():
        assert f"{name} {player['total']}" in final[0]
    history = qwixx_tower("history", "--state-dir", str(folder))
    assert history.returncode == 0 and variant in history.stdout
    events = [json.loads(line) for line in journal.read_text().splitlines()]
    for number, event in enumerate(events, 1):  # an outside referee reads docs/game-log.md
        assert not undocumented_in_line(event), f"journal line {number} is not documented"
    assert not undocumented_in_report(state), "replay's output is not documented"
    if variant in SHEETS_IT_READS:  # a referee written apart from the tower reads it alike
        hold_to_the_outside_referee(events)
    return WholeGame(output, final[0], state, events)


def _run_one_game(folder: Path, variant: str) -> str:
    args = ["--plain", "--pace", "0", "--games", "1", "--variant", variant]  # random dice
    for level in LEVELS:
        args += ["--level", level]
    with Tower(*args, "--state-dir", str(folder)) as tower:
        assert tower.wait_for_exit() == 0, tower.output
        return tower.output
