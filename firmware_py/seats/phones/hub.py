"""Phones as pads: each open WebSocket is a device of the table's remote seats.

A phone proves who it is with a seat token: issued when it joins (with the table code shown on
the tower), kept by the page, and sent again in a hello after every reconnect, which is
answered with a new token (`tokens`: the old one stays good until the new one is used). The
device id the seats know is derived from the first token, so a reload gets the seat back and a
made-up token gets nothing. A connection that shows a seat's token takes the seat over from
the connection holding it (the token is the phone's secret): the table hears that the seat
moved, and the page it left is told so.
Every page message is answered (in words, or with a view: a `ping` from a phone that woke up
gets its newest view, so the page can tell a live connection from one that died silently);
after every table change each phone gets its player's `SeatView` (or, without a seat, whether
it may join). Everything here runs on the table's loop.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
import unicodedata
from collections.abc import Callable
from typing import Any

from firmware_py.errors import TowerError
from firmware_py.journal.journal import Journal
from firmware_py.json_text import json_value
from firmware_py.seating import waiting_drawn
from firmware_py.seats.devices import BEFORE_A_GAME, RemoteDecision, RemoteSeats, with_absence
from firmware_py.seats.names import MAX_NAME, clean_name, why_not_name
from firmware_py.seats.phones.budget import Bucket
from firmware_py.seats.phones.codes import TableCodes
from firmware_py.seats.phones.game_over import Figures, GameOverFigures
from firmware_py.seats.phones.join_key import new_join_key
from firmware_py.seats.phones.pad_names import named_pad, pad_seats
from firmware_py.seats.phones.tokens import SeatTokens, device_of, new_token
from firmware_py.seats.seatview import SeatView
from firmware_py.table import NO_SEAT, SeatsNow
from firmware_py.view import TableView

log = logging.getLogger(__name__)

PER_ADDRESS = 4  # connections without a seat from one address: a phone and its reloads
# (no cap across addresses that pushes anyone out: each device has its share, and seat holders
# always get in besides; the server's doorman bounds all connections, `doorman`)
MAX_MESSAGE = 2000  # characters a page message may have (a decision is about 150)
MAX_OUTBOX = 64  # messages waiting for a phone that does not read them: then it is dropped
BURST = 30  # messages a page without a seat may send at once (a hello, a join, pings) ...
PER_SECOND = 10.0  # ... and then per second; a connection over its budget is closed
TAPS_AT_ONCE = 60  # messages a seated player's page may send at once (a tap is one) ...
TAPS_PER_SECOND = 20.0  # ... and then per second: more than any thumb taps
MAX_WRONG_CODES = 5  # wrong table codes one connection may send before it is closed
ADDRESSES_KEPT = 1024  # addresses remembered while they wait (the oldest are forgotten)
COOL_OFF = 10.0  # seconds an address cut off for flooding the lobby waits to connect again
TAPS_COOL_OFF = 1.0  # ... and a seated player's (the page's own retries: 0.5 s, 1.5 s)
CROWDED_COOL_OFF = 1.0  # seconds an address told it is crowded is refused before upgrading
MAX_REQUEST_ID = 80
ACTIONS = ("mark", "pass", "undo", "lucky")
FIELDS = (
    ("row", str, ""),
    ("number", int, 0),
    ("lucky", bool, False),
    ("choice", str, ""),
    ("swap", int, 0),  # X-Change: the swap field a cross uses
)
KIND_WORDS = {str: "text", int: "a whole number", bool: "true or false"}
ROLL_WORDS = "your roll: press the roll button on the tower"
START_WORDS = "A press of the tower's roll button starts the game."
NO_SEAT_WORDS = "this phone holds no seat: join with the table code first"
TOO_FAST = "this phone sent too many messages at once: reload the page"
TAPPED_TOO_FAST = "this phone sent too many messages at once: it reconnects in a moment"
MOVED = "{name}'s seat moved to another phone (or another tab): it is played there now"
SUPERSEDED = (
    "this phone's seat token was replaced by a newer one (the seat is played with that one "
    "now): join with the table code"
)


class PageRefused(TowerError):
    """A page message the hub cannot take: `words` go back to the page."""

    def __init__(self, words: str, *, forget: bool = False, close: bool = False) -> None:
        super().__init__(words)
        self.words = words
        self.forget = forget  # the page should drop its token: it names no seat here
        self.close = close  # the connection ends after the words


class Phone:
    """One open WebSocket: the device it speaks for once it has a seat, what waits to be sent
    (a newer view replaces an unsent older one, so a slow phone never falls behind; a phone
    that reads nothing while MAX_OUTBOX messages wait is dropped), and its message budget."""

    def __init__(self, address: str = "", now: float = 0.0) -> None:
        self.address = address  # where it connects from: caps and wrong codes are per address
        self.device: str | None = None
        self.wrong_codes = 0
        self.closing = False
        self.dropped = False  # it read nothing for too long: closed without last words
        self.cut_off = False  # it flooded: its connection is cut after its last words
        self._outbox: list[tuple[str, str]] = []
        self._ready = asyncio.Event()
        self._lobby_budget = Bucket(BURST, PER_SECOND, now)
        self._taps_budget = Bucket(TAPS_AT_ONCE, TAPS_PER_SECOND, now)

    def send(self, message: dict[str, Any]) -> None:
        if self.dropped:
            return
        kind = message["type"]
        if kind in ("view", "lobby"):
            self._outbox = [(k, m) for k, m in self._outbox if k not in ("view", "lobby")]
        if len(self._outbox) >= MAX_OUTBOX:
            self.drop()
            return
        self._outbox.append((kind, json.dumps(message)))
        self._ready.set()

    def drop(self) -> None:
        """Close without sending what waits: the phone does not read what it is sent."""
        self.dropped = self.closing = True
        self._outbox = []
        self._ready.set()

    def spend(self, now: float, *, seated: bool = False) -> bool:
        """One message from the page, from its budget: a page without a seat sends a few
        (BURST, then PER_SECOND), a seated player's page one a tap (TAPS_AT_ONCE, then
        TAPS_PER_SECOND). False when it is spent: the page sends far more than a player taps."""
        return (self._taps_budget if seated else self._lobby_budget).take(now)

    async def write(self, send_str: Callable[[str], Any]) -> None:
        """Send what is queued, as it comes, until cancelled (the socket closed) or ended."""
        while True:
            await self._ready.wait()
            self._ready.clear()
            batch, self._outbox = self._outbox, []
            for _, text in batch:
                if self.dropped:
                    return
                await send_str(text)
            if self.closing:
                return

    def end(self) -> None:
        """After what is queued is sent, the server closes this connection."""
        self.closing = True
        self._ready.set()


class WebHub:
    """The phones at the table: joins, hellos and decisions from pages; views pushed to them
    (at game over with the game's `figures`, `game_over`)."""

    def __init__(
        self,
        seats: RemoteSeats,
        journal: Journal,
        code: str | None = None,
        key: str | None = None,
        figures: Figures | None = None,
    ) -> None:
        self.seats = seats
        self.door = seats.door  # the table's way in for phones
        self.tokens = SeatTokens(journal, self._has_seat)
        self.codes = TableCodes(key or new_join_key(), code)
        self.phones: dict[Phone, None] = {}  # open connections, oldest first
        self.clock = time.monotonic
        self.code_changed: Callable[[], None] = lambda: None  # the displays show the code
        self._answering: Phone | None = None
        self._seen = -1
        self._played_from: dict[str, str] = {}  # device -> the address its seat is played from
        self._cooling: dict[str, float] = {}  # address -> until when it may not connect
        self.stopping = False  # the tower stops: the pages that close now come back after it
        self.game_over = GameOverFigures(figures)

    @property
    def code(self) -> str:
        """The table code a person types (four digits, new after every game)."""
        return self.codes.code

    @property
    def key(self) -> str:
        """The key in the QR code's link (the same across games and restarts)."""
        return self.codes.key

    # ---- connections -------------------------------------------------------------------------

    def open(self, address: str = "") -> Phone | None:
        """A new connection from `address`, or None when that address has PER_ADDRESS open
        without a seat (it is told so, and refused before upgrading for a moment: see
        `cooling`). Every device has its own share: nobody is pushed out for a newcomer,
        so no number of devices keeps a new phone out; seat holders always get in besides."""
        if self._unseated_from(address) >= PER_ADDRESS:
            self._cool(address, CROWDED_COOL_OFF)
            return None
        phone = Phone(address, self.clock())
        self.phones[phone] = None
        self.sync(phone)
        return phone

    def _unseated_from(self, address: str) -> int:
        return sum(phone.address == address and not self._seated(phone) for phone in self.phones)

    def cut_off(self, phone: Phone, seconds: float = COOL_OFF) -> None:
        """A connection that floods ends without a close handshake (what it still sends is
        not read), and its address waits `seconds` before it may connect again: a client
        that reconnects at full speed costs the tower almost nothing."""
        phone.cut_off = True
        phone.end()
        self._cool(phone.address, seconds)

    def _cool(self, address: str, seconds: float) -> None:
        until = self.clock() + seconds
        self._cooling[address] = max(until, self._cooling.pop(address, until))  # newest last
        while len(self._cooling) > ADDRESSES_KEPT:
            del self._cooling[next(iter(self._cooling))]

    def cooling(self, address: str) -> bool:
        """True while `address` waits after a flood (see `cut_off`)."""
        until = self._cooling.get(address)
        if until is not None and until <= self.clock():
            del self._cooling[address]
            return False
        return until is not None

    def _seated(self, phone: Phone) -> bool:
        return phone.device is not None and self.seats.seat_of(phone.device) is not None

    def close(self, phone: Phone) -> None:
        """The connection is gone; its seat stays for the phone's next hello, and the table
        says that its player's phone has gone (unless the tower is stopping)."""
        self.phones.pop(phone, None)
        if phone.device is not None and self.stopping:
            self.seats.disconnect(phone)
        elif phone.device is not None:
            self.seats.gone(phone.device, phone)

    # ---- messages from a page ----------------------------------------------------------------

    def receive(self, phone: Phone, text: str) -> None:
        """One message from the page: every outcome is answered in words, none raises. A
        connection that sends more than its budget is closed."""
        if phone.closing:
            return
        seated = self._seated(phone)
        if not phone.spend(self.clock(), seated=seated):
            self._too_fast(phone, seated)
            return
        try:
            message = parse(text)
            kind = message.get("type")
            handlers = {"hello": self._hello, "join": self._join, "decide": self._decide,
                        "ping": self._ping, "kept": self._kept}  # fmt: skip
            handler = handlers.get(kind) if isinstance(kind, str) else None
            if handler is None:
                raise PageRefused("the tower does not know that message; reload the page")
            handler(phone, message)
        except PageRefused as refusal:
            phone.send({"type": "refused", "reason": refusal.words, "forget": refusal.forget,
                        "final": refusal.close})  # fmt: skip
            if refusal.close:
                phone.end()

    def _too_fast(self, phone: Phone, seated: bool) -> None:
        """A page over its budget is told and cut off. A seated player's page (whose budget no
        thumb spends) reconnects by itself after a moment; a page without a seat is told to
        reload, and its device waits COOL_OFF seconds."""
        if seated:
            phone.send({"type": "refused", "reason": TAPPED_TOO_FAST, "forget": False,
                        "final": False})  # fmt: skip
            self.cut_off(phone, TAPS_COOL_OFF)
        else:
            phone.send({"type": "refused", "reason": TOO_FAST, "forget": False, "final": True})
            self.cut_off(phone)

    def _ping(self, phone: Phone, message: dict[str, Any]) -> None:
        """A phone woke up: the newest view says its connection carries (a dead one gets none)."""
        self.sync(phone)

    def _hello(self, phone: Phone, message: dict[str, Any]) -> None:
        """A page with a token comes back: into its seat, if it holds one here, with a new
        token (the one it came with stays good until the new one is used)."""
        token = message.get("token")
        if not isinstance(token, str) or not 8 <= len(token) <= 64:
            raise PageRefused(
                "this phone's seat token is malformed: join with the table code", forget=True
            )
        device = self.tokens.device(token)
        if device is None:
            raise PageRefused(SUPERSEDED, forget=True)
        if phone.device == device:
            self.sync(phone)
            return
        if phone.device is not None:
            raise PageRefused("this connection already speaks for a seat; reload the page")
        moved = self._take_over(device)
        refusal = self.seats.connect(device, phone)
        if refusal is not None:
            raise PageRefused(refusal.reason)
        phone.device = device  # seated or not: its retries are answered from the journal
        if self.seats.seat_of(device) is None:
            raise PageRefused(
                "this phone holds no seat at this table (the seat was given up, or the tower "
                "lost it): join with the table code",
                forget=True,
            )
        self._note_where_played(device, phone.address, told=moved)
        fresh = self.tokens.renew(device, token)
        if fresh is not None:
            phone.send({"type": "token", "token": fresh})
        self.sync(phone)

    def _kept(self, phone: Phone, message: dict[str, Any]) -> None:
        """The page kept the token its hello was answered with: the one before is no good.
        Answered, as every message is, with the newest view."""
        token = message.get("token")
        if phone.device is not None and isinstance(token, str) and len(token) <= 64:
            self.tokens.kept(phone.device, token)
        self.sync(phone)

    def _has_seat(self, device: str) -> bool:
        """True while a phone seat at the table is `device`'s (its tokens are worth keeping)."""
        return any(seat.pad == device for seat in self.door.now().seats)

    def _note_where_played(self, device: str, address: str, *, told: bool = False) -> None:
        """A seat played from another address than before is a line of news (unless `told`
        already): a player whose seat a stolen token took while the phone was away sees it
        on the tower (a reload comes from the same one)."""
        before = self._played_from.get(device)
        self._played_from[device] = address
        name = self.seats.seat_of(device)
        if before is not None and before != address and name is not None and not told:
            self.door.news.tell(f"{name}'s seat is played from another phone now")
        for gone in [d for d in self._played_from if self.seats.seat_of(d) is None]:
            del self._played_from[gone]  # only seats at the table are remembered

    def _take_over(self, device: str) -> bool:
        """The token is the phone's secret: a connection that shows it speaks for the seat
        from now on, also while another connection holds it (the same phone back after a lost
        network, or another phone that was shown the token). The table hears that the seat
        moved, and the page it left is told so and closed. True when it moved."""
        old = [phone for phone in self.phones if phone.device == device]
        name = self.seats.seat_of(device)
        for each in old:
            self.seats.disconnect(each)
            each.device = None
            each.send({"type": "refused", "forget": False, "final": True,
                       "reason": MOVED.format(name=name or "this")})  # fmt: skip
            each.end()
        if old and name is not None:
            self.door.news.tell(f"{name}'s seat moved to another phone")
        return bool(old)

    def _join(self, phone: Phone, message: dict[str, Any]) -> None:
        """A player types the table code and a name: a new seat, between games."""
        if phone.device is not None and self.seats.seat_of(phone.device) is not None:
            self.sync(phone)  # seated already
            return
        self._check_code(phone, message.get("code"))
        name = typed_name(message.get("name"))
        if message.get("pad") is not None:  # the page names a pad's player, and stays unseated
            phone.send(named_pad(self.door, message["pad"], name))
            return
        token = new_token()
        device = device_of(token)
        refusal = self.seats.connect(device, phone)
        if refusal is None:
            refusal = self.seats.join(device, phone, name)
            if refusal is not None:
                self.seats.disconnect(phone)
        if refusal is not None:
            raise PageRefused(refusal.reason)
        phone.device = device
        self._played_from[device] = phone.address
        phone.send({"type": "joined", "token": token, "player": self.seats.seat_of(device)})
        self.sync(phone)

    def _check_code(self, phone: Phone, code: object) -> None:
        """The QR link's key or the typed table code (`codes`: wrong typed codes are limited
        per address and for the whole table); MAX_WRONG_CODES wrong ones close a connection."""
        wrong = self.codes.check(phone.address, code, self.clock())
        if wrong is None:
            return
        if wrong.counted:
            phone.wrong_codes += 1
        if phone.wrong_codes >= MAX_WRONG_CODES:
            raise PageRefused(
                "too many wrong table codes: reload the page to try again", close=True
            )
        raise PageRefused(wrong.words)

    def _decide(self, phone: Phone, message: dict[str, Any]) -> None:
        """The player's mark, pass, undo or lucky number; answered with the referee's word."""
        request = message.get("request")
        if not isinstance(request, str) or not 1 <= len(request) <= MAX_REQUEST_ID:
            raise PageRefused("the page sent a decision without a request number; reload the page")
        device = phone.device
        if device is None:
            phone.send(_answer(request, NO_SEAT_WORDS, str(NO_SEAT)))
            return
        try:
            decision = RemoteDecision(**decision_fields(message))
        except (TypeError, ValueError) as error:
            phone.send(_answer(request, f"the page sent a malformed decision: {error}", "rule"))
            return
        self._answering = phone  # its new view goes out after the answer
        try:
            refusal = self.seats.decide(device, request, decision)
        finally:
            self._answering = None
        if refusal is None:
            phone.send({"type": "answer", "request": request, "ok": True})
        else:
            reason = NO_SEAT_WORDS if refusal.kind == NO_SEAT else refusal.reason  # a phone's
            phone.send(_answer(request, reason, str(refusal.kind)))  # way back is the code
        self.sync(phone)

    # ---- pushing views -----------------------------------------------------------------------

    def push_all(self, view: TableView) -> None:
        """After a change, every phone's new view (display-only frames change nothing here).
        A game that ends gets the table a new code: who saw the old one (a guest gone home, a
        photo of the display) cannot join the next game with it; seated phones keep their
        seats by their tokens."""
        if view.version == self._seen:
            return
        self._seen = view.version
        self.game_over.keep(view.story)
        if view.ended:
            self.codes.renew()
            self.code_changed()
        for phone in self.phones:
            if phone is not self._answering:
                self.sync(phone)

    def sync(self, phone: Phone) -> None:
        """The phone's player's view, or (without a seat) whether it may join now."""
        device, now = phone.device, self.door.now()
        if device is not None and self.seats.seat_of(device) is not None:
            view = phone_view(self.seats.view(device), [seat.name for seat in now.seats])
            view["text"] = with_absence(view["text"], now.absence)
            self.game_over.add_to(view)
            phone.send({"type": "view", "view": view})
            return
        text = with_absence(lobby_words(now), now.absence)
        phone.send({"type": "lobby", "may_join": now.join_refusal is None, "text": text,
                    "pads": pad_seats(now)})  # fmt: skip


def lobby_words(now: SeatsNow) -> str:
    """What a phone without a seat reads: how to join, or why it cannot now; at a tournament's
    table, who is drawn there and not seated yet (only they sit down)."""
    refusal, waiting = now.join_refusal, waiting_drawn(now.seats)
    if refusal is not None:
        return refusal.reason
    if waiting:
        return f"type the table code and your name as drawn here: {', '.join(waiting)}"
    return "type the table code and your name"


def phone_view(view: SeatView, seated: list[str]) -> dict[str, Any]:
    """A player's view as the page gets it. A phone has no button of its own to press, so its
    player is told which one: the tower's; and before a game, who is at the table so far."""
    fields: dict[str, Any] = plain(view)
    if view.phase == "roll" and view.active:
        fields["text"] = ROLL_WORDS
    elif view.phase == "idle" and view.player in seated and view.text == BEFORE_A_GAME:
        fields["text"] = f"at the table: {', '.join(seated)}. {START_WORDS}"
    return fields


def plain(value: Any) -> Any:
    """A view as JSON's data: each dataclass a dict of its fields, as `dataclasses.asdict`
    makes it, without its deep copy of every leaf (a view's leaves are str, int, bool and None,
    which need none): asdict took a fifth of the tower's CPU at a full table of phones."""
    if isinstance(value, tuple | list):
        return type(value)(plain(item) for item in value)
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    names = _FIELD_NAMES.get(type(value))
    if names is None:
        names = _FIELD_NAMES[type(value)] = _field_names(type(value))
    if names:
        return {name: plain(getattr(value, name)) for name in names}
    return value


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # by type: a view holds a handful of types


def _field_names(kind: type) -> tuple[str, ...]:
    """The fields of a dataclass type, in order; () for any other type."""
    if not dataclasses.is_dataclass(kind):
        return ()
    return tuple(field.name for field in dataclasses.fields(kind))


def parse(text: str) -> dict[str, Any]:
    """A page message as a JSON object, or PageRefused in words."""
    if len(text) > MAX_MESSAGE:
        raise PageRefused(
            f"that message is too long ({len(text)} characters; at most {MAX_MESSAGE})"
        )
    try:
        message = json_value(text)
    except ValueError:
        raise PageRefused(
            "the tower could not read that message (not JSON); reload the page"
        ) from None
    if not isinstance(message, dict):
        raise PageRefused("the tower could not read that message (not an object); reload the page")
    return message


def typed_name(name: object) -> str:
    """A name typed on a phone, cleaned as every door cleans names; PageRefused in words for one
    that is too long or shows nothing a player could read."""
    if not isinstance(name, str) or not name.strip():
        raise PageRefused("type your name to join")
    normal = " ".join(unicodedata.normalize("NFKC", name).split())
    if any(unicodedata.category(char).startswith("C") for char in normal):
        raise PageRefused("a name has letters, digits and spaces only")
    cleaned = clean_name(name)
    if len(normal) > MAX_NAME:
        raise PageRefused(f"that name is too long: at most {MAX_NAME} characters")
    why = why_not_name(cleaned)
    if why is not None:
        raise PageRefused(why)
    return cleaned


def decision_fields(message: dict[str, Any]) -> dict[str, Any]:
    """The decision's fields, type-checked (ValueError in words for a wrong one)."""
    action = message.get("action")
    if action not in ACTIONS:
        raise ValueError(f"the action must be one of {', '.join(ACTIONS)}")
    fields = {"action": action}
    for key, kind, default in FIELDS:
        value = message.get(key, default)
        if value is None:
            value = default
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ValueError(f"{key} must be {KIND_WORDS[kind]}, not {value!r}")
        fields[key] = value
    if not 0 <= fields["number"] <= 99:
        raise ValueError(f"no cell has the number {fields['number']}")
    return fields


def _answer(request: str, reason: str, kind: str) -> dict[str, Any]:
    return {"type": "answer", "request": request, "ok": False, "reason": reason, "kind": kind}
