"""The robot finger and the pad's button logic, on the real STATE of real games of every variant:
for every mark the rules allow, the robot's presses make a PadApp send exactly that mark."""

from __future__ import annotations

import random

import pytest
from support.table import make_table

from drivers.dice import SoftwareDice
from firmware_py.lucky import LuckyDraft
from firmware_py.pad import padapp, padscreen, protocol, robot
from firmware_py.players.thumb import choose
from firmware_py.rules import ACTION1, ACTION2, ROLL, Game, Mark, Pass, Roll, Start
from firmware_py.seats.pads import join_state, lucky_state_fields, state_fields
from sheets import load_sheet, sheet_names


def played_states(variant: str, seed: int, turns: int = 30):
    """(game, name, STATE fields) at every decision of a random game of two computer players."""
    rnd = random.Random(seed)
    names = ("Ann", "Ben")
    sheet = load_sheet(variant)
    lucky = None
    if sheet.has_lucky_numbers:
        lucky = {n: tuple(rnd.sample(range(2, 17), 2)) for n in names}
    game = Game.start(Start(variant, names, lucky))
    for _ in range(turns):
        if game.over:
            return
        if game.phase == ROLL:
            faces = sheet.dice_faces
            colours = {c: rnd.randint(1, faces) for c in game.dice_in_play()}
            game.apply(Roll((rnd.randint(1, faces), rnd.randint(1, faces)), colours))
            continue
        for name in list(game.waiting_for()):
            if game.phase in (ACTION1, ACTION2) and name in game.waiting_for():
                yield game, name, state_fields(game, name)
                game.apply(choose(game, name))


def request_of(mark: Mark) -> dict:
    return robot.mark(
        mark.row, mark.number, lucky=mark.lucky, choice=mark.choice, swap=mark.swap or 0
    )


@pytest.mark.parametrize("variant", sheet_names())
def test_robot_presses_make_the_pad_send_every_legal_mark(variant):
    checked = 0
    for seed in range(3):
        for game, name, state in played_states(variant, seed):
            for mark in game.legal_marks(name):
                request = request_of(mark)
                commands = robot.presses(state, request)
                assert robot.simulate(state, commands) == [request], (commands, state)
                checked += 1
    assert checked > 20


@pytest.mark.parametrize("variant", ["classic", "longo"])
def test_robot_passes_with_a_hold_and_a_tap_of_pass_never_passes(variant):
    state = next(played_states(variant, 1))[2]
    assert state["flags"] & protocol.MAY_PASS
    assert robot.simulate(state, robot.presses(state, {"action": protocol.PASS})) == [
        {"action": protocol.PASS, "row": 0, "number": 0, "flags": 0, "choice": 0}
    ]
    assert robot.simulate(state, ["tap pass", "tap pass"]) == []


def test_colour_button_in_action2_steps_through_the_moves_of_that_die_colour():
    """Mixx-a: a colour die crosses cells of its colour in any row. Whites 1 and 5, blue 5 make
    6 and 10: the blue cells with those numbers are red 6 and green 10."""
    game = Game.start(Start("mixx-a", ("Ann",)))
    game.apply(Roll((1, 5), {"red": 1, "yellow": 1, "green": 1, "blue": 5}))
    game.apply(Pass("Ann"))
    state = state_fields(game, "Ann")
    assert state["phase"] == padapp.PHASE_ACTION2
    blue = [(m["row"], m["number"]) for m in padapp.moves_for(state, 4)]
    assert blue == [(1, 6), (3, 10)]
    pad = padapp.PadApp(lambda data: None, "t", 1, 0)
    pad.receive(protocol.encode("state", 1, state), 0)
    shown = []
    for step in range(3):
        pad.sample(1 << 3, step * 100)
        pad.sample(0, step * 100 + 50)
        shown.append(padscreen.render(pad)[6])
    assert shown == ["> R 6 b-die", "> G 10 b-die", "> R 6 b-die"]


def bonus_b_choice_game() -> Game:
    """Ann has crossed yellow 11; green 9 now completes the circle (two crosses in the row with
    the fewest crosses), and red and blue tie with none: the mark needs a choice of row."""
    game = Game.start(Start("bonus-b", ("Ann",)))
    game.apply(Roll((5, 6), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
    game.apply(Mark("Ann", "yellow", 11))
    game.apply(Pass("Ann"))
    game.apply(Roll((4, 5), {"red": 1, "yellow": 1, "green": 1, "blue": 1}))
    return game


@pytest.mark.parametrize("choice", ["red", "blue"])
def test_a_mark_that_needs_a_row_asks_for_it_before_it_is_sent(choice):
    state = state_fields(bonus_b_choice_game(), "Ann")
    green = next(m for m in state["moves"] if m["row"] == 3)
    assert green == {"row": 3, "number": 9, "flags": protocol.NEEDS_CHOICE}
    request = robot.mark("green", 9, choice=choice)
    commands = robot.presses(state, request)
    assert commands == ["tap undo", "tap green", "tap pass", f"tap {choice}", "tap pass"]
    assert robot.simulate(state, commands) == [request]
    assert robot.simulate(state, commands[:-2]) == [], "confirm alone only asks for the row"
    with pytest.raises(robot.RobotError):
        robot.presses(state, robot.mark("green", 9))


def test_robot_refuses_what_the_pad_does_not_offer():
    state = next(played_states("classic", 2))[2]
    offered = {(m["row"], m["number"]) for m in state["moves"]}
    missing = next((r, n) for r in (1, 2, 3, 4) for n in range(2, 13) if (r, n) not in offered)
    with pytest.raises(robot.RobotError):
        robot.presses(state, {"action": protocol.MARK, "row": missing[0], "number": missing[1]})
    with pytest.raises(robot.RobotError):
        robot.presses(state, {"action": protocol.UNDO})


def test_robot_presses_choose_every_lucky_number_or_let_the_tower_draw():
    """Before a longo game: from the number the pad shows first, to each one still open."""
    draft = LuckyDraft(load_sheet("longo"), ["Ann", "Ben"], SoftwareDice().sample)
    for chosen in ([], [7]):
        draft.chosen["Ann"] = list(chosen)
        state = lucky_state_fields(draft, "Ann")
        for number in [0, *draft.allowed("Ann")]:
            commands = robot.presses(state, robot.lucky(number))
            sent = [(r["action"], r["number"]) for r in robot.simulate(state, commands)]
            assert sent == [(protocol.LUCKY_NUMBER, number)], (number, commands)
    with pytest.raises(robot.RobotError):
        robot.presses(state, robot.lucky(7))  # already Ann's


def test_robot_joins_a_pad_without_a_seat_and_does_nothing_else_there(tmp_path):
    """A pad without a seat asks to join at a press; a seated pad has nothing to join."""
    table = make_table(tmp_path, [])
    try:
        state = join_state(table.doors.now())
    finally:
        table.hardware.close()
    commands = robot.presses(state, robot.join())
    sent = robot.simulate(state, commands)
    assert [request["action"] for request in sent] == [protocol.JOIN]
    with pytest.raises(robot.RobotError):
        robot.presses(state, {"action": protocol.PASS})
    seated = next(played_states("classic", 1))[2]
    with pytest.raises(robot.RobotError):
        robot.presses(seated, robot.join())
