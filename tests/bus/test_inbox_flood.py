"""A flood on one of the tower's topics deafens that topic only (docs/home-assistant.md, "What
the tower listens to"; docs/league.md): a guest pressing "new game" a thousand times a second
must not keep the organiser's round seating, on the tournament topic, from the table."""

from __future__ import annotations

import logging

import pytest

from firmware_py.bus import inbox as inbox_module
from firmware_py.bus.inbox import COOL_OFF, FLOOD, PER_SECOND, Actions, Inbox, Verdict
from firmware_py.bus.settings import MqttConfig
from firmware_py.bus.topics import Topics

TOPICS = Topics.of(MqttConfig(host="localhost", tower_id="t1"))
NEW_GAME = TOPICS.command("new_game")
SEATING = b'{"round": 2}'


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def tournament_inbox() -> tuple[Inbox, list[str], Clock]:
    """An inbox taking "new game" and a tournament's seating; what it did, and its clock."""
    done: list[str] = []
    actions = Actions(lambda: done.append("announce"), lambda _: done.append("resend"),
                      lambda: done.append("new game") or True,
                      seating=lambda words: done.append(words) or True)  # fmt: skip
    clock = Clock()
    return Inbox(TOPICS, ("new_game", "tournament"), actions, clock), done, clock


def test_a_flood_on_the_command_topic_leaves_the_tournament_s_seating_heard():
    box, done, clock = tournament_inbox()
    verdicts = [box.take(NEW_GAME, b"PRESS") for _ in range(FLOOD + 50)]
    assert verdicts.count(Verdict.FLOOD) == 1 and done == ["new game"] * PER_SECOND
    assert NEW_GAME not in box.listening()
    assert set(box.listening()) == {TOPICS.tournament, TOPICS.resend, TOPICS.home_assistant_status}
    assert box.take(TOPICS.tournament, SEATING, retained=True) is Verdict.TAKEN  # same second
    clock.now += COOL_OFF / 2
    assert box.take(TOPICS.tournament, SEATING, retained=True) is Verdict.TAKEN
    assert box.take(NEW_GAME, b"PRESS") is Verdict.IGNORED  # still deaf to the flooded one
    assert done[PER_SECOND:] == ['{"round": 2}'] * 2
    assert box.next_heard_again() == pytest.approx(COOL_OFF / 2)


def test_the_flooded_topic_is_heard_again_after_its_cool_off():
    box, done, clock = tournament_inbox()
    for _ in range(FLOOD):
        box.take(NEW_GAME, b"PRESS")
    clock.now += COOL_OFF
    assert NEW_GAME in box.listening() and box.next_heard_again() is None
    assert box.take(NEW_GAME, b"PRESS") is Verdict.TAKEN
    assert done[-1] == "new game"


def test_what_the_broker_sent_before_the_unsubscription_is_no_second_flood():
    """The broker keeps sending the flood until it reads the unsubscription: those messages
    are ignored and not counted, so they never deafen the tower to another topic."""
    box, _, clock = tournament_inbox()
    for _ in range(FLOOD):
        box.take(NEW_GAME, b"PRESS")
    clock.now += 1.0
    later = [box.take(NEW_GAME, b"PRESS") for _ in range(FLOOD * 3)]
    assert later == [Verdict.IGNORED] * (FLOOD * 3)
    assert box.take(TOPICS.tournament, SEATING, retained=True) is Verdict.TAKEN


def test_the_message_that_makes_the_flood_is_taken_when_its_topic_did_not_flood():
    box, done, _ = tournament_inbox()
    for _ in range(FLOOD - 1):
        box.take(NEW_GAME, b"PRESS")
    assert box.take(TOPICS.tournament, SEATING, retained=True) is Verdict.FLOOD
    assert done[-1] == '{"round": 2}' and TOPICS.tournament in box.listening()


def test_the_warning_names_the_flooded_topic_in_at_most_80_characters(caplog):
    long_topics = Topics.of(MqttConfig(host="localhost", tower_id="t" * 120))
    box = Inbox(long_topics, ("new_game",), Actions(lambda: None, lambda _: None, lambda: True))
    with caplog.at_level(logging.WARNING):
        for _ in range(FLOOD):
            box.take(long_topics.command("new_game"), b"PRESS")
    said = [record.getMessage() for record in caplog.records]
    told = [words for words in said if "stops listening" in words]
    assert told == [
        f"more than {FLOOD} messages a second came on the tower's topics: it stops listening "
        f"for 30 s to the topic {long_topics.command('new_game')[:80]!r} (it still hears the "
        "others, and the game goes on)"
    ]


def test_many_topics_each_carrying_a_little_deafen_them_all(monkeypatch):
    """No one topic over its budget: none is to blame, and only deafening all stops it."""
    monkeypatch.setattr(inbox_module, "FLOOD", 4 * PER_SECOND)
    box, _, _ = tournament_inbox()
    spread = [NEW_GAME, TOPICS.tournament, TOPICS.resend, TOPICS.home_assistant_status]
    verdicts = [box.take(topic, b"") for _ in range(PER_SECOND) for topic in spread]
    assert verdicts[-1] is Verdict.FLOOD and box.listening() == []
