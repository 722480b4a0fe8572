"""The table service end to end, on simulated hardware: gpiozero's MockFactory pins for the roll
button and lock lights, luma's dummy device for the displays, the journal on disk."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from PIL import Image

from firmware_py.config import SIMULATED
from firmware_py.console import Console
from firmware_py.hardware import SIMULATED_LIGHT_PINS, build_hardware
from firmware_py.journal import GameLog, Journal, read_game
from firmware_py.rules import Mark, Pass, Roll, Start, game_report
from firmware_py.screens import render
from firmware_py.table import COMPUTER, KEYBOARD, SeatSpec, Table
from firmware_py.view import TableView
from sheets import COLOURS, load_sheet, sheet_names

PACE = 0.005


def make_table(tmp_path: Path, seats: list[SeatSpec], variant: str = "classic") -> Table:
    hardware = build_hardware(SIMULATED, load_sheet(variant).dice_faces)
    return Table(
        seats=seats, variant=variant, journal=Journal(tmp_path), hardware=hardware, pace=PACE
    )


async def until(condition, timeout: float = 10.0) -> None:
    """Wait (bounded) for the table to reach a state."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the table never got there"
        await asyncio.sleep(0.005)


async def press_roll_button(table: Table) -> None:
    """Press the simulated button the way a finger does: low, held, high."""
    pin = table.hardware.button_factory.pin(table.hardware.button_pin)
    await asyncio.sleep(0.06)  # a finger is not faster than the debounce time
    pin.drive_low()
    await asyncio.sleep(0.06)
    pin.drive_high()


def lit_lights(table: Table) -> set[str]:
    factory = table.hardware.button_factory
    return {c for c, pin in SIMULATED_LIGHT_PINS.items() if factory.pin(pin).state}


@pytest.mark.parametrize("variant", sheet_names())
def test_computer_players_play_a_whole_game_that_the_journal_replays(tmp_path, variant):
    seats = [SeatSpec(name) for name in ("Ann", "Ben", "Cleo")]
    table = make_table(tmp_path, seats, variant)
    asyncio.run(asyncio.wait_for(table.run(games=1), timeout=60))
    game = table.game
    assert game.over
    replayed = read_game(Journal(tmp_path).games()[-1]).game
    assert game_report(replayed) == game_report(game)
    table.hardware.lights.wait_until_steady(timeout=10)
    assert lit_lights(table) == {COLOURS[row] for row in game.locked}
    main = table.hardware.displays["main"]
    expected = Image.new("1", main.size)
    expected.paste(render(table.view(), "main"), main.pixel_shift)  # burn-in protection shift
    assert main.device.image.tobytes() == expected.tobytes()
    assert table.news[-1].startswith("Game over")
    table.hardware.close()


def test_a_keyboard_player_rolls_with_the_button_and_marks_from_the_keyboard(tmp_path):
    table = make_table(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Bot", COMPUTER)])
    console = Console(table, full_screen=False, out=open("/dev/null", "w"))  # noqa: SIM115

    async def play() -> None:
        task = asyncio.create_task(table.run())
        await until(lambda: table.screen == "attract" and table.hardware.button is not None)
        await press_roll_button(table)  # attract: a new game
        await until(lambda: table.game is not None)
        await press_roll_button(table)  # Kim is active: roll
        await until(lambda: table.game.phase == "action1" and "Kim" in table.game.waiting_for())
        assert console.asking == "Kim"
        first = console.options[0] if console.options else None
        console.answer("1" if first else "p")
        await until(lambda: "Kim" not in table.game.waiting_for() or table.game.phase != "action1")
        if first:
            assert table.news.count(f"Kim crosses {first.row} {first.number}") == 1
        console.answer("u")  # undo is refused or accepted, never a crash
        table.stop()
        await task

    asyncio.run(asyncio.wait_for(play(), timeout=30))
    table.hardware.close()


def test_an_unfinished_game_is_resumed_where_the_journal_left_it(tmp_path):
    journal = Journal(tmp_path)
    with journal.begin(Start("classic", ("Ann", "Ben"))) as game_log:
        game_log.append(Roll((4, 1), {"red": 6, "yellow": 2, "green": 3, "blue": 6}))
        game_log.append(Mark("Ann", "red", 5))
    with open(journal.games()[-1], "a") as file:
        file.write('{"event": "pass", "pl')  # the plug was pulled mid-write
    table = make_table(tmp_path, [SeatSpec("Ann"), SeatSpec("Ben")])
    asyncio.run(asyncio.wait_for(table.run(games=1), timeout=60))
    lines = journal.games()[-1].read_text().splitlines()
    roll = '{"white": [4, 1], "red": 6, "yellow": 2, "green": 3, "blue": 6}'
    assert lines[1:3] == [
        '{"event": "roll", "dice": ' + roll + "}",
        '{"event": "mark", "player": "Ann", "row": "red", "number": 5}',
    ]
    assert all(json.loads(line) for line in lines)  # the torn line is gone
    assert read_game(journal.games()[-1]).game.over
    assert len(journal.games()) == 1  # carried on, not started anew
    table.hardware.close()


def test_when_the_journal_cannot_be_written_a_decision_is_refused_and_nothing_changes(tmp_path):
    table = make_table(tmp_path, [SeatSpec("Kim", KEYBOARD)])

    async def play() -> None:
        task = asyncio.create_task(table.run())
        await until(lambda: table.hardware.button is not None)
        table.new_game()
        table.submit(Roll((3, 3), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
        before = game_report(table.game)
        table.game_log = GameLog(Path("/dev/full"))  # the disk is full
        refusal = table.decide(Mark("Kim", "red", 6))
        assert refusal.kind == "storage" and "cannot save the game" in refusal.reason
        assert game_report(table.game) == before
        assert "the game cannot be saved" in table.message
        assert table.decide(Pass("Nobody")).reason.startswith("there is no player named 'Nobody'")
        table.stop()
        await task

    asyncio.run(asyncio.wait_for(play(), timeout=30))
    table.hardware.close()


def test_displays_dim_then_blank_when_nobody_touches_anything_and_wake_on_a_press(tmp_path):
    now = [0.0]
    hardware = build_hardware(SIMULATED, 6)
    table = Table(
        seats=[SeatSpec("Kim", KEYBOARD)], variant="classic", journal=Journal(tmp_path),
        hardware=hardware, idle_dim=300, idle_blank=1800, clock=lambda: now[0],
    )  # fmt: skip
    powers = []
    for display in hardware.displays.values():
        for name in ("dim", "blank", "wake"):
            setattr(display, name, lambda name=name: powers.append(name))
    now[0] = 299.0
    table.rest_displays()
    assert powers == []
    now[0] = 301.0
    table.rest_displays()
    assert powers == ["dim", "dim"]  # both displays
    now[0] = 1801.0
    table.rest_displays()
    assert powers[-2:] == ["blank", "blank"]
    table.long_press_menu()  # any input wakes them
    assert powers[-2:] == ["wake", "wake"]
    hardware.close()


def test_thrown_electronic_dice_make_the_roll_once_every_die_has_landed(tmp_path):
    """Pixels dice: the active player throws; the roll is what the landed dice show."""
    from test_drivers_pixels import DICE, FakeScanner

    from drivers.pixels import PixelsReader

    table = make_table(tmp_path, [SeatSpec("Kim", KEYBOARD)])
    radio = FakeScanner()
    table.hardware.pixels = PixelsReader(DICE, scanner=radio, poll_interval=3600)

    async def play() -> None:
        task = asyncio.create_task(table.run())
        await until(lambda: radio.listener is not None)
        table.new_game()
        await until(lambda: table.hardware.pixels.waiting_for)  # listening for a throw
        faces = {"white 1": 4, "white 2": 1, "red": 6, "yellow": 2, "green": 3}
        for role, face in faces.items():
            radio.roll(role, face)
        await asyncio.sleep(0.05)
        assert table.game.phase == "roll"  # the blue die has not landed yet
        radio.roll("blue", 6)
        await until(lambda: table.game.phase == "action1")
        assert table.game.dice == Roll((4, 1), {"red": 6, "yellow": 2, "green": 3, "blue": 6})
        table.stop()
        await task

    asyncio.run(asyncio.wait_for(play(), timeout=30))
    table.hardware.close()


def test_a_display_that_stops_answering_is_named_on_the_other_and_the_game_goes_on(tmp_path):
    """A loose I2C wire on the options display: the main display says so; nothing stops."""
    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306
    from test_drivers_display import LooseBus

    from drivers.display import Display
    from drivers.display_device import CountingSerial

    table = make_table(tmp_path, [SeatSpec("Kim", KEYBOARD)])
    bus = LooseBus()
    link = CountingSerial(i2c(bus=bus, address=0x3D))
    table.hardware.displays["options"] = Display(ssd1306(link), link=link, shift_every=None)

    async def play() -> None:
        task = asyncio.create_task(table.run())
        await until(lambda: table.hardware.button is not None)
        table.new_game()
        bus.plugged = False  # the wire comes loose
        table.submit(Roll((3, 3), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
        main = table.hardware.displays["main"]
        warning = TableView("error", message="the options display does not answer: check its wires")
        expected = Image.new("1", main.size)
        expected.paste(render(warning, "main"), main.pixel_shift)
        assert main.device.image.tobytes() == expected.tobytes()
        assert table.decide(Mark("Kim", "red", 6)) is None  # the game goes on
        table.stop()
        await task

    asyncio.run(asyncio.wait_for(play(), timeout=30))
    table.hardware.close()


def test_a_display_missing_at_start_is_reported_and_the_tower_still_starts(tmp_path):
    from firmware_py.config import parse_config

    config = parse_config({"displays": [{"role": "main", "bus": 29}]})
    hardware = build_hardware(config, 6)
    assert any("the main display does not answer" in p for p in hardware.problems)
    table = Table(seats=[SeatSpec("Kim", KEYBOARD)], variant="classic",
                  journal=Journal(tmp_path), hardware=hardware)  # fmt: skip

    async def play() -> None:
        task = asyncio.create_task(table.run())
        await until(lambda: table.hardware.button is not None)
        assert any("the main display does not answer" in line for line in table.news)
        table.new_game()
        assert table.game is not None
        table.stop()
        await task

    asyncio.run(asyncio.wait_for(play(), timeout=30))
    hardware.close()
