"""The bus as one of the table's presenters: each change becomes the retained state and the
events it brought, put in the outbox (never sent from here: presenting never waits)."""

from __future__ import annotations

import json
from pathlib import Path

from firmware_py.bus.outbox import Message, Outbox
from firmware_py.bus.payloads import Payload, covers_the_table, events_between, game_on, state_of
from firmware_py.bus.results import Results, game_id
from firmware_py.bus.topics import Topics
from firmware_py.journal.journal import Journal
from firmware_py.rules import Game
from firmware_py.view import TableView


class BusPresenter:
    """Reads each view once (the rolling dice's frames are one change), compares its game with
    the last view's, and leaves the state and the events in `outbox`; a game's end asks
    `results` to look at the journal. `journal` names the game on (its log), for its id."""

    def __init__(self, topics: Topics, outbox: Outbox, results: Results, journal: Journal) -> None:
        self.topics = topics
        self.outbox = outbox
        self.results = results
        self.journal = journal
        self.phase = ""  # the table's phase in the last view (commands read it)
        self._seen = -1
        self._game: Game | None = None
        self._seats: list[Payload] = []
        self._ids: dict[Path, str] = {}

    def __call__(self, view: TableView) -> None:
        if view.version == self._seen:
            return
        self._seen, self.phase = view.version, str(view.phase)
        before, self._game = self._game, view.game
        the_id = self.game_id(view)
        state = state_of(view, the_id)
        if covers_the_table(view):
            state["seats"] = self._seats or state["seats"]
        self._seats = state["seats"]
        self.outbox.keep(Message(self.topics.state, json.dumps(state), retain=True, clocked=True))
        if before is not None and view.game is not None and not view.started:
            for event in events_between(before, view, the_id):
                self.outbox.add(Message(self.topics.event, json.dumps(event)))
        if view.ended:
            self.results.want()

    def game_id(self, view: TableView) -> str | None:
        """The id of the game on (its log's), None between games."""
        path = self.journal.current_game
        if game_on(view) is None or path is None:
            return None
        if path not in self._ids:
            self._ids = {path: game_id(self.topics.tower_id, path)}  # one game at a time
        return self._ids[path]
