"""Qwixx X-Change on the rules engine: our own fixture table, step by step, and the rule text.

The text (docs/rules.md says which and how the tower reads what it leaves open): NSV's rule
sheet "Qwixx X-Change" (2024), as the reviews retell it: "Anstatt die gewürfelten Ergebnisse zu
nutzen, können die Spieler diese auch modifizieren, indem sie eines der Modifizierungsfelder
auf ihrem Wertungsblatt abstreichen und den modifizierten Wert stattdessen abkreuzen. Jedes
Modifizierungsfeld kann aber nur einmal in einer Partie genutzt werden." (brettspielabend.net,
2025: instead of the rolled result, cross a field and cross the changed number; each field once
a game); "Sie können den Wert ihrer beiden weißen Würfel anpassen" (reich-der-spiele.de: the
value of the two white dice). The nine fields as printed: 8/5 9/7 11/3 7/4 10/3 8/6 10/5 11/9 6/4.

A fixture is a table of steps played on a fresh game of Ann and Ben (Ann rolls first):
- ("do", event): accepted;
- ("refuse", event, words): refused with a reason holding `words`, and nothing changed (the
  state, the replay report, every player's legal marks);
- ("assert", player, {...}): the player's sheet is as said: `fields` the swap fields' states
  as replay reports them (u used, p passed, . open), `crosses`/`marks` per row, `total`,
  `penalties`, `offered`/`not_offered` marks.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.rules import PROPERTY_SETTINGS, refused_unchanged, report

from firmware_py.journal.lines import LogError, event_to_line, parse_line, replay
from firmware_py.rules import Game, Mark, Pass, Refused, Roll, Start, Undo
from firmware_py.rules.rollout import play_out

VARIANT = "x-change"


def roll(w1: int, w2: int, **faces: int) -> Roll:
    """A roll; colour dice not named show 1 (the fixtures lock nothing before they say)."""
    return Roll((w1, w2), {c: faces.get(c, 1) for c in ("red", "yellow", "green", "blue")})


def swap(player: str, row: str, number: int, field: int) -> Mark:
    return Mark(player, row, number, swap=field)


def cross(player: str, row: str, number: int) -> Mark:
    return Mark(player, row, number)


FIXTURES = {
    # "instead of the rolled result ... cross the modified value": 5 + 6 = 11, field 3 (11/3).
    "a field trades the white sum for its other number": [
        ("do", roll(5, 6)),
        ("assert", "Ann", {"offered": [swap("Ann", "red", 3, 3), swap("Ann", "blue", 9, 8)]}),
        ("do", swap("Ann", "red", 3, 3)),
        ("assert", "Ann", {"fields": "ppu......", "marks": {"red": [3]}, "total": 1}),
        ("assert", "Ben", {"fields": ".........", "offered": [swap("Ben", "red", 3, 3)]}),
    ],
    "either number of a field may be the white sum": [
        ("do", roll(2, 3)),  # 5: field 1 (8/5) makes it 8, field 7 (10/5) makes it 10
        ("do", swap("Ann", "yellow", 8, 1)),
        ("do", swap("Ben", "green", 10, 7)),
        ("assert", "Ann", {"fields": "u........", "marks": {"yellow": [8]}}),
        ("assert", "Ben", {"fields": "ppppppu..", "marks": {"green": [10]}}),
    ],
    "a field holds two numbers: any other sum or number is refused": [
        ("do", roll(5, 6)),
        ("refuse", swap("Ann", "red", 9, 2), ["the white sum is 11", "only 9 or 7"]),
        ("refuse", swap("Ann", "red", 4, 3), ["turns the white sum 11 into 3"]),
        ("refuse", swap("Ann", "red", 3, 10), ["no X-Change field 10", "1 to 9"]),
    ],
    # "Jedes Modifizierungsfeld kann aber nur einmal in einer Partie genutzt werden."
    "each field once a game": [
        ("do", roll(5, 6)),
        ("do", swap("Ann", "red", 3, 3)),
        ("do", Pass("Ben")),
        ("do", Pass("Ann")),
        ("do", roll(6, 5)),
        ("refuse", swap("Ann", "yellow", 3, 3), ["already used X-Change field 3 (11 and 3)"]),
        ("assert", "Ann", {"not_offered": [swap("Ann", "yellow", 3, 3)]}),
    ],
    "fields are used left to right: one left of a used field is gone": [
        ("do", roll(5, 6)),
        ("do", swap("Ann", "red", 3, 3)),
        ("do", Pass("Ben")),
        ("do", Pass("Ann")),
        ("do", roll(4, 4)),  # 8: field 1 (8/5) is left of field 3, field 6 (8/6) is open
        ("refuse", swap("Ann", "red", 5, 1), ["field 3 is already used", "left to right"]),
        ("do", swap("Ann", "red", 6, 6)),
        ("assert", "Ann", {"fields": "ppuppu...", "marks": {"red": [3, 6]}}),
    ],
    "the white sum only: not in action 2": [
        ("do", roll(5, 6, red=2)),
        ("do", Pass("Ann")),
        ("do", Pass("Ben")),
        ("refuse", swap("Ann", "red", 3, 3), ["only in action 1"]),
        ("refuse", swap("Ann", "red", 8, 1), ["only in action 1"]),
        ("do", cross("Ann", "red", 7)),  # 5 + red 2, as always
        ("assert", "Ann", {"fields": ".........", "penalties": 0}),
    ],
    "the swapped number follows the row's rules: left to right": [
        ("do", roll(5, 6)),
        ("do", cross("Ann", "red", 11)),
        ("do", Pass("Ben")),
        ("do", Pass("Ann")),
        ("do", roll(5, 6)),
        ("refuse", swap("Ann", "red", 3, 3), ["red is already crossed up to 11"]),
        ("assert", "Ann", {"not_offered": [swap("Ann", "red", 3, 3)]}),
    ],
    "a swapped cross is the active player's cross: no penalty": [
        ("do", roll(5, 6)),
        ("do", swap("Ann", "blue", 3, 3)),
        ("do", Pass("Ben")),
        ("do", Pass("Ann")),
        ("assert", "Ann", {"penalties": 0, "crosses": {"blue": 1}}),
    ],
    "undo gives the field back": [
        ("do", roll(5, 6)),
        ("do", swap("Ann", "red", 3, 3)),
        ("do", Undo("Ann")),
        ("assert", "Ann", {"fields": ".........", "marks": {"red": []}}),
        ("do", cross("Ann", "red", 11)),
        ("assert", "Ann", {"fields": ".........", "marks": {"red": [11]}}),
    ],
    "the fields score nothing": [
        ("do", roll(3, 4)),  # 7: field 2 (9/7) makes it 9
        ("do", swap("Ann", "red", 9, 2)),
        ("do", swap("Ben", "red", 4, 4)),  # field 4 (7/4)
        ("assert", "Ann", {"total": 1, "crosses": {"red": 1}}),
        ("assert", "Ben", {"total": 1, "fields": "pppu....."}),
    ],
}


def play(steps: list) -> Game:
    game = Game.start(Start(VARIANT, ("Ann", "Ben")))
    for number, step in enumerate(steps):
        where = f"step {number}: {step}"
        if step[0] == "do":
            game.apply(step[1])
        elif step[0] == "refuse":
            refused_unchanged(game, step[1], step[2], where)
        else:
            holds(game, step[1], step[2], where)
    return game


STATE_LETTERS = {"used": "u", "passed": "p", "open": "."}


def holds(game: Game, name: str, expected: dict, where: str) -> None:
    sheet = report(game)["players"][name]
    if "fields" in expected:
        fields = "".join(STATE_LETTERS[f["state"]] for f in sheet["swaps"])
        assert fields == expected["fields"], f"{where}: fields"
    for row, numbers in expected.get("marks", {}).items():
        assert sheet["rows"][row]["marks"] == numbers, f"{where}: {row} marks"
    for row, crosses in expected.get("crosses", {}).items():
        assert sheet["rows"][row]["crosses"] == crosses, f"{where}: {row} crosses"
    for key in ("total", "penalties"):
        if key in expected:
            assert sheet[key] == expected[key], f"{where}: {key}"
    legal = game.legal_marks(name)
    for mark in expected.get("offered", []):
        assert mark in legal, f"{where}: {mark} is not offered"
    for mark in expected.get("not_offered", []):
        assert mark not in legal, f"{where}: {mark} is offered"


@pytest.mark.parametrize("steps", FIXTURES.values(), ids=FIXTURES.keys())
def test_x_change_fixture(steps):
    play(steps)


def test_no_field_reaches_a_lock_number():
    """The printed fields hold 3 to 11: a swap never crosses a lock number (12 in red and
    yellow, 2 in green and blue), so X-Change's locks are classic's."""
    game = Game.start(Start(VARIANT, ("Ann", "Ben")))
    for white in [(w1, w2) for w1 in range(1, 7) for w2 in range(w1, 7)]:
        trial = game.copy()
        trial.apply(roll(*white))
        swapped = [mark for mark in trial.legal_marks("Ann") if mark.swap]
        assert all(mark.number not in (2, 12) for mark in swapped)
        assert swapped or sum(white) in (2, 12)  # every other sum is on some field


def test_other_sheets_have_no_fields():
    game = Game.start(Start("classic", ("Ann", "Ben")))
    game.apply(roll(5, 6))
    before = report(game)
    with pytest.raises(Refused, match="classic sheets have no X-Change fields"):
        game.apply(swap("Ann", "red", 3, 3))
    assert report(game) == before


def test_the_game_log_writes_the_field_and_replay_checks_it():
    """docs/game-log.md: `"swap": 3` on the mark; a referee reads the field from the line."""
    line = event_to_line(swap("Ann", "red", 3, 3))
    assert '"swap": 3' in line
    assert parse_line(line) == swap("Ann", "red", 3, 3)
    start = event_to_line(Start(VARIANT, ("Ann", "Ben")))
    rolled = event_to_line(roll(5, 6))
    game = replay([start, rolled, line])
    assert report(game)["players"]["Ann"]["swaps"][2] == {
        "field": 3,
        "numbers": [11, 3],
        "state": "used",
    }
    with pytest.raises(LogError, match=r"line 3: .*only 9 or 7"):
        replay([start, rolled, line.replace('"swap": 3', '"swap": 2')])
    for bad in ('"swap": 0', '"swap": "3"', '"swap": true'):
        with pytest.raises(LogError, match='"swap" must be the number of an X-Change field'):
            replay([start, rolled, line.replace('"swap": 3', bad)])


@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**32), players=st.integers(1, 5))
def test_random_games_use_each_field_once_and_left_to_right(seed, players):
    """Whole random games (the playouts' path, replayed through the referee): each field used
    at most once, every field left of a used one gone, and the fields add no points."""
    names = tuple(f"P{k}" for k in range(players))
    game = Game.start(Start(VARIANT, names))
    events: list = []
    play_out(game, random.Random(seed), events)
    lines = [event_to_line(Start(VARIANT, names)), *map(event_to_line, events)]
    replayed = replay(lines)
    assert report(replayed) == report(game)
    for name in names:
        used = [e.swap for e in events if isinstance(e, Mark) and e.player == name and e.swap]
        assert used == sorted(set(used)), "a field used twice, or right to left"
        fields = report(game)["players"][name]["swaps"]
        assert [f["field"] for f in fields if f["state"] == "used"] == used
        last = max(used, default=0)
        assert all(f["state"] != "open" for f in fields[:last])
        rows = report(game)["players"][name]["rows"].values()
        penalty = report(game)["players"][name]["penalties"] * 5
        assert report(game)["players"][name]["total"] == sum(r["points"] for r in rows) - penalty
