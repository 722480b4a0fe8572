"""Qwixx Connected: which pad each player plays is on the game log's start line
(docs/game-log.md, `"pads"`), as Longo's lucky numbers are: "jeweils sechs unterschiedliche
Blätter (A-F) ... So spielt jeder Mitspieler ... auf einem eigenen Blatt"
(brettspiele-magazin.de). A referee outside the tower reads each chain's cross and each
stair's points from the pad the line names; a log replays the same after a sheet file gains
pads; a log without the key (written before it) plays seat k on the file's pad k."""

from __future__ import annotations

import tomllib

import pytest
from support.rules import report
from support.sheet_steps import white

from firmware_py.journal.lines import LogError, event_to_line, parse_line, replay
from firmware_py.rules import Game, Mark, Start, seat_pads
from sheets import load_sheet, parse_sheet
from sheets.loader import SHEET_DIR

CHAIN = "connected-chain"


def two_pad_chain():
    """The shipped Chain sheet with a pad B joining red 6 to green 6 instead."""
    data = tomllib.loads((SHEET_DIR / f"{CHAIN}.toml").read_text(encoding="utf-8"))
    data["pads"].append({"name": "B", "links": [[["red", 6], ["green", 6]]]})
    return parse_sheet(data, "two-pads.toml")


def test_the_pads_named_are_played_whatever_the_seats():
    game = Game(two_pad_chain(), ("Ann", "Ben"), pads={"Ann": "B", "Ben": "A"})
    assert [player.pad.name for player in game.players] == ["B", "A"]
    game.apply(white(6).on(game))
    game.apply(Mark("Ann", "red", 6))
    game.apply(Mark("Ben", "red", 6))
    ann, ben = report(game)["players"]["Ann"], report(game)["players"]["Ben"]
    assert (ann["pad"], ann["rows"]["green"]["marks"], ann["rows"]["yellow"]["marks"]) == (
        "B",
        [6],
        [],
    )
    assert (ben["pad"], ben["rows"]["yellow"]["marks"]) == ("A", [6])


def test_the_tower_names_the_seat_rule_on_the_start_line():
    """What a new game's start line says: seat k on pad k, round again past the last."""
    assert seat_pads(two_pad_chain(), ("Ann", "Ben", "Cy")) == {"Ann": "A", "Ben": "B", "Cy": "A"}
    assert seat_pads(load_sheet(CHAIN), ("Ann", "Ben")) == {"Ann": "A", "Ben": "A"}
    assert seat_pads(load_sheet("classic"), ("Ann",)) is None


def test_the_start_line_carries_the_pads_and_replay_reads_them():
    start = Start(CHAIN, ("Ann", "Ben"), pads={"Ann": "A", "Ben": "A"})
    line = event_to_line(start)
    assert '"pads": {"Ann": "A", "Ben": "A"}' in line
    assert parse_line(line) == start
    game = replay([line])
    assert {name: p["pad"] for name, p in report(game)["players"].items()} == start.pads


def test_a_start_line_without_pads_plays_seat_k_on_pad_k():
    game = replay(['{"event": "start", "variant": "connected-chain", "players": ["Ann", "Ben"]}'])
    assert [p["pad"] for p in report(game)["players"].values()] == ["A", "A"]


@pytest.mark.parametrize(
    ("variant", "pads", "words"),
    [
        ("classic", '{"Ann": "A"}', "classic sheets have no pads"),
        (CHAIN, '{"Ann": "G", "Ben": "A"}', "Ann needs one of the pads of connected-chain (A)"),
        (CHAIN, '{"Ann": "A"}', "Ben needs one of the pads of connected-chain (A), not None"),
        (CHAIN, '{"Ann": "A", "Ben": "A", "Zoe": "A"}', "a pad is given for 'Zoe'"),
        (CHAIN, '"A"', '"pads" must map each player to the letter of their pad'),
    ],
)
def test_a_start_line_with_pads_that_do_not_fit_is_refused_in_words(variant, pads, words):
    line = (
        f'{{"event": "start", "variant": "{variant}", "players": ["Ann", "Ben"], "pads": {pads}}}'
    )
    with pytest.raises(LogError) as refusal:
        replay([line])
    assert refusal.value.line == 1 and words in refusal.value.reason
