"""The handheld pad's logic, without hardware: the link to the tower, the buttons, what to show.

Runs unchanged under MicroPython (on the Pico, and the unix port in tests) and under CPython (the
robot finger imports it as `firmware_py.pad.padapp`). Time is an injected millisecond tick count
(`time.ticks_ms` on the pad), compared with `ticks_diff` so that wrapping ticks do no harm; frames
leave through an injected `write(bytes)`. A board (board_pico.py, board_unix.py) supplies those,
the raw button levels and the screen; `run(board)` is the loop that joins them.

The link to the tower (hello, session, heartbeats, the one request in flight) is towerlink.py.
"""

import sys

if sys.implementation.name == "micropython":
    import protocol  # copied beside this file on the pad
    from towerlink import BEAT_MS, FIRMWARE, RETRY_MS, Link, ticks_diff
else:
    from firmware_py.pad import protocol
    from firmware_py.pad.towerlink import BEAT_MS, FIRMWARE, RETRY_MS, Link, ticks_diff

__all__ = ["BEAT_MS", "FIRMWARE", "RETRY_MS", "Link"]  # from towerlink, for the pad's users

# The functions the tower's robot finger (robot.py) calls are annotated, in quotes where a name
# is the type checker's only (MicroPython has no typing module and drops annotations); the rest
# of the firmware is not held to mypy --strict (pyproject.toml).
TYPE_CHECKING = False  # typing.TYPE_CHECKING, which mypy knows by name
if TYPE_CHECKING:
    from collections.abc import Callable

    from firmware_py.pad.protocol import Fields

# Buttons by index: bit i of a raw level mask. Colour buttons are row codes minus one.
BUTTONS = ("red", "yellow", "green", "blue", "pass", "undo")
PASS_BUTTON = 4
UNDO_BUTTON = 5
LETTERS = "RYGB"

DEBOUNCE_MS = 20  # contacts bounce for a few ms; a button is not read again this soon
LONG_MS = 800  # holding pass this long passes
REFUSAL_MS = 10000  # a refusal stays on screen this long, or until a button is pressed
BLINK_MS = 500  # the status LED blinks at this half-period while the tower is gone
PAGE_MS = 4000  # what does not fit the screen (a long name, a long text) takes turns this often
LOOP_MS = 10  # the longest the loop sleeps between looks at the buttons and the line

# How a finger presses, for the unix board and the robot: a tap holds a button TAP_MS, a hold
# HOLD_MS, and the finger rests GAP_MS after letting go (longer than the debounce time).
TAP_MS = 40
HOLD_MS = LONG_MS + 200
GAP_MS = DEBOUNCE_MS + 10

PHASE_ACTION1 = 2
PHASE_ACTION2 = 3
PHASE_LUCKY = 5  # before a longo game: the player enters the lucky numbers on their sheet
DOWN_BUTTON = 0  # red steps the lucky number down, yellow up
UP_BUTTON = 1


# --- buttons ---


class Buttons:
    """Debounced buttons, from raw levels (bit i set: button i is down).

    A change of level counts at once, so a press costs no latency; then that button is not read
    for `debounce_ms` while its contacts bounce. After that its level is read afresh, so a
    release that happened during the bounce is still seen.
    """

    def __init__(self, debounce_ms=DEBOUNCE_MS, count=6):
        self.debounce_ms = debounce_ms
        self.pressed = 0
        self._changed_at = [None] * count

    def update(self, raw, now):
        """The edges `raw` makes at `now`: a list of (button, is_down)."""
        edges = []
        changed = raw ^ self.pressed
        if not changed:
            return edges
        for index in range(len(self._changed_at)):
            bit = 1 << index
            if changed & bit and self._settled(index, now):
                self.pressed ^= bit
                self._changed_at[index] = now
                edges.append((index, bool(raw & bit)))
        return edges

    def _settled(self, index, now):
        last = self._changed_at[index]
        return last is None or ticks_diff(now, last) >= self.debounce_ms


# --- what the buttons step through ---


def row_record(state, code):
    """The STATE row whose colour code is `code`, or None."""
    for row in state["rows"]:
        if row["colour"] == code:
            return row
    return None


def position_of(row, number):
    """The index of `number` among the row's cells (left to right), or -1."""
    for index, value in enumerate(row["numbers"]):
        if value == number:
            return index
    return -1


def cell_colour(state, move):
    """The colour code of a move's cell: its own in mixx-a (rows carry `cells`), else the row's."""
    row = row_record(state, move["row"])
    if row is None:
        return move["row"]
    cells = row["cells"]
    position = position_of(row, move["number"])
    return cells[position] if cells and 0 <= position < len(cells) else row["colour"]


def button_colour(state: "Fields", move: "Fields") -> int:
    """The colour button that reaches a move: its row in action 1, its cell's colour in action 2
    (a white die plus that colour's die)."""
    if state["phase"] == PHASE_ACTION2:
        return cell_colour(state, move)
    return move["row"]


def moves_for(state: "Fields", colour: int) -> "list[Fields]":
    """The moves colour button `colour` (a row code) steps through, in order: plain crosses
    before lucky ones, then top row first, then left to right."""
    found = [move for move in state["moves"] if button_colour(state, move) == colour]

    def order(move):
        row = row_record(state, move["row"])
        position = position_of(row, move["number"]) if row else 0
        flags = move["flags"]  # plain crosses, then lucky ones; a row's bonus boxes after it,
        # and X-Change's swapped crosses after the white sum's
        lucky, swap = flags & protocol.LUCKY, flags & protocol.SWAP_BITS
        return (lucky, swap, flags & protocol.BONUS, move["row"], position)

    found.sort(key=order)
    return found


def lucky_numbers(state: "Fields") -> list[int]:
    """The lucky numbers the player may still choose, lowest first."""
    return sorted(move["number"] for move in state["moves"])


def step_lucky(numbers, shown, step):
    """The number `step` places after `shown` among `numbers`, wrapping around."""
    if shown not in numbers:
        return numbers[0] if numbers else 0
    return numbers[(numbers.index(shown) + step) % len(numbers)]


def mark_fields(move, choice):
    """The REQUEST fields that propose `move` (with `choice`, a row code, or 0)."""
    return {
        "action": protocol.MARK,
        "row": move["row"],
        "number": move["number"],
        "flags": move["flags"] & (protocol.LUCKY | protocol.BONUS | protocol.SWAP_BITS),
        "choice": choice,
    }


def describe(fields: "Fields") -> str:
    """A request in a few characters: 'pass', 'undo', 'R 5', 'G 3 lucky', 'Y 11 +B', 'R 3 X3'
    (X-Change: red 3 with swap field 3)."""
    action = fields["action"]
    if action == protocol.JOIN:
        return "join"
    if action == protocol.LUCKY_NUMBER:
        return "lucky " + str(fields["number"]) if fields["number"] else "draw for me"
    if action == protocol.PASS:
        return "pass"
    if action == protocol.UNDO:
        return "undo"
    words = LETTERS[fields["row"] - 1] + " " + str(fields["number"])
    if fields["flags"] & protocol.BONUS:  # Big Points: "RY 5", the bonus row below red
        words = LETTERS[fields["row"] - 1 : fields["row"] + 1] + " " + str(fields["number"])
    if fields["flags"] & protocol.LUCKY:
        words += " lucky"
    if fields["flags"] & protocol.SWAP_BITS:
        words += " X" + str(protocol.swap_field(fields["flags"]))
    if fields["choice"]:
        words += " +" + LETTERS[fields["choice"] - 1]
    return words


# --- the pad ---


class PadApp:
    """What the player sees and does, on top of the link.

    Colour buttons select a move (pressed again: the next move of that colour); confirm (a tap
    of pass/confirm) sends it, after asking for the row of a bonus that needs one; holding
    pass/confirm with nothing selected passes; undo takes back, or clears the selection.
    Before a longo game (phase lucky) red and yellow step the number shown down and up, a tap
    of confirm chooses it, holding confirm lets the tower draw, undo takes the last one back.
    A pad without a seat (STATE flag MAY_JOIN) asks to join at a press of any button, saying
    which (a tournament's table offers its drawn people's seats a button each).
    `version` grows with every change the screen may show, so the loop redraws only then.
    """

    def __init__(
        self,
        write: "Callable[[bytes], object]",
        ident: str,
        boot: int,
        now: int,
        beat_ms: int = BEAT_MS,
        retry_ms: int = RETRY_MS,
        missed: int | None = None,
    ) -> None:
        self.link = Link(write, ident, boot, now, beat_ms, retry_ms, missed)
        self.ident = ident
        self.buttons = Buttons()
        self.state = None  # the newest STATE's fields
        self.selected = None  # the move record chosen with the colour buttons
        self.choosing = False  # asking which row a bonus goes in
        self.choice = 0  # that row's code, once picked
        self.shown = 0  # before a longo game: the lucky number on show
        self.overlay = None  # [text, shown at, for how many ms or None]: a refusal or notice
        self.hint = ""  # a short word on the last press, until the next one
        self.sent = ""  # the request in flight, in words
        self.page = 0  # which page shows of what takes turns on the screen
        self.version = 0
        self._pass_down_at = None  # pass went down with nothing selected: a pass if held
        self._last_mark = None  # the last mark sent, re-selected if the tower asks for a choice
        self._link_seen = None

    def start(self, now: int) -> None:
        self.link.start(now)
        self._changed()

    # --- input ---

    def receive(self, data: bytes, now: int) -> None:
        """Bytes from the line."""
        for message in self.link.receive(data, now):
            if message.name == "state":
                self._on_state(message.fields)
            elif message.name == "answer":
                self._on_answer(message.fields, now)
            else:
                self._on_notice(message.fields, now)
        self._watch_link()

    def sample(self, raw: int, now: int) -> None:
        """The raw button levels (bit i: button i down), debounced into presses and releases."""
        for button, down in self.buttons.update(raw, now):
            if down:
                self._press(button, now)
            elif button == PASS_BUTTON:
                self._release_pass(now)
            else:
                continue  # a colour's or undo's release changes nothing: no redraw
            self._changed()

    def tick(self, now: int) -> None:
        """Time passing: the link's timers, a pass held long enough, an overlay's end, the
        screen's next page."""
        self.link.tick(now)
        if now // PAGE_MS != self.page:
            self.page = now // PAGE_MS
            self._changed()  # the screen is drawn again; only lines that changed are sent
        if self._pass_down_at is not None and ticks_diff(now, self._pass_down_at) >= LONG_MS:
            self._pass_down_at = None
            self._hold_pass(now)
        overlay = self.overlay
        if overlay and overlay[2] is not None and ticks_diff(now, overlay[1]) >= overlay[2]:
            self.overlay = None
            self._changed()
        self._watch_link()

    def led_on(self, now):
        """The status LED: on while the link is up, blinking while it is not."""
        return self.link.up or (now // BLINK_MS) % 2 == 0

    # --- buttons ---

    def _press(self, button, now):
        covered = self.overlay is not None
        self.overlay = None  # any press puts a refusal or notice away
        self.hint = ""
        if self.state is None:
            return
        if self.state["flags"] & protocol.MAY_JOIN:
            if not covered:  # a press that puts a refusal away does not ask again
                self._submit({"action": protocol.JOIN, "number": button + 1}, now)
        elif self.state["phase"] == PHASE_LUCKY:
            self._press_lucky(button, now)
        elif button < PASS_BUTTON:
            self._press_colour(button + 1)
        elif button == PASS_BUTTON:
            self._press_confirm(now)
        else:
            self._press_undo(now)

    def _press_colour(self, colour):
        """Pick the bonus row when asked; else select the next move of this colour."""
        if self.choosing:
            self.choosing = False
            self.choice = colour
            return
        moves = moves_for(self.state, colour)
        if not moves:
            self.hint = "no " + BUTTONS[colour - 1] + " move"
            return
        index = moves.index(self.selected) + 1 if self.selected in moves else 0
        self.selected = moves[index % len(moves)]
        self.choice = 0

    def _press_confirm(self, now):
        """Send the selected move; ask for the bonus row first if it needs one. With nothing
        selected, a hold passes (see tick): a stray tap never does."""
        move = self.selected
        if move is None:
            self._pass_down_at = now
            return
        if move["flags"] & protocol.NEEDS_CHOICE and not self.choice:
            self.choosing = True
            return
        if self._submit(mark_fields(move, self.choice), now):
            self._last_mark = move
            self._clear_selection()

    def _press_lucky(self, button, now):
        """Lucky numbers: red down, yellow up; confirm chooses on release (a hold draws)."""
        if button == PASS_BUTTON:
            self._pass_down_at = now
        elif button == UNDO_BUTTON:
            if self.state["flags"] & protocol.MAY_UNDO:
                self._submit({"action": protocol.UNDO}, now)
        elif button in (DOWN_BUTTON, UP_BUTTON):
            step = -1 if button == DOWN_BUTTON else 1
            self.shown = step_lucky(lucky_numbers(self.state), self.shown, step)
        else:
            self.hint = "R:down Y:up"

    def _release_pass(self, now):
        if self._pass_down_at is None:
            return
        self._pass_down_at = None
        if self.state is not None and self.state["phase"] == PHASE_LUCKY:
            if self.shown in lucky_numbers(self.state):
                self._submit({"action": protocol.LUCKY_NUMBER, "number": self.shown}, now)
        elif self.state is not None and self.state["flags"] & protocol.MAY_PASS:
            self.hint = "hold P to pass"

    def _hold_pass(self, now):
        if self.state and self.state["phase"] == PHASE_LUCKY:
            if self.state["moves"]:
                self._submit({"action": protocol.LUCKY_NUMBER, "number": 0}, now)
                self._changed()
        elif self.selected is None and self.state and self.state["flags"] & protocol.MAY_PASS:
            self._submit({"action": protocol.PASS}, now)
            self._changed()

    def _press_undo(self, now):
        if self.selected is not None or self.choosing:
            self._clear_selection()
        elif self.state["flags"] & protocol.MAY_UNDO:
            self._submit({"action": protocol.UNDO}, now)

    def _submit(self, fields, now):
        full = {"action": 0, "row": 0, "number": 0, "flags": 0, "choice": 0}
        full.update(fields)
        if not self.link.submit(full, now):
            self.hint = "wait: " + self.sent
            return False
        self.sent = describe(full)
        return True

    def _clear_selection(self):
        self.selected = None
        self.choosing = False
        self.choice = 0

    # --- messages ---

    def _on_state(self, fields):
        """A full new picture: keep the selection only if that move is still offered."""
        self.state = fields
        if self.selected is not None and self.selected not in fields["moves"]:
            self._clear_selection()
        if fields["phase"] == PHASE_LUCKY:
            numbers = lucky_numbers(fields)
            if self.shown not in numbers:  # just chosen, or new: back to the lowest
                self.shown = numbers[0] if numbers else 0
        self._changed()

    def _on_answer(self, fields, now):
        self.sent = ""
        status = fields["status"]
        if status != protocol.OK:
            reason = fields["text"] or protocol.REASONS.get(status, "refused")
            self.overlay = ["NO: " + reason, now, REFUSAL_MS]
            if status == protocol.CHOICE and self._last_mark is not None:
                self.selected = self._last_mark
                self.choosing = True
        self._changed()

    def _on_notice(self, fields, now):
        seconds = fields["seconds"]
        self.overlay = [fields["text"], now, seconds * 1000 if seconds else None]
        self._changed()

    def _watch_link(self):
        seen = (self.link.heard, self.link.session, self.link.refusal, self.link.request is None)
        if seen != self._link_seen:
            self._link_seen = seen
            self._changed()

    def _changed(self):
        self.version += 1


def run(board, render):
    """The pad's loop: line in, buttons, timers, screen and LED out; never ends on an error.

    `board` is board_pico.Board or board_unix.Board; `render(pad)` draws the screen as lines.
    """
    now = board.ticks_ms()
    pad = PadApp(board.write, board.ident, board.random16(), now, **board.timing)
    pad.start(now)
    screen = Screen()
    while board.running():
        try:
            _step(board, pad, render, screen)
        except Exception as error:  # a bad message or a bug must not stop the pad
            board.report(error)
            screen.forget()
        board.wait(LOOP_MS)
    return pad


class Screen:
    """What the board shows: redrawn only when the pad changed and the lines differ."""

    def __init__(self):
        self.forget()

    def forget(self):
        self.version = -1
        self.lines = None


def _step(board, pad, render, screen):
    """One turn of the loop. The buttons are looked at after each part that takes time: on a
    Pico a STATE read and decoded takes some 40 ms, and its lines made and drawn as long again,
    so one look a turn let a quick tap (40 ms) come and go unseen."""
    _look_at_buttons(board, pad)
    data = board.read()
    if data:
        _look_at_buttons(board, pad)
        pad.receive(data, board.ticks_ms())
        _look_at_buttons(board, pad)
    now = board.ticks_ms()
    pad.tick(now)
    if pad.version != screen.version:
        screen.version = pad.version
        lines = render(pad)
        _look_at_buttons(board, pad)
        if lines != screen.lines:
            screen.lines = lines
            board.show(lines)
            _look_at_buttons(board, pad)
    board.led(pad.led_on(now))


def _look_at_buttons(board, pad):
    now = board.ticks_ms()
    pad.sample(board.buttons(now), now)
