"""The game log of docs/game-log.md: JSON Lines to events and back, and replay.

The tower's journal writes this format and `qwixx-tower replay` reads it. Parsing checks the
shape of each line; the rules engine checks the rules.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, BinaryIO

from firmware_py.errors import TowerError
from firmware_py.json_text import json_value
from firmware_py.rules import Event, Game, Mark, Pass, Refused, Roll, Start, Undo
from firmware_py.words import moment
from sheets import COLOURS


class EventKind(StrEnum):
    """The events of a game log (docs/game-log.md), as its "event" key names them."""

    START = "start"
    ROLL = "roll"
    MARK = "mark"
    PASS = "pass"
    UNDO = "undo"


EVENT_NAMES = tuple(EventKind)
LINE_MOST = 100_000  # bytes: an event line is a few hundred; five long names and pads, a few kB


class LogError(TowerError):
    """A log line is malformed or breaks a rule: `line` is its 1-based number in the file."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


def replay(
    lines: Iterable[str | bytes],
    events: list[Start | Event] | None = None,
    requests: list[tuple[str, str]] | None = None,
) -> Game:
    """Replay a whole log (lines of text, or of UTF-8 bytes) and return the resulting game;
    raise LogError at the first bad line. `events`, when given, receives each event applied;
    `requests` the (player, request id) of each device request the log says it answered."""
    game = None
    for number, line in enumerate(lines, start=1):
        try:
            text = _text(line)
            if not text.strip():
                continue
            data = _json_object(text)
            event = parse_event(data)
            game = _apply(game, event)
            if events is not None:
                events.append(event)
            if requests is not None:
                requests += requests_of(event, data)
        except Refused as error:
            raise LogError(number, error.reason) from error
    if game is None:
        raise LogError(1, "the log is empty; its first line must be a start event")
    return game


def lines_of(stream: BinaryIO) -> Iterator[bytes]:
    """The lines of a log read from `stream`, each at most LINE_MOST bytes: LogError for a
    longer one (`replay /dev/zero` would otherwise read one line until memory ran out)."""
    for number in itertools.count(1):
        line = stream.readline(LINE_MOST + 1)
        if not line:
            return
        if len(line) > LINE_MOST:
            raise LogError(number, f"longer than any event line (at most {LINE_MOST:,} bytes)")
        yield line


def _text(line: str | bytes) -> str:
    if isinstance(line, str):
        return line
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Refused(f"not UTF-8 text (byte {error.start + 1} of the line)") from error


def _apply(game: Game | None, event: Start | Event) -> Game:
    if game is None:
        if not isinstance(event, Start):
            raise Refused('a game log must begin with a start event ({"event": "start", ...})')
        return Game.start(event)
    if isinstance(event, Start):
        raise Refused("a game has only one start event, on its first line")
    game.apply(event)
    return game


def parse_line(text: str) -> Start | Event:
    """One log line to an event; Refused with a plain reason when its shape is wrong."""
    return parse_event(_json_object(text))


def _json_object(text: str) -> dict[str, Any]:
    try:
        data = json_value(text)
    except json.JSONDecodeError as error:
        raise Refused(f"not valid JSON ({error.msg} at column {error.colno})") from error
    except ValueError as error:  # nested past Python's depth, or a number of 4,301 digits
        raise Refused(f"not valid JSON ({error})") from error
    if not isinstance(data, dict):
        raise Refused('each line must be a JSON object such as {"event": "roll", ...}')
    return data


def requests_of(event: Start | Event, data: dict[str, Any]) -> list[tuple[str, str]]:
    """The device requests a log line says its event answered, as (player, request id), from
    its optional "request": {"Ann": ["pad-e6614c31aabbccdd/4711/17"]} (a decision answers one;
    a start, the lucky numbers chosen on pads before it). Not part of the game: a line without
    it, or with one malformed, replays the same."""
    noted = data.get("request")
    if not isinstance(noted, dict):
        return []
    return [
        (player, request)
        for player, ids in noted.items()
        if isinstance(ids, list)
        for request in ids
        if isinstance(request, str)
    ]


def parse_event(data: dict[str, Any]) -> Start | Event:
    kind = data.get("event")
    parser = _PARSERS.get(kind) if isinstance(kind, str) else None
    if parser is None:
        raise Refused(f"unknown event {kind!r}; events are {', '.join(EVENT_NAMES)}")
    return parser(data)


def _parse_start(data: dict[str, Any]) -> Start:
    variant = _field(data, "variant", str, "start")
    players = _field(data, "players", list, "start")
    lucky = data.get("lucky")
    if lucky is not None and not isinstance(lucky, dict):
        raise Refused('"lucky" must map each player to their lucky numbers')
    pads = data.get("pads")
    if pads is not None and not isinstance(pads, dict):
        raise Refused('"pads" must map each player to the letter of their pad, as {"Ann": "A"}')
    return Start(variant, tuple(players), lucky, pads)


def _parse_roll(data: dict[str, Any]) -> Roll:
    dice = _field(data, "dice", dict, "roll")
    white = dice.get("white")
    if not isinstance(white, list) or len(white) != 2:
        raise Refused('a roll needs "white": a list of the two white dice')
    colours = {colour: face for colour, face in dice.items() if colour != "white"}
    return Roll(tuple(white), colours)


def _parse_mark(data: dict[str, Any]) -> Mark:
    player = _field(data, "player", str, "mark")
    row = _field(data, "row", str, "mark")
    number = _field(data, "number", int, "mark")
    lucky = data.get("lucky", False)
    if type(lucky) is not bool:
        raise Refused(f'"lucky" must be true or false, not {lucky!r}')
    swap = data.get("swap")
    if swap is not None and (type(swap) is not int or swap < 1):
        raise Refused(
            f'"swap" must be the number of an X-Change field (1 = leftmost), not {swap!r}'
        )
    return Mark(player, row, number, lucky, _parse_choice(data.get("choice")), swap)


def _parse_choice(choice: object) -> str | None:
    if choice is None:
        return None
    if not isinstance(choice, dict) or not isinstance(choice.get("row"), str):
        raise Refused('"choice" must look like {"row": "green"}')
    row: str = choice["row"]
    return row


def _parse_pass(data: dict[str, Any]) -> Pass:
    return Pass(_field(data, "player", str, "pass"))


def _parse_undo(data: dict[str, Any]) -> Undo:
    return Undo(_field(data, "player", str, "undo"))


_TYPE_WORDS = {str: "text", list: "a list", dict: "an object", int: "a whole number"}


def _field(data: dict[str, Any], key: str, kind: type, event: str) -> Any:
    value = data.get(key)
    if value is None:
        raise Refused(f'a {event} event needs "{key}"')
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise Refused(f'"{key}" of a {event} event must be {_TYPE_WORDS[kind]}, not {value!r}')
    return value


_PARSERS: dict[str, Callable[[dict[str, Any]], Start | Event]] = {
    EventKind.START: _parse_start,
    EventKind.ROLL: _parse_roll,
    EventKind.MARK: _parse_mark,
    EventKind.PASS: _parse_pass,
    EventKind.UNDO: _parse_undo,
}


def event_to_json(event: Start | Event) -> dict[str, Any]:
    """The log line for an event, as a JSON-ready dict (the journal's writing side)."""
    writer = _WRITERS.get(type(event))
    if writer is None:
        raise TypeError(f"not a game event: {event!r}")
    return writer(event)


def _start_json(start: Start) -> dict[str, Any]:
    data: dict[str, Any] = {
        "event": EventKind.START,
        "variant": start.variant,
        "players": list(start.players),
    }
    if start.lucky:
        data["lucky"] = {name: list(numbers) for name, numbers in start.lucky.items()}
    if start.pads:
        data["pads"] = dict(start.pads)
    return data


def _roll_json(roll: Roll) -> dict[str, Any]:
    dice: dict[str, Any] = {"white": list(roll.white)}
    dice.update({c: roll.colours[c] for c in COLOURS if c in roll.colours})
    return {"event": EventKind.ROLL, "dice": dice}


def _mark_json(mark: Mark) -> dict[str, Any]:
    data: dict[str, Any] = {
        "event": EventKind.MARK,
        "player": mark.player,
        "row": mark.row,
        "number": mark.number,
    }
    if mark.lucky:
        data["lucky"] = True
    if mark.choice is not None:
        data["choice"] = {"row": mark.choice}
    if mark.swap is not None:
        data["swap"] = mark.swap
    return data


def _pass_json(decision: Pass) -> dict[str, Any]:
    return {"event": EventKind.PASS, "player": decision.player}


def _undo_json(undo: Undo) -> dict[str, Any]:
    return {"event": EventKind.UNDO, "player": undo.player}


_WRITERS: dict[type, Callable[[Any], dict[str, Any]]] = {
    Start: _start_json,
    Roll: _roll_json,
    Mark: _mark_json,
    Pass: _pass_json,
    Undo: _undo_json,
}


def event_to_line(
    event: Start | Event, requests: list[tuple[str, str]] | None = None, *, time: str | None = None
) -> str:
    """One compact JSON Lines line, newline included. `requests`: the (player, request id) of
    the device requests the event answers, written as its optional "request" (the spec's key),
    so that a request repeated after a restart is recognised and not applied again; `time`
    (ISO 8601 with its UTC offset) is the spec's optional key saying when the tower recorded
    the event."""
    data = event_to_json(event)
    if requests:
        grouped: dict[str, list[str]] = {}
        for player, request in requests:
            grouped.setdefault(player, []).append(request)
        data["request"] = grouped
    if time is not None:
        data["time"] = time
    return json.dumps(data, separators=(", ", ": ")) + "\n"


def now() -> str:
    """This moment as a log line's `time`: ISO 8601 in UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def recorded_at(line: str | bytes) -> datetime | None:
    """When the tower recorded the event of a log line (its optional `time`); None for a line
    without one (logs from before it was written), or with one that is not a timestamp."""
    try:
        when = moment(json_value(line)["time"])
    except (ValueError, TypeError, KeyError):
        return None
    return when if when is not None and when.tzinfo is not None else None
