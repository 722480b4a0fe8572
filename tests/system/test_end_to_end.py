"""Whole games of every variant played from outside, as at a real table: pads on pseudo-terminal
cables speak the pad protocol to the tower's PadLink + PadHub, and a finger on gpiozero's mock
pin presses the roll button. Each pad is a seeded robot that decides only from the moves in the
STATEs it is sent. At the end the journal is replayed (`qwixx-tower replay`) and the tower's
game, every pad's last STATE and both displays must agree with it.

The dice are seeded (a SoftwareDice subclass given to the simulated hardware), longo's lucky
numbers too, and the table's clock is a fake one, so the screens at the first roll, the first
lock and the game's end are the same on every run: they are compared with the pictures in
tests/golden/end_to_end/. After a deliberate change, look at the new pictures and refresh them
with QWIXX_UPDATE_GOLDEN=1 ./dev test tests/system/test_end_to_end.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import random
from functools import partial
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from support import HANG, paths
from support.fakes import FakeClock
from support.table import until

from drivers.dice import SoftwareDice
from drivers.simulated.pad import PtyPad, pad_hello
from firmware_py.app import cli
from firmware_py.app.assembly import attach_pads, build_table
from firmware_py.app.config import SIMULATED
from firmware_py.app.hardware import build_hardware
from firmware_py.journal.figures import story_of_log
from firmware_py.journal.journal import Journal
from firmware_py.journal.lines import parse_line
from firmware_py.pad import protocol
from firmware_py.rules import Mark, Pass, game_report
from firmware_py.seats.pads import pad_state
from firmware_py.show.screens import render
from firmware_py.table import ALERT_SECONDS, LOCK_NOTICE_SECONDS
from firmware_py.view import ERROR, Seat, TableView
from sheets import COLOURS, load_sheet, sheet_names

GOLDEN = paths.GOLDEN / "end_to_end"
# With this seed every variant's game locks a row before it ends, a bonus-b pad earns a bonus
# that needs a row choice, and longo pads cross lucky numbers (the test checks each).
SEED = 20
NAMES = ("Ann", "Ben", "Cleo")
TWO_SEATS = ("bonus-a", "bonus-b", "mixx-b")  # tables of two; the others seat three
MAX_ROLLS = 100  # a game here takes 13 to 35 rolls; a bug must not spin forever
MAX_SKIP = 2  # a robot marks a move that skips at most this many cells, else passes
# A hang, not a slow game: MAX_ROLLS stops a game that spins; a whole game took over 60 s of a
# machine at load 35 (x-change, cancelled mid-play with no error), so the suite's hang limit
GAME_SECONDS = HANG
DECIDES = ("phase", "flags", "penalties", "total", "locked", "dice", "lucky", "rows", "moves")
PHASE = {name: code for code, name in enumerate(protocol.PHASES)}


class SeededDice(SoftwareDice):
    """The software dice with a seeded generator: the same rolls on every run."""

    def __init__(self, seed: int, *, faces: int) -> None:
        super().__init__(faces=faces)
        self.random = random.Random(seed)

    def roll(self, colours: list[str]) -> tuple[tuple[int, int], dict[str, int]]:
        white = (self.face(), self.face())
        return white, {colour: self.face() for colour in colours}

    def face(self) -> int:
        return self.random.randint(1, self.faces)

    def sample(self, population: list[int], count: int) -> list[int]:
        """Longo's lucky numbers, drawn by the tower with its dice source."""
        return self.random.sample(population, count)


# ---- the pads' robot ----------------------------------------------------------------------------


def row_of_move(state: dict, move: dict) -> dict:
    """The STATE's row record a move is in: its colour row, or (flag BONUS, Big Points) the
    bonus row below it."""
    if move["flags"] & protocol.BONUS:
        return next(
            row
            for row in state["rows"]
            if row["flags"] & protocol.ROW_BONUS and row["colour"] == move["row"]
        )
    return state["rows"][move["row"] - 1]


def cells_skipped(state: dict, move: dict) -> int:
    row = row_of_move(state, move)
    return list(row["numbers"]).index(move["number"]) - row["crossed"].bit_length()


def pick(state: dict, rng: random.Random) -> tuple[dict, bool]:
    """A REQUEST from the STATE's moves, and whether it needs a row choice: a move earning a
    bonus that needs a row first, else the one skipping fewest cells (if few enough), else pass."""

    def rank(move: dict) -> tuple:
        bonus_first = -(move["flags"] & protocol.NEEDS_CHOICE)
        return bonus_first, cells_skipped(state, move), rng.random()

    ranked = sorted(state["moves"], key=rank)
    if not ranked:
        return {"action": protocol.PASS}, False
    move = ranked[0]
    needs_choice = bool(move["flags"] & protocol.NEEDS_CHOICE)
    if not needs_choice and cells_skipped(state, move) > MAX_SKIP:
        return {"action": protocol.PASS}, False
    # as offered: lucky, a box, the X-Change field it uses
    kind = move["flags"] & (protocol.LUCKY | protocol.BONUS | protocol.SWAP_BITS)
    request = {"action": protocol.MARK, "row": move["row"], "number": move["number"]}
    return {**request, "flags": kind}, needs_choice


def choice_rows(state: dict) -> list[int]:
    """Row codes to offer for a bonus in the fewest-crosses row: fewest crosses on the pad first."""

    def crosses(row: dict) -> int:
        return row["crossed"].bit_count() + (row["flags"] & protocol.ROW_LOCKED)

    return [row["colour"] for row in sorted(state["rows"], key=lambda r: (crosses(r), r["colour"]))]


def as_event(name: str, fields: dict) -> Mark | Pass:
    """The decision a REQUEST proposes, as the journal should record it once accepted."""
    if fields["action"] == protocol.PASS:
        return Pass(name)
    lucky = bool(fields["flags"] & protocol.LUCKY)
    choice = protocol.row_colour(fields["choice"])
    row = protocol.row_colour(fields["row"])
    if fields["flags"] & protocol.BONUS:  # the bonus row below that row (docs/pad-protocol.md)
        row = f"{row}-{COLOURS[COLOURS.index(row) + 1]}"
    swap = protocol.swap_field(fields["flags"]) or None  # X-Change: the field it uses
    return Mark(name, row, fields["number"], lucky, choice, swap)


def shown(fields: dict) -> dict:
    """What a STATE shows that decides a move, as it reads after crossing the wire."""
    decoded = protocol.decode(protocol.encode("state", 1, fields)).fields
    return {key: decoded[key] for key in DECIDES}


class Pad:
    """A pad at the far end of a pty cable: says hello, joins the table as a press on a pad
    does, keeps the newest STATE it was sent, decides from it, and remembers every decision
    the tower acknowledged."""

    def __init__(self, folder: Path, name: str) -> None:
        self.name = name
        self.ident = f"pad-{name.lower()}"
        self.path = folder / self.ident
        self.wire = PtyPad(self.path)
        self.rng = random.Random(f"{SEED}-{name}")
        self.state: dict | None = None
        self.acknowledged: list[Mark | Pass] = []
        self.choices = 0  # marks sent with a row choice and accepted

    @property
    def plugged(self) -> bool:
        return self.wire.plugged

    async def greet(self) -> None:
        """Answer the tower's hello (the same boot number after a replug: no restart)."""
        await asyncio.to_thread(self.wire.expect, "hello", role=protocol.ROLE_TOWER)
        self.wire.send("hello", {**pad_hello(boot=7), "ident": self.ident})
        ack = await asyncio.to_thread(self.wire.expect, "hello_ack")
        assert ack["status"] == protocol.OK, ack.fields

    async def join(self) -> None:
        """Told it has no seat, ask for one (as any button does on a pad): the tower seats it."""
        told = await asyncio.to_thread(self.wire.expect, "state", flags=protocol.MAY_JOIN)
        assert told["text"] == "press any button to join", told.fields
        answer = await self.ask({"action": protocol.JOIN})
        assert answer["status"] == protocol.OK, answer.fields

    async def next_state(self) -> dict:
        self.state = (await asyncio.to_thread(self.wire.expect, "state")).fields
        return self.state

    async def catch_up(self, expected: dict) -> None:
        """Read STATEs until the newest shows what the tower's game says it should."""
        while self.state is None or shown(self.state) != shown(expected):
            await self.next_state()

    async def ask(self, fields: dict) -> protocol.Message:
        full = {"action": 0, "row": 0, "number": 0, "flags": 0, "choice": 0, **fields}
        seq = self.wire.send("request", full)
        answer = await asyncio.to_thread(self.wire.expect, "answer", req=seq)
        if answer["status"] == protocol.OK and full["action"] in (protocol.MARK, protocol.PASS):
            self.acknowledged.append(as_event(self.name, full))
        return answer

    async def decide(self) -> None:
        """Propose the robot's pick; a bonus row the tower refuses is followed by the next row."""
        request, needs_choice = pick(self.state, self.rng)
        if not needs_choice:
            answer = await self.ask(request)
            assert answer["status"] == protocol.OK, f"{self.name}: {answer['text']}"
            return
        for row in choice_rows(self.state):
            answer = await self.ask({**request, "choice": row})
            if answer["status"] == protocol.OK:
                self.choices += 1
                return
            assert answer["status"] == protocol.RULE, answer.fields
        raise AssertionError(f"{self.name}: no row choice accepted for {request}")

    def unplug(self) -> None:
        self.wire.unplug()

    def replug(self) -> None:
        """A new pty behind the same path; the pad was not restarted, so it numbers on."""
        seq = self.wire.seq
        self.wire = PtyPad(self.path)
        self.wire.seq = seq


# ---- the table ----------------------------------------------------------------------------------


class Rig:
    """The tower (Table + PadHub on simulated hardware) and its pads, all driven by the test."""

    def __init__(self, folder: Path, variant: str, names: tuple[str, ...], **options):
        self.clock = FakeClock()  # the table's and its button's: notices last until it moves on
        faces = load_sheet(variant).dice_faces
        hardware = build_hardware(SIMULATED, faces)
        hardware.dice = SeededDice(SEED, faces=faces)
        self.journal = Journal(folder / "games")
        self.table = build_table(
            hardware,
            seats=[],
            variant=variant,
            journal=self.journal,
            pace=0,
            clock=self.clock,
            **options,
        )  # the pads join
        self.pads = [Pad(folder, name) for name in names]
        idents = {pad.ident: pad.name for pad in self.pads}
        ports = [str(pad.path) for pad in self.pads]
        # A still link clock: a pad is gone only when its cable is pulled, never for being slow.
        self.hub = attach_pads(self.table, ports, idents, clock=FakeClock(), retry=(0.01, 0.05))
        self.shots: dict[str, tuple[Image.Image, Image.Image]] = {}
        self._task: asyncio.Task | None = None

    async def start(self) -> None:
        """The tower runs, every pad says hello and joins in turn, and a press starts the game."""
        self._task = asyncio.create_task(self.table.run())
        await until(lambda: self.table.button is not None)
        self.hub.open(asyncio.get_running_loop())
        for pad in self.pads:
            await pad.greet()
            await pad.join()
            await pad.catch_up(pad_state(self.table, pad.name))
            assert pad.state["player"] == pad.name
        version = self.table.moments.version
        await self.press()
        await until(lambda: self.table.moments.version > version)
        if not self.waiting_for_first_roll():  # longo may wait for lucky numbers: a press draws
            await self.press()
        await until(self.waiting_for_first_roll)

    def waiting_for_first_roll(self) -> bool:
        game = self.table.game
        return game is not None and game.phase == "roll" and game.dice is None and not game.over

    def changed_since(self, version: int) -> bool:
        return self.table.moments.version != version

    async def stop(self) -> None:
        self.table.stop()
        await self._task

    def close(self) -> None:
        self.hub.close()
        for pad in self.pads:
            pad.unplug()
        self.table.hardware.close()

    async def press(self) -> None:
        """A finger on the roll button: down, held a tenth of a second, up."""
        pin = self.table.hardware.button_factory.pin(self.table.hardware.button_pin)
        pin.drive_low()
        self.clock.advance(0.1)
        pin.drive_high()
        self.clock.advance(0.1)
        await asyncio.sleep(0)

    async def settle(self) -> None:
        """Every plugged pad has the STATE of the game as it stands."""
        for pad in self.pads:
            if pad.plugged:
                await pad.catch_up(pad_state(self.table, pad.name))

    def frames(self) -> tuple[Image.Image, Image.Image]:
        displays = self.table.hardware.displays
        return displays["main"].frame.copy(), displays["options"].frame.copy()

    def on_its_page(self, view: TableView) -> TableView:
        """`view` on the page the table's clock has its screens at (names waited for, the
        winner and the scores take turns)."""
        from dataclasses import replace

        from firmware_py.table.showing import page_of

        return replace(view, page=page_of(self.table.clock()))

    def doubles(self) -> tuple[str, ...]:
        """Qwixx Double: the crosses worth two the active player's colour sums reach, as the
        referee finds them (a pad is offered them only in action 2)."""
        from firmware_py.rules.doubles import doubles_in_reach

        game = self.table.game
        return tuple(doubles_in_reach(game, game.active_name))

    def present(self) -> list[Pad]:
        return [pad for pad in self.pads if pad.plugged]

    async def roll(self) -> None:
        await self.press()
        await until(lambda: self.table.game.phase != "roll")
        await self.settle()
        if "first-roll" not in self.shots:
            self.shots["first-roll"] = self.frames()
            view = turn_view(self.present(), "action1", doubles=self.doubles())
            assert_shows(self.shots["first-roll"], self.on_its_page(view))

    async def play(self, before_roll=None) -> None:
        """Play until the pads show the game over: rolls on the button, decisions on the pads."""
        rolls = 0
        while True:
            await self.settle()
            phase = self.present()[0].state["phase"]
            if phase == PHASE["over"]:
                return
            if phase == PHASE["roll"]:
                rolls += 1
                assert rolls <= MAX_ROLLS, f"no end after {MAX_ROLLS} rolls"
                if before_roll is not None:
                    await before_roll(self, rolls)
                await self.roll()
                continue
            deciding = [pad for pad in self.present() if pad.state["flags"] & protocol.MAY_PASS]
            if not deciding:  # only an unplugged pad's player is left to decide
                await until(partial(self.changed_since, self.table.moments.version))
                continue
            await deciding[0].decide()
            await self.settle()
            self.look_for_a_lock()

    def look_for_a_lock(self) -> None:
        """The first lock that does not end the game is announced on the main display."""
        state = self.present()[0].state
        if state["locked"] and state["phase"] != PHASE["over"] and "lock" not in self.shots:
            self.shots["lock"] = self.frames()
            [row] = [code for code in range(4) if state["locked"] >> code & 1]
            view = turn_view(
                self.present(), "lock", COLOURS[row], self.table.message, self.doubles()
            )
            # A lock in action 1 leaves the dice on the table: the options show the sums. One
            # in action 2 ends the turn: no dice, and the options show the scores instead.
            assert_shows(self.shots["lock"], self.on_its_page(view))
            self.clock.advance(LOCK_NOTICE_SECONDS)  # the notice's time passes


def turn_view(
    pads: list[Pad],
    screen: str,
    locked: str | None = None,
    message: str = "",
    doubles: tuple[str, ...] = (),
) -> TableView:
    """What the displays should show now, from what the pads show: dice, whose roll, locks."""
    dice = pads[0].state["dice"] or bytes(6)  # none between turns
    [active] = [pad for pad in pads if pad.state["flags"] & protocol.ACTIVE]
    colours = {c: face for c, face in zip(COLOURS, dice[2:], strict=True) if face and c != locked}
    white = (dice[0], dice[1]) if dice[0] else None
    waiting = tuple(pad.name for pad in pads if pad.state["flags"] & protocol.MAY_PASS)
    seats = tuple(
        Seat(pad.name, pad.state["total"], pad.state["penalties"], lucky=tuple(pad.state["lucky"]))
        for pad in pads
    )
    return TableView(
        screen, seats=seats, active=active.name, white=white, colours=colours,
        locked=(locked,) if locked else (), waiting_for=waiting, message=message,
        bonus_boxes=boxes_offered(active.state), double_crosses=doubles,
    )  # fmt: skip


def boxes_offered(state: dict) -> tuple[str, ...]:
    """Big Points: in action 2, the bonus boxes the active player's pad offers, as the options
    display lists those the colour sums reach ("RY 5": the box below red)."""
    if state["phase"] != PHASE["action2"]:
        return ()
    return tuple(
        f"{COLOURS[move['row'] - 1][0].upper()}{COLOURS[move['row']][0].upper()} {move['number']}"
        for move in state["moves"]
        if move["flags"] & protocol.BONUS
    )


def assert_shows(
    frames: tuple[Image.Image, Image.Image], view: TableView, roles=("main", "options")
) -> None:
    for frame, role in zip(frames, ("main", "options"), strict=True):
        if role not in roles:
            continue
        expected = render(view, role)
        changed = ImageChops.logical_xor(frame, expected).getbbox()
        assert changed is None, f"the {role} display differs from {view} inside {changed}"


def assert_matches_golden(picture: Image.Image, name: str) -> None:
    golden = GOLDEN / f"{name}.png"
    if os.environ.get("QWIXX_UPDATE_GOLDEN"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        picture.save(golden)
    assert golden.exists(), f"no reference picture {golden.name}; see this module's docstring"
    reference = Image.open(golden).convert("1")
    changed = ImageChops.logical_xor(picture.convert("1"), reference).getbbox()
    assert changed is None, f"{golden.name} differs inside the box {changed}"


# ---- the end: journal, tower, pads and displays agree ------------------------------------------


def replayed(rig: Rig) -> dict:
    """`qwixx-tower replay` of the one game the tower journalled: the rules engine's result."""
    [path] = rig.journal.games()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["replay", str(path)]) == 0
    return json.loads(out.getvalue())


def journal_decisions(rig: Rig, name: str) -> list[Mark | Pass]:
    [path] = rig.journal.games()
    events = [parse_line(line) for line in path.read_text().splitlines()[1:]]
    return [e for e in events if type(e) in (Mark, Pass) and e.player == name]


def assert_everyone_agrees(rig: Rig, report: dict) -> None:
    """The replayed journal, the tower's game, each pad's last STATE and both displays."""
    assert report["over"]
    assert report == json.loads(json.dumps(game_report(rig.table.game)))
    locked = sum(1 << COLOURS.index(colour) for colour in report["locked"])
    for pad in rig.pads:
        mine, state = report["players"][pad.name], pad.state
        assert state["phase"] == PHASE["over"], pad.name
        assert (state["total"], state["penalties"]) == (mine["total"], mine["penalties"])
        assert state["locked"] == locked
        for row in state["rows"]:
            colour = COLOURS[row["colour"] - 1]
            if row["flags"] & protocol.ROW_LINKS:  # Connected: where the pad's connections lie
                assert row["crossed"] == 0 and row["numbers"], pad.name
                continue
            if row["flags"] & protocol.ROW_DOUBLE:  # Qwixx Double: the row's second crosses
                cells = rig.table.game.sheet.rows[row["colour"] - 1].numbers
                doubled = [n for k, n in enumerate(cells) if row["crossed"] >> k & 1]
                assert doubled == mine["rows"][colour]["doubled"], pad.name
                continue
            crossed = [n for k, n in enumerate(row["numbers"]) if row["crossed"] >> k & 1]
            if row["flags"] & protocol.ROW_BONUS:  # Big Points: the bonus row below `colour`
                below = COLOURS[row["colour"]]
                assert crossed == mine["bonus_rows"][f"{colour}-{below}"]["marks"], pad.name
                continue
            sheet = mine["rows"][colour]
            assert crossed == sheet["marks"], (pad.name, row)
            assert bool(row["flags"] & protocol.ROW_LOCKED) == sheet["locked"]
        assert state["lucky"] == bytes(mine.get("lucky", ()))
        assert state["text"] == f"Game over: {' and '.join(report['winners'])} won"
    seats = tuple(
        Seat(name, player["total"], player["penalties"])
        for name, player in report["players"].items()
    )
    [path] = rig.journal.games()  # the figures pages show the game's story, read from its log
    story = story_of_log(path, path.read_bytes().splitlines(keepends=True))
    over = TableView(
        "over", seats=seats, locked=tuple(report["locked"]), winners=tuple(report["winners"]),
        story=story,
    )  # fmt: skip
    assert_shows(rig.shots["over"], rig.on_its_page(over))


async def play_one_game(rig: Rig, before_roll=None) -> None:
    await rig.start()
    await rig.play(before_roll)
    rig.shots["over"] = rig.frames()
    await rig.stop()


@pytest.mark.parametrize("variant", sheet_names())
def test_a_whole_game_on_pads_and_the_button_agrees_with_the_replayed_journal(tmp_path, variant):
    """Every variant, end to end: what the pads were told, what the displays show and what the
    tower journalled are one game, and every acknowledged decision is journalled exactly once."""
    names = NAMES[:2] if variant in TWO_SEATS else NAMES
    rig = Rig(tmp_path, variant, names)
    try:
        asyncio.run(asyncio.wait_for(play_one_game(rig), GAME_SECONDS))
    finally:
        rig.close()
    assert_everyone_agrees(rig, replayed(rig))
    for pad in rig.pads:
        assert journal_decisions(rig, pad.name) == pad.acknowledged
    assert list(rig.shots) == ["first-roll", "lock", "over"], "this seed's game locks a row"
    for moment, frames in rig.shots.items():
        for frame, role in zip(frames, ("main", "options"), strict=True):
            assert_matches_golden(frame, f"{variant}-{moment}-{role}")
    marks = [event for pad in rig.pads for event in pad.acknowledged if type(event) is Mark]
    if variant == "longo":
        assert any(mark.lucky for mark in marks), "a lucky cross made on a pad"
    if variant == "bonus-b":
        assert sum(pad.choices for pad in rig.pads) >= 1, "a bonus row chosen on a pad"


def test_a_pad_unplugged_mid_game_is_named_the_others_play_on_and_it_finishes_the_game(
    tmp_path,
):
    """Cleo's cable is pulled before Ben's roll: the displays name her pad, Ann and Ben play the
    turn (Cleo passes when the action-1 timer runs out), and plugged back in before her own
    roll, her pad is sent the game as it stands and plays it to the end."""
    rig = Rig(tmp_path, "classic", NAMES, action1_timer=2.0)
    cleo = rig.pads[2]
    missed: dict[str, object] = {}

    async def cable(rig: Rig, roll: int) -> None:
        if roll == 2:  # Ben's roll
            missed["rows"] = cleo.state["rows"]
            missed["others"] = [len(pad.acknowledged) for pad in rig.pads[:2]]
            cleo.unplug()
            words = "Cleo's pad is not answering: check its cable"
            await until(lambda: words in rig.table.newsfeed.lines)
            assert_shows(rig.frames(), TableView(ERROR, message=words))
            rig.clock.advance(ALERT_SECONDS)  # the alert's time passes; the game goes on
        elif roll == 3:  # Cleo's roll: she is back in time for it
            ann, ben = missed["others"]
            played = [len(pad.acknowledged) for pad in rig.pads[:2]]
            assert played == [ann + 1, ben + 2], "Ann and Ben played Ben's turn without Cleo"
            cleo.replug()
            await cleo.greet()
            first = await cleo.next_state()
            missed["back"], missed["acknowledged"] = first, len(cleo.acknowledged)
            assert shown(first) == shown(pad_state(rig.table, "Cleo"))

    try:
        asyncio.run(asyncio.wait_for(play_one_game(rig, cable), GAME_SECONDS))
    finally:
        rig.close()
    back = missed["back"]
    assert back["phase"] == PHASE["roll"] and back["flags"] & protocol.ACTIVE
    assert back["rows"] == missed["rows"], "nothing was crossed for Cleo while she was away"
    assert_everyone_agrees(rig, replayed(rig))
    for pad in rig.pads:
        journalled = journal_decisions(rig, pad.name)
        marks = [event for event in journalled if type(event) is Mark]
        assert marks == [event for event in pad.acknowledged if type(event) is Mark]
        away = 1 if pad is cleo else 0  # the pass the table made for her
        assert len(journalled) == len(pad.acknowledged) + away
    assert len(cleo.acknowledged) > missed["acknowledged"], "Cleo played on after her return"
