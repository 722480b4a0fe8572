"""The robot finger: which buttons to press on a pad to make it send a given request.

Given the STATE a pad holds (the fields as the tower sent them) and a decision (a mark, a pass,
an undo, a lucky number, or joining the table), `presses` lists the button commands, in the unix
board's words ('tap red', 'hold pass', ...), that make the real firmware send exactly that
REQUEST. The demo mode and the tests use it
to drive pads with a computer player's decisions. It reads the pad's own rules for what a colour
button steps through (`padapp.moves_for`), and `simulate` plays the presses on a `PadApp` to
check them, so the finger and the firmware cannot drift apart.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from firmware_py.errors import TowerError
from firmware_py.pad import padapp, protocol

if TYPE_CHECKING:
    from firmware_py.pad.protocol import Fields

CLEAR = "tap undo"  # with nothing to take back, undo clears a half-made selection
JOIN_PRESS = "tap pass"  # on a pad without a seat any button asks to join


class RobotError(TowerError, ValueError):
    """The decision cannot be made on this pad now (not among its moves, not allowed)."""


def presses(state: Fields, request: Fields) -> list[str]:
    """The button commands that make a pad holding `state` send `request` (REQUEST fields:
    action, and for a mark row, number, flags (LUCKY) and choice)."""
    action = request.get("action")
    if action == protocol.JOIN:
        if not state["flags"] & protocol.MAY_JOIN:
            raise RobotError("the pad has a seat already")
        return [JOIN_PRESS]
    if state["flags"] & protocol.MAY_JOIN:
        raise RobotError("the pad has no seat: it can only ask to join")
    if action == protocol.MARK:
        return mark_presses(state, request)
    if action == protocol.LUCKY_NUMBER:
        return lucky_presses(state, request.get("number", 0))
    if action == protocol.PASS:
        if not state["flags"] & protocol.MAY_PASS:
            raise RobotError("the pad may not pass now")
        return [CLEAR, "hold pass"]
    if action == protocol.UNDO:
        if not state["flags"] & protocol.MAY_UNDO:
            raise RobotError("the pad has nothing to take back now")
        return ["tap undo"]
    raise RobotError(f"no such action {action!r}")


def mark_presses(state: Fields, request: Fields) -> list[str]:
    """Colour taps to step to the move, confirm, and for a bonus that needs a row, the row's
    colour and confirm again."""
    move = _offered_move(state, request)
    colour = padapp.button_colour(state, move)
    steps = padapp.moves_for(state, colour).index(move) + 1
    button = padapp.BUTTONS[colour - 1]
    commands = [CLEAR] + [f"tap {button}"] * steps + ["tap pass"]
    choice = request.get("choice", 0)
    if move["flags"] & protocol.NEEDS_CHOICE:
        if not choice:
            raise RobotError("this mark earns a bonus that needs a choice of row")
        commands += [f"tap {padapp.BUTTONS[choice - 1]}", "tap pass"]
    elif choice:
        raise RobotError("this mark earns no bonus that needs a choice of row")
    return commands


def lucky_presses(state: Fields, number: int) -> list[str]:
    """Before a longo game: step from the number the pad shows on a new state (the lowest still
    open) to `number` the short way round, and tap confirm; 0: hold confirm, the tower draws."""
    numbers = padapp.lucky_numbers(state)
    if state["phase"] != padapp.PHASE_LUCKY or not numbers:
        raise RobotError("the pad is not asking for lucky numbers now")
    if number == 0:
        return ["hold pass"]
    if number not in numbers:
        raise RobotError(f"the pad does not offer lucky number {number}")
    up = numbers.index(number)
    down = len(numbers) - up
    taps = ["tap yellow"] * up if up <= down else ["tap red"] * down
    return [*taps, "tap pass"]


def join() -> Fields:
    """REQUEST fields asking for a seat."""
    return {"action": protocol.JOIN}


def lucky(number: int = 0) -> Fields:
    """REQUEST fields for one lucky number (0: let the tower draw)."""
    return {"action": protocol.LUCKY_NUMBER, "number": number}


def _offered_move(state: Fields, request: Fields) -> Fields:
    kinds = protocol.LUCKY | protocol.BONUS | protocol.SWAP_BITS
    kind = request.get("flags", 0) & kinds
    moves: list[Fields] = state["moves"]  # STATE's move[] records
    for move in moves:
        same = (move["row"], move["number"]) == (request["row"], request["number"])
        if same and move["flags"] & kinds == kind:
            return move
    raise RobotError(f"the pad does not offer {padapp.describe(_full(request))}")


def _full(request: Fields) -> Fields:
    return {"action": 0, "row": 0, "number": 0, "flags": 0, "choice": 0, **request}


def mark(
    row: str, number: int, *, lucky: bool = False, choice: str | None = None, swap: int = 0
) -> Fields:
    """REQUEST fields for a mark, from colour names: mark('green', 9, choice='blue'); a bonus
    box (Big Points) by its row's name, mark('red-yellow', 5): the row above it, flag BONUS;
    a swapped cross (X-Change) with its field, mark('red', 3, swap=3)."""
    bonus = "-" in row
    flags = (protocol.LUCKY if lucky else 0) | (protocol.BONUS if bonus else 0)
    return {
        "action": protocol.MARK,
        "row": protocol.row_code(row.split("-")[0]),
        "number": number,
        "flags": flags | swap << protocol.SWAP_SHIFT,
        "choice": protocol.row_code(choice),
    }


def simulate(state: Fields, commands: list[str]) -> list[Fields]:
    """The REQUEST fields a pad holding `state` sends when `commands` are pressed, played on a
    PadApp with the unix board's finger timings and a clock that only moves when told."""
    sent: list[protocol.Message] = []
    decoder = protocol.FrameDecoder()
    pad = padapp.PadApp(lambda data: sent.extend(decoder.feed(data)), "robot", 1, 0)
    pad.start(0)
    pad.receive(protocol.encode("hello_ack", 1, {"protocol": protocol.PROTOCOL_VERSION}), 0)
    pad.receive(protocol.encode("state", 2, state), 0)
    now = 0
    for command in commands:
        verb, name = command.split()
        button = 1 << padapp.BUTTONS.index(name)
        held = padapp.TAP_MS if verb == "tap" else padapp.HOLD_MS
        for raw, wait in ((button, held), (0, padapp.GAP_MS)):
            for _ in range(wait // padapp.LOOP_MS):
                pad.sample(raw, now)
                pad.tick(now)
                now += padapp.LOOP_MS
    requests = {message.seq: message.fields for message in sent if message.name == "request"}
    return list(requests.values())  # a request sent again (same seq) counts once
