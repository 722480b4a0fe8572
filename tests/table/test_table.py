"""The table service end to end, on simulated hardware: gpiozero's MockFactory pins for the roll
button and lock lights, luma's dummy device for the displays, the journal on disk."""

from __future__ import annotations

import asyncio
import io
import json
import time
from collections import Counter
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest
from PIL import Image
from support import HANG
from support.rules import build, recording_game
from support.table import PACE, clocked_table, hold, make_table, run_table, shifted, tap, until

from drivers.display import SHIFT_OFFSETS
from firmware_py.app.assembly import attach_terminal, build_table
from firmware_py.app.config import SIMULATED
from firmware_py.app.hardware import SIMULATED_LIGHT_PINS, build_hardware
from firmware_py.journal.history import history_lines
from firmware_py.journal.journal import GameLog, Journal, read_game
from firmware_py.journal.lines import parse_line
from firmware_py.menu import IDLE_SECONDS, short_title
from firmware_py.players.lookahead import look_ahead
from firmware_py.rules import Mark, Pass, Roll, Start, Undo, game_report
from firmware_py.seating import COMPUTER, KEYBOARD, PAD, SeatSpec
from firmware_py.show.screens import over_pages, render
from firmware_py.table import ALERT_SECONDS, LuckyNumber, Table, TablePhase
from firmware_py.table import computers as computers_module
from firmware_py.table.news_feed import NEWS_KEPT
from firmware_py.table.phase import can_move
from firmware_py.table.planner import JOIN_WINDOW
from firmware_py.table.rolling import ROLL_FRAMES, frame_seconds
from firmware_py.view import MenuView, TableView
from sheets import COLOURS, load_sheet, sheet_names


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
    from dataclasses import replace

    seats = [SeatSpec(name) for name in ("Ann", "Ben", "Cleo")]
    table = make_table(tmp_path, seats, variant)
    asyncio.run(asyncio.wait_for(table.run(games=1), timeout=HANG))
    game = table.game
    assert game.over
    replayed = read_game(Journal(tmp_path).games()[-1]).game
    assert game_report(replayed) == game_report(game)
    table.hardware.lights.wait_until_steady(timeout=HANG)
    assert lit_lights(table) == {COLOURS[row] for row in game.locked}
    main = table.hardware.displays["main"]
    turns = len(over_pages(table.view()))  # the scores, each player's bars, the story ...
    assert table.view().story is not None and turns == 2 + len(seats) + 1
    pages = {render(replace(table.view(), page=page), "main").tobytes() for page in range(turns)}
    assert main.frame.tobytes() in pages  # the game over screen, on the page its clock says
    assert main.device.image.tobytes() in {shifted(main.frame, xy) for xy in SHIFT_OFFSETS}
    assert table.newsfeed.lines[-1].startswith("Game over")
    table.hardware.close()


def test_look_ahead_computer_players_think_off_the_loop_and_play_a_whole_game(
    tmp_path, monkeypatch
):
    """With `look_ahead`, computer players play each option out before deciding (in a worker
    thread); every decision they make is one the look-ahead chose, and the game replays."""
    chosen = []

    def recorded_look_ahead(*args):
        decision = look_ahead(*args)
        chosen.append(decision)
        return decision

    monkeypatch.setattr(computers_module, "look_ahead", recorded_look_ahead)
    seats = [SeatSpec(name) for name in ("Ann", "Ben")]
    table = make_table(tmp_path, seats)
    table.settings = replace(table.settings, look_ahead=6)
    asyncio.run(asyncio.wait_for(table.run(games=1), timeout=HANG))
    assert table.game.over
    journal = Journal(tmp_path).games()[-1].read_text().splitlines()[1:]
    decisions = [parse_line(line) for line in journal if '"event": "roll"' not in line]
    # Two players think at once in action 1, so their thoughts may end in either order.
    assert Counter(decisions) == Counter(chosen) and len(chosen) > 10
    replayed = read_game(Journal(tmp_path).games()[-1]).game
    assert game_report(replayed) == game_report(table.game)
    table.hardware.close()


def test_a_look_ahead_for_a_moment_that_has_passed_is_not_played(tmp_path):
    """A new game began while a computer player was thinking about the old one: its decision
    is dropped, and it thinks again about the new game."""
    table, clock = clocked_table(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Bot")])
    table.settings = replace(table.settings, look_ahead=4)

    async def steps() -> None:
        await tap(table, clock)
        table.submit(Roll((3, 4), {"red": 1, "yellow": 2, "green": 3, "blue": 4}))
        moment = table.computers.moment()
        table.new_game()  # (from the menu) while Bot was thinking about the roll above
        table.submit(Roll((3, 4), {"red": 1, "yellow": 2, "green": 3, "blue": 4}))
        stale = asyncio.get_running_loop().create_future()
        stale.set_result(Mark("Bot", "red", 7))
        table.computers.thought("Bot", moment, stale)
        assert table.game.waiting_for() == ["Kim", "Bot"]  # not played in the new game
        await until(lambda: table.game.waiting_for() == ["Kim"])  # Bot thought again

    run_table(table, steps)


def test_a_keyboard_player_rolls_with_the_button_and_marks_from_the_keyboard(tmp_path):
    table = make_table(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Bot", COMPUTER)])
    _, keys = attach_terminal(table, table.hardware, full_screen=False, out=io.StringIO())

    async def play() -> None:
        task = asyncio.create_task(table.run())
        await until(lambda: table.screen == "setup" and table.button is not None)
        await press_roll_button(table)  # attract: a new game
        await until(lambda: table.game is not None)
        await press_roll_button(table)  # Kim is active: roll
        await until(lambda: table.game.phase == "action1" and "Kim" in table.game.waiting_for())
        assert keys.asking == "Kim"
        first = keys.options[0] if keys.options else None
        keys.answer("1" if first else "p")
        await until(lambda: "Kim" not in table.game.waiting_for() or table.game.phase != "action1")
        if first:
            assert table.newsfeed.lines.count(f"Kim crosses {first.row} {first.number}") == 1
        keys.answer("u")  # undo is refused or accepted, never a crash
        table.stop()
        await task

    asyncio.run(asyncio.wait_for(play(), timeout=HANG))
    table.hardware.close()


def test_an_unfinished_game_is_resumed_where_the_journal_left_it(tmp_path):
    journal = Journal(tmp_path)
    with journal.begin(Start("classic", ("Ann", "Ben"))) as game_log:
        game_log.append(Roll((4, 1), {"red": 6, "yellow": 2, "green": 3, "blue": 6}))
        game_log.append(Mark("Ann", "red", 5))
    with open(journal.games()[-1], "a") as file:
        file.write('{"event": "pass", "pl')  # the plug was pulled mid-write
    table = make_table(tmp_path, [SeatSpec("Ann"), SeatSpec("Ben")])
    asyncio.run(asyncio.wait_for(table.run(games=1), timeout=HANG))
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
        await until(lambda: table.button is not None)
        table.new_game()
        table.submit(Roll((3, 3), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
        before = game_report(table.game)
        table.games.referee.game_log = GameLog(Path("/dev/full"))  # the disk is full
        refusal = table.decide(Mark("Kim", "red", 6))
        assert refusal.kind == "storage" and "cannot save the game" in refusal.reason
        assert game_report(table.game) == before
        assert table.view().message == "cannot save the game: the disk is full"
        assert table.decide(Pass("Nobody")).reason.startswith("there is no player named 'Nobody'")
        table.stop()
        await task

    asyncio.run(asyncio.wait_for(play(), timeout=HANG))
    table.hardware.close()


def test_past_its_room_for_undo_a_game_takes_no_more_undo_and_plays_on(tmp_path, monkeypatch):
    """Marks taken back as often as a player likes grow the log without end; past UNDO_ROOM
    (8 MB, hours of a phone's taps: made small here) an undo is refused in words and changes
    nothing, so the log stays one the tower reads back at its next start."""
    from firmware_py.journal import journal as journal_module

    table = make_table(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Lea", KEYBOARD)])
    monkeypatch.setattr(journal_module, "UNDO_ROOM", 4000)

    async def play() -> None:
        task = asyncio.create_task(table.run())
        await until(lambda: table.button is not None)
        table.new_game()
        table.submit(Roll((3, 3), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
        refusal = None
        for _ in range(100):  # some 60 bytes of log a mark, as many an undo
            assert table.decide(Mark("Kim", "red", 6)) is None
            before = game_report(table.game)
            refusal = table.decide(Undo("Kim"))
            if refusal is not None:
                break
        assert refusal is not None, "undo never refused"
        assert refusal.kind == "rule"
        assert refusal.reason == "no more undo in this game: its log is full of marks taken back"
        assert game_report(table.game) == before  # the mark stands
        assert table.decide(Pass("Lea")) is None  # and the game goes on: action 2
        assert table.decide(Pass("Kim")) is None
        log = table.games.referee.game_log.path
        assert 4000 <= log.stat().st_size < 4200
        replayed = game_report(read_game(log).game)  # it replays, the mark in it
        assert replayed["players"]["Kim"]["rows"]["red"]["marks"] == [6]
        assert replayed["turn"] == {"active": "Lea", "phase": "roll"}
        table.stop()
        await task

    asyncio.run(asyncio.wait_for(play(), timeout=HANG))
    table.hardware.close()


def kim_at_a_table_that_rests(tmp_path, now: list[float], **idle: float):
    """Kim at the keyboard of a simulated tower whose displays dim after 300 s and blank after
    1800 s (or as `idle` says) by the clock `now[0]`."""
    hardware = build_hardware(SIMULATED, 6)
    times = {"idle_dim": 300, "idle_blank": 1800, **idle}
    table = build_table(
        hardware,
        seats=[SeatSpec("Kim", KEYBOARD)],
        variant="classic",
        journal=Journal(tmp_path),
        clock=lambda: now[0],
        **times,
    )
    return hardware, table


def test_displays_dim_then_blank_when_nobody_touches_anything_and_wake_on_a_press(tmp_path):
    now = [0.0]
    hardware, table = kim_at_a_table_that_rests(tmp_path, now)
    powers = []
    for display in hardware.displays.values():
        for name in ("dim", "blank", "wake"):
            setattr(display, name, lambda name=name: powers.append(name))
    now[0] = 299.0
    table.screens.rest()
    assert powers == []
    now[0] = 301.0
    table.screens.rest()
    assert powers == ["dim", "dim"]  # both displays
    now[0] = 1801.0
    table.screens.rest()
    assert powers[-2:] == ["blank", "blank"]
    table.long_press_menu()  # any input wakes them
    assert powers[-2:] == ["wake", "wake"]
    hardware.close()


def test_thrown_electronic_dice_make_the_roll_once_every_die_has_landed(tmp_path):
    """Pixels dice: the active player throws; the roll is what the landed dice show."""
    from support.pixels import DICE

    from drivers.pixels import PixelsReader
    from drivers.simulated.pixels import SimulatedScanner

    table = make_table(tmp_path, [SeatSpec("Kim", KEYBOARD)])
    radio = SimulatedScanner(DICE)
    table.thrown.pixels = PixelsReader(DICE, scanner=radio, poll_interval=3600)

    async def play() -> None:
        task = asyncio.create_task(table.run())
        await until(lambda: radio.listener is not None)
        table.new_game()
        await until(lambda: table.thrown.pixels.waiting_for)  # listening for a throw
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

    asyncio.run(asyncio.wait_for(play(), timeout=HANG))
    table.hardware.close()


def test_a_display_that_stops_answering_is_named_on_the_other_and_the_game_goes_on(tmp_path):
    """A loose I2C wire on the options display: the main display says so; nothing stops."""
    from luma.core.interface.serial import i2c
    from luma.oled.device import ssd1306
    from support.display import LooseBus

    from drivers.display import Display
    from drivers.display_device import CountingSerial

    table = make_table(tmp_path, [SeatSpec("Kim", KEYBOARD)])
    bus = LooseBus()
    link = CountingSerial(i2c(bus=bus, address=0x3D))
    table.hardware.displays["options"] = Display(ssd1306(link), link=link, shift_every=None)

    async def play() -> None:
        task = asyncio.create_task(table.run())
        await until(lambda: table.button is not None)
        table.new_game()
        bus.plugged = False  # the wire comes loose
        table.submit(Roll((3, 3), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
        main = table.hardware.displays["main"]
        warning = TableView("error", message="the options display does not answer: check its wires")
        expected = {shifted(render(warning, "main"), xy) for xy in SHIFT_OFFSETS}
        assert main.device.image.tobytes() in expected
        assert table.decide(Mark("Kim", "red", 6)) is None  # the game goes on
        table.stop()
        await task

    asyncio.run(asyncio.wait_for(play(), timeout=HANG))
    table.hardware.close()


def test_a_display_missing_at_start_is_reported_and_the_tower_still_starts(tmp_path):
    from firmware_py.app.config import parse_config

    config = parse_config({"displays": [{"role": "main", "bus": 29}]})
    hardware = build_hardware(config, 6)
    assert any("the main display does not answer" in p for p in hardware.problems)
    table = build_table(
        hardware,
        seats=[SeatSpec("Kim", KEYBOARD)],
        variant="classic",
        journal=Journal(tmp_path),
    )

    async def play() -> None:
        task = asyncio.create_task(table.run())
        await until(lambda: table.button is not None)
        assert any("the main display does not answer" in line for line in table.newsfeed.lines)
        table.new_game()
        assert table.game is not None
        table.stop()
        await task

    asyncio.run(asyncio.wait_for(play(), timeout=HANG))
    hardware.close()


# ---- the roll button's menu, pressed on gpiozero's mock pin with a fake clock ----------------


def main_display_shows(table: Table, view: TableView) -> bool:
    main = table.hardware.displays["main"]
    expected = Image.new("1", main.size)
    expected.paste(render(view, "main"), main.pixel_shift)
    return main.device.image.tobytes() == expected.tobytes()


def menu_page(title: str, lines: tuple[str, ...], selected: int, hint: str) -> TableView:
    return TableView("menu", menu=MenuView(title, lines, selected, (hint,)))


def test_holding_the_button_opens_the_menu_where_taps_step_and_a_hold_picks_the_variant(
    tmp_path,
):
    table, clock = clocked_table(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Bot")])
    names = sheet_names()
    classic = names.index("classic")
    second = load_sheet(names[(classic + 1) % len(names)])

    async def steps() -> None:
        await hold(table, clock)
        pick = "tap: next hold: pick"
        lines = ("new game", "variant: Qwixx", "players: 2", "level: medium", "back")
        assert main_display_shows(table, menu_page("Menu", lines, 0, pick))
        await tap(table, clock)
        assert main_display_shows(table, menu_page("Menu", lines, 1, pick))
        await hold(table, clock)  # the variant page: every sheet, the chosen one lit
        assert table.view().menu.title == "Variant"
        assert table.view().menu.selected == classic
        await tap(table, clock)
        assert table.view().menu.selected == names.index(second.name)
        await hold(table, clock)  # keep it: back on the list
        assert table.view().menu.lines[1] == f"variant: {short_title(second.title)}"
        for _ in range(4):
            await tap(table, clock)  # players, level, name a pad, back
        await hold(table, clock)  # back
        assert table.button_menu.open is None and table.game is None
        await tap(table, clock)  # a tap outside the menu starts the game
        await until(lambda: table.game is not None)
        assert table.game.sheet.name == second.name

    run_table(table, steps)


def test_the_players_item_adds_computer_players_and_from_five_goes_down_to_none(tmp_path):
    table, clock = clocked_table(tmp_path, [SeatSpec("Kim", KEYBOARD)])

    async def steps() -> None:
        await hold(table, clock)
        await tap(table, clock)
        await tap(table, clock)
        await hold(table, clock)  # the players page
        assert table.view().menu.title == "Players: 1 (0-5)"
        for _ in range(4):
            await tap(table, clock)
        menu = table.view().menu
        assert menu.title == "Players: 5 (0-5)"
        assert menu.lines == ("Kim        Computer 1", "Computer 2 Computer 3", "Computer 4")
        await tap(table, clock)  # from five to none
        assert table.seating.seats == [] and table.view().menu.title == "Players: 0 (0-5)"
        await tap(table, clock)  # the seats come back in order: Kim first
        assert [s.name for s in table.seating.seats] == ["Kim"]
        await tap(table, clock)
        await hold(table, clock)  # keep two
        for _ in range(4):
            await tap(table, clock)  # level, name a pad, back, round to "new game"
        await hold(table, clock)
        await until(lambda: table.game is not None)
        assert [p.name for p in table.game.players] == ["Kim", "Computer 1"]
        assert table.seating.kind_of("Computer 1") == COMPUTER

    run_table(table, steps)


def test_a_new_game_started_while_the_last_lock_is_announced_shows_the_new_game(tmp_path):
    """A game that ends with its second lock, and a new game at once (a computer table starts
    one within the lock notice): the new game's roll screen shows, not a lock it never had.
    Before the fix the main display crashed drawing a lock of no colour and the table stalled."""
    played = recording_game("classic", ("Kim", "Lee"))
    build(played, {"Kim": [("red", n) for n in (2, 3, 4, 5, 6, 12)],
                   "Lee": [("green", n) for n in (12, 11, 10, 9, 8, 2)]})  # fmt: skip
    assert played.over and played.reason == "locks"
    table, clock = clocked_table(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Lee", KEYBOARD)])

    async def steps() -> None:
        await tap(table, clock)  # a new game of Kim and Lee
        for event in played.log[1:]:
            assert table.submit(event) is None
        assert table.game.over
        await tap(table, clock)  # the next game, within the lock notice
        assert table.game is not None and table.game.phase == "roll"
        assert table.view().screen == "roll"
        assert main_display_shows(table, table.view())

    run_table(table, steps)


def test_a_new_game_mid_game_asks_first_and_the_old_one_stays_abandoned(tmp_path):
    table, clock = clocked_table(tmp_path, [SeatSpec("Kim", KEYBOARD)])

    async def steps() -> None:
        await tap(table, clock)  # a game starts
        await until(lambda: table.game is not None)
        await tap(table, clock)  # Kim rolls
        await until(lambda: table.game.phase == "action1")
        first = table.games.referee.game_log.path
        await hold(table, clock)
        assert table.view().menu.lines[0] == "new game (ends this)"
        await hold(table, clock)  # "new game": asks
        confirm = TableView("menu", menu=MenuView(
            "New game?", ("The game on now ends", "unfinished; it stays", "in the history."),
            -1, ("tap: yes, start anew", "hold: no, go back"),
        ))  # fmt: skip
        assert main_display_shows(table, confirm)
        await hold(table, clock)  # no: back to the list, the game untouched
        assert table.button_menu.open.page == "list" and table.games.referee.game_log.path == first
        await hold(table, clock)
        await tap(table, clock)  # yes
        assert table.button_menu.open is None and table.games.referee.game_log.path != first
        assert table.game.phase == "roll" and len(Journal(tmp_path).games()) == 2
        why = "set aside unfinished game 1: Kim, classic (a new game was asked for on the menu)"
        assert why in table.newsfeed.lines

    run_table(table, steps)
    history = list(history_lines(tmp_path))
    assert "abandoned" in history[0] and "unfinished" in history[1]
    again, _ = clocked_table(tmp_path, [SeatSpec("Kim", KEYBOARD)])

    async def restart() -> None:
        assert (
            again.game is not None and again.games.referee.game_log.path.name == "game-000002.jsonl"
        )

    run_table(again, restart)


def test_the_menu_closes_by_itself_when_nobody_presses(tmp_path):
    table, clock = clocked_table(tmp_path, [SeatSpec("Kim", KEYBOARD)])

    async def steps() -> None:
        await hold(table, clock)
        assert table.view().screen == "menu"
        clock.advance(IDLE_SECONDS - 1)
        await asyncio.sleep(1.2)  # the table looks once a second
        assert table.button_menu.open is not None
        clock.advance(2)
        await until(lambda: table.button_menu.open is None)
        assert main_display_shows(table, table.view()) and table.view().screen == "setup"

    run_table(table, steps)


def test_computer_players_alone_at_a_kiosk_never_start_a_game_by_themselves(tmp_path):
    """At a kiosk (no autoplay) the table shows the variant, the seats and how to start, and
    waits: a press starts a game, the computer players play it, and no next one follows."""
    hardware = build_hardware(SIMULATED, 6)
    table = build_table(
        hardware, seats=[SeatSpec("Robo")], variant="classic", journal=Journal(tmp_path), pace=PACE
    )

    async def steps() -> None:
        await asyncio.sleep(30 * PACE)
        view = table.view()
        assert (view.screen, view.title, view.message) == ("setup", "Qwixx", "press to start")
        assert [seat.name for seat in view.seats] == ["Robo"] and table.game is None
        await press_roll_button(table)
        await until(lambda: table.game is not None and table.game.over)
        await asyncio.sleep(30 * PACE)
        assert len(Journal(tmp_path).games()) == 1

    run_table(table, steps)


def test_computer_players_alone_leave_time_to_join_from_a_phone_between_their_games(tmp_path):
    """`./dev run` seats computer players who play game after game; a newcomer's phone gets a
    moment between their games to scan the code and take a seat (a seated person stops the next
    computer game). A run that counts its games (`--games`) does not wait."""
    table = make_table(tmp_path, [SeatSpec("Ann"), SeatSpec("Ben")])
    assert table.planner.between.pause_between_games() == 3 * PACE  # no web server: no one can join
    table.join_address = ("http://127.0.0.1:8080/?code=1234", "1234")
    assert table.planner.between.pause_between_games() == 3 * PACE  # the first game starts at once
    table.phase = TablePhase.GAME_OVER
    assert table.planner.between.pause_between_games() == JOIN_WINDOW
    table.planner.between.games_wanted = 2
    assert table.planner.between.pause_between_games() == 3 * PACE
    table.hardware.close()


def test_computer_players_wait_while_the_menu_is_open(tmp_path):
    table, clock = clocked_table(tmp_path, [SeatSpec("Ann"), SeatSpec("Ben")])

    async def steps() -> None:
        await until(lambda: table.game is not None and len(table.newsfeed.lines) > 3)  # they play
        await hold(table, clock)
        played = table.games.referee.game_log.path.read_text()
        await asyncio.sleep(20 * PACE)
        assert table.games.referee.game_log.path.read_text() == played
        for _ in range(5):
            await tap(table, clock)
        await hold(table, clock)  # back
        await until(lambda: table.games.referee.game_log.path.read_text() != played)

    run_table(table, steps)


# ---- longo: lucky numbers before the game ----------------------------------------------------


def test_longo_with_a_pad_asks_for_lucky_numbers_and_starts_once_all_have_theirs(tmp_path):
    table, clock = clocked_table(tmp_path, [SeatSpec("Ann", PAD), SeatSpec("Bot")], "longo")

    async def steps() -> None:
        await tap(table, clock)
        assert table.game is None and table.view().screen == "lucky"
        view = table.view()
        assert view.waiting_for == ("Ann",) and len(view.seats[1].lucky) == 2  # Bot's drawn
        assert table.decide(LuckyNumber("Ann", 17)).reason == (
            "lucky numbers go from 2 to 16; 17 is not one"
        )
        assert table.decide(LuckyNumber("Ann", 5)) is None
        assert table.view().seats[0].lucky == (5,)
        assert table.decide(LuckyNumber("Ann", 5)).reason == (
            "5 is already your lucky number: choose a different one"
        )
        assert table.decide(Mark("Ann", "red", 5)).kind == "not now"
        assert table.decide(Undo("Ann")) is None
        assert table.view().seats[0].lucky == ()
        assert table.decide(LuckyNumber("Ann", 9)) is None
        assert Journal(tmp_path).games() == []  # nothing journalled before all have numbers
        assert table.decide(LuckyNumber("Ann", 14)) is None
        assert table.game is not None and table.game.phase == "roll"
        start = json.loads(table.games.referee.game_log.path.read_text().splitlines()[0])
        assert start["lucky"]["Ann"] == [9, 14]
        bot = start["lucky"]["Bot"]
        assert len(set(bot)) == 2 and all(2 <= n <= 16 for n in bot)

    run_table(table, steps)


def test_a_tap_of_the_roll_button_draws_the_missing_lucky_numbers_and_starts(tmp_path):
    table, clock = clocked_table(tmp_path, [SeatSpec("Ann", PAD), SeatSpec("Ben", PAD)], "longo")

    async def steps() -> None:
        await tap(table, clock)
        assert table.decide(LuckyNumber("Ann", 3)) is None
        assert main_display_shows(table, table.view())
        await tap(table, clock)  # nobody is kept waiting
        assert table.game is not None
        assert table.game.player("Ann").lucky[0] == 3 and len(table.game.player("Ben").lucky) == 2

    run_table(table, steps)


def test_a_restart_while_lucky_numbers_are_entered_does_not_resume_the_abandoned_game(tmp_path):
    table, clock = clocked_table(tmp_path, [SeatSpec("Ann", PAD)], "longo")

    async def steps() -> None:
        await tap(table, clock)
        await tap(table, clock)  # drawn: a game on
        await until(lambda: table.game is not None)
        await hold(table, clock)
        await hold(table, clock)
        await tap(table, clock)  # a new game: its lucky numbers are being entered
        assert table.draft is not None

    run_table(table, steps)
    again, _ = clocked_table(tmp_path, [SeatSpec("Ann", PAD)], "longo")

    async def restart() -> None:
        assert again.game is None and again.view().screen == "lucky"  # the new game's step

    run_table(again, restart)


def test_lucky_numbers_chosen_before_a_pulled_plug_are_still_chosen_after_it(tmp_path):
    seats = [SeatSpec("Ann", PAD), SeatSpec("Ben", PAD), SeatSpec("Bot")]
    table, clock = clocked_table(tmp_path, seats, "longo")

    async def choose_some() -> None:
        await tap(table, clock)
        table.doors.give_pad("Ann", "pad-A")  # Ann's pad said hello
        assert table.decide(LuckyNumber("Ann", 4)) is None
        assert table.decide(LuckyNumber("Ann", 11)) is None
        assert table.decide(LuckyNumber("Ben", 7)) is None

    run_table(table, choose_some)
    bot = table.draft.chosen["Bot"]
    again, _ = clocked_table(tmp_path, [SeatSpec("Ann", PAD)], "classic")  # the configuration

    async def go_on() -> None:
        view = again.view()
        assert view.screen == "lucky" and view.waiting_for == ("Ben",)
        assert [seat.lucky for seat in view.seats] == [(4, 11), (7,), tuple(bot)]
        assert again.seating.seats == [
            SeatSpec("Ann", PAD, "pad-A"),
            SeatSpec("Ben", PAD),
            seats[2],
        ]
        assert main_display_shows(again, view)
        assert again.decide(LuckyNumber("Ben", 12)) is None
        assert again.game is not None
        start = json.loads(again.games.referee.game_log.path.read_text().splitlines()[0])
        assert start["lucky"] == {"Ann": [4, 11], "Ben": [7, 12], "Bot": bot}

    run_table(again, go_on)
    after_the_start, _ = clocked_table(tmp_path, [SeatSpec("Ann", PAD)], "classic")

    async def resumes_the_game() -> None:  # the numbers are in its log now; no lucky step
        assert after_the_start.draft is None
        assert after_the_start.games.referee.game_log.path == again.games.referee.game_log.path

    run_table(after_the_start, resumes_the_game)


def test_an_unreadable_note_of_lucky_numbers_is_reported_and_the_tower_starts_afresh(tmp_path):
    (tmp_path / "lucky-draft.json").write_text('{"variant": "longo", "seats": [{"nam')
    table, clock = clocked_table(tmp_path, [SeatSpec("Ann", PAD)], "longo")

    async def starts() -> None:
        assert table.draft is None and table.screen == "setup"
        words = "The lucky numbers chosen before the restart are lost: choose them again"
        assert table.view().message == words  # on the displays for a few seconds
        clock.advance(ALERT_SECONDS)
        await tap(table, clock)  # a new game asks for the numbers again
        assert table.draft is not None and table.view().screen == "lucky"

    run_table(table, starts)


def test_the_console_holds_the_button_with_h_and_shows_the_menu_it_opens(tmp_path):
    """The terminal view draws the displays' frames, so the menu shows there as on the OLED."""
    from firmware_py.show.terminal import braille, framed

    hardware = build_hardware(SIMULATED, 6)
    table = build_table(
        hardware,
        seats=[SeatSpec("Kim", KEYBOARD)],
        variant="classic",
        journal=Journal(tmp_path),
        pace=PACE,
        long_press=0.3,
    )
    console, keys = attach_terminal(table, table.hardware, full_screen=False, out=io.StringIO())

    async def steps() -> None:
        keys.answer("h")
        await until(lambda: table.button_menu.open is not None)
        await asyncio.sleep(0.2)  # the button is let go
        panel = framed(braille(render(table.view(), "main")), "main display")
        lines = console.screen_lines(columns=140, rows=60)  # room for both displays
        assert [line[: len(panel[0])] for line in lines[: len(panel)]] == panel
        assert table.view().menu.title == "Menu"

    run_table(table, steps)


def test_after_a_restart_every_player_decides_as_before_the_plug_was_pulled(tmp_path):
    """Seats the configuration does not name (a pad that joined, a computer player the menu
    added) keep their kind: no computer takes over a person's sheet, nobody waits for a pad
    that a computer player never had."""
    seats = [SeatSpec("Kim", KEYBOARD), SeatSpec("Pat", PAD), SeatSpec("Computer 1", COMPUTER)]
    table, clock = clocked_table(tmp_path, seats)

    async def start_a_game() -> None:
        await tap(table, clock)
        await until(lambda: table.game is not None)

    run_table(table, start_a_game)
    configured = [SeatSpec("Kim", KEYBOARD)]  # what the configuration file says
    again, _ = clocked_table(tmp_path, configured)

    async def resumed() -> None:
        assert again.games.referee.game_log.path == table.games.referee.game_log.path
        assert again.seating.seats == seats

    run_table(again, resumed)
    table.games.referee.game_log.path.with_suffix(
        ".seats.json"
    ).unlink()  # a game from before the note
    unknown, _ = clocked_table(tmp_path, configured)

    async def resumed_without_the_note() -> None:
        assert [seat.kind for seat in unknown.seating.seats] == [
            KEYBOARD,
            PAD,
            PAD,
        ]  # a pad, likeliest

    run_table(unknown, resumed_without_the_note)


# ---- the table's phases ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", sheet_names())
def test_a_whole_game_moves_only_along_the_table_s_transitions(tmp_path, variant, caplog):
    """Every phase a presenter sees follows from the one before (phase.TRANSITIONS), and an
    evening of computer players goes attract, roll, rolling, actions, ..., game over."""
    table = make_table(tmp_path, [SeatSpec(name) for name in ("Ann", "Ben")], variant)
    seen: list[TablePhase] = []
    table.subscribe(lambda view: seen.append(view.phase) if view.phase not in seen[-1:] else None)
    asyncio.run(asyncio.wait_for(table.run(games=1), timeout=HANG))
    table.hardware.close()
    assert seen[0] == TablePhase.ATTRACT and seen[-1] == TablePhase.GAME_OVER
    assert {TablePhase.ROLL, TablePhase.ROLLING, TablePhase.ACTION1, TablePhase.ACTION2} <= set(
        seen
    )
    for old, new in pairwise(seen):
        assert can_move(old, new), f"{old} -> {new}"
    assert "never should" not in caplog.text


def test_a_second_press_while_the_dice_roll_rolls_once(tmp_path):
    """Pressing again before the dice have landed does not roll a second time."""
    table, clock = clocked_table(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Lea", KEYBOARD)])

    async def steps() -> None:
        await tap(table, clock)  # a new game
        table.press()  # roll ...
        assert table.phase == TablePhase.ROLLING
        table.press()  # ... and again, while the dice are on their way
        await until(lambda: table.game.phase == "action1")
        await asyncio.sleep(table.settings.pace)  # time for a second animation to end, if one began
        log = Journal(tmp_path).games()[-1].read_text()
        assert log.count('"event": "roll"') == 1

    run_table(table, steps)


def test_the_dice_roll_for_half_the_pace_and_never_longer_than_0_4_seconds():
    """--pace is how long computer players think. At --pace 30 a press once rolled the dice for
    15 s (frames of pace / 8); slow thinkers no longer slow the dice. At the default pace (0.6)
    the dice roll as before, and at --pace 0 they land at once."""
    assert ROLL_FRAMES * frame_seconds(0.6) == pytest.approx(0.3)
    assert ROLL_FRAMES * frame_seconds(30) == pytest.approx(0.4)
    assert frame_seconds(0) == 0


def test_a_frame_whose_time_passed_on_a_slow_display_is_dropped_not_shown_late(tmp_path):
    """Displays that take one and a half frames to show each frame (a slow bus): the frames
    that cannot be shown in their time are left out, in order, and the dice land, instead of
    every frame waiting its turn before the result (issue 43)."""
    table, clock = clocked_table(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Lea", KEYBOARD)])
    frame = frame_seconds(table.settings.pace)
    shown: list[int] = []

    def slow_display(view: TableView) -> None:
        if view.phase == "rolling":
            shown.append(view.frame)
            time.sleep(frame * 1.5)  # the bus holds the loop, as a synchronous write does

    table.subscribe(slow_display)

    async def steps() -> None:
        await tap(table, clock)
        table.press()
        await until(lambda: table.game.phase == "action1")
        assert shown == sorted(shown) and shown[0] == 0
        assert len(shown) < ROLL_FRAMES and table.roller.dropped == ROLL_FRAMES - len(shown)

    assert frame > 0
    run_table(table, steps)


def test_news_and_changes_during_a_roll_do_not_stop_the_dice(tmp_path):
    """A pad joining the news, an alert or any change published while the dice roll leaves
    the roll's animation running: the dice land (the timers belong to the rolling phase)."""
    table, clock = clocked_table(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Lea", KEYBOARD)])

    async def steps() -> None:
        await tap(table, clock)
        table.press()
        table.newsfeed.say("Kim's pad is here")
        table.newsfeed.alert("the options display does not answer: check its wires")
        table.publish()
        await until(lambda: table.game.phase == "action1")
        assert table.phase == TablePhase.ACTION1

    run_table(table, steps)


def test_opening_the_menu_ends_the_timers_of_the_moment_it_interrupts(tmp_path):
    """A computer player's decision that was due does not happen behind the open menu; when
    the menu closes, the table goes on where it was."""
    table, clock = clocked_table(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Bot")])

    async def steps() -> None:
        await tap(table, clock)
        table.submit(Roll((3, 4), {"red": 1, "yellow": 2, "green": 3, "blue": 4}))
        table.long_press_menu()  # the menu opens before Bot has decided
        assert table.phase == TablePhase.MENU
        await asyncio.sleep(table.settings.pace * 3)
        assert table.game.waiting_for() == ["Kim", "Bot"]  # Bot waits with the table
        for _ in range(5):
            table.press()  # new game, variant, players, level, name a pad, back
        table.long_press_menu()  # back: the menu closes
        assert table.phase == TablePhase.ACTION1
        await until(lambda: table.game.waiting_for() == ["Kim"])

    run_table(table, steps)


def test_the_news_keeps_its_last_lines_and_the_terminal_prints_each_once(tmp_path):
    """A kiosk runs for years: the table keeps the last NEWS_KEPT lines of news, and the plain
    terminal still prints every line told, once."""
    table = make_table(tmp_path, [SeatSpec("Kim", KEYBOARD)])
    out = io.StringIO()
    attach_terminal(table, table.hardware, full_screen=False, out=out)
    told = [f"news {n}" for n in range(NEWS_KEPT + 50)]
    for words in told:
        table.newsfeed.say(words)
    assert list(table.newsfeed.lines) == told[-NEWS_KEPT:]
    assert out.getvalue().splitlines() == told
    table.hardware.close()


@pytest.mark.parametrize("idle", [301.0, 1801.0], ids=["dimmed", "blank"])
def test_a_press_on_a_resting_display_only_wakes_it(tmp_path, idle):
    """Issue 22: one press on a dimmed display started the next game at once, before anyone
    could read the scores. The first press wakes the displays; the next one starts."""
    now = [0.0]
    hardware, table = kim_at_a_table_that_rests(tmp_path, now)
    now[0] = idle
    table.screens.rest()
    table.long_press_menu()
    assert (
        table.button_menu.open is None and table.screens.power.state == "on"
    )  # no menu: the displays wake
    now[0] += idle
    table.screens.rest()
    table.press()
    assert table.game is None and table.screens.power.state == "on"
    table.press()
    assert table.game is not None
    hardware.close()


@pytest.mark.parametrize("off", ["idle_dim", "idle_blank"])
def test_an_idle_time_of_0_never_rests_the_displays_and_the_button_still_plays(tmp_path, off):
    """`idle_dim = 0` or `idle_blank = 0` (allowed, from 0 to 86400) kept the displays dimmed
    or dark from the start, and every press of the roll button only woke them: no game could
    start. 0 means never, as for the configuration's other times."""
    now = [0.0]
    hardware, table = kim_at_a_table_that_rests(tmp_path, now, **{off: 0})
    table.screens.rest()
    assert table.screens.power.state == "on"
    table.press()
    assert table.game is not None, "the press started a game"
    hardware.close()


def test_after_a_game_the_main_display_takes_turns_showing_the_scores_and_the_join_code(
    tmp_path,
):
    """Issue 22: the QR code was never seen between two games. After game over the main
    display shows the scores and how to start, then the QR code and the table code."""
    import zxingcpp

    from firmware_py.table.core import LOCK_NOTICE_SECONDS
    from firmware_py.table.showing import PAGE_SECONDS

    played = recording_game("classic", ("Kim", "Lee"))
    build(played, {"Kim": [("red", n) for n in (2, 3, 4, 5, 6, 12)],
                   "Lee": [("green", n) for n in (12, 11, 10, 9, 8, 2)]})  # fmt: skip
    table, clock = clocked_table(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Lee", KEYBOARD)])
    url = "http://192.168.1.20:8080/?code=4821"
    table.join_address = (url, "4821")

    def codes_on_main() -> list[str]:
        image = table.hardware.displays["main"].device.image
        return [found.text for found in zxingcpp.read_barcodes(image.convert("L"))]

    async def steps() -> None:
        await tap(table, clock)
        for event in played.log[1:]:
            assert table.submit(event) is None
        clock.advance(LOCK_NOTICE_SECONDS)  # the last lock's notice ends
        await until(lambda: table.phase is TablePhase.GAME_OVER)
        seen = set()
        for _page in range(3):  # the winner, the scores, the code
            await until(lambda: table.view().screen == "over" and main_display_shows(
                table, table.view()))  # fmt: skip
            seen.add(tuple(codes_on_main()))
            clock.advance(PAGE_SECONDS)
        assert seen == {(), (url,)}  # the scores, and the code to scan

    run_table(table, steps)
