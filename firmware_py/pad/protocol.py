"""The pad <-> tower wire protocol: framing, the message table, answering each request once.

One module for both ends of the cable. The tower imports it as `firmware_py.pad.protocol`; the pad
firmware (MicroPython on a Pico) copies it to the board and imports it as `protocol`. So it imports
nothing from its package but, on the tower only, the tower's error base (`_ErrorBase` below), and
uses only what CPython 3.11 and MicroPython 1.2x both run: no dataclasses, no typing at run time,
no f-strings, `isinstance(True, int)` not relied on (False on MicroPython). Its annotations are
for mypy: MicroPython's compiler drops them, and those naming the type aliases below are in
quotes, so CPython never evaluates them either.

The written protocol, with the byte layout and the rules for sequence numbers, answers and
heartbeats, is docs/pad-protocol.md; the table below is its single source.
"""

import struct
import sys

try:
    from binascii import crc32 as _crc32

    _HAS_CRC32 = True
except ImportError:  # a MicroPython build without binascii.crc32: the table-less fallback below
    _HAS_CRC32 = False

TYPE_CHECKING = False  # typing.TYPE_CHECKING, which mypy knows by name; MicroPython has no typing
if TYPE_CHECKING:
    from typing import Any

    # A message's or a record's fields by name, each value as the message table below types it:
    # an int (u8, u16, i16), str, bytes, or a list of records (x[]). What a value is depends on
    # the message's name, known only at run time, so the values are Any to the type checker.
    Fields = dict[str, Any]
    # A message's layout from the table: (name, kind) pairs, a record list's kind its own layout.
    Layout = tuple[tuple[str, "str | Layout"], ...]

# The errors below are TowerErrors on the tower. On the pad this module stands alone (no
# firmware_py there), and MicroPython refuses a class two built-in bases (ValueError and an
# Exception's subclass): there they are ValueErrors only.
if TYPE_CHECKING:
    from firmware_py.errors import TowerError as _ErrorBase
elif sys.implementation.name == "micropython":
    _ErrorBase = object
else:
    from firmware_py.errors import TowerError as _ErrorBase

# Byte 0 of every frame. It changes only if the framing itself changes; a reader drops frames of
# another format (counted as "version"). What the messages mean is PROTOCOL_VERSION, in HELLO.
FRAME_FORMAT = 1
# 2: longo lucky numbers entered on the pad (phase 5, action 4); a pad joins with a button
# (STATE flag MAY_JOIN, action JOIN); 3: Big Points' bonus rows (row flag ROW_BONUS, move and
# request flag BONUS); 4: X-Change's swap fields (move and request flags, bits 4 to 7); 5: Qwixx
# Double's second crosses (row flag ROW_DOUBLE, move flag TWICE); 6: row flag ROW_LINKS
PROTOCOL_VERSION = 6
OLDEST_PAD_PROTOCOL = 5  # the oldest pad let in: 6 adds only records such a pad skips

HEADER_SIZE = 4  # format u8, type u8, seq u16
CRC_SIZE = 4
MAX_FRAME = 256  # a decoded frame: header, payload and CRC
MAX_PAYLOAD = MAX_FRAME - HEADER_SIZE - CRC_SIZE
MAX_ENCODED = MAX_FRAME + (MAX_FRAME + 253) // 254  # COBS adds a byte per 254

# Liveness: each side sends a HEARTBEAT every BEAT_SECONDS; a side heard from by no good frame for
# MISSED_BEATS beats is gone. A pad re-sends an unanswered REQUEST every RETRY_SECONDS.
BEAT_SECONDS = 1.0
MISSED_BEATS = 3
RETRY_SECONDS = 1.0

ROLE_TOWER = 1
ROLE_PAD = 2

# Reason codes: ANSWER.status and HELLO_ACK.status. 0 is yes; everything else says why not.
OK = 0
RULE = 1  # the rules forbid it; the text says which rule, in a player's words
CHOICE = 2  # the mark earns a reward that needs a choice of row: send it again with `choice`
NOT_NOW = 3  # no game running, or the game is over; for a join: a game is being played
NOT_SEATED = 4  # this pad is not assigned to a player
NO_SESSION = 5  # a request before an accepted HELLO: say HELLO first
BAD_REQUEST = 6  # an unknown action, or a row or number that names no cell
STORAGE = 7  # the tower could not record it; nothing changed, try again
VERSION = 8  # HELLO_ACK: the tower does not speak the pad's PROTOCOL_VERSION
ROLE = 9  # HELLO_ACK: the sender is not a pad
TAKEN = 10  # HELLO_ACK: a pad with this ident is connected on another port that is still up

REASONS = {
    OK: "ok",
    RULE: "rule",
    CHOICE: "choice",
    NOT_NOW: "not now",
    NOT_SEATED: "not seated",
    NO_SESSION: "no session",
    BAD_REQUEST: "bad request",
    STORAGE: "storage",
    VERSION: "version",
    ROLE: "role",
    TAKEN: "taken",
}

# Rows travel as codes: 1..4 in this order, 0 for none. Phases likewise, by index.
COLOURS = ("red", "yellow", "green", "blue")
PHASES = ("idle", "roll", "action1", "action2", "over", "lucky")

# REQUEST.action
MARK = 1
PASS = 2
UNDO = 3
LUCKY_NUMBER = 4  # before a longo game: `number` is one of the player's lucky numbers, 0: draw
JOIN = 5  # a pad without a seat asks for one (a player pressed one of its buttons)
# JOIN's `number`: the button pressed (1 red ... 5 pass, 6 undo; 0 from a pad before this): at a
# tournament's table it takes the seat at that place when it waits for its drawn person

# Flag bits: STATE.flags, STATE.rows[].flags, STATE.moves[].flags and REQUEST.flags.
MAY_PASS = 1
MAY_UNDO = 2
ACTIVE = 4  # this pad's player is the active player
DECIDED = 8  # this pad's player has marked or passed in the open action
MAY_JOIN = 16  # this pad holds no seat: any button asks to join (`text` says if it can now)
ROW_LOCKED = 1  # this player crossed the row's lock
ROW_CLOSED = 2  # the row is locked for everyone
ROW_BONUS = 4  # a bonus row (Big Points), after the colour rows; `colour` is the row above it
LUCKY = 1  # a longo lucky cross (moves and requests)
NEEDS_CHOICE = 2  # the move earns a reward that needs a choice of row
BONUS = 4  # a bonus box (Big Points; moves and requests): `row` is the colour row above it
# Qwixx Double: a record after the colour rows for the colour row `colour`: `crossed` its cells
# holding a second cross, `numbers` those printed double
ROW_DOUBLE = 8
ROW_LINKS = 16  # Qwixx Connected: a row's stair and chain cells on the pad (padlinks.py)
TWICE = 8  # a move that makes two crosses (a second cross, a cell printed double; moves only)

# X-Change (moves and requests, version 4): bits 4 to 7 hold the swap field the cross uses, 1 =
# the leftmost (0: none). These bits were always 0 before.
SWAP_SHIFT = 4
SWAP_BITS = 0xF0


def swap_field(flags: int) -> int:
    """The X-Change field in a move's or request's flags (0: none)."""
    return (flags & SWAP_BITS) >> SWAP_SHIFT


# Records: the elements of list fields, named `kind[]` in the table below.
RECORDS = {
    "row": "colour:u8 numbers:bytes cells:bytes crossed:u16 flags:u8",
    "move": "row:u8 number:u8 flags:u8",
}

# The message table: id, name, who sends it, fields. Ids 1 and 2 and their fields never change,
# so two sides of different versions can always tell each other what they speak.
MESSAGES = (
    (1, "hello", "both", "protocol:u8 role:u8 boot:u16 ident:str firmware:str"),
    (2, "hello_ack", "tower", "protocol:u8 status:u8 text:str"),
    (3, "heartbeat", "both", "state:u16"),
    (
        4,
        "state",
        "tower",
        "player:str phase:u8 flags:u8 penalties:u8 total:i16 locked:u8 dice:bytes"
        " lucky:bytes text:str rows:row[] moves:move[]",
    ),
    (5, "request", "pad", "action:u8 row:u8 number:u8 flags:u8 choice:u8"),
    (6, "answer", "tower", "req:u16 status:u8 text:str"),
    (7, "notice", "tower", "seconds:u8 text:str"),
)

# kind: struct format, size, smallest and largest value
_INTS = {
    "u8": ("<B", 1, 0, 0xFF),
    "u16": ("<H", 2, 0, 0xFFFF),
    "i16": ("<h", 2, -0x8000, 0x7FFF),
}
_HEADER = "<BBH"
_CRC = "<I"


class ProtocolError(ValueError, _ErrorBase):
    """Base of every error this module raises."""


class BadFrame(ProtocolError):
    """A received frame cannot be used; `kind` names why, as counted in FrameDecoder.stats."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(kind + (": " + detail if detail else ""))
        self.kind = kind


class BadMessage(ProtocolError):
    """A message to send does not fit its table entry: unknown name or field, value, length."""


DROPS = ("truncated", "crc", "oversize", "version", "unknown", "malformed")


def _fields(spec: str) -> "Layout":
    """'name:kind ...' as ((name, kind), ...); a kind 'x[]' becomes the fields of record x."""
    fields: list[tuple[str, str | Layout]] = []
    for item in spec.split():
        name, kind = item.split(":")
        fields.append((name, _fields(RECORDS[kind[:-2]]) if kind.endswith("[]") else kind))
    return tuple(fields)


BY_NAME: "dict[str, tuple[int, Layout]]" = {}  # name -> (id, fields)
BY_ID: "dict[int, tuple[str, Layout]]" = {}  # id -> (name, fields)
for _id, _name, _sender, _spec in MESSAGES:
    BY_NAME[_name] = (_id, _fields(_spec))
    BY_ID[_id] = (_name, BY_NAME[_name][1])


class Message:
    """One message: its table name, the sender's sequence number, and its fields as a dict."""

    def __init__(self, name: str, seq: int, fields: "Fields") -> None:
        self.name = name
        self.seq = seq
        self.fields = fields

    def __getitem__(self, key: str) -> "Any":
        return self.fields[key]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Message)
            and self.name == other.name
            and self.seq == other.seq
            and self.fields == other.fields
        )

    def __ne__(self, other: object) -> bool:
        return not self == other

    # Unhashable, as CPython makes a class that defines __eq__ (MicroPython needs it said).
    # typeshed types object.__hash__ as a method, so mypy (as typeshed itself) is told here.
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return "Message(" + repr(self.name) + ", " + str(self.seq) + ", " + repr(self.fields) + ")"


# --- COBS: frames contain no 0x00, so 0x00 can delimit them and a reader can always resync ---


def cobs_encode(data: bytes | bytearray) -> bytes:
    """`data` with every 0x00 removed by Consistent Overhead Byte Stuffing."""
    out = bytearray()
    for part in bytes(data).split(b"\x00"):
        while len(part) >= 254:
            out.append(0xFF)
            out += part[:254]
            part = part[254:]
        out.append(len(part) + 1)
        out += part
    return bytes(out)


def cobs_decode(data: bytes | bytearray) -> bytes:
    """The bytes that `cobs_encode` turned into `data`; BadFrame('truncated') if cut short."""
    out = bytearray()
    pos = 0
    end = len(data)
    while pos < end:
        code = data[pos]
        if code == 0 or pos + code > end:
            raise BadFrame("truncated", "COBS block runs past the frame")
        out += data[pos + 1 : pos + code]
        pos += code
        if code < 0xFF and pos < end:
            out.append(0)
    return bytes(out)


def _crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xEDB88320 if crc & 1 else crc >> 1
        table.append(crc)
    return table


def crc32_fallback(data: bytes | bytearray, table: list[int] | None = None) -> int:
    """CRC-32 (the zlib/binascii one) in Python, for builds whose binascii lacks crc32."""
    table = table or _crc_table()
    crc = 0xFFFFFFFF
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


if not _HAS_CRC32:
    _TABLE = _crc_table()

    def crc32(data: bytes | bytearray) -> int:
        """CRC-32 of `data`, unsigned."""
        return crc32_fallback(data, _TABLE)

else:

    def crc32(data: bytes | bytearray) -> int:
        """CRC-32 of `data`, unsigned."""
        return _crc32(data) & 0xFFFFFFFF


# --- fields ---


def _as_int(name: str, value: object, kind: str) -> bytes:
    if value is True or value is False:
        value = int(value)
    fmt, _, low, high = _INTS[kind]
    if not isinstance(value, int) or not low <= value <= high:
        raise BadMessage(name + " must be an integer in " + str(low) + ".." + str(high))
    return struct.pack(fmt, value)


def _as_blob(name: str, value: object, kind: str) -> bytes:
    """A str or bytes field: a length byte and the bytes (UTF-8 for text)."""
    if kind == "str":
        if not isinstance(value, str):
            raise BadMessage(name + " must be text")
        data = value.encode("utf-8")
    else:
        if not isinstance(value, (bytes, bytearray, list, tuple)):
            raise BadMessage(name + " must be bytes")
        try:
            data = bytes(value)
        except (TypeError, ValueError):
            raise BadMessage(name + " must be bytes") from None
    if len(data) > 0xFF:
        raise BadMessage(name + " is longer than 255 bytes")
    return bytes([len(data)]) + data


def _pack_fields(fields: "Layout", values: object, out: bytearray) -> None:
    """Append `values` (a dict) laid out as `fields`; missing fields are 0, empty or none."""
    if not isinstance(values, dict):
        raise BadMessage("fields must be a dict, not " + repr(values))
    names = [name for name, _ in fields]
    for key in values:
        if key not in names:
            raise BadMessage("no field " + repr(key) + "; fields are " + " ".join(names))
    for name, kind in fields:
        _pack_value(name, kind, values.get(name), out)


def _pack_value(name: str, kind: "str | Layout", value: object, out: bytearray) -> None:
    if isinstance(kind, str) and kind in _INTS:
        out += _as_int(name, 0 if value is None else value, kind)
    elif isinstance(kind, str):  # "str" or "bytes"
        out += _as_blob(name, ("" if kind == "str" else b"") if value is None else value, kind)
    else:
        items = [] if value is None else value
        if not isinstance(items, (list, tuple)) or len(items) > 0xFF:
            raise BadMessage(name + " must be a list of at most 255 records")
        out.append(len(items))
        for item in items:
            _pack_fields(kind, item, out)


def _need(data: bytes, pos: int, size: int) -> None:
    if pos + size > len(data):
        raise BadFrame("malformed", "payload ends inside a field")


def _unpack_value(kind: "str | Layout", data: bytes, pos: int) -> "tuple[Any, int]":
    """The value of one field at `pos` in `data`, and the position after it."""
    if isinstance(kind, str) and kind in _INTS:
        fmt, size, _, _ = _INTS[kind]
        _need(data, pos, size)
        return struct.unpack_from(fmt, data, pos)[0], pos + size
    _need(data, pos, 1)
    count = data[pos]
    pos += 1
    if kind == "bytes" or kind == "str":
        _need(data, pos, count)
        raw = bytes(data[pos : pos + count])
        return (_text(raw) if kind == "str" else raw), pos + count
    items = []
    for _ in range(count):
        item, pos = _unpack_fields(_records(kind), data, pos)
        items.append(item)
    return items, pos


def _records(kind: "str | Layout") -> "Layout":
    """A record list's layout; "malformed" for a kind the table does not give (never: every kind
    is an int, str, bytes or a record list)."""
    if isinstance(kind, str):
        raise BadFrame("malformed", "no field kind " + kind)
    return kind


def _text(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeError:
        raise BadFrame("malformed", "text is not UTF-8") from None


def _unpack_fields(fields: "Layout", data: bytes, pos: int) -> "tuple[Fields, int]":
    values = {}
    for name, kind in fields:
        values[name], pos = _unpack_value(kind, data, pos)
    return values, pos


# --- frames ---


def next_seq(seq: int) -> int:
    """The sequence number after `seq`: 1..65535, wrapping to 1; 0 means none."""
    return seq % 0xFFFF + 1


def encode(name: str, seq: object, fields: object = None) -> bytes:
    """The wire bytes of one message: 0x00, the COBS-encoded frame, 0x00 (see the doc)."""
    entry = BY_NAME.get(name)
    if entry is None:
        raise BadMessage("no message " + repr(name))
    if not isinstance(seq, int) or not 0 <= seq <= 0xFFFF:
        raise BadMessage("seq must be an integer in 0..65535")
    body = bytearray(struct.pack(_HEADER, FRAME_FORMAT, entry[0], seq))
    _pack_fields(entry[1], {} if fields is None else fields, body)
    if len(body) + CRC_SIZE > MAX_FRAME:
        raise BadMessage(name + " needs " + str(len(body) + CRC_SIZE) + " bytes, more than a frame")
    body += struct.pack(_CRC, crc32(body))
    return b"\x00" + cobs_encode(body) + b"\x00"


def payload_size(name: str, fields: object) -> int:
    """How many bytes `fields` take as the payload of message `name` (MAX_PAYLOAD fit a frame):
    a sender cuts a text field to the room the others leave."""
    entry = BY_NAME.get(name)
    if entry is None:
        raise BadMessage("no message " + repr(name))
    payload = bytearray()
    _pack_fields(entry[1], fields, payload)
    return len(payload)


def decode(frame: bytes | bytearray) -> Message:
    """The Message in one frame as sent (delimiters optional); BadFrame says why not."""
    frame = bytes(frame).strip(b"\x00")
    if len(frame) > MAX_ENCODED:
        raise BadFrame("oversize")
    return parse(cobs_decode(frame))


def parse(body: bytes) -> Message:
    """The Message in a decoded frame: header, payload, CRC-32 over both."""
    if len(body) > MAX_FRAME:
        raise BadFrame("oversize")
    if len(body) < HEADER_SIZE + CRC_SIZE:
        raise BadFrame("truncated", "shorter than header and CRC")
    if crc32(body[:-CRC_SIZE]) != struct.unpack_from(_CRC, body, len(body) - CRC_SIZE)[0]:
        raise BadFrame("crc")
    form, type_id, seq = struct.unpack_from(_HEADER, body, 0)
    if form != FRAME_FORMAT:
        raise BadFrame("version", "frame format " + str(form))
    entry = BY_ID.get(type_id)
    if entry is None:
        raise BadFrame("unknown", "message type " + str(type_id))
    payload = body[HEADER_SIZE:-CRC_SIZE]
    fields, end = _unpack_fields(entry[1], payload, 0)
    if end != len(payload):
        raise BadFrame("malformed", "bytes left after the last field")
    return Message(entry[0], seq, fields)


class FrameDecoder:
    """Turns a byte stream, fed in chunks of any size, into messages.

    It never raises on what it is fed: a frame it cannot use is dropped and counted in `stats`
    under its kind (DROPS), and the next 0x00 starts afresh, so one bad frame never costs the
    frames after it.
    """

    def __init__(self) -> None:
        self.stats = {"frames": 0}
        for kind in DROPS:
            self.stats[kind] = 0
        self._pending = bytearray()
        self._overflow = False

    def feed(self, data: bytes | bytearray) -> list[Message]:
        """The good messages completed by `data`, in order."""
        chunks = bytes(data).split(b"\x00")
        found: list[Message] = []
        for chunk in chunks[:-1]:
            self._add(chunk)
            self._finish(found)
        self._add(chunks[-1])
        return found

    def dropped(self) -> int:
        """How many frames were dropped, of every kind."""
        return sum(self.stats[kind] for kind in DROPS)

    def reset(self) -> None:
        """Forget a partly received frame, e.g. when the port is reopened."""
        self._pending = bytearray()
        self._overflow = False

    def _add(self, chunk: bytes) -> None:
        if self._overflow:
            return
        if len(self._pending) + len(chunk) > MAX_ENCODED:
            self._overflow = True  # skip to the next 0x00 without keeping the bytes
            self._pending = bytearray()
        else:
            self._pending += chunk

    def _finish(self, found: list[Message]) -> None:
        frame, overflow = self._pending, self._overflow
        self.reset()
        if overflow:
            self.stats["oversize"] += 1
        elif frame:  # empty: two delimiters in a row, idle filler
            try:
                found.append(parse(cobs_decode(frame)))
                self.stats["frames"] += 1
            except BadFrame as error:
                self.stats[error.kind] += 1


class RequestDeduper:
    """Answers a repeated request with its earlier answer, instead of applying it twice.

    A pad re-sends a REQUEST, unchanged and with the same sequence number, until it is answered;
    so when an ANSWER is lost the tower sees the request again. Pads have one request in flight at
    a time, so remembering each pad's last request (keyed by pad identity) is enough. Same
    sequence number but different fields is a new request (the pad restarted its numbering).
    """

    def __init__(self) -> None:
        # pad -> [seq, fields, answer fields or None while unanswered]
        self._last: dict[object, list[Any]] = {}

    def admit(self, pad: object, request: Message) -> bool:
        """True if `request` is new (it now awaits its answer); False if it repeats the last."""
        if self._matching(pad, request) is not None:
            return False
        self._last[pad] = [request.seq, request.fields, None]
        return True

    def answer_for(self, pad: object, request: Message) -> "Fields | None":
        """The answer fields already given to this repeated request; None while it has none."""
        last = self._matching(pad, request)
        return None if last is None else last[2]

    def record(self, pad: object, request: Message, answer: "Fields") -> None:
        """Remember `answer` (ANSWER fields) for `request`, unless a newer request came since."""
        last = self._matching(pad, request)
        if last is not None:
            last[2] = answer

    def forget(self, pad: object) -> None:
        """Forget the pad's last request: it restarted, and numbers its requests afresh."""
        self._last.pop(pad, None)

    def _matching(self, pad: object, request: Message) -> "list[Any] | None":
        last = self._last.get(pad)
        if last is None or last[0] != request.seq or last[1] != request.fields:
            return None
        return last


def clip(text: str, limit: int) -> str:
    """`text` cut to at most `limit` UTF-8 bytes, never inside a character."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    cut = limit
    while cut > 0 and data[cut] & 0xC0 == 0x80:
        cut -= 1
    return data[:cut].decode("utf-8")


def row_code(colour: str | None) -> int:
    """The wire code of a row named by its colour: 1..4; 0 for None."""
    return 0 if colour is None else COLOURS.index(colour) + 1


def row_colour(code: int) -> str | None:
    """The colour of a row code, or None for 0; ValueError for any other code."""
    if code == 0:
        return None
    if not 1 <= code <= len(COLOURS):
        raise ValueError("no row " + str(code))
    return COLOURS[code - 1]
