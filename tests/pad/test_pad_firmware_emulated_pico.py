"""The pad firmware on MicroPython's real rp2 port, in an emulated RP2040 (rp2040js), plugged
into a running tower: tools/pico_emulator/ builds what it needs (README.md there). Skipped
unless QWIXX_PICO_IMAGES names a folder with rom.bin, rom-ext.bin and flash.bin (made by
build_bootrom.py and make_flash_image.py) and node with rp2040js is there: no image is
committed, and building one takes the rp2 port's toolchain and sources.

The pad's end-to-end scenarios of tests/pad/test_pad_firmware.py, run through the emulated Pico
with the same tower, cable and steps (its PadTable, the firmware rig, the robot finger). The
emulator runs the Pico about five times slower than real time, so the tower here beats every
TOWER_BEAT seconds of host time (about one second of the Pico's), and waits are long."""

from __future__ import annotations

import importlib.util
import os
import shutil
import time
from pathlib import Path

import pytest
from support.paths import ROOT

from firmware_py.pad import robot
from firmware_py.rules import Mark, Pass
from firmware_py.seating import SeatSpec

EMULATOR = ROOT / "tools" / "pico_emulator"
IMAGES = Path(os.environ.get("QWIXX_PICO_IMAGES", "/nonexistent"))
FILES = ("rom.bin", "rom-ext.bin", "flash.bin")

if not all((IMAGES / name).is_file() for name in FILES):
    pytest.skip(
        "no emulated Pico images: set QWIXX_PICO_IMAGES to a folder made with "
        "tools/pico_emulator (README.md)",
        allow_module_level=True,
    )
if shutil.which("node") is None or not (EMULATOR / "node_modules" / "rp2040js").is_dir():
    pytest.skip("node and rp2040js are needed: npm install in tools/pico_emulator",
                allow_module_level=True)  # fmt: skip

from support import sheet_pads  # noqa: E402
from support.firmware import IDENT, PROMPT, PadTable, rig  # noqa: E402

# Each sheet's own pad scenario of the unix-port tests, on the rp2 port: the sheet's own
# rows and records in its STATE (a Connected pad's links are protocol 6, Double's second
# crosses 5, X-Change's swap fields 4), drawn and chosen with the Pico's buttons.
SHEETS = {
    "longo": sheet_pads.longo_lucky_numbers_are_entered_on_the_pad_before_the_game,
    "bonus-b": sheet_pads.bonus_b_mark_that_needs_a_row_asks_which,
    "big-points": sheet_pads.a_bonus_box_is_chosen_with_the_red_button_and_crossed,
    "double-a": sheet_pads.the_latest_number_is_chosen_with_its_button_and_crossed_again,
    "double-b": sheet_pads.cells_printed_double_are_drawn_and_count_two,
    "connected-chain": sheet_pads.a_chain_cross_chosen_on_the_pad_shows_both_crosses,
    "connected-steps": sheet_pads.a_stair_game_is_played_from_the_pad,
    "x-change": sheet_pads.a_swapped_cross_is_chosen_with_the_red_button_and_crossed,
}


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


emulated = _load("emulated_pico", EMULATOR / "emulated_pico.py")
WAIT = emulated.WAIT
TOWER_BEAT = 5.0  # host seconds between the tower's heartbeats: about one of the Pico's
UNIQUE_ID = IDENT.removeprefix("pad-")  # the emulated flash's unique ID: the pad's ident
CTRL_C_BURST = b"\x03" * 40 + b"\x03\x01\x04\x02\x03" * 20  # Ctrl-C, raw REPL, Ctrl-D, ...


def start_pico(cable, oled: bool = True):
    return emulated.EmulatedPico(
        cable.pad_path, IMAGES, rig.micropython_binary(), rig.Screen, UNIQUE_ID, oled
    )


class PicoTable(PadTable):
    """test_pad_firmware's table (a tower, a cable, Ann joined by a press), with the emulated
    Pico at the end of the cable instead of the unix port."""

    def __init__(self, folder: Path, *, bots=("Bot",), variant="classic", join=True):
        super().__init__(
            folder,
            bots=bots,
            variant=variant,
            beat_ms=TOWER_BEAT * 1000,
            heap="",
            main=None,  # the emulated Pico boots its own flash image
            join=join,
        )

    def start_pad(self):
        return start_pico(self.cable)

    def wait_for_tower(self, check, what: str) -> None:
        deadline = time.monotonic() + WAIT
        while not self.tower.call(check):
            assert time.monotonic() < deadline, f"the tower never got {what}: {self.pad.pages}"
            time.sleep(0.05)

    def close(self) -> None:
        try:
            self.pad.stop()
            assert not [line for line in self.pad.lines if "Traceback" in line], self.pad.lines
        finally:
            self.tower.close()
            self.cable.close()


@pytest.fixture
def table(tmp_path):
    made: list[PicoTable] = []

    def make(**options) -> PicoTable:
        made.append(PicoTable(tmp_path, **options))
        return made[-1]

    yield make
    for each in made:
        each.close()


def test_a_pico_plugged_into_a_running_tower_says_hello_and_joins_at_a_press(tmp_path):
    """Issue 14: the tower's heartbeats (each with a 0x03) reach the pad from the moment USB
    is up, after a burst of Ctrl-C and raw-REPL keys that waited on the line; on the real rp2
    port the firmware must not fall into the REPL. It says hello, shows its whole ident and
    the join prompt, and a press of a button seats it."""
    cable = rig.Cable(tmp_path)
    tower = rig.Tower(tmp_path, str(cable.tower_path), seats=[SeatSpec("Bot")])
    cable.inject(CTRL_C_BURST)
    pico = start_pico(cable)
    try:
        screen = pico.wait_screen(lambda s: s[3:5] == PROMPT, what="the join prompt")
        assert screen[:3] == ["qwixx pad", "pad-", UNIQUE_ID], screen
        link = tower.link()
        assert link.pad["ident"] == IDENT
        pico.press("tap green")
        pico.wait_screen(lambda s: s[0].startswith("Player 2"), what="the pad seated")
        assert tower.seat_names() == [("Bot", "computer"), ("Player 2", "pad")]
        assert not [line for line in pico.lines if "Traceback" in line], pico.lines
    finally:
        pico.stop()
        tower.close()
        cable.close()


def test_a_whole_turn_marked_and_passed_with_the_picos_buttons(table):
    t = table(bots=())
    t.start_game()
    t.roll((4, 1))
    t.play(robot.mark("red", 5))
    screen = t.pad.wait_screen(lambda s: s[2] == "R---x.......   1", what="red 5 crossed")
    assert screen[0] == "Ann         1 P0"
    t.wait_for_tower(lambda: t.tower.table.game.phase == "action2", "Ann's mark")
    t.pad.press("hold pass")  # action 2: Ann, the active player, passes (no penalty)
    screen = t.pad.wait_screen(lambda s: "your roll" in s.words(6), what="Ann's next roll")
    assert screen[0] == "Ann         1 P0"
    assert t.decisions() == [Mark("Ann", "red", 5), Pass("Ann")]


def test_the_pico_comes_back_into_its_seat_when_the_tower_restarts(table, tmp_path):
    """The tower restarts (its port goes and comes back) mid-game: the pad says the tower is
    gone, and once it is back takes Ann's seat and sheet again without a press."""
    t = table(bots=())
    t.start_game()
    t.roll((4, 1))
    t.play(robot.mark("red", 5))
    t.wait_for_tower(lambda: t.tower.table.game.phase == "action2", "Ann's mark")
    t.tower.close()
    t.cable.unplug()
    t.pad.wait_screen(lambda s: "no tower" in s[0], what="the tower gone")
    since = t.pad.mark()
    t.cable.plug()
    t.tower = rig.Tower(tmp_path, str(t.cable.tower_path), names={IDENT: "Ann"}, beat=TOWER_BEAT)
    screen = t.pad.wait_screen(
        lambda s: s[0] == "Ann         1 P0" and s[2] == "R---x.......   1",
        what="Ann's sheet back",
        since=since,
    )
    assert not [s for s in t.pad.screens[since:] if s[3:5] == PROMPT], "no press was needed"
    assert screen[2] == "R---x.......   1"
    assert t.tower.seat_names() == [("Ann", "pad")]


def test_a_refused_hello_is_shown_and_said_again_until_the_tower_takes_the_pico(tmp_path):
    cable = rig.Cable(tmp_path)
    reason = "another pad with this ident is connected"
    tower = rig.ScriptedTower(str(cable.tower_path), beat=1.0, refusal=(10, reason))
    pico = start_pico(cable)
    try:
        screen = pico.wait_screen(lambda s: "try again" in s[7], what="the refusal")  # drawn
        assert screen.words(3) == f"tower says no: {reason} will try again"
        deadline = time.monotonic() + WAIT
        while tower.hello_count(accepted=False) < 2:
            assert time.monotonic() < deadline, "the pad said hello only once"
            time.sleep(0.1)
        tower.refuse(None)  # the other pad was unplugged
        pico.wait_screen(lambda s: s[3:5] == PROMPT, what="the join prompt")
        assert tower.hello_count(accepted=True) == 1
    finally:
        pico.stop()
        tower.close()
        cable.close()


def test_the_game_over_screen_on_the_pico(table):
    """Rulebook: "The game ends **immediately** when one of the players crosses off their
    fourth 'failed roll' space." Four penalties: the pad says the game is over, with Ann's
    final score."""
    t = table(bots=())
    t.start_game()
    for turn in range(4):
        t.roll((1 + turn, 2))
        t.tower.submit(Pass("Ann"))
        t.tower.submit(Pass("Ann"))
    screen = t.pad.wait_screen(lambda s: s[1] == "game over", what="the game over")
    assert screen[0] == "Ann       -20 P4", screen
    assert t.tower.call(lambda: t.tower.table.game.phase) == "over"


def test_a_pico_whose_display_does_not_answer_still_plays(tmp_path):
    """No display answers on the I2C bus (miswired, or none fitted): the firmware runs on, says
    hello, lights its LED, and a press of a button still seats the pad."""
    cable = rig.Cable(tmp_path)
    tower = rig.Tower(tmp_path, str(cable.tower_path), seats=[SeatSpec("Bot")], beat=TOWER_BEAT)
    pico = start_pico(cable, oled=False)
    try:
        pico.wait_led(True)  # (on from the boot for BLINK_MS: not yet a sign of the tower)
        deadline = time.monotonic() + WAIT
        while not tower.link().pad_holds:  # a press before the pad has a STATE is nobody's
            assert time.monotonic() < deadline, "the pad never said it holds its STATE"
            time.sleep(0.1)
        assert tower.link().pad["ident"] == IDENT
        pico.press("tap red")
        deadline = time.monotonic() + WAIT
        while tower.seat_names() != [("Bot", "computer"), ("Player 2", "pad")]:
            assert time.monotonic() < deadline, f"never seated: {tower.seat_names()}"
            time.sleep(0.1)
        assert pico.screens == [] and pico.process.poll() is None
    finally:
        pico.stop()
        tower.close()
        cable.close()


@pytest.mark.parametrize("scenario", SHEETS.values(), ids=SHEETS)
def test_each_sheets_own_pad_scenario_on_the_pico(table, scenario):
    scenario(table)


@pytest.mark.parametrize("variant", ["longo", "connected-chain"])
def test_a_whole_game_to_its_end_on_the_pico(table, variant):
    """A whole game on the rp2 port's own heap, 32-bit, with the firmware compiled as `pad
    install` puts it there: Longo's STATE is the largest, the Chain's carries the links' records
    (protocol 6). Ann plays every turn with the Pico's buttons, to the end, and her pad shows
    her final sheet (the unix-port test measures the heap; this one shows the real port holds
    a game through)."""
    t = table(bots=(), variant=variant)
    if variant == "longo":
        t.start_longo_game(2, 16)
    else:
        t.start_game()
    t.play_to_the_end()
    assert t.sheet_lines() == t.pad.screen[2:6], "the pad shows Ann's final sheet"
