"""The hard way: kill the tower with SIGKILL at random moments and start it again. Every event
the table was told about (printed after its fsync) is still in the journal, in order, and the
journal always replays: nothing is lost and nothing is applied twice.

Ann plays on a pad (a pseudo-terminal speaking the pad protocol, as `PadPlayer` below) among two
computer players, and presses the roll button at the keyboard: every decision her pad sends has
an id, and each id is in the journal at most once, each one answered ok exactly once, whatever
moment the kill hit (before the fsync, between the fsync and the answer, after it).
"""

from __future__ import annotations

import json
import random
import select
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from support import HANG
from support.journal import EVENT_NEWS, is_in_order_within, journal_news
from support.tower import Tower

from drivers.simulated.pad import PtyPad, pad_hello
from firmware_py.journal.history import history_lines
from firmware_py.journal.journal import Journal, is_empty
from firmware_py.journal.lines import parse_line
from firmware_py.pad import protocol
from firmware_py.rules import Start

KILLS = 6
# Ann's decisions answered in each life before the plug is pulled: a few games in all, on a
# busy machine as on an idle one (lives of 1.2 to 2.5 s held 55 decisions each on an idle
# machine, 3 at load 25: "Ann hardly played")
DECISIONS_A_LIFE = (8, 40)


def start_tower(state_dir: Path) -> Tower:
    return Tower("--players", "Ann,Ben,Cleo", state=state_dir, pace=0.01)


def news_until_killed(tower: Tower, after: str) -> list[str]:
    """Read what the tower announces until a line matches `after` (a regular expression: the
    tower has got that far, however slow the machine), then pull the plug."""
    tower.wait_for(after)
    tower.kill()
    return tower.lines  # (with what it printed before the kill)


BOOT = 300  # Ann's pad never restarts: its request ids go on across the tower's restarts
WAIT_FOR_A_DECISION = HANG  # seconds at most for a start-up, and for a decision to kill after


class PadPlayer:
    """Ann's pad, played by a robot: it says hello whenever the tower does, joins when it has
    no seat, marks, passes or takes back what the state offers, one request at a time, sends
    the request in flight again after each restart (as a real pad does), and presses the roll
    button (Enter at the tower's keyboard) on her turns and between games."""

    def __init__(self, tmp_path: Path, rng: random.Random) -> None:
        self.pad = PtyPad(tmp_path / "pad")
        self.press: Callable[[], object] = lambda: None  # the roll button of the tower now
        self.rng = rng
        self.in_flight: tuple[int, dict] | None = None
        self.sent: set[str] = set()  # the ids of every decision sent
        self.acknowledged: list[str] = []  # answered ok, in order

    def config(self, tmp_path: Path) -> Path:
        config = tmp_path / "config.toml"
        config.write_text(
            f'[pads]\nports = ["{self.pad.path}"]\nnames = {{"pad-1" = "Ann"}}\n'
            '[table]\ncomputer_players = ["Ben", "Cleo"]\n'
        )
        return config

    def hear(self) -> None:
        """Everything the tower said to the pad so far, each answered as a pad does."""
        self.pad.names()  # reads what is there
        while self.pad.inbox:
            message = self.pad.inbox.pop(0)
            if message.name == "hello":
                self.pad.send("hello", {**pad_hello(boot=BOOT), "ident": "pad-1"})
                if self.in_flight is not None:
                    self.pad.send("request", self.in_flight[1], seq=self.in_flight[0])
            elif message.name == "answer" and self.in_flight is not None:
                self.answered(message)
            elif message.name == "state":
                self.play(message)

    def answered(self, message: protocol.Message) -> None:
        assert self.in_flight is not None
        seq, fields = self.in_flight
        if message["req"] != seq:
            return
        self.in_flight = None
        if message["status"] == protocol.OK and fields["action"] != protocol.JOIN:
            self.acknowledged.append(f"pad-1/{BOOT}/{seq}")

    def play(self, state: protocol.Message) -> None:
        if self.in_flight is not None:
            return
        flags, phase = state["flags"], protocol.PHASES[state["phase"]]
        if flags & protocol.MAY_JOIN:
            self.ask({"action": protocol.JOIN})
        elif phase in ("action1", "action2"):
            self.decide(flags, state["moves"])
        elif (phase == "roll" and flags & protocol.ACTIVE) or phase in ("idle", "over"):
            self.press()  # the roll button: roll, or a new game

    def decide(self, flags: int, moves: list[dict]) -> None:
        if flags & protocol.DECIDED:
            if flags & protocol.MAY_UNDO and self.rng.random() < 0.2:
                self.ask({"action": protocol.UNDO})
        elif moves and self.rng.random() < 0.7:
            move = self.rng.choice(moves)
            self.ask({"action": protocol.MARK, "row": move["row"], "number": move["number"]})
        elif flags & protocol.MAY_PASS:
            self.ask({"action": protocol.PASS})

    def deciding(self) -> bool:
        """A decision of Ann's is on its way to the tower, unanswered."""
        return self.in_flight is not None and self.in_flight[1]["action"] != protocol.JOIN

    def ask(self, fields: dict) -> None:
        seq = self.pad.send("request", fields)
        self.in_flight = (seq, fields)
        if fields["action"] != protocol.JOIN:
            self.sent.add(f"pad-1/{BOOT}/{seq}")


def start_tower_with_pad(tmp_path: Path, ann: PadPlayer) -> Tower:
    tower = Tower("--config", str(ann.config(tmp_path)), state=tmp_path / "state", pace=0.01,
                  keyboard=True)  # fmt: skip
    ann.press = tower.press
    return tower


def play_until_killed(
    tower: Tower,
    ann: PadPlayer,
    decisions: int,
    *,
    linger: float = 0.0,
    mid_request: float | None = None,
) -> list[str]:
    """Play Ann's pad until `decisions` more of her decisions are answered ok (as much play
    on a busy machine as on an idle one), then pull the plug: `linger` seconds later (at any
    moment of what the table does next), or with `mid_request`, that many seconds after her
    next decision went out (a few milliseconds: before its fsync, between the fsync and the
    answer, or after it). What the tower announced."""
    goal = len(ann.acknowledged) + decisions

    def settled() -> bool:
        return len(ann.acknowledged) >= goal and (mid_request is None or ann.deciding())

    deadline = time.monotonic() + WAIT_FOR_A_DECISION * (decisions + 1)
    while not settled():
        assert time.monotonic() < deadline, (
            f"Ann's pad had {len(ann.acknowledged)} decisions answered, not {goal}: "
            f"{tower.lines[-10:]}"
        )
        if select.select([ann.pad.master], [], [], 0.05)[0]:
            ann.hear()  # (then at once the check: a decision may have just gone out)
    if mid_request is not None:
        time.sleep(mid_request)
    else:
        hear_for(ann, linger)
    tower.kill()
    ann.pad.drain()  # what the tower said before it died; the pad's request stays in flight
    return tower.lines  # (with what it printed before the kill)


def hear_for(ann: PadPlayer, seconds: float) -> None:
    """Ann's pad hears and answers the tower for `seconds`."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        if select.select([ann.pad.master], [], [], left)[0]:
            ann.hear()


def journalled_requests(journal: Journal) -> Counter[str]:
    """How often each device request id is named in the journal, over every game."""
    named: Counter[str] = Counter()
    for path in journal.games():
        for line in path.read_text().splitlines():
            for ids in json.loads(line).get("request", {}).values():
                named.update(ids)
    return named


def test_sigkill_at_random_moments_loses_no_acknowledged_event(tmp_path):
    rng = random.Random(20261122)
    ann = PadPlayer(tmp_path, rng)
    printed: list[str] = []
    for kill in range(KILLS):
        mid_request = rng.uniform(0, 0.004) if kill % 2 else None  # every other kill
        decisions, linger = rng.randint(*DECISIONS_A_LIFE), rng.uniform(0, 0.5)
        with start_tower_with_pad(tmp_path, ann) as tower:
            lines = play_until_killed(tower, ann, decisions, linger=linger, mid_request=mid_request)
        printed += [line for line in lines if EVENT_NEWS.match(line)]
    state = tmp_path / "state"
    journalled = journal_news(Journal(state))
    assert len(printed) > 50, "the tower hardly played; the test proves nothing"
    assert is_in_order_within(printed, journalled)
    first = parse_line(Journal(state).games()[0].read_text().splitlines()[0])
    assert type(first) is Start
    assert Journal(state).tidy() == []  # a power cut leaves nothing to set aside
    assert not any(is_empty(path) for path in Journal(state).games())
    assert not any("unreadable" in line for line in history_lines(state))
    named = journalled_requests(Journal(state))
    assert len(ann.acknowledged) > 20, "Ann hardly played; the test proves nothing"
    assert set(named) <= ann.sent, "only what the pad sent is journalled"
    assert [request for request, times in named.items() if times > 1] == [], "applied twice"
    assert [request for request in ann.acknowledged if named[request] != 1] == []
    assert len(ann.acknowledged) == len(set(ann.acknowledged)), "one ok per request"
    ann.pad.unplug()


def test_a_kill_between_creating_a_game_file_and_writing_its_start_leaves_no_trace(tmp_path):
    """The file of a new game exists before its start event is in it: a kill in between leaves
    it empty. The next start removes it quietly; it was never a game."""
    (tmp_path / "game-000001.jsonl").write_bytes(b"")
    with start_tower(tmp_path) as tower:
        lines = news_until_killed(tower, "^New game of")  # its start is on disk
    assert not any("could not be read" in line for line in lines)
    games = Journal(tmp_path).games()
    assert games[0].name == "game-000001.jsonl"  # the number is the first game's again
    assert all(path.stat().st_size > 0 for path in games)
    assert not any("unreadable" in line for line in history_lines(tmp_path))
