"""Players whose pad or phone has gone: told at once, waited for a while, then played on without.

A device that goes (a phone's page closed, a pad silent or unplugged) is told by name at once,
once: a line of news, and during a game an alert on the displays; every pad and phone says so
(`notice`) until it is back. The table waits for a player whose device has gone for the grace
period (`absent_grace` seconds from the moment it went; 0: for ever), or until the roll button
is pressed while it waits for them; then it plays on without them, by the house rule of
docs/rules.md: whenever the table would wait for their decision, they pass. A pass in action 1
costs nothing; an active player who crossed nothing in either action takes the penalty the
rules give anyone. Their turns still come round: the roll is the tower's button's. A device
back (a phone's seat token, a pad replugged) gives its player the seat again, and they decide
from the next decision on. Computer and keyboard seats never leave.

After a restart no device has gone in this run, yet a phone may never come back: a player the
game waits for whose device is not here is awaited quietly (phones reconnect by themselves in
a few seconds, and a restart is not news); RESTART_ALLOWANCE seconds later (or at the end of a
shorter grace) one still not back is told as gone ("not back since the restart"), and the
grace counts from the restart.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol

from firmware_py.rules import ACTION1, ACTION2, Event, Pass
from firmware_py.seating import DEVICES, PAD, SeatSpec
from firmware_py.table.decisions import Refusal
from firmware_py.table.news_feed import News
from firmware_py.table.state import Configured, GameOn, Publishes, Seated
from firmware_py.table.timers import Schedule

GONE_WORDS = {PAD: "{name}'s pad is not answering"}  # else "{name}'s phone has gone"
WHAT_TO_DO = {PAD: ": check its cable"}  # the alert's advice, by kind of device
RESTART_ALLOWANCE = 10.0  # seconds after a restart a device may take to come back unannounced


class AbsenceTable(GameOn, Seated, Configured, Publishes, Protocol):
    """What the absence part reads of the table (the game, who sits where and how, the grace
    in its settings) and asks of it: a pass for a player it plays on without, a change shown."""

    def submit(self, event: Event, request: str | None = None) -> Refusal | None: ...


class Absence:
    """The players whose device has gone (`gone`: since when, by the table's `clock`) and those
    the table plays on without (`without`); it tells the players through `news`, waits with
    the phase's timers (`schedule`), and asks `here(seat)` whether a seat's device is here."""

    def __init__(
        self,
        table: AbsenceTable,
        clock: Callable[[], float],
        news: News,
        schedule: Schedule,
        here: Callable[[SeatSpec], bool],
    ) -> None:
        self.table = table
        self.clock = clock
        self.news = news
        self.schedule = schedule
        self.here = here
        self.gone: dict[str, float] = {}  # player -> when their device went
        self.without: set[str] = set()  # players the table plays on without (grace over, press)
        self.awaited: set[str] = set()  # gone, quietly: not back since a restart (yet)

    # ---- told by the doors -------------------------------------------------------------------

    def went(self, name: str) -> None:
        """The device holding `name`'s seat has gone: said at once (once), and waited for."""
        if name in self.gone:
            return
        self._forget_seats_gone()
        self.gone[name] = self.clock()
        kind = self.table.seating.kind_of(name)
        advice = WHAT_TO_DO.get(kind, "")
        words = self.gone_words(name) + advice
        if self._plays(name) or kind == PAD:  # (a pad's cable is worth an alert at any time)
            self.news.alert(words + self._press_words(", or " if advice else ": "))
        else:  # between games a phone asleep is news only: the next game leaves them out
            self.news.tell(words)
        self.table.publish()

    def came_back(self, name: str) -> None:
        """The device holding `name`'s seat is back: said, and they decide again."""
        if self.gone.pop(name, None) is None:
            return
        self.without.discard(name)
        if name in self.awaited:  # back after a restart, as devices come back: no news
            self.awaited.discard(name)
            return
        words = f"{name}'s {self.table.seating.kind_of(name)} is back"
        if self._plays(name):
            self.news.say(words)
        else:
            self.news.tell(words)
        self.table.publish()

    # ---- what the players are shown ----------------------------------------------------------

    def notice(self) -> str:
        """What every pad and phone says while a seated player's device has gone ("" while
        none has): who, and while the table waits for them, that a press plays on without."""
        names = [n for n in self.gone if self.table.seating.taken(n) and n not in self.awaited]
        if not names:
            return ""
        return "; ".join(self.gone_words(name) for name in names) + self._press_words()

    def waiting_notice(self) -> str:
        """What the displays say while the table waits for a player whose device has gone (""
        while it waits for none): the notice, with what a press does."""
        return self.notice() if self.waiting() else ""

    def gone_words(self, name: str) -> str:
        kind = self.table.seating.kind_of(name)
        return GONE_WORDS.get(kind, "{name}'s {kind} has gone").format(name=name, kind=kind)

    def _press_words(self, lead: str = ": ") -> str:
        waiting = self.waiting()
        return f"{lead}press the roll button to play on without {_and(waiting)}" if waiting else ""

    # ---- waiting, and playing on without ----------------------------------------------------

    def waiting(self) -> list[str]:
        """The players the table waits for now whose device has gone, and who are still waited
        for (their grace is running)."""
        gone = self._gone_and_waited_for()
        return [name for name in gone if name not in self.without and name not in self.awaited]

    def plan(self) -> None:
        """The timers of this moment: the grace of each player waited for whose device has
        gone, and a pass for each the table plays on without (the phase's timers: a new phase,
        a new plan)."""
        self._await_the_missing()
        grace = self.table.settings.absent_grace
        for name in self._gone_and_waited_for():
            since = self.gone[name]
            if name in self.without:
                self.schedule.once(("pass for", name, since), 0.0, self._pass_for, name)
            elif grace:
                left = max(since + grace - self.clock(), 0.0)
                self.schedule.once(("grace", name, since), left, self._grace_over, name)

    def press(self) -> None:
        """The roll button while the table waits for players whose device has gone: it plays
        on without them at once (a press at any other moment of a turn does nothing)."""
        waiting = self.waiting()
        if not waiting:
            return
        self.without.update(waiting)
        self.news.tell(f"The roll button is pressed: the game goes on without {_and(waiting)}")
        self.table.publish()

    def _await_the_missing(self) -> None:
        """Players the game waits for whose device is not here, though it never went in this
        run (the tower restarted): awaited quietly, told as gone if not back in time."""
        game = self.table.game
        if game is None or game.phase not in (ACTION1, ACTION2):
            return
        seats = {seat.name: seat for seat in self.table.seating.seats}
        for name in game.waiting_for():
            seat = seats.get(name)
            if seat is None or seat.kind not in DEVICES or name in self.gone or self.here(seat):
                continue
            self.gone[name] = self.clock()
            self.awaited.add(name)
            allowance = min(RESTART_ALLOWANCE, self.table.settings.absent_grace or math.inf)
            self.schedule.once(("awaited", name), allowance, self._not_back, name)

    def _not_back(self, name: str) -> None:
        """Still not back since the restart: told as a device gone is."""
        if name not in self.awaited:
            return
        self.awaited.discard(name)
        words = f"{name}'s {self.table.seating.kind_of(name)} is not back since the restart"
        self.news.alert(words + self._press_words())
        self.table.publish()

    def _grace_over(self, name: str) -> None:
        if name not in self.gone or name in self.without:
            return  # back, or played on without by a press meanwhile
        self.without.add(name)
        grace = self.table.settings.absent_grace
        self.news.tell(f"{name} has been away {grace:g} s: the game goes on without {name}")
        self.table.publish()

    def _pass_for(self, name: str) -> None:
        """The house rule: a player the table plays on without passes."""
        game = self.table.game
        if name in self.without and game is not None and name in game.waiting_for():
            self.table.submit(Pass(name))

    def _gone_and_waited_for(self) -> list[str]:
        """The players whose decision the game waits for (in action 1 or 2) and whose device
        has gone."""
        game = self.table.game
        if game is None or game.phase not in (ACTION1, ACTION2):
            return []
        return [name for name in game.waiting_for() if name in self.gone]

    def _forget_seats_gone(self) -> None:
        """Players neither seated nor in the game on are forgotten: a kiosk that runs for
        years keeps no trace of everyone whose phone ever went."""
        game, seating = self.table.game, self.table.seating
        for name in [n for n in self.gone if not seating.taken(n)]:
            if game is None or name not in game.seat:
                del self.gone[name]
                self.without.discard(name)
                self.awaited.discard(name)

    def _plays(self, name: str) -> bool:
        """True while a game is on with `name` in it (their going is an alert, not just news)."""
        game = self.table.game
        return game is not None and not game.over and name in game.seat


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
