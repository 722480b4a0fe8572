"""Score sheets: the shipped layouts match the printed sheets, and broken files are refused
with a message that names the file, the field and what is wrong."""

from __future__ import annotations

import tomllib

import pytest

from sheets import COLOURS, SheetError, load_sheet, load_sheet_file, parse_sheet, sheet_names
from sheets.loader import SHEET_DIR

UP = tuple(range(2, 13))
DOWN = UP[::-1]


def test_every_variant_of_the_spec_ships_a_sheet():
    assert {"classic", "longo", "mixx-a", "mixx-b", "bonus-a", "bonus-b"} <= set(sheet_names())


def test_classic_rows_locks_and_score_table():
    """Classic rulebook: red and yellow 2..12, green and blue 12..2; lock with the last number
    after at least five crosses; 1x=1 ... 12x=78; penalties -5."""
    sheet = load_sheet("classic")
    assert [row.numbers for row in sheet.rows] == [UP, UP, DOWN, DOWN]
    assert (sheet.lock_threshold, sheet.lock_numbers, sheet.dice_faces) == (5, 1, 6)
    assert sheet.score == (0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78)
    assert (sheet.penalty_points, sheet.penalties_to_end, sheet.locks_to_end) == (5, 4, 2)


def test_longo_rows_locks_lucky_numbers_and_table_up_to_120():
    """Longo rulebook: rows 2-16 and 16-2, lock with one of the last two numbers after at least
    six crosses, eight-sided dice, scoring up to 15x = 120, two lucky numbers per sheet."""
    sheet = load_sheet("longo")
    assert sheet.rows[0].numbers == tuple(range(2, 17))
    assert sheet.rows[3].numbers == tuple(range(16, 1, -1))
    assert (sheet.lock_threshold, sheet.lock_numbers, sheet.dice_faces) == (6, 2, 8)
    assert sheet.score[15] == 120 and len(sheet.score) == 16
    assert (sheet.lucky_numbers, sheet.lucky_range) == (2, (2, 16))


def test_mixx_a_cells_are_coloured_in_segments():
    """Mixx A: numbers in order, cells coloured in segments; rows named by their lock colour."""
    sheet = load_sheet("mixx-a")
    red_row = "".join(colour[0] for colour in sheet.rows[0].colours)
    blue_row = "".join(colour[0] for colour in sheet.rows[3].colours)
    assert red_row == "yyybbbgggrr"
    assert blue_row == "ggrrrryybbb"
    assert [row.colours[-1] for row in sheet.rows] == list(COLOURS)  # each lock cell its colour


def test_mixx_b_locks_with_red_11_yellow_10_green_3_blue_4():
    """Mixx B rulebook: 'in red with an 11, in yellow with a 10, in green with a 3 and in blue
    with a 4'."""
    sheet = load_sheet("mixx-b")
    assert [row.numbers[-1] for row in sheet.rows] == [11, 10, 3, 4]
    for row in sheet.rows:
        assert sorted(row.numbers) == list(UP)


def test_bonus_a_has_twelve_bonus_boxes_and_a_bar_of_twelve():
    """Bonus A rulebook: 'a total of 12 bonus boxes in the 4 coloured rows'."""
    sheet = load_sheet("bonus-a")
    assert sum(len(row.bonus) for row in sheet.rows) == 12
    assert len(sheet.bonus_bar) == 12
    assert sheet.bonus_bar[0] == "red"  # Tim's first bar box is red


def test_bonus_b_has_five_symbols_two_boxes_each():
    """Bonus B rulebook: 'a total of 5 different bonus boxes, 2 each'."""
    sheet = load_sheet("bonus-b")
    assert len(sheet.rewards) == 5
    assert all(len(reward.cells) == 2 for reward in sheet.rewards)
    star = next(r for r in sheet.rewards if r.symbol == "star")
    assert (1, UP.index(3)) in star.cells and (2, DOWN.index(5)) in star.cells  # Sarah's green 5


def classic_data() -> dict:
    return tomllib.loads((SHEET_DIR / "classic.toml").read_text())


@pytest.mark.parametrize(
    ("change", "field", "problem"),
    [
        (lambda d: d.pop("score"), "score", "non-empty list"),
        (lambda d: d.update(score=[0, 1, 3]), "score", "0 to 12 crosses"),
        (lambda d: d.update(dice_faces="six"), "dice_faces", "whole number"),
        (lambda d: d.update(lock_threshold=-1), "lock_threshold", "from 0 to 20"),
        (lambda d: d["rows"].pop(), "rows", "exactly four"),
        (lambda d: d["rows"][1].update(lock="purple"), "rows[1].lock", "'purple' is not one of"),
        (lambda d: d["rows"][2].update(lock="blue"), "rows[2].lock", "must be 'green'"),
        (lambda d: d["rows"][0]["numbers"].append(7), "rows[0].numbers", "7 appears 2 times"),
        (lambda d: d["rows"][0].update(colours=["red"]), "rows[0].colours", "one colour per"),
        (lambda d: d["rows"][0].update(bonus=[13]), "rows[0].bonus", "13 is not a number"),
        (lambda d: d.update(name=""), "name", "non-empty string"),
        (lambda d: d.update(bonus_bar={"boxes": ["red", "pink"]}), "bonus_bar.boxes", "pink"),
        (
            lambda d: d.update(rewards=[{"symbol": "x", "effect": "fly", "cells": []}]),
            "rewards[0].effect",
            "'fly' is not one of",
        ),
        (
            lambda d: d.update(
                rewards=[{"symbol": "x", "effect": "extra-points", "cells": [["red", 1]] * 2}]
            ),
            "rewards[0].cells",
            "row red has no number 1",
        ),
        (lambda d: d.update(lucky_numbers=2), "lucky_range", "[lowest, highest]"),
        (lambda d: d["rows"][3]["numbers"].__setitem__(0, 13), "rows[3].numbers", "13 is no roll"),
        (lambda d: d["rows"][0]["numbers"].__setitem__(0, 1), "rows[0].numbers", "1 is no roll"),
        (
            lambda d: d.update(lucky_numbers=2, lucky_range=[2, 99]),
            "lucky_range",
            "[2, 99] is not within the rolls: the sums of two 6-sided dice are 2 to 12",
        ),
    ],
)
def test_a_malformed_sheet_is_refused_naming_file_field_and_problem(change, field, problem):
    data = classic_data()
    change(data)
    with pytest.raises(SheetError) as error:
        parse_sheet(data, source="my-sheet.toml")
    message = str(error.value)
    assert message.startswith(f"my-sheet.toml: {field}: ")
    assert problem in message


def test_a_sheet_file_that_is_not_toml_is_refused_with_its_name(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text("name = 'classic\n")
    with pytest.raises(SheetError, match=r"^broken\.toml: not valid TOML"):
        load_sheet_file(path)


def test_a_sheet_file_nested_past_python_s_depth_is_refused_with_its_name(tmp_path):
    """tomllib reads nested arrays by recursion: 3,000 raised RecursionError, a traceback."""
    path = tmp_path / "deep.toml"
    path.write_text("rows = " + "[" * 3000 + "]" * 3000 + "\n")
    with pytest.raises(SheetError, match=r"^deep\.toml: not valid TOML: nested too deeply"):
        load_sheet_file(path)


def test_a_sheet_whose_number_no_dice_can_roll_is_refused_before_a_game_hangs_on_it():
    """A maker's sheet with a number of 129 digits in a row (the fuzzer's, from the Connected
    Chain sheet) loaded, and the first game on it hung the tower: the referee's tables are as
    long as the highest number. Now the sheet is refused, saying which rolls there are."""
    data = classic_data()
    data["rows"][2]["numbers"][8] = 6 * 10**128 + 4
    with pytest.raises(SheetError) as error:
        parse_sheet(data, source="my-sheet.toml")
    assert str(error.value) == (
        f"my-sheet.toml: rows[2].numbers: {6 * 10**128 + 4} is no roll: "
        "the sums of two 6-sided dice are 2 to 12"
    )


def test_a_sheet_file_saved_in_another_encoding_is_refused_in_words(tmp_path):
    """A maker who lists their own Connected pads and saves the file as Latin-1 is told to
    save it as UTF-8 (it ended in a UnicodeDecodeError's traceback, found by fuzzing)."""
    path = tmp_path / "my-pads.toml"
    path.write_bytes(b'name = "cl\xe4ssic"\n')
    with pytest.raises(
        SheetError, match=r"^my-pads\.toml: not UTF-8 text \(byte 11\): save it as UTF-8"
    ):
        load_sheet_file(path)


def test_a_sheet_file_saved_with_notepads_byte_order_mark_loads(tmp_path):
    path = tmp_path / "classic.toml"
    path.write_bytes(b"\xef\xbb\xbf" + (SHEET_DIR / "classic.toml").read_bytes())
    assert load_sheet_file(path) == load_sheet_file(SHEET_DIR / "classic.toml")


def test_a_missing_sheet_file_is_refused_with_its_name(tmp_path):
    with pytest.raises(SheetError, match=r"^gone\.toml: cannot read the file"):
        load_sheet_file(tmp_path / "gone.toml")


def test_a_new_printed_sheet_is_a_new_data_file(tmp_path):
    """A maker's own sheet (here: classic with a six-cross lock) loads without new code."""
    text = (
        (SHEET_DIR / "classic.toml").read_text().replace("lock_threshold = 5", "lock_threshold = 6")
    )
    path = tmp_path / "strict.toml"
    path.write_text(text.replace('name = "classic"', 'name = "strict"'))
    sheet = load_sheet_file(path)
    assert (sheet.name, sheet.lock_threshold) == ("strict", 6)
