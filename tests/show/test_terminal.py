"""The simulated tower in a terminal, as a person meets it: `qwixx-tower run` as a real process
on a pseudo-terminal, its screen read through a terminal emulator (pyte)."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import time
from dataclasses import replace

from gpiozero.pins import Pin
from support import HANG
from support.table import make_table
from support.terminal import TowerTerminal, carried_on_at_80x24
from support.views import VIEWS

from drivers.button import RollButton
from firmware_py.app.assembly import attach_terminal
from firmware_py.journal.journal import Journal
from firmware_py.rules import Mark, Pass, Roll
from firmware_py.seating import KEYBOARD, SeatSpec
from firmware_py.seats.keyboard import REAL_BUTTON
from firmware_py.show.terminal import ALTERNATE_SCREEN, MAIN_SCREEN, status_lines
from firmware_py.table.news_words import mark_words
from firmware_py.view import Seat, TableView


def test_end_of_input_on_the_keyboard_presses_nothing_and_the_tower_goes_on(tmp_path):
    """Ctrl-D used to press the roll button (an empty line); now the keyboard is closed."""
    tower = TowerTerminal(["--human", "Ann", "--pace", "0.05", "--state-dir", str(tmp_path)])
    try:
        tower.wait_for("press to start")
        tower.type("\x04")  # Ctrl-D: end of input
        tower.wait_for("the keyboard is closed")
        time.sleep(0.5)
        tower.read()
        assert tower.text().count("the keyboard is closed") == 1  # said once, not in 3 places
        assert Journal(tmp_path).games() == []  # no game was started by it
        assert tower.process.poll() is None  # the tower goes on
    finally:
        assert tower.stop() == 0


def prompt_line(tower: TowerTerminal) -> str:
    """The last line on screen that is not blank: the keyboard seat's prompt."""
    return [line for line in tower.screen.display if line.strip()][-1].rstrip()


def first_offered(white: int) -> str:
    """The first cross offered for the white sum on an empty classic sheet: in red; but 12 is
    red's last cell, crossed only to lock a row with five crosses before it (classic rules),
    so for 6 + 6 green leads."""
    return f"red {white}" if white < 12 else f"green {white}"


def test_in_80x24_a_keyboard_player_sees_the_sum_the_turn_the_options_and_can_undo(tmp_path):
    """Ben at the keyboard, Ann and Cleo computer players: before Ben decides, his prompt
    offers no undo (issue 39: it offered one, then refused it); after he passes in action 1
    it stays and offers undo while the others decide, and undo works there as on a pad."""
    tower = TowerTerminal(["--human", "Ben", "--pace", "4", "--state-dir", str(tmp_path)],
                          columns=80, lines=24)  # fmt: skip
    try:
        tower.wait_for("press to start")
        tower.type("\n")  # the roll button: a new game; Ann rolls by herself
        screen = tower.wait_for("[p] pass  >", timeout=HANG)
        assert prompt_line(tower) == "[p] pass  >"  # nothing decided: nothing to undo
        tower.type("u\n")
        tower.wait_for("type the number of a mark or p to pass")
        assert "refused" not in tower.text()
        game = Journal(tmp_path).games()[0].read_text().splitlines()
        white = json.loads(game[1])["dice"]["white"]
        assert f"white {white[0]}+{white[1]} = {sum(white)}" in screen
        assert "Ann's roll" in screen
        assert f"Ben, action 1: [1] {first_offered(sum(white))}" in screen
        tower.type("p\n")
        tower.wait_for("Ben, action 1: you passed; the others decide")
        assert prompt_line(tower) == "[u] undo  >"
        tower.type("u\n")
        tower.wait_for("Ben takes it back")
        tower.wait_for(f"Ben, action 1: [1] {first_offered(sum(white))}")
        assert tower.scrolled_lines() == 0
        assert b"\x1b[2J" not in tower.raw  # redrawn in place, never cleared
    finally:
        tower.stop()


def test_a_whole_game_in_80x24_never_floods_the_scrollback(tmp_path):
    tower = TowerTerminal(["--pace", "0.01", "--games", "1", "--state-dir", str(tmp_path)])
    tower.wait_for("Game over")
    assert tower.wait_for_end(timeout=HANG) == 0
    tower.stop()
    assert tower.scrolled_lines() == 0
    assert b"Game over" in tower.raw.rpartition(b"\x1b[?1049l")[2]  # left in the terminal


def test_a_larger_terminal_shows_both_displays_and_the_sheets(tmp_path):
    tower = TowerTerminal(["--human", "Ann", "--pace", "4", "--state-dir", str(tmp_path)],
                          columns=140, lines=50)  # fmt: skip
    try:
        tower.wait_for("press to start")
        tower.type("\n")
        tower.wait_for("Ann rolls next")
        tower.type("\n")
        screen = tower.wait_for("[p] pass", timeout=HANG)
        assert "main display" in screen and "options display" in screen
        assert "lock lights:" in screen
        assert ">Ann          0  R:- Y:- G:- B:-  penalties 0" in screen
    finally:
        tower.stop()


def test_plain_prints_the_options_and_the_prompt_of_a_keyboard_seat(tmp_path):
    tower = TowerTerminal(["--plain", "--human", "Ann", "--pace", "4",
                           "--state-dir", str(tmp_path)])  # fmt: skip
    try:
        shown = [line for line in tower.wait_for("press to start").splitlines()
                 if not line.startswith(("Phones join at ", "Table code "))
                 and "is in use by another program" not in line]  # 8080 taken: fine  # fmt: skip
        assert shown[:2] == ["Qwixx: Ann, Ben, Cleo".ljust(80), "press to start".ljust(80)]
        tower.type("\n")
        tower.wait_for("New game of Qwixx")
        tower.type("\n")
        tower.wait_for("Ann rolls white", timeout=HANG)
        text = tower.wait_for("[p] pass  >")
        question = [line for line in text.splitlines() if line.startswith("Ann, action 1: ")]
        rolled = re.search(r"Ann rolls white (\d)\+(\d)", text)
        assert rolled, text
        first = first_offered(int(rolled[1]) + int(rolled[2]))
        assert question and question[0].startswith(f"Ann, action 1: [1] {first} "), text
    finally:
        tower.stop()


def test_the_two_bonus_b_choices_of_one_cell_read_differently_at_the_keyboard(tmp_path):
    """Bonus B (seeds 000, 002), circle: with red and blue tied for the fewest crosses, green 9
    is offered twice. The keyboard player reads where each one's bonus crosses go, in the
    news's words, and the number typed picks that one."""
    table = make_table(tmp_path, [SeatSpec("Ann", KEYBOARD)], "bonus-b")
    console, keys = attach_terminal(table, table.hardware, full_screen=False, out=io.StringIO())
    table.new_game()
    table.submit(Roll((5, 6), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
    assert table.decide(Mark("Ann", "yellow", 11)) is None
    assert table.decide(Pass("Ann")) is None  # action 2
    table.submit(Roll((5, 4), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
    prompt = " ".join(console._question_lines(200))
    assert "green 9 → 2 in red" in prompt and "green 9 → 2 in blue" in prompt
    choices = [mark_words(mark) for mark in keys.options]
    keys.answer(str(choices.index("green 9 → 2 in blue") + 1))
    assert table.newsfeed.lines[-1] == "Ann crosses green 9 and earns 2 bonus crosses in blue"
    table.hardware.close()


def test_enter_beside_a_real_roll_button_says_to_press_it_and_raises_nothing(tmp_path):
    """`run --config` on a Pi from a terminal: the button's pins are the Pi's (gpiozero's
    base Pin here: no drive_low), so Enter cannot press it; it says so instead of a traceback."""

    class PiPins:
        def pin(self, number: int) -> Pin:
            return Pin()

    table = make_table(tmp_path, [SeatSpec("Kim", KEYBOARD)])
    simulated, table.hardware.button_factory = table.hardware.button_factory, PiPins()
    try:
        _, keys = attach_terminal(table, table.hardware, full_screen=False, out=io.StringIO())
        asyncio.run(keys.press_button())
        assert table.newsfeed.lines[-1] == REAL_BUTTON
    finally:
        table.hardware.button_factory = simulated
        table.hardware.close()


def test_enter_typed_twice_at_once_presses_the_roll_button_twice(tmp_path):
    """Two Enters typed while the first press still holds the simulated button down (a busy
    machine makes a press last): each is a press of its own, not one lost in the other."""
    table = make_table(tmp_path, [SeatSpec("Kim", KEYBOARD)])
    hardware = table.hardware
    presses: list[str] = []
    button = RollButton(hardware.button_pin, on_press=lambda: presses.append("press"),
                        debounce_time=hardware.button_debounce,
                        pin_factory=hardware.button_factory)  # fmt: skip
    _, keys = attach_terminal(table, hardware, full_screen=False, out=io.StringIO())

    async def type_twice() -> None:
        await asyncio.gather(keys.press_button(), keys.press_button())

    try:
        asyncio.run(asyncio.wait_for(type_twice(), timeout=HANG))
        assert presses == ["press", "press"]
    finally:
        button.close()
        hardware.close()


def test_wide_letters_in_a_name_keep_the_score_column_in_line(tmp_path):
    """Issue 24: a Chinese name takes two terminal cells a letter, and pushed its total (and
    the rest of its line) out of the column the others' totals stand in."""
    import pyte

    names = ["李雷", "Ann", "Łukasz", "王小明明明明明"]  # the last is cut: 14 cells
    table = make_table(tmp_path, [SeatSpec(name, KEYBOARD) for name in names])
    table.new_game()
    console, _ = attach_terminal(table, table.hardware, out=io.StringIO(), full_screen=False)
    console.refresh(table.view())
    screen = pyte.Screen(100, len(names))
    pyte.Stream(screen).feed("\r\n".join(console._seat_lines(100)))
    for row in range(len(names)):
        cells = [screen.buffer[row][x].data for x in range(16)]
        assert cells[11:16] == [" ", " ", " ", "0", " "], (names[row], cells)


def test_after_a_restart_in_action_1_a_player_who_marked_is_offered_undo_not_pass(tmp_path):
    """Issue 24: the prompt offered 'nothing to cross [p] pass' to a player who had marked
    before the restart, and refused the p it offered."""
    from support.table import run_table

    from firmware_py.rules import Start

    journal = Journal(tmp_path)
    with journal.begin(Start("classic", ("Ann", "Bot"))) as game_log:
        game_log.append(Roll((3, 4), {"red": 1, "yellow": 2, "green": 3, "blue": 4}))
        game_log.append(Mark("Ann", "red", 7))
        journal.note_seats(game_log.path, [SeatSpec("Ann", KEYBOARD), SeatSpec("Bot")])
    table = make_table(tmp_path, [])
    table.settings = replace(table.settings, pace=60)  # Bot waits
    console, _ = attach_terminal(table, table.hardware, out=io.StringIO(), full_screen=False)

    async def steps() -> None:
        assert console._question_lines(80) == [
            "Ann, action 1: you crossed a number; the others decide",
            "[u] undo  > ",
        ]

    run_table(table, steps)


def test_in_action_2_the_prompt_offers_no_undo_which_could_never_succeed(tmp_path):
    table = make_table(tmp_path, [SeatSpec("Ann", KEYBOARD)])
    table.new_game()
    assert table.submit(Roll((3, 4), {"red": 1, "yellow": 2, "green": 3, "blue": 4})) is None
    assert table.submit(Pass("Ann")) is None  # alone at the table: action 2 follows
    console, keys = attach_terminal(table, table.hardware, out=io.StringIO(), full_screen=False)
    keys.see(table.view())
    console.refresh(table.view())
    assert table.game.phase == "action2"
    assert console._question_lines(80)[-1] == "[p] pass  > "


def test_at_80_columns_a_long_refusal_is_shown_whole(tmp_path):
    table = make_table(tmp_path, [SeatSpec("Ann", KEYBOARD), SeatSpec("Ben", KEYBOARD)])
    table.new_game()
    assert table.submit(Roll((3, 4), {"red": 1, "yellow": 2, "green": 3, "blue": 4})) is None
    console, _ = attach_terminal(table, table.hardware, out=io.StringIO(), full_screen=False)
    words = ("refused: Ann has already marked in action 1 of this turn (undo takes it back), "
             "and this is the point at the end of a long refusal")  # fmt: skip
    table.newsfeed.say(words)
    news = [line for line in console.screen_lines(80, 24) if line not in console._status_lines()]
    assert words in " ".join(news) and all(len(line) <= 80 for line in news if "refused" in line)


def test_the_hint_how_to_play_stays_under_the_drawn_tower_while_the_news_scrolls(tmp_path):
    tower = TowerTerminal(["--pace", "0.01", "--state-dir", str(tmp_path)])  # plays on
    try:
        tower.wait_for("Game over")  # a whole game of news later
        assert "run with --human Ann to play" in tower.text()
    finally:
        tower.stop()


def test_a_change_after_the_console_closed_leaves_the_terminal_on_its_main_screen(tmp_path):
    """The demo closes its console, then its pads' hub: a pad's last frame changed the table
    and was drawn, which took the terminal back into the alternate screen after the tower had
    left it (the final scores printed after it were lost, and the terminal left switched)."""
    table = make_table(tmp_path, [SeatSpec("Ann"), SeatSpec("Ben")])
    out = io.StringIO()
    size = lambda: os.terminal_size((80, 24))  # noqa: E731
    console, _ = attach_terminal(table, table.hardware, full_screen=True, out=out, size=size)
    table.new_game()
    console.close()
    left_at = out.getvalue().rindex(MAIN_SCREEN)
    table.newsfeed.say("Ann's pad has left")  # a change at the table after the console closed
    table.submit(Roll((3, 4), {"red": 1, "yellow": 2, "green": 3, "blue": 4}))
    assert ALTERNATE_SCREEN not in out.getvalue()[left_at:]
    assert out.getvalue().endswith("\n")  # the last news, left in the terminal
    table.hardware.close()


def test_the_drawn_terminal_says_whose_device_has_gone_while_the_table_waits_for_them():
    """Issue 39: under "waiting for Leo", that Leo's phone has gone and what a press does."""
    words = "Leo's phone has gone: press the roll button to play on without Leo"
    assert status_lines(replace(VIEWS["action1"], absent=words))[-1] == words
    assert words not in status_lines(VIEWS["action1"])


def test_at_80_columns_a_sheet_counted_reads_as_crosses_not_as_numbers(tmp_path):
    """Issue 39: where the numbers crossed do not fit, the sheet line counted them as "R:6",
    which reads as the red 6 (to the eye and to a screen reader). Ann, at the keyboard, has
    crossed 19 numbers in a game carried on from the journal: at 80 columns her line says how
    many crosses each row has, in words."""
    from support.rules import cross, recording_game

    game = recording_game(players=("Ann",))
    rows = {
        "red": range(2, 8),
        "yellow": range(2, 7),
        "green": range(12, 7, -1),
        "blue": (12, 11, 10),
    }
    cross(game, "Ann", *[(row, number) for row, numbers in rows.items() for number in numbers])
    tower = carried_on_at_80x24(tmp_path, game)
    try:
        screen = tower.wait_for("penalties")
        (line,) = [line.rstrip() for line in screen.splitlines() if "penalties" in line]
        total = game.total("Ann")
        assert line == (f">{'Ann':<10}{total:>4}  crosses 6 red, 5 yellow, 5 green, 3 blue  "
                        f"penalties {game.player('Ann').penalties}")  # fmt: skip
    finally:
        tower.stop()


def test_at_80x24_a_big_points_sheet_line_names_the_bonus_rows_by_their_letters(tmp_path):
    """Qwixx Big Points (docs/rules.md): Ann at the keyboard has crossed red 5 and the red-yellow
    box 5 in a game carried on from the journal; her sheet line names the bonus rows by their
    letters ("RY:5") beside the colour rows, within 80 columns."""
    from support.rules import recording_game

    game = recording_game("big-points", players=("Ann",))
    for event in (
        Roll((4, 1), {"red": 1, "yellow": 1, "green": 1, "blue": 1}),
        Mark("Ann", "red", 5),
        Pass("Ann"),
        Roll((3, 2), {"red": 1, "yellow": 1, "green": 1, "blue": 1}),
        Mark("Ann", "red-yellow", 5),
        Mark("Ann", "green", 4),  # white 3 + green 1
    ):
        game.apply(event)
    tower = carried_on_at_80x24(tmp_path, game)
    try:
        screen = tower.wait_for("penalties")
        (line,) = [line.rstrip() for line in screen.splitlines() if "penalties" in line]
        assert "R:5 Y:- G:4 B:- RY:5 GB:-" in line and len(line) <= 80
        assert f"{game.total('Ann'):>4}" in line  # red counts 2 crosses, yellow 1, green 1
    finally:
        tower.stop()


def test_at_80x24_the_kiosk_shows_where_phones_join_under_both_displays(tmp_path):
    """A newcomer's 80x24 terminal on a kiosk configuration: under the displays and the lock
    lights, the line that says where phones join and the code to type (the issue-39 code
    line made the join footer two lines, which did not fit, and the address was gone)."""
    config = tmp_path / "config.toml"
    config.write_text('[web]\nhost = "127.0.0.1"\nport = 8080\n')  # ($QWIXX_WEB_PORT: a free one)
    tower = TowerTerminal(["--config", str(config), "--state-dir", str(tmp_path)], columns=80,
                          lines=24)  # fmt: skip
    try:
        screen = tower.wait_for("Phones join at ")
        (line,) = [line.rstrip() for line in screen.splitlines() if "Phones join at" in line]
        assert re.fullmatch(r"Phones join at http://\S+ \(table code \d{4}\)", line), line
        assert "main display" in screen and "lock lights" in screen
    finally:
        tower.stop()


def test_the_terminal_names_a_computer_seats_level_beside_its_name_before_a_game():
    """README, "Computer players": a level chosen is shown beside the seat's name. The
    displays drew "Ada (hard)"; the terminal's line said only "Qwixx: Robo, Ada"."""
    seats = (Seat("Robo"), Seat("Ada", level="hard"))
    view = TableView("attract", title="Qwixx", seats=seats, message="press to start")
    assert status_lines(view) == ["Qwixx: Robo, Ada (hard)", "press to start"]
