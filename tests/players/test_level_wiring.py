"""Levels reach the table: configuration, command line, the roll button's menu, the screens,
the notes a resumed game reads."""

from __future__ import annotations

import argparse
import asyncio

import pytest
from support import HANG

from firmware_py.app.arguments import seat_level
from firmware_py.app.asked import asked_seats
from firmware_py.app.assembly import build_table
from firmware_py.app.config import SIMULATED, ConfigError, parse_config
from firmware_py.app.hardware import build_hardware
from firmware_py.journal.journal import Journal, noted_seats, seat_records
from firmware_py.players import LEVELS
from firmware_py.seating import COMPUTER, KEYBOARD, SeatSpec
from firmware_py.show.screens import render
from firmware_py.table import Table
from firmware_py.view import ATTRACT, Seat, TableView
from sheets import load_sheet


def table_with(tmp_path, seats: list[SeatSpec]) -> Table:
    hardware = build_hardware(SIMULATED, load_sheet("classic").dice_faces)
    return build_table(
        hardware,
        seats=seats,
        variant="classic",
        journal=Journal(tmp_path),
        pace=0.01,
        autoplay=True,
    )


def test_the_configuration_gives_a_computer_seat_its_level():
    config = parse_config(
        {"table": {"computer_players": ["Robo", {"name": "Ada", "level": "hard"}]}}
    )
    assert config.computer_players == ("Robo", "Ada")
    assert config.computer_levels == {"Ada": "hard"}


@pytest.mark.parametrize(
    ("seat", "words"),
    [
        ({"name": "Ada", "level": "expert"}, "level 'expert' is not one of easy, medium, hard"),
        ({"name": "Ada", "speed": "fast"}, "'speed': a seat has a name and a level"),
        ({"level": "hard"}, "must be a list of names"),
    ],
)
def test_a_wrong_level_in_the_configuration_is_one_sentence(seat, words):
    with pytest.raises(ConfigError) as refused:
        parse_config({"table": {"computer_players": [seat]}})
    message = str(refused.value)
    assert words in message and "\n" not in message
    assert message.startswith("config.toml: [table] computer_players: ")


def test_the_command_line_sets_every_computer_seat_or_one_by_name():
    args = argparse.Namespace(
        players=["Ann", "Robo", "Ada"], human=["Ann"], config=None,
        level=[seat_level("Ada=Hard"), seat_level("easy")],
    )  # fmt: skip
    seats = asked_seats(args, SIMULATED)
    assert seats == [SeatSpec("Ann", KEYBOARD), SeatSpec("Robo", COMPUTER, level="easy"),
                     SeatSpec("Ada", COMPUTER, level="hard")]  # fmt: skip


def test_a_name_on_the_command_line_is_a_seats_whatever_its_case():
    """`--human ann` sat a fifth player "ann" beside the computer player Ann, and `--level
    ann=hard` said ann was not one of the players, where `--players Ann,ann` names one
    player twice."""
    args = argparse.Namespace(
        players=None, human=["ann"], config=None, level=[seat_level("BEN=hard")]
    )
    seats = asked_seats(args, SIMULATED)
    assert seats == [SeatSpec("Ann", KEYBOARD), SeatSpec("Ben", COMPUTER, level="hard"),
                     SeatSpec("Cleo", COMPUTER)]  # fmt: skip
    args = argparse.Namespace(players=["Ann", "Ben"], human=["BEN"], config=None, level=[])
    assert asked_seats(args, SIMULATED)[1] == SeatSpec("Ben", KEYBOARD)


def test_an_unknown_level_on_the_command_line_is_one_sentence():
    with pytest.raises(argparse.ArgumentTypeError, match=r"^unknown level 'expert': one of easy"):
        seat_level("Ada=expert")


def test_the_menu_steps_every_computer_seat_through_the_levels(tmp_path):
    table = table_with(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Robo"), SeatSpec("Bot")])
    table.long_press_menu()  # open
    for _ in range(3):
        table.press()  # variant, players, level
    assert table.view().menu.lines[3] == "level: medium"
    table.long_press_menu()  # the level page
    page = table.view().menu
    assert (page.title, page.lines, page.selected) == ("Computers play", LEVELS, 1)
    table.press()
    assert table.view().menu.selected == 2
    assert [table.seating.level_of(name) for name in ("Kim", "Robo", "Bot")] == ["", "hard", "hard"]
    table.long_press_menu()  # keep it
    assert table.view().menu.lines[3] == "level: hard"
    table.hardware.close()


def test_the_screens_show_a_computer_seats_level_beside_its_name():
    plain = TableView(ATTRACT, title="Qwixx", seats=(Seat("Robo"), Seat("Ann")))
    levelled = TableView(ATTRACT, title="Qwixx", seats=(Seat("Robo", level="hard"), Seat("Ann")))
    assert Seat("Robo", level="hard").label == "Robo (hard)"
    assert render(levelled, "main").tobytes() != render(plain, "main").tobytes()


def test_between_games_the_table_shows_the_levels_of_its_computer_seats(tmp_path):
    table = table_with(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Robo", level="easy")])
    seats = table.view().seats
    assert [seat.label for seat in seats] == ["Kim", "Robo (easy)"]
    table.hardware.close()


def test_a_resumed_game_gets_its_levels_back_from_the_notes(tmp_path):
    seats = [SeatSpec("Kim", KEYBOARD), SeatSpec("Robo", level="hard"), SeatSpec("Bot")]
    assert seat_records(seats)[2] == {"name": "Bot", "kind": "computer", "pad": ""}
    path = tmp_path / "game-0001.jsonl"
    Journal(tmp_path).note_seats(path, seats)
    assert [SeatSpec(**seat) for seat in noted_seats(path)] == seats


def test_hard_computer_players_play_a_whole_game_at_the_table(tmp_path):
    """They think in the worker thread; the game ends and every decision was legal."""
    table = table_with(tmp_path, [SeatSpec("Robo", level="hard"), SeatSpec("Ada", level="easy")])
    asyncio.run(asyncio.wait_for(table.run(games=1), timeout=HANG))
    assert table.game.over
    table.hardware.close()
