"""docs/game-log.md names everything the tower writes in a game log and prints from `replay`,
on every sheet: a referee outside the project checks a log from that page alone (and the sheet
files it names). The real `run`'s journals are held to it in tests/support/whole_games.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.log_forms import documented_names, undocumented_in_line, undocumented_in_report

from firmware_py.app.web import PORT_NOTE
from firmware_py.bus.results import NOTE as MQTT_RESULTS
from firmware_py.bus.settings import DEVICE_NOTE
from firmware_py.bus.tournament import NOTE as TOURNAMENT
from firmware_py.journal import journal
from firmware_py.journal.disk import QUARANTINE
from firmware_py.journal.index import INDEX
from firmware_py.journal.lines import event_to_line
from firmware_py.journal.lock import LOCK
from firmware_py.rules import Game, Mark, Start, game_report
from firmware_py.seats.phones.join_key import KEY_FILE
from sheets.loader import SHEET_DIR

ROOT = Path(__file__).resolve().parents[2]
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


def test_every_file_the_tower_keeps_in_its_state_directory_is_in_the_pages_table():
    """A maker who looks in /var/lib/qwixx-tower finds each file explained on the page."""
    kept = [
        f"game-000012{journal.SEATS}", f"game-000012{journal.ABANDONED}", journal.DRAFT,
        journal.TABLE_SEATS, journal.PHONE_TOKENS, INDEX, KEY_FILE, LOCK, PORT_NOTE,
        MQTT_RESULTS, DEVICE_NOTE, TOURNAMENT, f"{QUARANTINE}/",
    ]  # fmt: skip
    table = (ROOT / "docs" / "game-log.md").read_text().partition("## Beside the logs")[2]
    assert [name for name in kept if f"| `{name}` |" not in table] == []
