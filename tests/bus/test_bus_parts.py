"""The bus client's parts without a broker: what a game's views become (state and events), the
device for Home Assistant against its rules, the inbox's checks of whatever a LAN device
publishes, the bounded outbox, and the journal's results published at least once."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.bus_schema import (
    device_problems,
    event_problems,
    read,
    state_problems,
    template_paths,
)

from firmware_py.bus.discovery import device_message
from firmware_py.bus.inbox import COOL_OFF, FLOOD, PER_SECOND, Actions, Inbox, Verdict
from firmware_py.bus.outbox import MAX_WAITING, Message, Outbox
from firmware_py.bus.payloads import events_between, state_of
from firmware_py.bus.results import Results
from firmware_py.bus.settings import MqttConfig
from firmware_py.bus.topics import Topics
from firmware_py.journal.journal import Journal
from firmware_py.players.thumb import choose
from firmware_py.rules import ROLL, Game, Mark, Pass, Roll, Start
from firmware_py.seating import COMPUTER, SeatSpec
from firmware_py.view import TableView, table_view
from sheets import COLOURS

SETTINGS = MqttConfig(host="localhost", tower_id="t1")
TOPICS = Topics.of(SETTINGS)


# ---- a game's views ------------------------------------------------------------------------


def played(seed: int, players=("Ann", "Ben", "Cleo")) -> tuple[list[TableView], dict[str, int]]:
    """A whole classic game by the rule of thumb, one view per event (as the table publishes
    them), and how many rolls and marks there were."""
    rng = random.Random(seed)
    game = Game.start(Start("classic", players))
    views, counts = [], {"roll": 0, "mark": 0}
    while not game.over:
        before = game.copy()
        if game.phase is ROLL:
            dice = Roll(
                (rng.randint(1, 6), rng.randint(1, 6)),
                {c: rng.randint(1, 6) for c in game.dice_in_play()},
            )
            game.apply(dice)
            counts["roll"] += 1
        else:
            decision = choose(game, game.waiting_for()[0])
            game.apply(decision)
            counts["mark"] += type(decision).__name__ == "Mark"
        new_locks = tuple(COLOURS[row] for row in game.locked[len(before.locked) :])
        views.append(
            TableView(
                str(game.phase),
                phase=str(game.phase),
                game=game.copy(),
                new_locks=new_locks,
                ended=game.over,
            )
        )
    return views, counts


@pytest.mark.parametrize("seed", range(5))
def test_a_game_s_views_tell_every_roll_cross_penalty_lock_and_the_end(seed):
    views, counts = played(seed)
    events = []
    for before, view in itertools.pairwise(views):
        events += events_between(before.game, view, "t1-000001")
    first = events_between(Game.start(Start("classic", ("Ann", "Ben", "Cleo"))), views[0], "t1")
    kinds = [e["event_type"] for e in first + events]
    final = views[-1].game
    assert kinds.count("roll") == counts["roll"]
    assert kinds.count("cross") == counts["mark"]  # (classic: one number a mark)
    assert kinds.count("penalty") == sum(player.penalties for player in final.players)
    assert kinds.count("lock") == len(final.locked) and kinds[-1] == "game_over"
    over = (first + events)[-1]
    assert over["winners"] == final.winners() and over["scores"] == {
        p.name: final.total(p.name) for p in final.players
    }


@pytest.mark.parametrize(
    ("variant", "again", "told"),
    [
        ("double-a", Mark("Ann", "red", 5), [("red", 5)]),  # red 5 crossed a second time
        ("double-b", Mark("Ann", "yellow", 5), [("yellow", 5), ("yellow", 5)]),  # printed double
        ("big-points", Mark("Ann", "red-yellow", 5), [("red-yellow", 5)]),  # a bonus box
    ],
)
def test_a_cross_beyond_the_four_rows_is_told_by_its_row_and_number(variant, again, told):
    """docs/home-assistant.md: a Double sheet's second cross is its number crossed again, a Big
    Points box is named by its bonus row (the presenter raised an IndexError on both)."""
    dice = {"red": 4, "yellow": 1, "green": 1, "blue": 1}
    game = Game.start(Start(variant, ("Ann",)))
    game.apply(Roll((4, 1), dice))
    game.apply(Mark("Ann", "red", 5))
    game.apply(Pass("Ann"))
    game.apply(Roll((4, 1), dice))
    before = game.copy()
    game.apply(again)
    events = events_between(before, TableView("action2", game=game), "t1-000001")
    crossed = [(e["row"], e["number"]) for e in events if e["event_type"] == "cross"]
    assert crossed == told
    assert all(event_problems(event) == [] for event in events)


def test_the_state_has_five_seats_and_reads_as_documented():
    game = Game.start(Start("classic", ("Ann", "Ben")))
    game.apply(Roll((3, 4), {"red": 1, "yellow": 2, "green": 3, "blue": 4}))
    view = table_view(game)
    state = state_of(TableView(view.screen, title="Qwixx", phase="action1", game=game), "t1-1")
    assert state_problems(as_sent(state)) == []
    assert (state["white_sum"], state["active"], state["leader"]) == (7, "Ann", "Ann and Ben")
    assert [seat["name"] for seat in state["seats"]] == ["Ann", "Ben", None, None, None]
    between = state_of(TableView("attract", title="Qwixx Longo", phase="attract"), None)
    assert (between["variant"], between["game"], between["active"]) == ("longo", None, None)


def as_sent(state: dict) -> dict:
    """The state as the presenter leaves it in the outbox and the link sends it."""
    return json.loads(Message("qwixx/t1/state", json.dumps(state), clocked=True).sendable())


def test_the_state_says_the_towers_time_as_it_is_sent_not_as_it_was_made():
    """A league compares the state's `clock` with its own clock to see a tower's clock is
    wrong: a state kept through an outage and sent at the connection must say the time it is
    sent, not the time the table changed."""
    made = state_of(TableView("attract", title="Qwixx", phase="attract"), None)
    message = Message("qwixx/t1/state", json.dumps(made), retain=True, clocked=True)
    assert "clock" not in json.loads(message.payload)  # (kept as made: compared, never sent)
    before = datetime.now(UTC)
    sent = json.loads(message.sendable())
    after = datetime.now(UTC)
    assert before - timedelta(milliseconds=1) <= datetime.fromisoformat(sent["clock"]) <= after
    assert {key: value for key, value in sent.items() if key != "clock"} == made
    event = Message("qwixx/t1/event", json.dumps({"event_type": "roll"}))
    assert event.sendable() == event.payload  # an event has its own time


# ---- the device for Home Assistant ------------------------------------------------------


@pytest.mark.parametrize("commands", [(), ("new_game",)])
def test_the_device_message_passes_home_assistant_s_rules(commands):
    device = device_message(MqttConfig(host="h", tower_id="kitchen", commands=commands))
    assert device_problems(device) == []
    button = device["components"]["new_game"]
    assert ("command_topic" in button) == bool(commands)  # else: removed (platform alone)


def test_every_template_reads_a_field_the_state_has():
    game = Game.start(Start("classic", ("Ann", "Ben")))
    state = state_of(TableView("roll", title="Qwixx", phase="roll", game=game), "t1-1")
    for key, component in device_message(SETTINGS)["components"].items():
        for name in ("value_template", "json_attributes_template"):
            for path in template_paths(component.get(name, "")):
                read(state, path)  # (KeyError or IndexError: a field the state lacks)
        assert component.get("value_template", "{{").startswith("{{"), key


# ---- the inbox ----------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def inbox(phase: list[str] | None = None, commands=("new_game",)):
    asked: list[object] = []
    between = phase if phase is not None else ["attract"]

    def new_game() -> bool:
        asked.append("new game")
        return between[0] in ("attract", "game over")

    actions = Actions(lambda: asked.append("announce"), asked.append, new_game)
    clock = Clock()
    return Inbox(TOPICS, commands, actions, clock), asked, clock


@given(st.text(max_size=200), st.binary(max_size=300))
def test_any_topic_and_any_bytes_are_taken_or_ignored_never_raising(topic, payload):
    box, asked, clock = inbox()
    for _ in range(3):
        clock.now += 1.0
        assert box.take(topic, payload) in (Verdict.TAKEN, Verdict.IGNORED)
    assert box.counts.malformed == (0 if asked else 3) or asked


def test_what_each_topic_takes():
    box, asked, clock = inbox()
    cases = [
        (TOPICS.home_assistant_status, b"online", "announce"),
        (TOPICS.resend, b"", 0),
        (TOPICS.resend, b"12", 12),
        (TOPICS.command("new_game"), b"PRESS", "new game"),
    ]
    for topic, payload, action in cases:
        clock.now += 1.0
        assert box.take(topic, payload) is Verdict.TAKEN and asked[-1] == action
    wrong = [
        (TOPICS.resend, b"-1"),
        (TOPICS.command("new_game"), b"press"),
        (TOPICS.home_assistant_status, b"x" * 65),
        ("qwixx/t1/other", b""),
    ]
    for topic, payload in wrong:
        clock.now += 1.0
        assert box.take(topic, payload) is Verdict.IGNORED
    assert box.counts.malformed == 4 and len(asked) == 4


def test_a_resend_of_a_number_in_other_digits_is_ignored_not_a_crash():
    """docs/home-assistant.md: the resend takes "a game number (12)". A superscript two is a
    digit to str.isdigit() but not to int(): it ended the bus client in a traceback (found by
    tools/fuzz.py bus_inbox). Other scripts' digits (Arabic-Indic, mathematical bold) are
    ignored the same way."""
    box, asked, clock = inbox()
    for payload in ("²".encode(), "٣".encode(), "\U0001d7d7".encode(), "1²".encode()):
        clock.now += 1.0
        assert box.take(TOPICS.resend, payload) is Verdict.IGNORED
    assert asked == [] and box.counts.malformed == 4


def test_a_retained_command_is_never_done():
    """A press or a resend left retained on the broker would come at every connection."""
    box, asked, clock = inbox()
    for topic, payload in ((TOPICS.command("new_game"), b"PRESS"), (TOPICS.resend, b"")):
        clock.now += 1.0
        assert box.take(topic, payload, retained=True) is Verdict.IGNORED
    assert asked == [] and box.counts.malformed == 2
    assert box.take(TOPICS.home_assistant_status, b"online", retained=True) is Verdict.TAKEN


def test_new_game_only_where_allowed_and_only_between_games():
    box, *_ = inbox(commands=())
    assert TOPICS.command("new_game") not in box.topics
    box, *_ = inbox(["action1"])
    assert box.take(TOPICS.command("new_game"), b"PRESS") is Verdict.TAKEN
    assert box.counts.refused == 1


def test_a_flood_is_ignored_then_not_listened_to():
    box, asked, clock = inbox()
    verdicts = [box.take(TOPICS.resend, b"all") for _ in range(FLOOD + 50)]
    assert verdicts[:PER_SECOND] == [Verdict.TAKEN] * PER_SECOND
    assert verdicts.count(Verdict.FLOOD) == 1 and len(asked) == PER_SECOND
    clock.now += COOL_OFF / 2
    assert box.take(TOPICS.resend, b"all") is Verdict.IGNORED  # still not listening
    clock.now += COOL_OFF
    assert box.take(TOPICS.resend, b"all") is Verdict.TAKEN


def test_rubbish_on_one_topic_never_crowds_out_the_organiser_s_seating_on_another():
    """A careless or hostile device publishes 50 a second on the league's players topic, short
    of a flood: the players' budget is spent, and the round's seating, on its own topic in the
    same second, is still taken (one budget for all topics dropped it nine times in ten)."""
    seatings: list[str] = []
    actions = Actions(lambda: None, lambda _: None, lambda: True,
                      seating=lambda words: seatings.append(words) or True,
                      players=lambda words: words.startswith("["))  # fmt: skip
    clock = Clock()
    box = Inbox(TOPICS, ("tournament", "players"), actions, clock)
    rubbish = [box.take(TOPICS.players, b"rubbish") for _ in range(50)]
    assert rubbish.count(Verdict.IGNORED) == 50 and box.counts.too_many == 50 - PER_SECOND
    assert box.take(TOPICS.tournament, b'{"round": 2}', retained=True) is Verdict.TAKEN
    assert seatings == ['{"round": 2}']


# ---- the outbox ---------------------------------------------------------------------------


def test_the_outbox_is_bounded_and_keeps_the_newest_state():
    box = Outbox()
    box.add(Message("e", "lost"))  # not connected: an event is not kept
    box.keep(Message("s", "1", retain=True))
    box.opened([Message("d", "device", retain=True)])
    for n in range(MAX_WAITING + 10):
        box.add(Message("e", str(n)))
    box.keep(Message("s", "2", retain=True))
    waiting = box.take_all()
    assert len(waiting) == MAX_WAITING and waiting[-1] == Message("s", "2", retain=True)
    # the one before connecting, and the 13 oldest beyond the bound (the device and the first
    # state among them: a connection sends every retained message again)
    assert box.dropped == 1 + 13


# ---- results from the journal -------------------------------------------------------------


def finished_game(journal: Journal, seed: int) -> None:
    views, _ = played(seed, ("Ann", "Ben"))
    game_log = journal.begin(Start("classic", ("Ann", "Ben")))
    journal.note_seats(game_log.path, [SeatSpec("Ann", COMPUTER), SeatSpec("Ben", COMPUTER)])
    replay = Game.start(Start("classic", ("Ann", "Ben")))
    for before, view in zip([None, *views], views, strict=False):
        del before
        event = last_event(replay, view.game)
        replay.apply(event)
        game_log.append(event)
    game_log.close()


def last_event(replay: Game, target: Game):
    """The event that takes `replay` to `target` (one step of `played`)."""
    if replay.phase is ROLL:
        return Roll(target.dice.white, dict(target.dice.colours))
    for name in replay.waiting_for():
        decision = choose(replay, name)
        trial = replay.copy()
        trial.apply(decision)
        if trial.state() == target.state():
            return decision
    raise AssertionError("no event leads there")


def test_results_are_published_at_least_once_and_noted_when_acknowledged(tmp_path: Path):
    journal = Journal(tmp_path)
    for seed in (1, 2):
        finished_game(journal, seed)
    journal.begin(Start("classic", ("Ann", "Ben"))).close()  # the game on: not done yet
    sent: list[dict] = []

    async def broker_down(payload: str) -> None:
        raise OSError("connection lost")

    async def broker(payload: str) -> None:
        sent.append(json.loads(payload))

    results = Results(journal, "t1", "localhost:1883 qwixx/t1/result")
    with pytest.raises(OSError):
        asyncio.run(results.publish_all(broker_down))
    assert results.through == 0  # nothing acknowledged: nothing noted
    asyncio.run(results.publish_all(broker))
    assert [r["game"] for r in sent] == [1, 2] and results.through == 2
    again = Results(journal, "t1", "localhost:1883 qwixx/t1/result")  # a restart
    asyncio.run(again.publish_all(broker))
    assert len(sent) == 2  # the note says both were acknowledged
    again.resend(2)
    asyncio.run(again.publish_all(broker))
    assert [r["game"] for r in sent] == [1, 2, 2] and sent[1] == sent[2]
    elsewhere = Results(journal, "t1", "other:1883 qwixx/t1/result")  # another broker: all
    asyncio.run(elsewhere.publish_all(broker))
    assert [r["game"] for r in sent[3:]] == [1, 2]
    again.resend(7)  # a league holding game 6 of this tower: its journal was emptied since
    asyncio.run(again.publish_all(broker))
    assert [r["game"] for r in sent[5:]] == [1, 2]  # so it gets every game of this journal


def test_each_result_names_the_finished_game_before_it(tmp_path: Path):
    """A result says which finished game came before it in the journal (`previous`, skipping
    a game abandoned in between, which has no result), so a league that lacks that one knows
    a result was dropped on the way (docs/home-assistant.md, "result")."""
    journal = Journal(tmp_path)
    finished_game(journal, 1)
    journal.abandon(journal.begin(Start("classic", ("Ann", "Ben"))).path)  # game 2: no result
    finished_game(journal, 3)
    sent: list[dict] = []

    async def broker(payload: str) -> None:
        sent.append(json.loads(payload))

    asyncio.run(Results(journal, "t1", "localhost:1883 qwixx/t1/result").publish_all(broker))
    assert [r["game"] for r in sent] == [1, 3]
    assert sent[0]["previous"] is None  # the first game of this journal
    assert sent[1]["previous"] == sent[0]["id"]
    asked = Results(journal, "t1", "localhost:1883 qwixx/t1/result")  # after a restart
    asked.through = 3
    asked.resend(3)  # game 3 alone: the one before it is read from the journal
    asyncio.run(asked.publish_all(broker))
    assert sent[2] == sent[1]
