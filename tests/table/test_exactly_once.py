"""Exactly once, whatever fails: a pad's decision is applied once and answered with what was
done, also when the tower is killed between its journal's fsync and its answer; and a pad's
ident is bound to the port it said hello on.

Each tower below is a fresh `Table` and `PadHub` over the same journal directory, as after a
restart; "killed before the answer" drops the link's answer, as a SIGKILL after the fsync would.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from functools import partial

from support.table import clocked_table, make_table, run_table, until

from drivers.simulated.pad import PtyPad, pad_hello
from firmware_py.app.assembly import attach_pads
from firmware_py.journal.journal import Journal
from firmware_py.pad import protocol
from firmware_py.rules import Mark, Pass, Roll
from firmware_py.seating import COMPUTER, PAD, SeatSpec
from firmware_py.seats.pads import JOIN_INTERVAL, PadHub
from firmware_py.table.requests import PLAYERS, WINDOW, AppliedRequests, request_id

ROLL = Roll((4, 1), {"red": 6, "yellow": 2, "green": 3, "blue": 6})  # white sum 5
PASS = {"action": protocol.PASS}
MARK_RED_5 = {"action": protocol.MARK, "row": 1, "number": 5, "flags": 0, "choice": 0}


class Evening:
    """Ann on a pad (ident pad-1) and Bot, a computer player that waits for the test; the
    journal in `games` outlives each tower."""

    def __init__(self, tmp_path, seats=None):
        self.games = tmp_path / "games"
        self.pad = PtyPad(tmp_path / "pad", heartbeats=True)
        self.seats = seats or [SeatSpec("Ann", PAD), SeatSpec("Bot", COMPUTER)]

    def tower(self):
        table = make_table(self.games, self.seats)
        table.settings = replace(
            table.settings, pace=60
        )  # the computer player waits: the test decides the order
        return table, attach_pads(table, [str(self.pad.path)], {"pad-1": "Ann"})

    async def meet(self, table, hub, boot=9) -> None:
        hub.open(asyncio.get_running_loop())
        await asyncio.to_thread(self.pad.expect, "hello")
        self.pad.send("hello", {**pad_hello(boot=boot), "ident": "pad-1"})
        await until(lambda: "pad-1" in hub.seated)

    def ask(self, fields, seq=None) -> dict:
        """Send a request (again, with `seq`) and wait for its answer."""
        seq = self.pad.send("request", fields, seq=seq)
        return self.pad.expect("answer", req=seq).fields

    def play(self, *steps) -> None:
        """Each step runs on a tower of its own: the tower before it was killed."""
        for step in steps:
            table, hub = self.tower()
            run_table(table, partial(step, table, hub), hub)
            self.pad.drain()

    def journal_lines(self) -> list[dict]:
        return [
            json.loads(line) for line in Journal(self.games).games()[-1].read_text().splitlines()
        ]


def kill_before_the_answer(hub: PadHub) -> None:
    hub.links[0].answer = lambda *args, **kwargs: None


def test_a_pass_retried_after_a_restart_is_not_applied_again_in_the_next_action(tmp_path):
    """Issue: Ann's pass ends action 1 and is journalled; the tower dies before answering;
    after the restart the game waits for Ann's action-2 decision, and the retry of the same
    request was taken as that pass too (a penalty she never chose). Now it is answered ok and
    nothing more happens."""
    evening = Evening(tmp_path)
    sent: dict[str, int] = {}

    async def before_the_kill(table, hub) -> None:
        await evening.meet(table, hub)
        table.new_game()
        table.submit(ROLL)  # Ann, the active player, rolled
        table.submit(Pass("Bot"))
        await asyncio.to_thread(evening.pad.expect, "state", phase=2)
        kill_before_the_answer(hub)
        sent["seq"] = evening.pad.send("request", PASS)
        await until(lambda: table.game.phase == "action2")

    async def after_the_restart(table, hub) -> None:
        await evening.meet(table, hub)
        assert table.game.phase == "action2" and table.game.active_name == "Ann"
        answer = await asyncio.to_thread(evening.ask, PASS, sent["seq"])
        assert answer["status"] == protocol.OK
        assert table.game.phase == "action2", "the retry was not Ann's action-2 pass"
        assert table.game.player("Ann").penalties == 0

    evening.play(before_the_kill, after_the_restart)
    passes = [line for line in evening.journal_lines() if line["event"] == "pass"]
    assert [p["player"] for p in passes] == ["Bot", "Ann"]


def test_the_retry_of_a_game_ending_decision_after_a_restart_hears_ok_not_no_seat(tmp_path):
    """Issue: Ann's fourth penalty ends the game; it is journalled, the tower dies before
    answering; after the restart her retry was answered "this pad has no seat"."""
    evening = Evening(tmp_path)
    sent: dict[str, int] = {}

    async def before_the_kill(table, hub) -> None:
        await evening.meet(table, hub)
        table.new_game()
        for turn in range(7):  # Ann rolls on turns 0, 2, 4, 6 and passes both actions
            table.submit(ROLL)
            table.submit(Pass("Bot"))
            if turn % 2 == 0 and turn < 6:
                table.submit(Pass("Ann"))
                table.submit(Pass("Ann"))
            elif turn % 2 == 1:
                table.submit(Pass("Ann"))
                table.submit(Pass("Bot"))
        table.submit(Pass("Ann"))  # action 1 of her fourth turn
        assert table.game.player("Ann").penalties == 3
        kill_before_the_answer(hub)
        sent["seq"] = evening.pad.send("request", PASS)
        await until(lambda: table.game.over)

    async def after_the_restart(table, hub) -> None:
        hub.open(asyncio.get_running_loop())
        await asyncio.to_thread(evening.pad.expect, "hello")
        evening.pad.send("hello", {**pad_hello(boot=9), "ident": "pad-1"})
        answer = await asyncio.to_thread(evening.ask, PASS, sent["seq"])
        assert (answer["status"], answer["text"]) == (protocol.OK, "")

    evening.play(before_the_kill, after_the_restart)
    assert evening.journal_lines()[-1]["event"] == "pass"


def test_a_new_request_equal_to_the_last_decision_is_refused_not_answered_ok(tmp_path):
    """Issue: Ann's last journalled decision is a pass; while the tower is down her pad sends
    another pass (a new request); the rules refuse it after the restart, but it equalled her
    last decision, so the tower answered ok for something it never did."""
    evening = Evening(tmp_path)

    async def before_the_stop(table, hub) -> None:
        await evening.meet(table, hub)
        table.new_game()
        table.submit(ROLL)
        await asyncio.to_thread(evening.pad.expect, "state", phase=2)
        assert (await asyncio.to_thread(evening.ask, PASS))["status"] == protocol.OK

    async def after_the_restart(table, hub) -> None:
        await evening.meet(table, hub)
        answer = await asyncio.to_thread(evening.ask, PASS)  # a new request: new number
        assert answer["status"] == protocol.RULE
        assert "already" in answer["text"]

    evening.play(before_the_stop, after_the_restart)


def test_an_old_request_replayed_later_is_refused_and_never_applied_again(tmp_path):
    """Issue: the tower remembered only a pad's last request, so old frames replayed later
    were applied again. Ann marks red 5, then plays on; her first request, replayed, changes
    nothing, on the same tower and after a restart."""
    evening = Evening(tmp_path)
    first: dict[str, int] = {}

    async def tonight(table, hub) -> None:
        await evening.meet(table, hub)
        table.new_game()
        table.submit(ROLL)
        first["seq"] = seq = evening.pad.send("request", MARK_RED_5)
        answer = await asyncio.to_thread(evening.pad.expect, "answer", req=seq)
        assert answer["status"] == protocol.OK
        table.submit(Pass("Bot"))
        assert (await asyncio.to_thread(evening.ask, PASS))["status"] == protocol.OK  # action 2
        for _ in range(3):  # Bot's turns: Ann passes each action 1
            table.submit(ROLL)
            assert (await asyncio.to_thread(evening.ask, PASS))["status"] == protocol.OK
            table.submit(Pass("Bot"))
            table.submit(Pass("Bot"))
            table.submit(ROLL)
            table.submit(Pass("Bot"))
            assert (await asyncio.to_thread(evening.ask, PASS))["status"] == protocol.OK
            assert (await asyncio.to_thread(evening.ask, PASS))["status"] == protocol.OK

    async def replayed(table, hub) -> None:
        await evening.meet(table, hub)
        table.submit(ROLL)
        crosses = table.game.player("Ann").crosses(0)
        answer = await asyncio.to_thread(evening.ask, MARK_RED_5, first["seq"])
        assert answer["status"] == protocol.OK  # its original outcome, from the journal
        assert table.game.player("Ann").crosses(0) == crosses  # and not applied again

    evening.play(tonight, replayed)


def test_a_second_device_with_a_pads_ident_is_refused_while_the_first_is_plugged(tmp_path):
    """Issue: a device saying hello with Ann's ident on another port got her screen and could
    pass for her. Now it is refused with the reason, and Ann's pad keeps her seat; once Ann's
    pad is unplugged, her ident (and seat) may move to the other port."""
    games = tmp_path / "games"
    ann, spoof = PtyPad(tmp_path / "ann"), PtyPad(tmp_path / "spoof")
    table = make_table(games, [SeatSpec("Ann", PAD), SeatSpec("Bot", COMPUTER)])
    table.settings = replace(table.settings, pace=60)
    hub = attach_pads(table, [str(ann.path), str(spoof.path)], {"pad-1": "Ann"}, retry=(0.05, 0.1))

    async def play() -> None:
        hub.open(asyncio.get_running_loop())
        for pad in (ann, spoof):
            await asyncio.to_thread(pad.expect, "hello")
        ann.send("hello", {**pad_hello(boot=1), "ident": "pad-1"})
        await asyncio.to_thread(ann.expect, "state", player="Ann")
        table.new_game()
        table.submit(ROLL)
        spoof.send("hello", {**pad_hello(boot=2), "ident": "pad-1"})
        ack = await asyncio.to_thread(spoof.expect, "hello_ack")
        assert ack["status"] == protocol.TAKEN
        assert "another pad" in ack["text"]
        seq = spoof.send("request", PASS)
        answer = await asyncio.to_thread(spoof.expect, "answer", req=seq)
        assert answer["status"] == protocol.NO_SESSION
        assert table.game.seat["Ann"] not in table.game.decisions  # no pass for Ann
        assert "state" not in spoof.names()  # it never saw Ann's sheet
        ann.unplug()
        await until(lambda: not hub.links[0].present)
        spoof.send("hello", {**pad_hello(boot=2), "ident": "pad-1"})
        state = await asyncio.to_thread(spoof.expect, "state", player="Ann")
        assert state["phase"] == 2  # the seat moved with the pad, now that its port is gone

    run_table(table, play, hub)


def test_one_device_changing_its_ident_cannot_fill_the_table(tmp_path):
    """Issue: one device saying hello with new idents filled the table with phantom players.
    A port holds one seat until it goes away."""
    pad = PtyPad(tmp_path / "pad")
    table = make_table(tmp_path / "games", [SeatSpec("Bot", COMPUTER)])
    table.settings = replace(table.settings, pace=60)
    hub = attach_pads(table, [str(pad.path)])

    async def play() -> None:
        hub.open(asyncio.get_running_loop())
        await asyncio.to_thread(pad.expect, "hello")
        for number in range(1, 5):
            pad.send("hello", {**pad_hello(boot=number), "ident": f"pad-{number}"})
            await asyncio.to_thread(pad.expect, "state")
            answer = await asyncio.to_thread(_join, pad)
            assert (answer["status"] == protocol.OK) == (number == 1), answer
        assert [seat.name for seat in table.seating.seats] == ["Bot", "Player 2"]

    run_table(table, play, hub)


def test_joins_through_one_port_are_rate_limited_so_one_device_cannot_fill_the_table(tmp_path):
    """A port holds one seat while its pad is up; a device that leaves (unplugged, or silent)
    and comes back on the same port under a new ident would otherwise join again and again.
    A second new seat through that port waits JOIN_INTERVAL after the first; another port is
    not held up."""
    path = tmp_path / "pad"
    first, other = PtyPad(path), PtyPad(tmp_path / "other")
    table, clock = clocked_table(tmp_path / "games", [SeatSpec("Bot", COMPUTER)])
    table.settings = replace(table.settings, pace=600, autoplay=False)
    hub = attach_pads(table, [str(path), str(other.path)], retry=(0.05, 0.1))

    async def play() -> None:
        hub.open(asyncio.get_running_loop())
        await asyncio.to_thread(first.expect, "hello")
        first.send("hello", {**pad_hello(boot=1), "ident": "pad-1"})
        assert (await asyncio.to_thread(_join, first))["status"] == protocol.OK
        first.unplug()
        await until(lambda: not hub.links[0].present)
        again = PtyPad(path)  # the same device, back on the same port as someone new
        await asyncio.to_thread(again.expect, "hello")
        again.send("hello", {**pad_hello(boot=2), "ident": "pad-2"})
        answer = await asyncio.to_thread(_join, again)
        assert answer["status"] == protocol.NOT_NOW
        assert (
            answer["text"]
            == f"a player joined on this cable a moment ago: try again in {JOIN_INTERVAL:.0f} s"
        )
        await asyncio.to_thread(other.expect, "hello")
        other.send("hello", {**pad_hello(boot=3), "ident": "pad-3"})
        assert (await asyncio.to_thread(_join, other))["status"] == protocol.OK  # its own port
        clock.advance(JOIN_INTERVAL / 2)
        assert (await asyncio.to_thread(_join, again))["status"] == protocol.NOT_NOW
        clock.advance(JOIN_INTERVAL / 2)
        assert (await asyncio.to_thread(_join, again))["status"] == protocol.OK
        assert (await asyncio.to_thread(_join, again))["status"] == protocol.OK  # seated: no-op
        assert [seat.name for seat in table.seating.seats] == [
            "Bot",
            "Player 2",
            "Player 3",
            "Player 4",
        ]
        again.unplug()

    run_table(table, play, hub)
    other.unplug()


def _join(pad: PtyPad) -> dict:
    seq = pad.send("request", {"action": protocol.JOIN})
    return pad.expect("answer", req=seq).fields


def test_journal_lines_name_the_request_they_answered_and_replay_without_it(tmp_path):
    """The optional "request" of shared/spec/game-log.md: written with each pad decision,
    ignored by replay."""
    evening = Evening(tmp_path)

    async def tonight(table, hub) -> None:
        await evening.meet(table, hub, boot=41)
        table.new_game()
        table.submit(ROLL)
        seq = evening.pad.send("request", MARK_RED_5)
        answer = await asyncio.to_thread(evening.pad.expect, "answer", req=seq)
        assert answer["status"] == protocol.OK
        assert table.game.player("Ann").crosses(0) == 1
        lines = evening.journal_lines()
        assert lines[-1]["request"] == {"Ann": [f"pad-1/41/{seq}"]}
        assert Mark("Ann", "red", 5) in [Mark("Ann", line.get("row"), line.get("number", 0))
                                         for line in lines]  # fmt: skip

    evening.play(tonight)


def test_requests_older_than_the_window_are_recognised_as_replays():
    """A pad sends hundreds of requests in an evening; the table keeps the last WINDOW ids per
    player, and one older than the newest applied for the same device and boot is a replay."""
    applied = AppliedRequests()
    for seq in range(1, 300):
        applied.remember("Ann", request_id("pad-1", 9, seq))
    assert applied.applied("pad-1/9/299") and not applied.applied("pad-1/9/3")
    assert applied.stale("pad-1/9/3")  # an old frame, replayed: refused, never applied
    assert not applied.stale("pad-1/9/300")  # the next request
    assert not applied.stale("pad-1/10/3")  # the pad restarted: it numbers afresh
    applied = AppliedRequests()
    for seq in range(65400, 65536):
        applied.remember("Ann", request_id("pad-1", 9, seq))
    applied.remember("Ann", request_id("pad-1", 9, 1))  # numbers wrap after 65535
    assert applied.stale("pad-1/9/65420") and not applied.stale("pad-1/9/2")


def test_the_memory_of_requests_is_bounded_over_years_of_games():
    applied = AppliedRequests()
    for game in range(2000):
        for seq in range(40):
            applied.remember(f"Player {game % 40}", request_id(f"pad-{game}", game, seq))
    kept = applied.of_players(f"Player {n}" for n in range(40))
    assert len(kept) <= PLAYERS * WINDOW
