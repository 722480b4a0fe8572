"""Qwixx Connected on the pad's screen: where the player's connections lie, and what a cross
on one sets off (docs/pad-protocol.md, row flag 16; docs/pads.md).

The tower sends, after the sheet's other records, one record flagged ROW_LINKS for each colour
row with stair or chain cells on the player's pad: `numbers` those cells, left to right, and
`cells` two bytes for each, the cell joined to it (row code, number), or 0 0 for a stair cell.
On the sheet's lines an open stair cell is STAIR ("^"), and a chain's circled cell, while
uncrossed, its pair's letter: both ends alike, pairs lettered as met top to bottom, left to
right. A letter stays on a cell left of the row's crosses ("-" otherwise): the chain still
crosses it there. A move on such a cell reads "R 6 +Y6" (yellow 6 is crossed with it) or
"R 2 stair".

A module of its own, imported by padscreen when it runs: MicroPython compiles a module from
source in one piece, and on a heap the size of a Pico's padscreen alone is as much as fits.
"""

import sys

if sys.implementation.name == "micropython":
    import protocol
else:
    from firmware_py.pad import protocol

STAIR = "^"
PAIR_LETTERS = "abcdefgh"
LETTERS = "RYGB"


def connections(state):
    """(row code, number, joined row code, joined number) for each stair cell and chain cell of
    the player's pad, top to bottom, left to right; a stair cell is joined to row 0."""
    found = []
    for record in state["rows"]:
        if record["flags"] & protocol.ROW_LINKS:
            joined = record["cells"]
            for k, number in enumerate(record["numbers"]):
                there = joined[2 * k : 2 * k + 2] if len(joined) >= 2 * k + 2 else b"\0\0"
                found.append((record["colour"], number, there[0], there[1]))
    return found


def cell_marks(state):
    """{row code: {number: character}}: STAIR on a stair cell, a chain's circled cells their
    pair's letter."""
    marks, letters = {}, {}
    for code, number, there, there_number in connections(state):
        mark = STAIR
        if there:
            pair = ((code, number), (there, there_number))
            key = (min(pair), max(pair))
            if key not in letters:
                letters[key] = PAIR_LETTERS[len(letters) % len(PAIR_LETTERS)]
            mark = letters[key]
        marks.setdefault(code, {})[number] = mark
    return marks


def marked_line(line, row, marks):
    """A sheet line (padscreen.row_line: the row's letter, then a character per cell) with the
    row's connections drawn on its open cells: "." becomes the mark, and "-" a chain's letter."""
    chars = list(line)
    for position, number in enumerate(row["numbers"]):
        mark = marks.get(number)
        at = position + 1
        if mark and at < len(chars) and (chars[at] == "." or (chars[at] == "-" and mark != STAIR)):
            chars[at] = mark
    return "".join(chars)


def move_words(state, move):
    """ " +Y6" where the cross of `move` sets off the chain's cross of yellow 6, " stair" on a
    stair cell; "" elsewhere (and for a bonus box)."""
    if move["flags"] & protocol.BONUS:
        return ""
    for code, number, there, there_number in connections(state):
        if (code, number) == (move["row"], move["number"]):
            if not there:
                return " stair"
            return " +" + LETTERS[there - 1] + str(there_number)
    return ""
