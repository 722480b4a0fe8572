"""Seats held by devices outside the tower: pads on serial ports, phones on the web.

Pads and phones are one kind of thing to the table: a device with an identity (a pad's ident,
a phone's seat token) that connects over some connection (a serial link, a web socket), joins
the table between games, sends its player's decisions and shows that player's `SeatView`.
`RemoteSeats` is that one path; the pad hub and the web hub only translate their wire to it.

Trust: a device's identity is what it says over a connection the players can see (a cable
into the tower, a phone that read the table code off its display). So an identity is bound to
the connection that brought it: while that connection is up, no other connection can take the
identity (or its seat) over; a seat moves to a new connection only after its old one has gone.
A connection holds at most one seat until it goes away (a pad unplugged, a phone's socket
closed), so one device cannot fill the table by changing its identity.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from firmware_py.rules import Mark, Pass, Undo
from firmware_py.seating import DRAWN, SeatKind, waiting_drawn
from firmware_py.seats.names import MAX_NAME, clean_name, looks
from firmware_py.seats.seatview import SeatView, game_view, idle_view, lucky_view
from firmware_py.table import NO_SEAT, RULE, Decision, LuckyNumber, Refusal, SeatDoor, SeatsNow
from sheets import COLOURS, ROW_NAMES

BEFORE_A_GAME = "the game starts with a press of the roll button"  # a seated device's words


@dataclass(frozen=True)
class RemoteDecision:
    """What a device asks, in names rather than wire codes."""

    action: str  # "mark" | "pass" | "undo" | "lucky"
    row: str = ""  # the row's colour, for a mark
    number: int = 0  # the cell's number for a mark; the lucky number (0: let the tower draw)
    lucky: bool = False  # a longo lucky cross
    choice: str = ""  # bonus-b: the row chosen for a reward
    swap: int = 0  # x-change: the swap field the cross uses (1 = leftmost; 0: none)


def decision_event(name: str, asked: RemoteDecision) -> Decision | Refusal:
    """The table's event for `name`'s decision, or a refusal in words for a malformed one."""
    if asked.action == "pass":
        return Pass(name)
    if asked.action == "undo":
        return Undo(name)
    if asked.action == "lucky":
        return LuckyNumber(name, asked.number)
    if asked.action != "mark":
        return Refusal(f"{asked.action!r} is not something a player can do", RULE)
    if asked.row not in ROW_NAMES or (asked.choice and asked.choice not in COLOURS):
        return Refusal(
            "a mark names a row: red, yellow, green or blue (or a bonus row, such as red-yellow)",
            RULE,
        )
    return Mark(
        name, asked.row, asked.number, asked.lucky, asked.choice or None, asked.swap or None
    )


class Identities:
    """Which connection holds which device identity. Thread-safe: pad links ask from their
    own threads when a pad says hello, before the table's loop hears of it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._holder: dict[str, Hashable] = {}  # device -> the connection holding it

    def claim(self, device: str, connection: Hashable, alive: Callable[[Hashable], bool]) -> bool:
        """True when `connection` may speak as `device`: nobody holds it, it holds it already,
        or its holder is no longer alive."""
        with self._lock:
            holder = self._holder.get(device)
            if holder is not None and holder is not connection and alive(holder):
                return False
            self._release(connection)
            self._holder[device] = connection
            return True

    def release(self, connection: Hashable) -> None:
        """`connection` is gone: the identity it held is free to move."""
        with self._lock:
            self._release(connection)

    def holder(self, device: str) -> Hashable | None:
        with self._lock:
            return self._holder.get(device)

    def _release(self, connection: Hashable) -> None:
        for device in [d for d, held in self._holder.items() if held is connection]:
            del self._holder[device]


class RemoteSeats:
    """The seats of one kind of device (pads or phones) at the table, through `door`, the
    table's way in for that kind."""

    def __init__(
        self,
        door: SeatDoor,
        names: dict[str, str] | None = None,
        *,
        alive: Callable[[Hashable], bool] = lambda connection: True,
    ) -> None:
        self.door = door
        self.kind = door.kind
        self.names = names or {}  # device -> the player's name, from the configuration
        self.identities = Identities()
        self.alive = alive  # whether a connection is still up (a pad link heard lately)
        self.seated: dict[str, str] = {}  # device -> player name
        self._joined: dict[Hashable, str] = {}  # connection -> the device that joined on it
        door.watch(self.here)  # a new game leaves out the seats whose device left

    # ---- connections ---------------------------------------------------------------------

    def claim(self, device: str, connection: Hashable) -> Refusal | None:
        """May `connection` speak as `device`? Refused while another live connection holds
        it. Safe from any thread (a pad link asks before it accepts a hello)."""
        if self.identities.claim(device, connection, self.alive):
            return None
        return Refusal(
            "another pad with this name is connected: unplug it first"
            if self.kind == SeatKind.PAD
            else "this seat is open on another phone",
            RULE,
        )

    def connect(self, device: str, connection: Hashable) -> Refusal | None:
        """`device` says hello on `connection`: refused while another live connection holds
        the device; else it gets back the seat it held (replug, reload, tower restart)."""
        refusal = self.claim(device, connection)
        if refusal is not None:
            return refusal
        self._seat_again(device)
        name = self.seat_of(device)
        if name is not None:  # the table hears it, if it had heard it go (or waits since a restart)
            self.door.device_back(name)
        return None

    def disconnect(self, connection: Hashable) -> None:
        """The connection is gone; its device keeps its seat and may come back on another."""
        self.identities.release(connection)
        self._joined.pop(connection, None)

    def gone(self, device: str | None, connection: Hashable) -> None:
        """The connection `device` spoke on is gone (a phone's page closed, a pad silent or
        unplugged): the device keeps its seat, and unless another connection speaks for it,
        the table hears that the seat's device has gone."""
        held = device is not None and self.holds(device, connection)
        self.disconnect(connection)
        name = self.seat_of(device)
        if held and name is not None and not self.here(name):
            self.door.device_gone(name)

    def here(self, name: str) -> bool:
        """True while the device holding `name`'s seat is connected (a pad heard, a phone's
        page open)."""
        self._forget_seats_gone()  # (and follows a seat named anew)
        devices = [device for device, player in self.seated.items() if player == name]
        holders = [self.identities.holder(device) for device in devices]
        return any(holder is not None and self.alive(holder) for holder in holders)

    def holds(self, device: str, connection: Hashable) -> bool:
        """True when `connection` speaks for `device` now."""
        return self.identities.holder(device) is connection

    # ---- seats -----------------------------------------------------------------------------

    def seat_of(self, device: str | None) -> str | None:
        """The player whose seat this device holds; a seat the menu took away (and that has
        no game to play out) is given up, so the device can ask to join again."""
        if device is None:
            return None
        name = self.seated.get(device)
        if name is None:
            return name
        now = self.door.now()
        if now.taken(name):
            return name
        game = now.game
        if game is not None and not game.over and name in game.seat:
            return name
        renamed = [seat.name for seat in now.seats if seat.kind == self.kind and seat.pad == device]
        if renamed:  # its player named from a phone since: the seat is still this device's
            self.seated[device] = renamed[0]
            return renamed[0]
        del self.seated[device]
        return None

    def join(self, device: str, connection: Hashable, name: str | None = None) -> Refusal | None:
        """A new seat between games, at the end of the table, for a device speaking on
        `connection`. `name` is what a phone typed (cleaned, made unique); None: the name the
        configuration gives the device, else `Player N`."""
        refusal = self.claim(device, connection)  # a connection back from silence
        if refusal is not None:
            return refusal
        if self.seat_of(device) is not None:
            return None  # seated already (at its hello): nothing to do
        held = self.seat_of(self._joined.get(connection))
        if held is not None:  # the same connection, another identity: one seat is enough
            return Refusal(f"this {self.kind} holds {held}'s seat already", RULE)
        self._forget_seats_gone()
        drawn = self._drawn_seat(name)
        if drawn is not None:  # a tournament's seat, waiting for the one who joins by its name
            self.seated[device], self._joined[connection] = drawn, device
            self.door.seat_back(drawn, device)
            return None
        waiting = waiting_drawn(self.door.now().seats)
        if name is not None and waiting:  # a name typed that no seat here was drawn for
            return Refusal(f"{clean_name(name) or 'that name'} is not drawn at this table: "
                           f"its seats wait for {' and '.join(waiting)}", RULE)  # fmt: skip
        player = self._new_name(device, name)
        refusal = self.door.join(player, pad=device)
        if refusal is None:
            self.seated[device] = player
            self._joined[connection] = device
        return refusal

    def _forget_seats_gone(self) -> None:
        """Devices whose seat is gone (set aside by the menu, no game left to play out) are
        forgotten, as `seat_of` forgets each when asked: years of phones that joined once and
        never came back leave no trace here."""
        for device in list(self.seated):
            self.seat_of(device)

    def _drawn_seat(self, typed: str | None) -> str | None:
        """The seat a league drew for the name typed or picked (as names are compared: "ann"
        is Ann's), between games, while no device holds it, whatever device comes (a person's
        drawn seat is theirs, with their phone or their pad)."""
        now = self.door.now()
        wanted = clean_name(typed or "")
        playing = now.draft is not None or (now.game is not None and not now.game.over)
        if not wanted or playing:
            return None
        held = set(self.seated.values())
        return next((seat.name for seat in now.seats
                     if seat.pad == DRAWN and seat.name not in held
                     and not looks(wanted).isdisjoint(looks(seat.name))), None)  # fmt: skip

    def _new_name(self, device: str, typed: str | None) -> str:
        """A typed name (cleaned), else the configured one, else `Player N`; made unique."""
        # Names that look alike ("bot" beside "Bot", a Cyrillic or full-width "Bot") would be
        # told apart by no one: they are compared by how they look (seats.names).
        seats = self.door.now().seats
        seated = [*(seat.name for seat in seats), *self.seated.values()]
        taken = frozenset().union(*(looks(name) for name in seated))
        wanted = clean_name(typed or "") or clean_name(self.names.get(device, ""))
        if wanted and looks(wanted).isdisjoint(taken):
            return wanted
        if wanted:
            stem = wanted[: MAX_NAME - 3].rstrip()  # room for the number, in the one limit
            numbered = (f"{stem} {n}" for n in range(2, 99))
            return next(name for name in numbered if looks(name).isdisjoint(taken))
        number = len(seats) + 1
        while not looks(f"Player {number}").isdisjoint(taken):
            number += 1
        return f"Player {number}"

    def _seat_again(self, device: str) -> None:
        """Seats that come back need no press: a device keeps its seat across reconnects, and
        after a restart takes back the seat it held (noted with the game); a seat with no
        device noted goes to the device named for it in the configuration, else to the first
        device of this kind that says hello."""
        if device in self.seated:
            return
        taken = set(self.seated.values())
        free = [
            seat
            for seat in self.door.now().seats
            if seat.kind == self.kind and seat.name not in taken and seat.pad in ("", device)
        ]
        if not free:
            return
        known = self.names.get(device)
        mine = [seat.name for seat in free if seat.pad == device or seat.name == known]
        name = mine[0] if mine else free[0].name
        self.seated[device] = name
        self.door.seat_back(name, device)

    # ---- decisions and views ---------------------------------------------------------------

    def decide(self, device: str, request: str, asked: RemoteDecision) -> Refusal | None:
        """The device's player decides; None when accepted. `request` names this request for
        the device across retries and restarts, as `BOOT/SEQ` (a number the device picked when
        it started, and its request's sequence number): a repeat of an applied request is
        accepted without being applied again, even after a restart, because the journal keeps
        the ids of the requests its events answered."""
        answered = f"{device}/{request}"
        earlier = self.door.earlier(answered, self._any_seat(request))
        if earlier is not None:
            return earlier.refusal  # seen before (perhaps before a restart): the same answer
        name = self.seat_of(device)
        if name is None:
            return Refusal(f"this {self.kind} has no seat: join between games", NO_SEAT)
        event = decision_event(name, asked)
        if isinstance(event, Refusal):
            return event
        return self.door.decide(event, answered)

    def _any_seat(self, request: str) -> str:
        """A phone's request ids begin with a random number its page drew when it loaded, so
        an id applied under another seat token is this page's own tap, sent again after the
        phone joined anew (a lost seat, a token the page forgot): it is not applied twice.
        A pad's ids (its boot number, its count) are unique only with its ident: ""."""
        return request if self.kind == SeatKind.PHONE else ""

    def view(self, device: str | None) -> SeatView:
        """What the device shows now: its player's sheet, or how to join."""
        name = self.seat_of(device)
        now = self.door.now()
        if name is None:
            return join_view(now)
        if now.draft is not None and name in now.draft.chosen:
            return lucky_view(now.draft, name)
        if now.game is None:
            return idle_view(BEFORE_A_GAME, player=name)
        return game_view(now.game, name)


def with_absence(text: str, absence: str) -> str:
    """A device's line of words, and after it whose device has gone (`SeatsNow.absence`):
    every pad and phone says so, whatever it shows."""
    return f"{text.rstrip('.')}. {absence}" if text and absence else text or absence


def join_view(now: SeatsNow) -> SeatView:
    """What a device without a seat shows: any button asks to join; the text says whether it
    can now, in a player's words."""
    refusal = now.join_refusal
    return idle_view("press any button to join" if refusal is None else refusal.reason,
                     may_join=True)  # fmt: skip
