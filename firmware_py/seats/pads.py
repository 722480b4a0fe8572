"""The pads at the table: each pad is a remote seat; its requests are its player's decisions.

The hub translates the pads' wire (docs/pad-protocol.md) to `RemoteSeats`, the one path pads
and phones take into the table. A pad plugged in holds no seat until a player presses one of
its buttons (a JOIN request); only seats that come back take their pad at its hello: a
replugged pad's, a resumed game's. A pad's ident is bound to the port it said hello on while
that port is up. A pad proposes, the tower decides: a REQUEST becomes a Mark, Pass or Undo for
the pad's own player only, goes through `Table.decide` (checked, journalled with its request
id, applied; exactly once, also across restarts), and is answered with the referee's word.
After every change each pad gets a fresh STATE (its player's `SeatView`): the sheet, the dice,
and exactly the marks the rules allow now; before a longo game, the lucky numbers it may still
choose (phase `lucky`, the numbers as moves of row 0). Link callbacks arrive on the links'
threads and are handed to the table's loop with `call_soon_threadsafe`.
"""

from __future__ import annotations

import asyncio
import glob
import logging
from collections.abc import Callable, Hashable
from dataclasses import replace
from math import ceil
from typing import Unpack

from drivers.padlink import LinkOptions, PadLink
from firmware_py.lucky import DraftView
from firmware_py.pad import protocol
from firmware_py.rules import Game, Mark, Pass, Undo
from firmware_py.seating import DRAWN
from firmware_py.seats.devices import (
    RemoteDecision,
    RemoteSeats,
    decision_event,
    join_view,
    with_absence,
)
from firmware_py.seats.seatview import RowView, SeatView, game_view, idle_view, lucky_view
from firmware_py.table import (
    CHOICE,
    NO_SEAT,
    NOT_NOW,
    RULE,
    STALE,
    STORAGE,
    LuckyNumber,
    Refusal,
    SeatDoor,
    SeatsNow,
)
from firmware_py.transliterate import ascii_words
from firmware_py.view import TableView
from sheets import COLOURS

log = logging.getLogger(__name__)

# The buttons a pad without a seat presses to take the seat at each place of the table: the
# pad's own (firmware_py/pad/padapp.py BUTTONS), whose JOIN says which (`number`, 1 the first)
JOIN_BUTTONS = ("red", "yellow", "green", "blue", "pass")
RESCAN_SECONDS = 3.0  # how often to look for newly plugged pads
STATE_TEXT = 60  # bytes of a STATE's status line at most, where the rest leaves room
JOIN_INTERVAL = 60.0  # seconds between two new seats joined through one port
PHASE_CODES = {name: code for code, name in enumerate(protocol.PHASES)}
STATUS_OF_REFUSAL = {
    RULE: protocol.RULE,
    CHOICE: protocol.CHOICE,
    STORAGE: protocol.STORAGE,
    NOT_NOW: protocol.NOT_NOW,
    NO_SEAT: protocol.NOT_SEATED,
    STALE: protocol.BAD_REQUEST,
}


def pad_state(now: SeatsNow, name: str) -> protocol.Fields:
    """The STATE for `name`'s pad at this moment: lucky numbers being chosen, or the game."""
    if now.draft is not None and name in now.draft.chosen:
        return lucky_state_fields(now.draft, name)
    return state_fields(now.game, name)


def lucky_state_fields(draft: DraftView, name: str) -> protocol.Fields:
    """Before a longo game: the numbers chosen (`lucky`), those still open (`moves`, row 0),
    undo while one is chosen, and who the table waits for."""
    return state_of(lucky_view(draft, name))


def join_state(now: SeatsNow) -> protocol.Fields:
    """The STATE of a pad without a seat: any button asks to join; the text says whether it
    can now, in a player's words."""
    return state_of(pad_join_view(now))


def pad_join_view(now: SeatsNow) -> SeatView:
    """How a pad without a seat joins; at a tournament's table, which button takes whose seat
    among the people drawn here whose device has not come (a pad cannot type a name)."""
    view, offer = join_view(now), drawn_offer(now)
    return replace(view, text=offer) if offer and now.join_refusal is None else view


def drawn_offer(now: SeatsNow) -> str:
    """'drawn here? press red for Zoe, pass for Dan': the button of each seat's place at
    the table (red the first, ..., pass the fifth), for the seats drawn for a person whose
    phone or pad has not come; "" when none waits."""
    offered = [f"{JOIN_BUTTONS[place]} for {ascii_words(seat.name)}"
               for place, seat in enumerate(now.seats) if seat.pad == DRAWN]  # fmt: skip
    return f"drawn here? press {', '.join(offered)}" if offered else ""


def drawn_pressed(now: SeatsNow, button: object) -> str | None:
    """The person drawn at the seat whose button (1: red, ..., 5: pass) a pad's JOIN names,
    while their seat waits; None for any other button (a join as before)."""
    if type(button) is not int or not 0 < button <= len(now.seats):
        return None
    seat = now.seats[button - 1]
    return seat.name if seat.pad == DRAWN else None


def state_fields(game: Game | None, name: str, text: str = "") -> protocol.Fields:
    """The STATE message for `name`'s pad: everything it shows, as plain wire fields."""
    if game is None or name not in game.seat:
        return state_of(idle_view(text, player=name))
    view = game_view(game, name)
    return state_of(replace(view, text=text) if text else view)


def state_of(view: SeatView) -> protocol.Fields:
    """A player's `SeatView` as the wire's STATE fields (docs/pad-protocol.md). The status line
    gets the room the rest leaves, so that the STATE always fits one frame: Connected Chain's
    connections, eight moves and a 24-letter name left 54 bytes, not 60."""
    fields = _state_without_text(view)
    room = max(0, protocol.MAX_PAYLOAD - protocol.payload_size("state", fields))
    fields["text"] = protocol.clip(ascii_words(view.text), min(STATE_TEXT, room))
    return fields


def _state_without_text(view: SeatView) -> protocol.Fields:
    return {
        "player": ascii_words(view.player),  # the pad's font is ASCII: Łukasz as Lukasz
        "phase": PHASE_CODES[view.phase],
        "flags": _flags(view),
        "penalties": view.penalties,
        "total": view.total,
        "locked": sum(1 << COLOURS.index(colour) for colour in view.locked),
        "dice": _dice_bytes(view),
        "lucky": bytes(view.lucky),
        "text": "",
        "rows": [_row_record(row) for row in view.rows]
        + _bonus_records(view)
        + _double_records(view)
        + _connection_records(view),
        "moves": _move_records(view),
    }


def _flags(view: SeatView) -> int:
    return (
        (protocol.MAY_PASS if view.may_pass else 0)
        | (protocol.MAY_UNDO if view.may_undo else 0)
        | (protocol.ACTIVE if view.active else 0)
        | (protocol.DECIDED if view.decided else 0)
        | (protocol.MAY_JOIN if view.may_join else 0)
    )


def _dice_bytes(view: SeatView) -> bytes:
    if view.white is None:
        return b""
    return bytes([*view.white, *(view.colours.get(colour, 0) for colour in COLOURS)])


def _row_record(row: RowView) -> protocol.Fields:
    mixed = any(colour != row.colour for colour in row.cell_colours)
    flags = protocol.ROW_LOCKED if row.locked_by_me else 0
    flags |= protocol.ROW_CLOSED if row.closed else 0
    return {
        "colour": protocol.row_code(row.colour),
        "numbers": bytes(row.numbers),
        "cells": bytes(protocol.row_code(c) for c in row.cell_colours) if mixed else b"",
        "crossed": sum(1 << position for position in row.crossed),
        "flags": flags,
    }


def _bonus_records(view: SeatView) -> list[protocol.Fields]:
    """Big Points' bonus rows, after the colour rows, each named by the row above it."""
    return [
        {
            "colour": protocol.row_code(bonus.between[0]),
            "numbers": bytes(bonus.numbers),
            "cells": b"",
            "crossed": sum(1 << position for position in bonus.crossed),
            "flags": protocol.ROW_BONUS,
        }
        for bonus in view.bonus_rows
    ]


def _double_records(view: SeatView) -> list[protocol.Fields]:
    """Qwixx Double: per colour row, after the colour rows, its cells holding a second cross
    (`crossed`) and the numbers printed double (`numbers`); none on other sheets."""
    if not any(row.doubled or row.printed_double for row in view.rows) and not any(
        move.twice for move in view.moves
    ):
        return []
    return [
        {
            "colour": protocol.row_code(row.colour),
            "numbers": bytes(row.numbers[p] for p in row.printed_double),
            "cells": b"",
            "crossed": sum(1 << position for position in row.doubled),
            "flags": protocol.ROW_DOUBLE,
        }
        for row in view.rows
    ]


def _connection_records(view: SeatView) -> list[protocol.Fields]:
    """Qwixx Connected: for each colour row with connections on the player's pad, after the
    other records, its stair cells and chain cells (`numbers`, left to right) and for each the
    cell joined to it (`cells`: row code and number, 0 0 for a stair cell); none elsewhere."""
    records = []
    for row in view.rows:
        joined = {position: _joined_cell(cell) for position, _, cell in row.links}
        positions = sorted({*row.stair, *joined})
        if positions:
            records.append(
                {
                    "colour": protocol.row_code(row.colour),
                    "numbers": bytes(row.numbers[p] for p in positions),
                    "cells": bytes(b for p in positions for b in joined.get(p, (0, 0))),
                    "crossed": 0,
                    "flags": protocol.ROW_LINKS,
                }
            )
    return records


def _joined_cell(cell: str) -> tuple[int, int]:
    """A `RowView.links` cell, "yellow 6", as the wire's row code and number: (2, 6)."""
    colour, number = cell.split()
    return protocol.row_code(colour), int(number)


def _move_code(row: str) -> tuple[int, int]:
    """A move's row on the wire and its BONUS flag: a bonus row (Big Points, "red-yellow")
    travels as the colour row above it."""
    if row in COLOURS:
        return protocol.row_code(row), 0
    return protocol.row_code(row.split("-")[0]), protocol.BONUS


def _move_records(view: SeatView) -> list[protocol.Fields]:
    """The moves as records; before a longo game, the lucky numbers still open (row 0). A
    move with a choice of rows is flagged NEEDS_CHOICE: the pad asks for the row."""
    if view.phase == "lucky":
        return [{"row": 0, "number": n, "flags": 0} for n in view.lucky_choices]
    records = []
    for move in view.moves:
        row, bonus = _move_code(move.row)
        flags = (protocol.LUCKY if move.lucky else 0) | bonus
        flags |= protocol.NEEDS_CHOICE if move.choices else 0
        flags |= protocol.TWICE if move.twice else 0
        flags |= move.swap << protocol.SWAP_SHIFT  # X-Change: the field the cross uses
        records.append({"row": row, "number": move.number, "flags": flags})
    return records


def pad_decision(fields: protocol.Fields) -> RemoteDecision:
    """A REQUEST's fields as the decision it asks for; ValueError for one naming no cell."""
    action = fields["action"]
    if action == protocol.LUCKY_NUMBER:
        return RemoteDecision("lucky", number=fields["number"])
    if action == protocol.PASS:
        return RemoteDecision("pass")
    if action == protocol.UNDO:
        return RemoteDecision("undo")
    if action != protocol.MARK:
        raise ValueError("this pad asks for something the tower does not know: update the pad")
    row = protocol.row_colour(fields["row"])
    if row is None:
        raise ValueError("that mark names no row: choose it again")
    lucky = bool(fields["flags"] & protocol.LUCKY)
    choice = protocol.row_colour(fields["choice"]) or ""
    if fields["flags"] & protocol.BONUS:  # the bonus row below `row` (Big Points)
        below = COLOURS.index(row) + 1
        if below >= len(COLOURS):
            raise ValueError("that mark names no bonus row: choose it again")
        row = f"{row}-{COLOURS[below]}"
    swap = protocol.swap_field(fields["flags"])  # X-Change: the field the cross uses
    return RemoteDecision("mark", row, fields["number"], lucky, choice, swap)


def request_event(name: str, fields: protocol.Fields) -> Mark | Pass | Undo | LuckyNumber:
    """A REQUEST's fields as the player's decision; ValueError for a request naming no cell."""
    event = decision_event(name, pad_decision(fields))
    if isinstance(event, Refusal):
        raise ValueError(event.reason)
    return event


class PadHub:
    """Opens a link per pad port and translates the pads' wire to the table's remote seats
    (through `door`, the table's way in for pads): hellos, joins and requests in, a STATE per
    change out (`sync_all`, a presenter). Joins per port are timed by `now`, the table's clock."""

    def __init__(
        self,
        door: SeatDoor,
        ports: list[str],
        names: dict[str, str] | None = None,
        *,
        now: Callable[[], float],
        **link_options: Unpack[LinkOptions],
    ) -> None:
        self.door = door
        self.now = now
        self.seats = RemoteSeats(door, names, alive=_heard_lately)
        self.links: list[PadLink] = []
        self._link_options = link_options
        self._ports = ports
        self._rescan_timer: asyncio.TimerHandle | None = None
        self._answering: PadLink | None = None
        self._seen = -1  # the version of the table last sent to the pads
        self._joined: dict[str, tuple[float, str]] = {}  # port -> when, who last joined on it
        self._greeted: dict[PadLink, protocol.Fields] = {}  # the hello each seat was given at

    @property
    def seated(self) -> dict[str, str]:
        """pad ident -> the player whose seat it holds."""
        return self.seats.seated

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
            admit=self._admit,
            **self._link_options,
        )

    def close(self) -> None:
        if self._rescan_timer is not None:
            self._rescan_timer.cancel()
        for link in self.links:
            link.close()

    def _from_thread(self, handler: Callable[..., object]) -> Callable[..., object]:
        """`handler`, called from a link's thread, run on the table's loop instead."""
        return lambda *args: self._loop.call_soon_threadsafe(handler, *args)

    def _admit(self, link: PadLink, hello: protocol.Fields) -> str | None:
        """On the link's thread, before its hello is accepted: why this pad may not speak on
        this port (its ident is connected on another port that is still up), or None."""
        refusal = self.seats.claim(hello["ident"], link)
        return None if refusal is None else refusal.reason

    # ---- on the table's loop -----------------------------------------------------------------

    def _on_message(self, link: PadLink, message: protocol.Message) -> None:
        if message.name == "hello":
            self._greet(link, message.fields)
            self.sync(link)
        elif message.name == "request" and message.fields["action"] == protocol.JOIN:
            self._on_join(link, message)
        elif message.name == "request":
            self._on_request(link, message)

    def _on_request(self, link: PadLink, message: protocol.Message) -> None:
        """A decision: exactly once (its id is the pad's boot number and the request's
        sequence number), answered only after it is in the journal."""
        try:
            asked = pad_decision(message.fields)
        except ValueError as error:
            link.answer(message, protocol.BAD_REQUEST, str(error))
            return
        request = f"{link.pad_boot}/{message.seq}"
        self._answering = link  # its new STATE waits until the answer is out (the doc's order)
        try:
            refusal = self.seats.decide(str(link.pad_ident), request, asked)
        finally:
            self._answering = None
        self._answer(link, message, refusal)

    def _on_join(self, link: PadLink, message: protocol.Message) -> None:
        """A player pressed a button on a pad without a seat: a new seat, between games; at
        most one per port every JOIN_INTERVAL seconds (see `_too_soon`)."""
        ident = str(link.pad_ident)
        seated = self.seats.seat_of(ident) is not None
        refusal = None if seated else self._too_soon(link.port)
        if refusal is None:
            self._answering = link  # its new STATE waits until the answer is out
            now = self.door.now()
            try:
                chosen = drawn_pressed(now, message.fields.get("number"))
                refusal = self.seats.join(ident, link, chosen)
            finally:
                self._answering = None
            offer = drawn_offer(now)
            if refusal is not None and refusal.kind == RULE and offer:
                refusal = Refusal(f"no seat for a new player: {offer}", RULE)
            name = self.seats.seat_of(ident)
            if refusal is None and not seated and name is not None:
                self._joined[link.port] = (self.now(), name)
        self._answer(link, message, refusal)

    def _too_soon(self, port: str) -> Refusal | None:
        """Joins are rate-limited per port: a port holds one seat while its pad is up, and a
        device that goes silent and comes back under a new ident waits JOIN_INTERVAL seconds
        after the last seat joined through its port, while that seat is still at the table;
        so one device cannot fill the table."""
        if port not in self._joined:
            return None
        when, name = self._joined[port]
        wait = when + JOIN_INTERVAL - self.now()
        if wait <= 0 or not self.door.now().taken(name):
            return None
        return Refusal(
            f"a player joined on this cable a moment ago: try again in {ceil(wait)} s", NOT_NOW
        )

    def _answer(self, link: PadLink, message: protocol.Message, refusal: Refusal | None) -> None:
        if refusal is None:
            link.answer(message, protocol.OK)
        else:
            link.answer(message, STATUS_OF_REFUSAL[refusal.kind], refusal.reason)
        self.sync(link)

    def _greet(self, link: PadLink, hello: protocol.Fields) -> None:
        """The pad that said `hello` speaks for its ident here: it keeps or takes back its
        seat, on the table's loop; from now on it gets STATEs (`sync`)."""
        self.seats.connect(hello["ident"], link)
        self._greeted[link] = dict(hello)

    def _on_gone(self, link: PadLink) -> None:
        """A pad fell silent or was unplugged: its ident may now move to another port, and the
        table says that its player's pad is not answering."""
        self.seats.gone(link.pad_ident, link)

    def _on_back(self, link: PadLink) -> None:
        """A pad heard again after its silence, in the same session: it speaks for its ident
        again (as at a hello), so it keeps or takes back its seat, or may join."""
        if link.pad:
            self._greet(link, link.pad)
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
        """Send the pad its player's full STATE, or how to join: nothing without a session, nor
        before its hello has reached the table's loop. The hello is taken on the link's thread
        and the seat given back on the loop; a STATE sent in between (another pad's change)
        showed the pad without its seat, and cleared the move its player had selected."""
        pad = link.pad
        if not pad or self._greeted.get(link) != pad:
            return
        view = self.seats.view(pad.get("ident"))
        if view.may_join:
            view = pad_join_view(self.door.now())
        told = replace(view, text=with_absence(view.text, self.door.now().absence))
        link.send("state", state_of(told))


def _heard_lately(link: Hashable) -> bool:
    """A pad link is alive while its pad is heard (a port that vanished is not)."""
    return bool(getattr(link, "present", False))


def expand_ports(patterns: list[str]) -> list[str]:
    """Device paths for the configured patterns (globs), or the patterns themselves."""
    ports: list[str] = []
    for pattern in patterns:
        matches = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        ports += [port for port in matches if port not in ports]
    return ports
