"""The pad firmware under MicroPython at a real tower, through the firmware rig
(tests/support/micropython/firmware_rig.py), joined as Ann by a press: shared by the firmware
tests and the emulated Pico's."""

from __future__ import annotations

import importlib.util
import random
import time
from pathlib import Path
from types import SimpleNamespace

from firmware_py.pad import padapp, padscreen, protocol, robot
from firmware_py.rules import Mark, Pass, Roll
from firmware_py.seating import SeatSpec

RIG_SCRIPT = Path(__file__).resolve().parent / "micropython" / "firmware_rig.py"
BUILD_SCRIPT = Path(__file__).resolve().parents[2] / "tools" / "build_pad_mpy.py"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


rig = _load("firmware_rig", RIG_SCRIPT)
build_pad_mpy = _load("build_pad_mpy", BUILD_SCRIPT)  # the firmware compiled, as on a Pico


IDENT = "pad-e6614c3185a61f2b"  # a Pico's: "pad-" and machine.unique_id(), 8 bytes in hex
COLOURS = {"red": 1, "yellow": 1, "green": 1, "blue": 1}
PROMPT = ["press any button", "to join"]  # lines 3 and 4 of a pad without a seat


def first_offer(state: dict) -> dict:
    """REQUEST fields for the first mark a pad holding `state` offers that needs no choice of
    row, or a pass."""
    for move in state["moves"]:
        if not move["flags"] & protocol.NEEDS_CHOICE:
            kind = move["flags"] & (protocol.LUCKY | protocol.BONUS | protocol.SWAP_BITS)
            return {"action": protocol.MARK, "row": move["row"], "number": move["number"],
                    "flags": kind, "choice": 0}  # fmt: skip
    return {"action": protocol.PASS}


class PadTable:
    """A tower, a cable and the firmware at its end, joined as Ann by a press (unless `join`
    is false). `main` is the firmware's main.py: the compiled one (tests/pad/conftest.py) or
    the sources'."""

    def __init__(self, folder: Path, *, bots, variant, beat_ms, heap, main, join=True):
        self.folder = folder
        self.beat_ms = beat_ms
        self.heap = heap
        self.main = main
        self.cable = rig.Cable(folder)
        self.tower = rig.Tower(
            folder,
            str(self.cable.tower_path),
            seats=[SeatSpec(name) for name in bots],
            names={IDENT: "Ann"},
            variant=variant,
            beat=(beat_ms or padapp.BEAT_MS) / 1000,
        )
        self.pad = self.start_pad()
        if join:
            self.join()

    def join(self) -> None:
        """Once the pad asks, press a button on it: Ann joins the table."""
        self.pad.wait_screen(lambda s: s[3:5] == PROMPT, what="the join prompt")
        self.pad.press(*robot.presses(self.tower.join_state(), robot.join()))
        assert self.tower.seated() == "Ann"
        self.pad.wait_screen(lambda s: s[0].startswith("Ann"), what="Ann's name")

    def start_pad(self):
        return rig.Firmware(
            self.cable.pad_path, IDENT, beat_ms=self.beat_ms, heap=self.heap, main=self.main
        )

    def start_game(self) -> None:
        assert self.tower.seated() == "Ann"
        self.pad.wait_screen(lambda s: s[0].startswith("Ann"), what="Ann's name")
        self.tower.call(self.tower.table.new_game)
        self.pad.wait_screen(lambda s: s[1] == "no roll yet", what="a new game")

    def start_longo_game(self, *lucky: int) -> None:
        """A longo game, Ann's lucky numbers chosen with the pad's buttons."""
        assert self.tower.seated() == "Ann"
        self.pad.wait_screen(lambda s: s[0].startswith("Ann"), what="Ann's name")
        self.tower.call(self.tower.table.new_game)
        self.pad.wait_screen(lambda s: s[1] == "choose 2 numbers", what="the question")
        for count, number in enumerate(lucky, 1):
            self.play(robot.lucky(number))
            if count < len(lucky):
                words = "yours: " + " ".join(str(n) for n in lucky[:count])
                self.pad.wait_screen(lambda s, words=words: s[2] == words, what=words)
        self.pad.wait_screen(lambda s: s[1] == "no roll yet", what="the game started")

    def roll(self, white, colours=None) -> rig.Screen:
        """Roll, and wait for the pad to show the dice (white dice other than the last roll's,
        or the pad's screen of the last roll would pass for it: "4+1=5 " is not "2+3=5 ")."""
        in_play = self.tower.call(self.tower.table.game.dice_in_play)
        faces = {c: (colours or COLOURS).get(c, 1) for c in in_play}
        self.tower.submit(Roll(white, faces))
        shown = f"{white[0]}+{white[1]}={white[0] + white[1]} "
        return self.pad.wait_screen(lambda s: s[1].startswith(shown), what=f"the roll {white}")

    def white_5_again_after_red_5(self) -> rig.Screen:
        """A new game in which Ann crossed red 5 on a white 4 + 1 and the next roll is white
        5 again; the pad's screen once it offers the roll (sheets that reward a cross beside
        or on red 5)."""
        self.start_game()
        self.roll((4, 1))
        self.tower.submit(Mark("Ann", "red", 5))
        self.tower.submit(Pass("Ann"))
        self.roll((2, 3))  # (white 5 again, on other dice: the pad's last screen is not it)
        return self.pad.wait_screen(lambda s: s[6].startswith("white"), what="the offer")

    def play(self, request: dict) -> None:
        """Press the buttons the robot finger says make the pad send `request`."""
        self.pad.press(*robot.presses(self.tower.pad_state("Ann"), request))

    def wait_for_tower(self, check, what: str) -> None:
        deadline = time.monotonic() + rig.WAIT
        while not self.tower.call(check):
            refusals = [s.words() for s in self.pad.screens if s[2].startswith("NO:")]
            assert time.monotonic() < deadline, (
                f"the tower never got {what}; the pad shows\n{self.pad.screen_text()}\n"
                f"refusals: {refusals}"
            )
            time.sleep(0.01)

    def play_to_the_end(self, seed: int = 1) -> list[int]:
        """Ann, alone at the table, plays the game to its end on her pad's buttons: random dice
        (from `seed`); in action 1 the first mark her pad offers (a lucky one if it comes
        first), else a pass; action 2 passed at the tower. The heap the firmware holds after
        each turn (bytes allocated after a collection, as the pad reports them; none from an
        emulated Pico, which has no console to ask)."""
        dice = random.Random(seed)
        used, last = [], 0
        while self.tower.call(self.phase) != "over":
            white = (last, 0)
            while sum(white) == last:  # a new sum: the pad's screen then tells the new roll
                white = (dice.randint(1, 6), dice.randint(1, 6))
            last = sum(white)
            colours = {colour: dice.randint(1, 6) for colour in COLOURS}
            self.roll(white, colours)
            self.play(first_offer(self.tower.pad_state("Ann")))
            self.wait_for_tower(lambda: self.phase() != "action1", "action 1 decided")
            if self.tower.call(self.phase) == "action2":
                self.tower.submit(Pass("Ann"))
            if hasattr(self.pad, "memory"):
                used.append(self.pad.memory()[1])
        self.pad.wait_screen(lambda s: s[1] == "game over", what="the game's end")
        return used

    def phase(self) -> str:
        """The game's phase at the tower (call it on the tower's loop)."""
        return self.tower.table.game.phase

    def decisions(self) -> list:
        """Ann's decisions in the journal, in order (marks, passes, undos)."""
        return [e for e in self.tower.journal_events() if getattr(e, "player", None) == "Ann"]

    def sheet_lines(self) -> list[str]:
        """Ann's sheet as the pad should draw it, nothing selected, from the tower's own state:
        the four colour rows, with a Connected pad's links and a Double sheet's second crosses
        (the firmware's own drawing: what is checked is that the pad holds the tower's state)."""
        pad = SimpleNamespace(state=self.tower.pad_state("Ann"), selected=None)
        return padscreen._sheet(pad)

    def close(self) -> None:
        try:
            status = self.pad.stop()
            assert status == 0, self.pad.errors
            assert not [e for e in self.pad.errors if e.startswith("error")], self.pad.errors
        finally:
            self.tower.close()
            self.cable.close()
