"""Finished games' results, published at least once from what the journal holds.

A league (or any receiver) must not miss a result, so results are not taken from the live
views but from the game logs: after every connection, after every game's end and when asked
again, the tower reads the logs it has not published yet, oldest first, and publishes each
finished game's result with QoS 1. Only once the broker has acknowledged it does the note
`mqtt-results.json` in the state directory move past that game (durably), so a game finished
while the broker was away for days, or a tower stopped before the broker answered, is published
at the next chance; a result may come twice (a connection lost before the acknowledgement),
and its `id` lets a receiver drop the second. The note belongs to one broker and topic: for a
new one the whole journal is published again.

Game numbers only grow and a game is never carried on once a newer one began, so "published
through game N" says everything: the scan stops at the newest log while its game is on.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from firmware_py.journal.disk import read_regular
from firmware_py.journal.journal import (
    Journal,
    JournalError,
    is_abandoned,
    is_empty,
    log_path,
    noted_seats,
    number_of,
    read_game,
    write_durably,
)
from firmware_py.journal.lines import recorded_at
from firmware_py.json_text import json_value
from firmware_py.rules import Game

log = logging.getLogger(__name__)

NOTE = "mqtt-results.json"
FIRST_LINE = 4096  # bytes read of a log's start line (its time)
LOOK_BACK = 20  # logs looked at for a result's previous game (abandoned ones have no result)
Payload = dict[str, Any]
Tags = Callable[[int], dict[str, int] | None]  # a game number's tournament round, if any
Publish = Callable[[str], Awaitable[None]]  # returns once the broker has acknowledged


def game_id(tower_id: str, path: Path) -> str:
    """A game's id across towers and time: the tower, the game's number, and when it began
    ("kitchen-000012-20261122T190405Z"; without the time for a log from before it was kept).
    A state directory emptied and begun again gives numbers twice, never with the same time."""
    number = number_of(path.name) or 0
    started = started_at(path)
    stamp = f"-{started.astimezone(UTC):%Y%m%dT%H%M%SZ}" if started else ""
    return f"{tower_id}-{number:06d}{stamp}"


def started_at(path: Path) -> datetime | None:
    """When the game of log `path` began (its start line's time), None if not said."""
    try:
        with path.open("rb") as file:
            return recorded_at(file.readline(FIRST_LINE))
    except OSError:
        return None


def result_of(tower_id: str, path: Path, game: Game) -> Payload:
    """A finished game's result: its id, when it began and ended, and every player's seat,
    kind of seat, score, penalties and place (tied players share a place)."""
    totals = {player.name: game.total(player.name) for player in game.players}
    kinds = {seat["name"]: seat for seat in noted_seats(path)}
    players = []
    for seat, player in enumerate(game.players, start=1):
        noted = kinds.get(player.name, {})
        place = 1 + sum(total > totals[player.name] for total in totals.values())
        players.append(
            {
                "name": player.name,
                "seat": seat,
                "kind": noted.get("kind"),
                "level": noted.get("level"),
                "score": totals[player.name],
                "penalties": player.penalties,
                "place": place,
            }
        )
    started = started_at(path)
    return {
        "id": game_id(tower_id, path),
        "tower": tower_id,
        "game": number_of(path.name),
        "variant": game.sheet.name,
        "started": started.isoformat() if started else None,
        "finished": finished_at(path),
        "reason": str(game.reason),
        "winners": game.winners(),
        "players": players,
    }


def finished_at(path: Path) -> str | None:
    """When the game's last event was written (its log's modification time), in UTC."""
    try:
        seconds = os.stat(path).st_mtime
    except OSError:
        return None
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


class Results:
    """What the journal holds that the broker has not acknowledged yet, and the note of what
    it has (`through`: every game up to that number is done)."""

    def __init__(self, journal: Journal, tower_id: str, broker: str,
                 tags: Tags = lambda _: None) -> None:  # fmt: skip
        self.journal = journal
        self.tags = tags  # a result says the tournament's round its game was begun for
        self.tower_id = tower_id
        self.broker = broker  # whose acknowledgements the note keeps: the broker and topic
        self.note = journal.directory / NOTE
        self.through = self._read_note()
        self.wanted = asyncio.Event()  # set: look at the journal again
        self._again_from: int | None = None  # a resend asked for, from this game number
        self._ended: OrderedDict[str, str] = OrderedDict()  # the last results made: log, id

    def want(self) -> None:
        """Look for unpublished results (a connection, a game's end)."""
        self.wanted.set()

    def resend(self, first: int = 0) -> None:
        """Publish every finished game from number `first` on again (a receiver rebuilds)."""
        self._again_from = first
        self.wanted.set()

    async def publish_all(self, publish: Publish) -> None:
        """Every result asked for again, then every one not yet acknowledged, oldest first;
        a publication that fails (the connection lost) ends this pass, and its game stays
        unpublished. The journal is read in a worker thread: the table's loop never waits."""
        if self._again_from is not None:
            first, self._again_from = self._again_from, None
            for path in await asyncio.to_thread(self._asked_again, first):
                payload = await asyncio.to_thread(self._finished, path)
                if payload is not None:
                    await publish(payload)
        for path in await asyncio.to_thread(self._logs, self.through, None):
            done, payload = await asyncio.to_thread(self._look_at, path)
            if not done:
                return  # the game on: its result comes when it ends
            if payload is not None:
                await publish(payload)
            self.through = number_of(path.name) or self.through
            await asyncio.to_thread(self._keep_note)

    def _asked_again(self, first: int) -> list[Path]:
        """The logs asked for again, from game `first` up to the last acknowledged; all of
        them when the asker holds a game this journal never reached (`first` beyond its newest
        game: the journal was emptied, a new SD card, and numbers games from 1 again)."""
        held = self._logs(0, self.through)
        try:
            newest = max((number_of(path.name) or 0 for path in self.journal.games()), default=0)
        except JournalError:
            newest = 0
        after = 0 if first - 1 > newest else first - 1
        return [path for path in held if (number_of(path.name) or 0) > after]

    def _logs(self, after: int, upto: int | None) -> list[Path]:
        try:
            games = self.journal.games()
        except JournalError as error:
            log.warning("results cannot be published: %s", error)
            return []
        numbered = [(number_of(path.name) or 0, path) for path in games]
        return [
            path
            for number, path in numbered
            if number > after and (upto is None or number <= upto) and not is_empty(path)
        ]

    def _look_at(self, path: Path) -> tuple[bool, str | None]:
        """(done, its result): done for a finished game (with its result), an abandoned or
        unreadable one, or one a newer game superseded (none of them has a result); not done
        for the newest game while it can still be carried on."""
        try:
            game = read_game(path).game
        except (JournalError, OSError) as error:
            log.info("%s has no result to publish: %s", path.name, error)
            return True, None
        if game.over:
            return True, self._payload(path, game)
        try:
            superseded = path != self.journal.games()[-1]
        except (JournalError, IndexError):
            superseded = False
        return is_abandoned(path) or superseded, None

    def _finished(self, path: Path) -> str | None:
        """A finished game's result again (None for any other log)."""
        try:
            game = read_game(path).game
        except (JournalError, OSError):
            return None
        return self._payload(path, game) if game.over else None

    def _payload(self, path: Path, game: Game) -> str:
        result = result_of(self.tower_id, path, game)
        result["previous"] = self._previous(path)
        self._ended[path.name] = result["id"]  # the next one's previous, without reading again
        if len(self._ended) > LOOK_BACK:
            self._ended.popitem(last=False)
        tag = self.tags(number_of(path.name) or 0)
        if tag is not None:
            result["round"] = tag
        return json.dumps(result)

    def _previous(self, path: Path) -> str | None:
        """The id of the finished game before `path`'s in the journal (None: none within
        LOOK_BACK numbers): a receiver that does not keep it knows a result went missing on
        the way (a broker dropped it), and asks again from there. Looked up by number, not by
        listing the journal, which holds thousands of logs."""
        number = number_of(path.name) or 0
        for earlier in range(number - 1, max(number - 1 - LOOK_BACK, 0), -1):
            log = log_path(path.parent, earlier)
            if log.name in self._ended:
                return self._ended[log.name]
            try:
                if read_game(log).game.over:
                    return game_id(self.tower_id, log)
            except (JournalError, OSError):
                continue  # none of that number, or unreadable: no result, so not the previous
        return None

    def _read_note(self) -> int:
        """The last game number this broker acknowledged (0: none, or another broker's note)."""
        try:
            note = json_value(read_regular(self.note))
            if note["broker"] == self.broker and isinstance(note["through"], int):
                return max(0, note["through"])
        except (OSError, ValueError, TypeError, KeyError):
            pass  # none yet, or unreadable: every finished game is published (ids drop twins)
        return 0

    def _keep_note(self) -> None:
        try:
            write_durably(self.note, {"broker": self.broker, "through": self.through})
        except JournalError as error:  # a full disk: published again after a restart
            log.warning("%s", error)
