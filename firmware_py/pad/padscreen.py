"""The pad's screen as 8 lines of 16 characters: a pure function of the pad's state."""

# The SSD1306 is 128x64 pixels and framebuf's font is 8x8, so each line is one display page: the
# Pico draws each changed line with framebuf, the unix board prints the lines. Layout:
#
#     0  name, score, penalties   (or "no tower" while the link is lost)
#     1  the dice: 4+1=5 r6y2g3b6
#     2  R x x - . . . ...  the sheet, one row a line: x crossed, - passed over, . open,
#     3  Y ...              * the selected move; after the cells the lock (L: you locked it,
#     4  G ...              #: locked for all) and the crosses; rows too long for that show
#     5  B ...              their letter in lower case once locked (Qwixx Connected: the
#                           connections drawn on the open cells, padlinks.py)
#     6  what you may do now, or the selected move
#     7  how to go on, or the status line from the tower
#
# Before a longo game (phase lucky) the player enters the lucky numbers printed on their sheet:
#
#     0  name, "lucky"
#     1  what the tower asks ("choose 2 numbers"), or whom it waits for
#     2  the numbers chosen so far
#     3  how to take one back
#     4  the number on show, to choose
#     5  6  7  which button does what
#
# A pad without a seat (STATE flag MAY_JOIN) shows how to join:
#
#     0  "qwixx pad"
#     1  2  the pad's ident, whole: a Pico's is 20 characters, "pad-" on line 1, its 16 hex
#           digits on line 2 (an ident of up to 16 characters takes line 1 only)
#     3  7  what the tower says: "press any button to join", or why not now; lines 6 and 7
#           show the join request on its way
#
# A refusal or a notice covers lines 2 to 7 until a button is pressed (or it times out). While the
# tower refuses the pad's hello, its reason covers lines 2 to 7 (the pad says hello again by
# itself).
#
# Words are never cut (issue 39): a line breaks after a space or a hyphen ("Alexandra-" /
# "Charlotte"), and only a word longer than a line is split. What does not fit its lines takes
# turns, a page every padapp.PAGE_MS: a long text, a few lines at a time; a player's name too long
# to stand beside the score, in pieces of whole words (or alone on the line, then the score).
#
# (Said in comments, not in the docstring: compiling this module from source, MicroPython
# holds a docstring whole on the heap, and on a heap the size of a Pico's this module is
# already as much as fits: tests/pad/test_pad_firmware.py, the smaller heap.)

import sys

if sys.implementation.name == "micropython":
    import padapp
    import padlinks
    import protocol
else:
    from firmware_py.pad import padapp, padlinks, protocol

WIDTH = 16
HEIGHT = 8
LETTERS = padapp.LETTERS
PHASE_WORDS = {0: "no game", 1: "", 4: "game over"}
LUCKY_HELP = ["R:down Y:up", "P: choose it", "hold P: draw"]
TRYING_AGAIN = "will try again"


def render(pad):
    """The screen lines for `pad` (a padapp.PadApp): HEIGHT strings, each at most WIDTH long."""
    if pad.state is None:
        lines = _welcome(pad)
    elif pad.state["flags"] & protocol.MAY_JOIN:
        lines = _join(pad)
    elif pad.state["phase"] == padapp.PHASE_LUCKY:
        lines = _lucky(pad)
    else:
        lines = [_header(pad), _dice(pad.state)]
        if pad.state["rows"]:
            lines.extend(_sheet(pad))
            lines.extend(_bottom(pad))
        else:  # no game: the status line has the room
            lines.extend(_wrap(pad.state["text"], 6, pad.page))
    if pad.overlay is not None:
        lines[2:] = _wrap(pad.overlay[0], HEIGHT - 2, pad.page)
    if pad.state is not None and _refused(pad.link):
        lines[2:] = _refusal_lines(pad.link, HEIGHT - 2, pad.page)
    lines = [line[:WIDTH] for line in lines[:HEIGHT]]
    return lines + [""] * (HEIGHT - len(lines))


def _welcome(pad):
    """Before the first STATE: who this pad is and how far the link has got."""
    lines = ["qwixx pad"]
    lines.extend(ident_lines(pad.ident))
    if len(lines) == 2:
        lines.append("")
    if _refused(pad.link):
        return lines + _refusal_lines(pad.link, HEIGHT - len(lines), pad.page)
    return lines + _wrap(_link_words(pad.link), HEIGHT - len(lines))


def ident_lines(ident):
    """The pad's ident, whole, in lines of WIDTH: broken after its last '-' that leaves the rest
    on one line ("pad-" and the 16 hex digits of a Pico), else every WIDTH characters."""
    if len(ident) <= WIDTH:
        return [ident]
    cut = ident.rfind("-", 0, WIDTH) + 1
    if cut == 0 or len(ident) - cut > WIDTH:
        cut = WIDTH
    lines = ident_lines(ident[cut:])
    lines.insert(0, ident[:cut])
    return lines


def _refused(link):
    """The tower, there and talking, refuses our hello."""
    return link.refusal and link.heard and not link.session


def _refusal_lines(link, count, page):
    """`count` lines: the tower's reason for refusing our hello, and that the pad goes on."""
    lines = _wrap("tower says no: " + link.refusal, count - 1, page)
    lines.append(TRYING_AGAIN)
    return lines


def _link_words(link):
    if link.session:
        return "waiting for a seat"
    if link.heard:
        return "saying hello"
    if link.ever_heard:
        return "no tower: check the cable"
    return "waiting for the tower"


def _join(pad):
    """No seat yet: the tower's words on joining, and the request once a button sent it."""
    lines = [_header(pad, "").rstrip()]
    lines.extend(ident_lines(pad.ident))
    below = []
    if pad.link.request is not None:
        below = ["sent " + pad.sent, "waiting for OK"]
    elif pad.hint:
        below = ["", pad.hint]
    text = _wrap(pad.state["text"], HEIGHT - len(lines) - len(below), pad.page)
    while text and not text[-1]:  # the tower's words, then what the pad does
        text.pop()
    if below:
        text += [""] * (HEIGHT - len(lines) - len(below) - len(text))
    return lines + text + below


def _lucky(pad):
    """Entering the lucky numbers: what is chosen, the number on show, the buttons."""
    state = pad.state
    chosen = " ".join(str(n) for n in state["lucky"]) or "-"
    undo = "U: take back" if state["flags"] & protocol.MAY_UNDO else ""
    lines = [_header(pad, "lucky"), _wrap(state["text"], 1, pad.page)[0], "yours: " + chosen, undo]
    if pad.link.request is not None:
        lines += ["", "", "sent " + pad.sent, "waiting for OK"]
    elif state["moves"]:
        lines.append("      > " + str(pad.shown) + " <")
        lines.extend(LUCKY_HELP)
    else:
        lines += _wrap(state["text"], 4, pad.page)
        lines[1] = "lucky numbers"
    if pad.hint:
        lines[7] = pad.hint
    return lines


def _header(pad, words=None):
    """The player's name (the pad's, without a seat), and the link's trouble, `words` or the
    score on the right; a name too long for that takes turns in pieces of whole words."""
    state = pad.state
    if not pad.link.heard:
        right = "no tower"
    elif not pad.link.session:
        right = "hello.."
    elif words is not None:
        right = words
    else:
        right = str(state["total"]) + " P" + str(state["penalties"])
    name = state["player"] or "qwixx pad"
    room = WIDTH - 1 - len(right)
    whole = _whole_words_fit(name, room)
    pieces = _lines(name, room if whole else WIDTH) or [""]
    if not whole:  # a word too long to stand beside the score: the name alone, then the score
        pieces.append("")
    name = pieces[pad.page % len(pieces)]
    if len(name) > room:
        return name
    return name + " " * (WIDTH - len(name) - len(right)) + right


def _dice(state):
    """The last roll: the white sum first, then each colour die (- for one out of play)."""
    words = PHASE_WORDS.get(state["phase"])
    dice = state["dice"]
    if words or len(dice) < 6:
        return words or "no roll yet"
    white = str(dice[0]) + "+" + str(dice[1]) + "=" + str(dice[0] + dice[1]) + " "
    colours = ""
    for index in range(4):
        face = dice[2 + index]
        colours += LETTERS[index].lower() + (str(face) if face else "-")
    return white + colours


def _sheet(pad):
    marked_row, marked = 0, -1
    if pad.selected is not None:
        marked_row = pad.selected["row"]
        row = padapp.row_record(pad.state, marked_row)
        marked = padapp.position_of(row, pad.selected["number"]) if row else -1
    bonus = pad.selected is not None and pad.selected["flags"] & protocol.BONUS
    lines = []
    marks = padlinks.cell_marks(pad.state)
    for row in pad.state["rows"][:4]:
        if bonus and row["colour"] == marked_row:
            row = _bonus_row(pad.state, marked_row) or row  # Big Points: its box selected
        double = _flagged_row(pad.state, row["colour"], protocol.ROW_DOUBLE)
        line = row_line(row, marked if row["colour"] == marked_row else -1, double)
        lines.append(padlinks.marked_line(line, row, marks.get(row["colour"], {})))
    return lines + [""] * (4 - len(lines))


def _bonus_row(state, colour):
    """The bonus row below the row `colour` (Big Points), shown in that row's line while one
    of its boxes is selected; None if the sheet has none."""
    return _flagged_row(state, colour, protocol.ROW_BONUS)


def _flagged_row(state, colour, flag):
    """The record with row flag `flag` for the row `colour` (a bonus row, a Double sheet's
    second crosses), or None."""
    for row in state["rows"]:
        if row["flags"] & flag and row["colour"] == colour:
            return row
    return None


def row_line(row, marked=-1, double=None):
    """One row of the sheet: letter, a character per cell, then the lock and the crosses. With
    `double` (Qwixx Double's record of the row): "X" a cell holding two crosses, ":" an open
    cell printed double."""
    crossed, flags, count = row["crossed"], row["flags"], len(row["numbers"])
    twice = double["crossed"] if double else 0
    printed = double["numbers"] if double else b""
    last = _highest_bit(crossed)
    cells = ""
    for position in range(count):
        if position == marked:
            cells += "*"
        elif crossed >> position & 1:
            cells += "X" if twice >> position & 1 else "x"
        elif position < last:
            cells += "-"
        else:
            cells += ":" if row["numbers"][position] in printed else "."
    letter = LETTERS[row["colour"] - 1] if 1 <= row["colour"] <= 4 else "?"
    if flags & protocol.ROW_BONUS:
        letter = "+"  # a bonus row: its boxes (Big Points)
    locked = flags & protocol.ROW_LOCKED
    closed = locked or flags & protocol.ROW_CLOSED
    if WIDTH - 1 - count < 4:  # no room after the cells
        return (letter.lower() if closed else letter) + cells
    lock = "L" if locked else "#" if closed else " "
    crosses = _bits(crossed) + _bits(twice) + (1 if locked else 0)
    tail = f" {lock}{crosses:2d}"
    return letter + cells + " " * (WIDTH - 1 - count - len(tail)) + tail


def _bottom(pad):
    """Lines 6 and 7: the request on its way, the move being chosen, or what may be done."""
    state = pad.state
    flags = state["flags"]
    if pad.link.request is not None:
        second = "no tower: kept" if not pad.link.up else "waiting for OK"
        lines = ["sent " + pad.sent, second]
    elif pad.selected is not None:
        lines = ["> " + _move_words(pad), "row? press one" if pad.choosing else "P:send U:cancel"]
    elif state["moves"] or flags & protocol.MAY_PASS:
        lines = [_offer(state), "hold P: pass" if flags & protocol.MAY_PASS else ""]
    else:
        lines = _wrap(state["text"], 2, pad.page)
        if flags & protocol.MAY_UNDO:
            lines[1] = "U: take back"
    if pad.hint:
        lines[1] = pad.hint
    return lines


def _move_words(pad):
    """The selected move: 'R 5', 'G 3 lucky', 'R 10 b-die' (mixx-a), with '+?' or '+B' when a
    bonus needs a row, 'R 5 x2' when it makes two crosses (Qwixx Double)."""
    move = pad.selected
    fields = padapp.mark_fields(move, pad.choice)
    words = padapp.describe(fields)
    colour = padapp.cell_colour(pad.state, move)
    if state_is_action2(pad.state) and colour != move["row"]:
        words += " " + LETTERS[colour - 1].lower() + "-die"
    if move["flags"] & protocol.NEEDS_CHOICE and not pad.choice:
        words += " +?"
    if move["flags"] & protocol.TWICE:  # Qwixx Double: "R 5 x2", two crosses
        words += " x2"
    return words + padlinks.move_words(pad.state, move)


def state_is_action2(state):
    return state["phase"] == padapp.PHASE_ACTION2


def _offer(state):
    """What the colour buttons reach now: in action 1 the rows the white sum may go in (lower
    case: only a lucky cross), in action 2 how many moves each colour die gives."""
    if state_is_action2(state):
        words = "act2"
        for colour in range(1, 5):
            count = len(padapp.moves_for(state, colour))
            words += " " + LETTERS[colour - 1] + (str(count) if count else "-")
        return words
    dice = state["dice"]
    words = "white " + (str(dice[0] + dice[1]) if len(dice) >= 2 else "?") + ": "
    for colour in range(1, 5):
        moves = padapp.moves_for(state, colour)
        if not moves:
            words += "-"
        elif moves[0]["flags"] & protocol.LUCKY:
            words += LETTERS[colour - 1].lower()
        else:
            words += LETTERS[colour - 1]
    return words


def _wrap(text, count, page=0):
    """`text` in `count` lines, broken between words; more lines than that take turns, `count`
    lines to a page, `page` the one to show."""
    lines = _lines(text, WIDTH)
    pages = (len(lines) + count - 1) // count
    if pages > 1:
        first = (page % pages) * count
        lines = lines[first : first + count]
    return lines + [""] * (count - len(lines))


def _lines(text, width):
    """`text` in lines of at most `width` characters, broken after a space or a hyphen; a word
    longer than a line split."""
    lines = []
    line = ""
    for word in _words(text, width):
        glue = "" if line.endswith("-") or not line else " "
        if line and len(line) + len(glue) + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = line + glue + word
    if line:
        lines.append(line)
    return lines


def _whole_words_fit(text, width):
    """Each word of `text` fits `width` characters, once broken after its hyphens."""
    return all(len(piece) <= width for piece in text.replace("-", "- ").split())


def _words(text, width):
    """`text`'s words, each cut after its hyphens, and a piece longer than `width` split."""
    words = []
    for word in text.split():
        while len(word) > width:
            cut = word.find("-", 0, width) + 1 or width
            words.append(word[:cut])
            word = word[cut:]
        words.append(word)
    return words


def _highest_bit(value):
    position = -1
    while value:
        value >>= 1
        position += 1
    return position


def _bits(value):
    count = 0
    while value:
        count += value & 1
        value >>= 1
    return count
