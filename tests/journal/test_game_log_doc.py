"""docs/game-log.md names everything the tower writes in a game log and prints from `replay`,
on every sheet: a referee outside the project checks a log from that page alone (and the sheet
files it names). The real `run`'s journals are held to it in tests/support/whole_games.py."""

from __future__ import annotations

import json

import pytest
from support.log_forms import documented_names, undocumented_in_line, undocumented_in_report

from firmware_py.journal.lines import event_to_line
from firmware_py.rules import Game, Mark, Start, game_report
from sheets.loader import SHEET_DIR

VARIANTS = sorted(path.stem for path in SHEET_DIR.glob("*.toml"))


def _start(variant: str) -> Start:
    lucky = {"Ann": (5, 10), "Ben": (7, 12)} if variant == "longo" else None
    return Start(variant, ("Ann", "Ben"), lucky)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_sheet_is_a_documented_variant(variant):
    assert variant in documented_names(), f"docs/game-log.md does not name the sheet {variant}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_start_line_and_the_replay_output_of_every_sheet_are_documented(variant):
    start = _start(variant)
    line = json.loads(event_to_line(start))
    assert not undocumented_in_line(line), f"{variant}: the start line"
    game = Game.start(start)
    assert not undocumented_in_report(game_report(game)), f"{variant}: replay's output"


@pytest.mark.parametrize("field", [f for f in Mark._fields if f not in ("player", "row", "number")])
def test_every_key_a_mark_may_carry_is_documented(field):
    """`lucky` (Longo), `choice` (Bonus B), `swap` (X-Change): a decision's every form."""
    assert field in documented_names()


def test_the_bonus_rows_of_big_points_are_documented_row_names():
    game = Game.start(_start("big-points"))
    for name in game_report(game)["players"]["Ann"]["bonus_rows"]:
        assert name in documented_names()
