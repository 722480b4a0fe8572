"""What the tower takes from the bus, checked as a phone's messages are: every device on a
house's network may publish anything on any topic, by mistake or on purpose.

The tower listens to three kinds of topic: Home Assistant's status (its birth message: the
device is announced again), the request to publish the results again, and the named commands
[mqtt] allows ("new_game", which presses the roll button between games; "tournament", a
league's seating for a tournament's round, `tournament.py`, retained and up to MAX_SEATING
bytes; "players", the league's players for the menu, `league_players.py`). Anything else,
a payload longer than MAX_PAYLOAD bytes, or one that is not what the topic takes, is counted as
malformed and ignored; more than PER_SECOND messages in a second on one topic are ignored as
too many (each topic its own budget, so rubbish on one never crowds out the organiser's seating
on another). FLOOD in a second across them all make the tower stop listening for COOL_OFF
seconds to the topics that flooded, and only those (`_deafen`): the link unsubscribes them, so
the broker stops sending them, and subscribes each again once its cool-off has passed (a
retained message comes again), while the organiser's seating on the tournament topic is still
heard at once. None of it raises, and the counts are logged at most once a minute.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from firmware_py.bus.league_players import MAX_MESSAGE as MAX_PLAYERS_MESSAGE
from firmware_py.bus.topics import ONLINE, PRESS, Topics
from firmware_py.bus.tournament import MAX_SEATING
from firmware_py.words import in_digits

log = logging.getLogger(__name__)

MAX_PAYLOAD = 64  # bytes: "online", "PRESS", a game number
PER_SECOND = 5  # messages taken in one second on one topic; more are ignored
FLOOD = 100  # messages in one second that make the tower stop listening to a topic a while
COOL_OFF = 30.0  # seconds the tower does not listen to a topic that flooded
REPORT_EVERY = 60.0  # seconds between two log lines of what was ignored


class Verdict(Enum):
    """What the link does after a message: nothing more, or stop listening to the topics that
    flooded for a while (`Inbox.listening`)."""

    TAKEN = "taken"
    IGNORED = "ignored"
    FLOOD = "flood"


class TableButton(Protocol):
    """What the bus's "new game" may ask of the table: its roll button pressed between games
    (which starts the next game with the seats at the table), the displays woken first."""

    def touched(self) -> None: ...
    def go_on(self) -> None: ...


@dataclass
class Counts:
    """Messages ignored since the start, by why."""

    malformed: int = 0
    too_many: int = 0
    refused: int = 0  # a new game asked for while one is being played
    last: str = ""  # what the last malformed one was, in words
    said: dict[str, int] = field(default_factory=dict)  # the counts last logged


@dataclass
class Actions:
    """What a message may set off: Home Assistant's device announced again, the results
    published again (from a game number), a new game."""

    announce: Callable[[], None]
    resend: Callable[[int], None]
    new_game: Callable[[], bool]  # False: not now (a game is being played)
    seating: Callable[[str], bool] | None = None  # a tournament's seating; False: not one
    players: Callable[[str], bool] | None = None  # the league's players; False: not a list


class Inbox:
    """The topics the tower subscribes to, and each message they bring, checked."""

    def __init__(
        self,
        topics: Topics,
        commands: tuple[str, ...],
        actions: Actions,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.actions = actions
        self.clock = clock
        self.counts = Counts()
        self.handlers: dict[str, Callable[[str], bool]] = {
            topics.home_assistant_status: self._status,
            topics.resend: self._resend,
        }
        if "new_game" in commands:
            self.handlers[topics.command("new_game")] = self._new_game
        self.retained_taken = {topics.home_assistant_status}  # (a state, not a command)
        self.limits: dict[str, int] = {}
        if "tournament" in commands and actions.seating is not None:
            self.handlers[topics.tournament] = actions.seating
            self.retained_taken.add(topics.tournament)
            self.limits[topics.tournament] = MAX_SEATING
        if "players" in commands and actions.players is not None:
            self.handlers[topics.players] = actions.players
            self.retained_taken.add(topics.players)
            self.limits[topics.players] = MAX_PLAYERS_MESSAGE
        # (which second, messages in it): on each topic listened to, and on all (None)
        self._seconds: dict[str | None, tuple[int, int]] = {}
        self._deaf: dict[str, float] = {}  # topic ("" for any other): deaf until then
        self._flooded = False  # a flood seen in the message being taken
        self._reported = 0.0

    @property
    def topics(self) -> list[str]:
        return list(self.handlers)

    def listening(self) -> list[str]:
        """The topics the tower listens to now: all but those that flooded within COOL_OFF."""
        now = self.clock()
        return [topic for topic in self.handlers if now >= self._deaf.get(topic, 0.0)]

    def next_heard_again(self) -> float | None:
        """Seconds until the first deaf topic is listened to again; None: none is deaf."""
        now = self.clock()
        waits = [until - now for topic, until in self._deaf.items() if until > now and topic]
        return min(waits, default=None)

    def take(self, topic: str, payload: bytes, *, retained: bool = False) -> Verdict:
        """Check one message and do what it asks; never raises. A retained message is taken
        on Home Assistant's status, a tournament's seating and the league's players only: a
        command or a resend left retained on the broker would be done again at every
        connection."""
        now = self.clock()
        self._flooded = False
        verdict = self._budget(now, topic if topic in self.handlers else "")
        if verdict is Verdict.TAKEN:
            handler = self.handlers.get(topic)
            if retained and topic not in self.retained_taken:
                handler = None
            limit = self.limits.get(topic, MAX_PAYLOAD)
            words = payload.decode("utf-8", "replace") if len(payload) <= limit else ""
            if handler is None or len(payload) > limit or not handler(words.strip()):
                self._malformed(topic, payload)
                verdict = Verdict.IGNORED
        self._report(now)
        return Verdict.FLOOD if self._flooded else verdict

    def _budget(self, now: float, topic: str) -> Verdict:
        """TAKEN within PER_SECOND a second on `topic`; else IGNORED, as everything on a topic
        that flooded is until its COOL_OFF has passed (and not counted: what the broker sent
        before the link unsubscribed is no new flood). The FLOODth message in one second across
        all topics deafens the topics that flooded (`_deafen`)."""
        if now < self._deaf.get(topic, 0.0):
            self.counts.too_many += 1
            return Verdict.IGNORED
        on_topic = self._count(now, topic)
        if self._count(now) == FLOOD:
            self._deafen(now)
        if on_topic > PER_SECOND or now < self._deaf.get(topic, 0.0):
            self.counts.too_many += 1
            return Verdict.IGNORED
        return Verdict.TAKEN

    def _deafen(self, now: float) -> None:
        """A flood: the topics that flooded are not listened to for COOL_OFF. A topic floods
        when it went over its own PER_SECOND in the flood's second (the rubbish of topics the
        tower does not take counts as one, ""). If none did, many topics each carried a little
        and no one of them is to blame: all are deafened, as the only way to stop the flood.
        (With the tower's few topics this cannot happen today: FLOOD messages on at most six
        buckets put more than PER_SECOND on one; it guards a longer list of topics.)"""
        second = int(now)
        flooding = [
            topic
            for topic, (when, seen) in self._seconds.items()
            if topic is not None and when == second and seen > PER_SECOND
        ]
        deaf = flooding or [*self.handlers, ""]
        for topic in deaf:
            self._deaf[topic] = now + COOL_OFF
        self._flooded = True
        heard = "it still hears the others, and the game goes on"
        log.warning(
            "more than %d messages a second came on the tower's topics: it stops listening "
            "for %g s to %s (%s)",
            FLOOD,
            COOL_OFF,
            named(flooding) if flooding else "all of them",
            heard if flooding else "no one topic flooded; the game goes on",
        )

    def _count(self, now: float, topic: str | None = None) -> int:
        """This message counted in its second: on every topic (None), or on `topic`."""
        second, seen = self._seconds.get(topic, (0, 0))
        seen = seen + 1 if int(now) == second else 1
        self._seconds[topic] = (int(now), seen)
        return seen

    def _malformed(self, topic: str, payload: bytes) -> None:
        self.counts.malformed += 1
        shown = payload[:20].decode("utf-8", "replace")
        self.counts.last = f"{topic[:80]!r}: {shown!r}" + ("..." if len(payload) > 20 else "")

    def _report(self, now: float) -> None:
        """What was ignored since the last report, in one log line a minute at most."""
        counts = self.counts
        now_counts = {
            "malformed": counts.malformed,
            "too many": counts.too_many,
            "refused": counts.refused,
        }
        if not any(now_counts.values()) or now_counts == counts.said:
            return
        if now - self._reported < REPORT_EVERY:
            return
        self._reported, counts.said = now, now_counts
        told = ", ".join(f"{number} {why}" for why, number in now_counts.items() if number)
        last = f" (the last malformed: {counts.last})" if counts.malformed else ""
        log.warning("messages from the bus ignored since the start: %s%s", told, last)

    def _status(self, words: str) -> bool:
        if words == ONLINE:
            self.actions.announce()
        return words in (ONLINE, "offline")

    def _resend(self, words: str) -> bool:
        if words in ("", "all"):
            self.actions.resend(0)
            return True
        if in_digits(words) and len(words) <= 9:
            self.actions.resend(int(words))
            return True
        return False

    def _new_game(self, words: str) -> bool:
        if words != PRESS:
            return False
        if not self.actions.new_game():
            self.counts.refused += 1
            log.info("a new game asked for on the bus waits: a game is being played")
        return True


def named(topics: list[str]) -> str:
    """Topics in words, each cut to 80 characters: "the topic 'a' and the topic 'b'"."""
    return " and ".join(
        f"the topic {topic[:80]!r}" if topic else "the topics it does not take" for topic in topics
    )
