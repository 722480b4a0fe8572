"""The bus client: one presenter and one door of the table, and the link that carries both.

`app/assembly.py` makes it with what it may reach of the table: the journal (read for results
and game ids), the news (`tell`), and, only when [mqtt] commands allows "new_game", the table's
roll button as a `TableButton`. It subscribes `present` among the table's presenters and
`start`s it once the table has read its journal back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from pathlib import Path

from firmware_py.bus.farewell import leftovers, remember
from firmware_py.bus.inbox import Actions, Inbox, TableButton
from firmware_py.bus.league_players import NotPlayers, read_players
from firmware_py.bus.link import GOODBYE, LAST_WORDS, BusLink, LinkStatus
from firmware_py.bus.outbox import Outbox
from firmware_py.bus.presenter import BusPresenter
from firmware_py.bus.results import Results
from firmware_py.bus.settings import MqttConfig
from firmware_py.bus.topics import Topics
from firmware_py.bus.tournament import RoundSeats, TournamentRounds
from firmware_py.journal.journal import Journal
from firmware_py.view import TableView

log = logging.getLogger(__name__)
BETWEEN_GAMES = ("attract", "game over")  # where a press of the roll button starts a game


class BusClient:
    """The tower on the house's MQTT bus (docs/home-assistant.md)."""

    def __init__(
        self,
        settings: MqttConfig,
        journal: Journal,
        tell: Callable[[str], None],
        button: TableButton | None = None,
        seats: RoundSeats | None = None,
        players: Callable[[Sequence[str]], None] | None = None,
    ) -> None:
        """`seats`: the table's, for a league's tournament ([mqtt] commands "tournament");
        `players`: where the league's players go, for the menu ([mqtt] commands "players")."""
        topics = Topics.of(settings)
        self.settings, self.state_dir = settings, Path(journal.directory)
        self.outbox = Outbox()
        self.rounds = TournamentRounds(seats, journal) if seats is not None else None
        tags = self.rounds.tag if self.rounds is not None else (lambda _: None)
        broker = f"{settings.address} {topics.result}"
        self.results = Results(journal, settings.tower_id, broker, tags)
        self.presenter = BusPresenter(topics, self.outbox, self.results, journal)
        self.button = button
        seating = self._seating if self.rounds is not None else None
        self.know_players = players
        actions = Actions(self._announce_again, self.results.resend, self._new_game, seating,
                          self._players if players is not None else None)  # fmt: skip
        given = {"new_game": button is not None, "tournament": seats is not None,
                 "players": players is not None}  # fmt: skip
        allowed = tuple(name for name in settings.commands if given.get(name))
        self.inbox = Inbox(topics, allowed, actions)
        self.status = LinkStatus(settings.address, tell)
        self.link = BusLink(
            settings, self.outbox, self.inbox, self.results, self.status, self._connected
        )
        self._task: asyncio.Task[None] | None = None

    def present(self, view: TableView) -> None:
        """The table's presenter: the state and events of each change, into the outbox."""
        self.presenter(view)
        if self.rounds is not None:
            self.rounds.see(self.presenter.phase)

    def _seating(self, words: str) -> bool:
        """A league's seating for a tournament's round: taken, then done if the table can."""
        assert self.rounds is not None
        if not self.rounds.take(words):
            return False
        self.rounds.see(self.presenter.phase)
        return True

    def _players(self, words: str) -> bool:
        """The league's players: handed to the menu; False when the message is not them."""
        try:
            names = read_players(words)
        except NotPlayers as why:
            log.info("the league's players refused: %s", why)
            return False
        assert self.know_players is not None
        self.know_players(names)
        return True

    def start(self) -> None:
        """Connect in the background (in the running loop), and keep connecting."""
        self._task = asyncio.get_running_loop().create_task(self.link.run())

    async def stop(self) -> None:
        """Say "offline" and disconnect, waiting at most a moment for a slow broker."""
        if self._task is None:
            return
        self.link.stop()
        if not self.status.connected:  # connecting, or waiting to try again: nothing to say
            self._task.cancel()
            return
        try:
            await asyncio.wait_for(asyncio.shield(self._task), LAST_WORDS + GOODBYE * 2)
        except TimeoutError:
            self._task.cancel()

    def _announce_again(self) -> None:
        self.outbox.announce_again(self.link.announcements())

    def _new_game(self) -> bool:
        """Home Assistant's "new game" button: the roll button pressed, between games only."""
        if self.button is None or self.presenter.phase not in BETWEEN_GAMES:
            return False
        self.button.touched()
        self.button.go_on()
        return True

    def _connected(self) -> None:
        """Each connection: an earlier id's topics emptied, this broker and topics noted."""
        for message in leftovers(self.settings, self.state_dir):
            self.outbox.add(message)
        loop = asyncio.get_running_loop()
        loop.run_in_executor(None, remember, self.settings, self.state_dir)
