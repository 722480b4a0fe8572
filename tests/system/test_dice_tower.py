"""The tower process with electronic dice, as the kiosk runs it (`qwixx-tower run --config`
with `[dice] source = "pixels"`), its Bluetooth the BlueZ stand-in serving six Pixels dice from
a process of its own (tests/support/bluez) on a private system bus. bleak, dbus-fast and the
tower are unchanged; the test throws the dice, answers for its keyboard seat on a
pseudo-terminal and reads what the tower prints (--plain).

Skipped, with the reason, where no dbus-daemon can be started (./dev test installs it as root).
"""

from __future__ import annotations

import json
import sys

import pytest
from support import HANG, spawn
from support.bluez.bus import bus_environment, private_system_bus
from support.bluez.control import StandInProcess
from support.pixels import DICE
from support.tower import Tower

ALL_WAITED = (
    "waiting for white 1, white 2, the red die, the yellow die, the green die and the blue die"
)
LIMIT = HANG  # seconds that only bound a hang on a loaded machine
CONFIG = """
[tower]
state_dir = "{state}"

[dice]
source = "pixels"

[dice.pixels]
{dice}
"""


@pytest.fixture
def table(tmp_path):
    """The stand-in serving the six dice, and the tower's configuration binding them."""
    with private_system_bus(tmp_path) as address:
        dice = StandInProcess(address, list(DICE.values()))
        try:
            bound = "\n".join(f'"{role}" = {die:#x}' for role, die in DICE.items())
            config = tmp_path / "tower.toml"
            config.write_text(CONFIG.format(dice=bound, state=tmp_path / "games"))
            yield dice, config, bus_environment(address)
        finally:
            dice.stop()


def start_tower(table, tmp_path, *args, linked=tuple(DICE)):
    """The tower, once it listens to the dice `linked` (by role) over links of its own."""
    dice, config, env = table
    tower = Tower("--config", str(config), "--players", "Kim", "--human", "Kim", "--pace", "0.05",
                  *args, keyboard=True, env=env)  # fmt: skip
    dice.wait_listened_to([DICE[role] for role in linked])
    return tower


def throw(dice, faces):
    for role, face in faces.items():
        dice.throw(DICE[role], face)


def said(faces):
    """How the tower words a roll: "Kim rolls white 1+2; red 3, yellow 4, green 5, blue 6"."""
    colours = ", ".join(f"{role} {faces[role]}" for role in ("red", "yellow", "green", "blue"))
    return f"Kim rolls white {faces['white 1']}+{faces['white 2']}; {colours}"


def rolls_kept(tmp_path):
    """The rolls of the game as its journal keeps them, by die."""
    (game,) = (tmp_path / "games").glob("game-*.jsonl")
    events = [json.loads(line) for line in game.read_text().splitlines()]
    return [event["dice"] for event in events if event["event"] == "roll"]


def test_a_whole_game_is_rolled_by_the_thrown_dice_in_the_tower_process(table, tmp_path):
    """Kim alone passes every roll: four rolls, four penalties, game over; each roll is
    whatever the six dice thrown show, on the table, in the news and in the journal."""
    throws = [
        {"white 1": 1, "white 2": 2, "red": 3, "yellow": 4, "green": 5, "blue": 6},
        {"white 1": 6, "white 2": 6, "red": 1, "yellow": 1, "green": 2, "blue": 2},
        {"white 1": 3, "white 2": 4, "red": 5, "yellow": 6, "green": 1, "blue": 3},
        {"white 1": 2, "white 2": 5, "red": 4, "yellow": 2, "green": 6, "blue": 5},
    ]
    dice = table[0]
    with start_tower(table, tmp_path, "--games", "1") as tower:
        tower.type("")  # the roll button: a new game
        for faces in throws:
            tower.wait_for(ALL_WAITED)
            throw(dice, faces)
            assert tower.wait_for("Kim rolls").string == said(faces)
            tower.wait_for("Kim, action 1:")
            tower.type("p")
            tower.wait_for("Kim, action 2:")
            tower.type("p")
        tower.wait_for("takes penalty 4")
        assert tower.wait_for_exit() == 0
    colours = ("red", "yellow", "green", "blue")
    expected = [
        {"white": [f["white 1"], f["white 2"]], **{c: f[c] for c in colours}} for f in throws
    ]
    assert rolls_kept(tmp_path) == expected


def test_a_die_lost_mid_roll_is_named_the_button_rolls_and_the_die_is_used_again(table, tmp_path):
    dice = table[0]
    with start_tower(table, tmp_path) as tower:
        tower.type("")
        tower.wait_for(ALL_WAITED)
        throw(dice, {"white 1": 3, "white 2": 3, "yellow": 2, "green": 2, "blue": 2})
        dice.leave(DICE["red"])  # thrown off the table, out of reach
        tower.wait_for("lost the connection to the red die")
        tower.type("")  # the players give up on it and press the roll button
        rolled = tower.wait_for("Kim rolls").string  # rolled by the tower: any faces will do
        assert rolled.startswith("Kim rolls white ")
        tower.type("p")
        tower.wait_for("Kim, action 2:")
        tower.type("p")
        tower.wait_for("takes penalty 1")
        tower.wait_for(ALL_WAITED)  # the next roll: the red die is still away
        dice.come_back(DICE["red"])
        tower.wait_for("reconnected to the red die")
        dice.wait_listened_to([DICE["red"]])
        faces = {"white 1": 5, "white 2": 1, "red": 6, "yellow": 3, "green": 4, "blue": 1}
        throw(dice, faces)
        assert tower.wait_for("Kim rolls").string == said(faces)


def test_a_die_gone_before_its_link_is_made_leaves_the_roll_to_the_button_in_words(table, tmp_path):
    """Issue 39: the red die left between its advertisement and the connect; BlueZ kept trying
    to reach it, and the tower held its link attempt for 40 s. Once it has not been heard for
    as long as the tower waits for a silent die, the tower says so, and that the roll button
    rolls; the press rolls."""
    dice = table[0]
    dice.elude(DICE["red"])
    tower = start_tower(table, tmp_path, linked=[r for r in DICE if r != "red"])
    try:
        tower.type("")  # a new game: the roll waits for the thrown dice
        tower.wait_for(ALL_WAITED)
        said = tower.wait_for("the red die is out of range").string
        assert said.endswith(": the red die is out of range: press the roll button to roll")
        tower.type("")
        assert tower.wait_for("Kim rolls").string.startswith("Kim rolls white ")
        assert "Traceback" not in tower.output
    finally:
        tower.stop()


def test_one_die_bound_to_two_colours_is_said_in_words_and_the_button_rolls(tmp_path):
    """Issue 39: `run` ended in a traceback (a restart loop under systemd), and `doctor` said
    everything answers. Now both say the configuration's mistake; the tower plays on with
    its own dice."""
    config = tmp_path / "tower.toml"
    bound = {**DICE, "blue": DICE["red"]}
    dice = "\n".join(f'"{role}" = {die:#x}' for role, die in bound.items())
    config.write_text(CONFIG.format(dice=dice, state=tmp_path / "games"))
    mistake = f"[dice.pixels] binds die {DICE['red']:#010x} to both 'red' and 'blue'"
    with Tower("--config", str(config), "--players", "Ann", games=1, pace=0,
               stderr_apart=True) as ran:  # fmt: skip
        assert ran.wait_for_exit(LIMIT) == 0 and "Traceback" not in ran.errors, ran.errors
    assert ran.errors.count(mistake) == 1 and mistake not in ran.output  # said once
    assert "the button rolls" in ran.errors and "Game over" in ran.output
    doctor = spawn.run(
        [sys.executable, "-m", "firmware_py.app.cli", "doctor", "--config", str(config)],
        capture_output=True, text=True, timeout=LIMIT, check=False,
    )  # fmt: skip
    (line,) = [line for line in doctor.stdout.splitlines() if mistake in line]
    assert line.startswith("[!!] configuration tower.toml: ")
    assert doctor.returncode == 1 and "everything answers" not in doctor.stdout


def test_colour_dice_left_unbound_are_said_in_words_and_the_button_rolls(table, tmp_path):
    """docs/dice.md's example bound white 1, white 2 and red only. `doctor` called that
    configuration complete, and `run` said nothing: the dice thrown did nothing (the reading
    ended at the first roll in an error no one saw, "'yellow' is in play but [dice.pixels]
    binds no die to it") until the button was pressed. Every game starts with all four colour
    dice, so both now say which dice are missing, and the tower plays on with its own dice."""
    config, env = table[1], table[2]
    bound = {role: DICE[role] for role in ("white 1", "white 2", "red")}
    dice = "\n".join(f'"{role}" = {die:#x}' for role, die in bound.items())
    config.write_text(CONFIG.format(dice=dice, state=tmp_path / "games"))
    mistake = "[dice.pixels] needs a die for yellow, green and blue"
    with Tower("--config", str(config), "--players", "Ann", games=1, pace=0, env=env,
               stderr_apart=True) as ran:  # fmt: skip
        assert ran.wait_for_exit(LIMIT) == 0 and "Traceback" not in ran.errors, ran.errors
    assert ran.errors.count(mistake) == 1 and "the button rolls" in ran.errors
    assert "Game over" in ran.output
    doctor = spawn.run(
        [sys.executable, "-m", "firmware_py.app.cli", "doctor", "--config", str(config)],
        capture_output=True, text=True, timeout=LIMIT, check=False,
    )  # fmt: skip
    (line,) = [line for line in doctor.stdout.splitlines() if mistake in line]
    assert line.startswith("[!!] configuration tower.toml: ")
    assert doctor.returncode == 1 and "everything answers" not in doctor.stdout


def test_doctor_lists_the_dice_it_hears_with_their_ids_and_names_the_silent_one(table, tmp_path):
    dice, config, env = table
    dice.hold_elsewhere(DICE["blue"])  # a phone's Pixels app holds it: it does not advertise
    doctor = spawn.run(
        [sys.executable, "-m", "firmware_py.app.cli", "doctor", "--config", str(config)],
        env=env, capture_output=True, text=True, timeout=LIMIT, check=False,
    )  # fmt: skip
    (line,) = [line for line in doctor.stdout.splitlines() if "dice:" in line]
    heard = ", ".join(f"{DICE[role]:#010x} ({role})" for role in list(DICE)[:5])
    assert line == (
        f"[!!] dice: Pixels dice heard: {heard}; not heard: blue (0x1a2b0006) "
        "(wake them: roll them; a die held by a phone's Pixels app stays silent)"
    )
    assert doctor.returncode == 1 and "Traceback" not in doctor.stderr
