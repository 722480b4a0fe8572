"""The tower against a referee written apart from it (tests/support/outside_referee.py: from
docs/game-log.md, the texts docs/rules.md quotes and the sheet files, importing nothing of the
tower), over whole random games of classic, Longo, Mixx A and B and every sheet of issue 44:
at every decision both offer the same marks, every log line is legal to both, and both score
the end alike. The games are the playouts' (every legal mark and pass equally likely), so
lucky crosses, double crosses, bonus boxes, swaps, chains and stairs all come up; the real
`run`'s journals are held to the same referee in tests/support/whole_games.py."""

from __future__ import annotations

import json
import random

import pytest
from support.side_by_side import SHEETS_IT_READS, hold_to_the_outside_referee

from firmware_py.journal.lines import event_to_line
from firmware_py.rules import Game, Start, seat_pads
from firmware_py.rules.rollout import play_out
from sheets import load_sheet

SEEDS = range(40)  # per sheet: 1 to 5 players


def random_log(variant: str, seed: int) -> list[dict]:
    """A whole random game's log lines, as the tower writes them."""
    names = tuple(f"P{k}" for k in range(1 + seed % 5))
    sheet, rng = load_sheet(variant), random.Random(seed)
    lucky = None
    if sheet.has_lucky_numbers:  # Longo: two different numbers printed on each sheet
        low, high = sheet.lucky_range
        lucky = {name: tuple(rng.sample(range(low, high + 1), 2)) for name in names}
    start = Start(variant, names, lucky, seat_pads(sheet, names))
    events: list = []
    play_out(Game.start(start), rng, events)
    return [json.loads(event_to_line(event)) for event in (start, *events)]


@pytest.mark.parametrize("variant", SHEETS_IT_READS)
def test_random_games_read_alike_by_the_tower_and_an_outside_referee(variant):
    for seed in SEEDS:
        hold_to_the_outside_referee(random_log(variant, seed))


def test_undo_takes_back_a_field_and_a_chains_cross_alike():
    """docs/game-log.md `undo`: while action 1 is open a player takes back their decision,
    the X-Change field it used and the cross a chain set off with it."""
    for variant, mark in (
        ("x-change", {"row": "green", "number": 5, "swap": 7}),
        ("connected-chain", {"row": "green", "number": 4}),
    ):
        start = {"event": "start", "variant": variant, "players": ["Ann", "Ben"]}
        if variant == "connected-chain":
            start["pads"] = {"Ann": "A", "Ben": "A"}
        total = 10 if "swap" in mark else 4
        dice = {
            "white": [total // 2, total - total // 2],
            "red": 1,
            "yellow": 1,
            "green": 1,
            "blue": 1,
        }
        ann = {"event": "mark", "player": "Ann", **mark}
        hold_to_the_outside_referee(
            [
                start,
                {"event": "roll", "dice": dice},
                ann,
                {"event": "undo", "player": "Ann"},
                ann,
                {"event": "pass", "player": "Ben"},
                {"event": "pass", "player": "Ann"},
            ]
        )
