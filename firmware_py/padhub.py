"""The pads at the table: each pad is a seat; its requests are its player's decisions.

A pad plugged in holds no seat until a player presses one of its buttons (a JOIN request); only
seats that come back take their pad at its hello: a replugged pad's, a resumed game's. A pad
proposes, the tower decides: a REQUEST becomes a Mark, Pass or Undo for the pad's own
player only, goes through `Table.decide` (checked, journalled, applied), and is answered with
the referee's word. After every change each pad gets a fresh STATE: its player's sheet, the dice,
and exactly the marks the rules allow now; before a longo game, the lucky numbers it may still
choose (phase `lucky`, the numbers as moves of row 0). Link callbacks arrive on the links'
threads and are handed to the table's loop with `call_soon_threadsafe`.
"""

from __future__ import annotations

import asyncio
import glob
import logging

from drivers.padlink import PadLink
from firmware_py.lucky import LuckyDraft
from firmware_py.pad import protocol
from firmware_py.rules import ACTION1, Game, Mark, Pass, Undo
from firmware_py.seating import PAD
from firmware_py.table import CHOICE, NOT_NOW, RULE, STORAGE, LuckyNumber, Table
from firmware_py.view import TableView
from sheets import COLOURS

log = logging.getLogger(__name__)

RESCAN_SECONDS = 3.0  # how often to look for newly plugged pads
PHASE_CODES = {name: code for code, name in enumerate(protocol.PHASES)}
STATUS_OF_REFUSAL = {
    RULE: protocol.RULE,
    CHOICE: protocol.CHOICE,
    STORAGE: protocol.STORAGE,
    NOT_NOW: protocol.NOT_NOW,
}


def pad_state(table: Table, name: str) -> dict:
    """The STATE for `name`'s pad at this moment: lucky numbers being chosen, or the game."""
    if table.draft is not None and name in table.draft.chosen:
        return lucky_state_fields(table.draft, name)
    return state_fields(table.game, name)


def lucky_state_fields(draft: LuckyDraft, name: str) -> dict:
    """Before a longo game: the numbers chosen (`lucky`), those still open (`moves`, row 0),
    undo while one is chosen, and who the table waits for."""
    chosen = draft.chosen[name]
    missing = [n for n in draft.missing() if n != name]
    if len(chosen) < draft.count:
        text = f"choose {draft.count} numbers"  # one pad line: the screen says which
    else:
        text = "waiting for " + ", ".join(missing) if missing else "the game starts"
    return {
        **_idle_state(name, protocol.clip(text, 60)),
        "phase": PHASE_CODES["lucky"],
        "flags": (protocol.MAY_UNDO if chosen else 0)
        | (protocol.DECIDED if len(chosen) >= draft.count else 0),
        "lucky": bytes(chosen),
        "moves": [{"row": 0, "number": n, "flags": 0} for n in draft.allowed(name)],
    }


def join_state(table: Table) -> dict:
    """The STATE of a pad without a seat: any button asks to join; the text says whether it
    can now, in a player's words."""
    refusal = table.why_not_join()
    text = "press any button to join" if refusal is None else refusal.reason
    return {**_idle_state("", protocol.clip(text, 60)), "flags": protocol.MAY_JOIN}


def state_fields(game: Game | None, name: str, text: str = "") -> dict:
    """The STATE message for `name`'s pad: everything it shows, as plain wire fields."""
    if game is None or name not in game.seat:
        return _idle_state(name, text)
    player = game.player(name)
    return {
        "player": name,
        "phase": PHASE_CODES[game.phase],
        "flags": _flags(game, name),
        "penalties": player.penalties,
        "total": game.total(name),
        "locked": sum(1 << row for row in game.locked),
        "dice": _dice_bytes(game),
        "lucky": bytes(player.lucky),
        "text": protocol.clip(text or _status_text(game, name), 60),
        "rows": [_row_record(game, player, row) for row in range(len(COLOURS))],
        "moves": _move_records(game.legal_marks(name)),
    }


def _idle_state(name: str, text: str) -> dict:
    return {
        "player": name, "phase": PHASE_CODES["idle"], "flags": 0, "penalties": 0, "total": 0,
        "locked": 0, "dice": b"", "lucky": b"", "text": text, "rows": [], "moves": [],
    }  # fmt: skip


def _flags(game: Game, name: str) -> int:
    flags = protocol.MAY_PASS if game.can_pass(name) else 0
    flags |= protocol.MAY_UNDO if game.can_undo(name) else 0
    flags |= protocol.ACTIVE if game.active_name == name else 0
    if game.phase == ACTION1 and game.seat[name] in game.decisions:
        flags |= protocol.DECIDED
    return flags


def _dice_bytes(game: Game) -> bytes:
    if game.dice is None:
        return b""
    colours = [game.dice.colours.get(colour, 0) for colour in COLOURS]
    return bytes([*game.dice.white, *colours])


def _row_record(game: Game, player, row: int) -> dict:
    sheet_row = game.sheet.rows[row]
    mixed = any(colour != sheet_row.lock for colour in sheet_row.colours)
    crossed = sum(1 << position for position in player.crossed_positions(row))
    flags = protocol.ROW_LOCKED if player.has_locked(row) else 0
    flags |= protocol.ROW_CLOSED if row in game.locked else 0
    return {
        "colour": row + 1,
        "numbers": bytes(sheet_row.numbers),
        "cells": bytes(COLOURS.index(c) + 1 for c in sheet_row.colours) if mixed else b"",
        "crossed": crossed,
        "flags": flags,
    }


def _move_records(marks: list[Mark]) -> list[dict]:
    """One record per cell and kind of cross; a mark the engine lists once per possible choice
    of row (bonus-b ties) becomes one record flagged NEEDS_CHOICE: the pad asks for the row."""
    records: dict[tuple, dict] = {}
    for mark in marks:
        flags = protocol.LUCKY if mark.lucky else 0
        if mark.choice is not None:
            flags |= protocol.NEEDS_CHOICE
        key = (mark.row, mark.number, mark.lucky)
        record = records.setdefault(
            key, {"row": protocol.row_code(mark.row), "number": mark.number, "flags": 0}
        )
        record["flags"] |= flags
    return list(records.values())


def _status_text(game: Game, name: str) -> str:
    """One line a player reads to know what happens now."""
    if game.over:
        return f"Game over: {' and '.join(game.winners())} won"
    waiting = [n for n in game.waiting_for() if n != name]
    if game.phase == "roll":
        return (
            "your roll: press the button"
            if game.active_name == name
            else f"{game.active_name} rolls next"
        )
    if name in game.waiting_for():
        return "your move" + (f"; also {', '.join(waiting)}" if waiting else "")
    return f"waiting for {', '.join(waiting)}"


def request_event(name: str, fields: dict) -> Mark | Pass | Undo | LuckyNumber:
    """A REQUEST's fields as the player's decision; ValueError for a request naming no cell."""
    action = fields["action"]
    if action == protocol.LUCKY_NUMBER:
        return LuckyNumber(name, fields["number"])
    if action == protocol.PASS:
        return Pass(name)
    if action == protocol.UNDO:
        return Undo(name)
    if action != protocol.MARK:
        raise ValueError(f"unknown action {action}")
    row = protocol.row_colour(fields["row"])
    if row is None:
        raise ValueError("a mark needs a row")
    lucky = bool(fields["flags"] & protocol.LUCKY)
    return Mark(name, row, fields["number"], lucky, protocol.row_colour(fields["choice"]))


class PadHub:
    """Opens a link per pad port, seats pads that join, turns requests into decisions, keeps
    pads in sync."""

    def __init__(
        self, table: Table, ports: list[str], names: dict[str, str] | None = None, **link_options
    ) -> None:
        self.table = table
        self.names = names or {}  # pad ident -> the player's name, from the configuration
        self.links: list[PadLink] = []
        self.seated: dict[str, str] = {}  # pad ident -> player name
        self._link_options = link_options
        self._ports = ports
        self._rescan_timer: asyncio.TimerHandle | None = None
        self._answering: PadLink | None = None
        self._asked: set[str] = set()  # pads that sent a request since the tower started
        self._seen = -1  # the version of the table last sent to the pads
        table.subscribe(self.sync_all)

    def open(self, loop: asyncio.AbstractEventLoop) -> None:
        """Open every port matching the configured patterns, and look again every few seconds
        for pads plugged in later (a known port reopens itself when its pad is replugged)."""
        self._loop = loop
        self.rescan()

    def rescan(self) -> None:
        known = {link.port for link in self.links}
        for port in expand_ports(self._ports):
            if port not in known:
                self.links.append(self._link(port))
        if self._ports:
            self._rescan_timer = self._loop.call_later(RESCAN_SECONDS, self.rescan)

    def _link(self, port: str) -> PadLink:
        return PadLink(
            port,
            when_message=self._from_thread(self._on_message),
            when_gone=self._from_thread(self._on_gone),
            when_back=self._from_thread(self._on_back),
            **self._link_options,
        )

    def close(self) -> None:
        if self._rescan_timer is not None:
            self._rescan_timer.cancel()
        for link in self.links:
            link.close()

    def _from_thread(self, handler):
        return lambda *args: self._loop.call_soon_threadsafe(handler, *args)

    # ---- on the table's loop -----------------------------------------------------------------

    def _on_message(self, link: PadLink, message: protocol.Message) -> None:
        if message.name == "hello":
            self._seat_again(message.fields["ident"])
            self.sync(link)
        elif message.name == "request" and message.fields["action"] == protocol.JOIN:
            self._on_join(link, message)
        elif message.name == "request":
            self._on_request(link, message)

    def _on_request(self, link: PadLink, message: protocol.Message) -> None:
        name = self.seated.get(link.pad_ident)  # kept while a pulled cable closes the session
        if name is None:
            link.answer(message, protocol.NOT_SEATED, "this pad has no seat: join between games")
            return
        try:
            event = request_event(name, message.fields)
        except ValueError as error:
            link.answer(message, protocol.BAD_REQUEST, str(error))
            return
        first = link.pad_ident not in self._asked
        self._asked.add(link.pad_ident)
        self._answering = link  # its new STATE waits until the answer is out (the doc's order)
        try:
            refusal = self.table.decide(event)
        finally:
            self._answering = None
        if refusal is not None and first and self._decided_before_restart(name, event, refusal):
            refusal = None
        if refusal is None:
            link.answer(message, protocol.OK)
        else:
            link.answer(message, STATUS_OF_REFUSAL[refusal.kind], refusal.reason)
        self.sync(link)

    def _decided_before_restart(self, name: str, event, refusal) -> bool:
        """A pad asks until it is answered. If the tower journalled a request and was killed
        before answering, the pad's first request after the restart is that request again:
        the rules now refuse it (done already), but it is the player's last journalled
        decision, so the true answer is yes. (Nothing is applied twice either way; at worst a
        new request equal to the last one hears yes instead of 'already marked'.)"""
        return refusal.kind == RULE and self.table.last_decisions.get(name) == event

    def _seat_again(self, ident: str) -> None:
        """Seats that come back need no press: a pad keeps its seat across replugs, and after a
        restart takes back the seat it held (noted with the game); a pad seat with no pad noted
        goes to the pad named for it in the configuration, else to the first pad that asks."""
        if ident in self.seated:
            return
        taken = set(self.seated.values())
        free = [
            seat
            for seat in self.table.seats
            if seat.kind == PAD and seat.name not in taken and seat.pad in ("", ident)
        ]
        if not free:
            return
        known = self.names.get(ident)
        mine = [seat.name for seat in free if seat.pad == ident or seat.name == known]
        name = mine[0] if mine else free[0].name
        self.seated[ident] = name
        self.table.give_pad(name, ident)
        self.table.say(f"{name}'s pad is here")

    def _on_join(self, link: PadLink, message: protocol.Message) -> None:
        """A player pressed a button on a pad without a seat: a new seat, between games."""
        ident = link.pad_ident
        if self._seat_of(ident) is not None:  # seated already (at its hello): nothing to do
            link.answer(message, protocol.OK)
            self.sync(link)
            return
        name = self._new_name(ident)
        self._answering = link  # its new STATE waits until the answer is out
        try:
            refusal = self.table.join(name, PAD, pad=ident)
        finally:
            self._answering = None
        if refusal is None:
            self.seated[ident] = name
            link.answer(message, protocol.OK)
        else:
            link.answer(message, STATUS_OF_REFUSAL[refusal.kind], refusal.reason)
        self.sync(link)

    def _new_name(self, ident: str) -> str:
        """The pad's name from the configuration, else `Player N` for its place at the table
        (the next number nobody has, if that one is taken)."""
        taken = {seat.name for seat in self.table.seats} | set(self.seated.values())
        known = self.names.get(ident)
        if known and known not in taken:
            return known
        number = len(self.table.seats) + 1
        while f"Player {number}" in taken:
            number += 1
        return f"Player {number}"

    def _on_gone(self, link: PadLink) -> None:
        name = self.seated.get(link.pad_ident)
        if name:
            self.table.alert(f"{name}'s pad is not answering: check its cable")

    def _on_back(self, link: PadLink) -> None:
        self.sync(link)

    def sync_all(self, view: TableView) -> None:
        """After a change, every pad's new STATE (the pad answered just now gets its own after
        the answer). The displays' frames in between change nothing a pad shows."""
        if view.version == self._seen:
            return
        self._seen = view.version
        for link in self.links:
            if link is not self._answering:
                self.sync(link)

    def sync(self, link: PadLink) -> None:
        """Send the pad its player's full STATE, or how to join (nothing without a session)."""
        if not link.pad:
            return
        name = self._seat_of(link.pad.get("ident"))
        fields = join_state(self.table) if name is None else pad_state(self.table, name)
        link.send("state", fields)

    def _seat_of(self, ident: str | None) -> str | None:
        """The player whose seat this pad holds; a seat the menu took away (and that has no
        game to play out) is given up, so the pad can ask to join again."""
        name = self.seated.get(ident)
        if name is None or name in (seat.name for seat in self.table.seats):
            return name
        game = self.table.game
        if game is not None and not game.over and name in game.seat:
            return name
        del self.seated[ident]
        return None


def expand_ports(patterns: list[str]) -> list[str]:
    """Device paths for the configured patterns (globs), or the patterns themselves."""
    ports: list[str] = []
    for pattern in patterns:
        matches = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        ports += [port for port in matches if port not in ports]
    return ports
