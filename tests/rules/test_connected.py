"""Qwixx Connected on the rules engine: our own fixture tables for the Steps and the Chain.

The text (docs/rules.md says which and how the tower reads what it leaves open): NSV's rule
sheet for Qwixx Connected (2018, Qwixx_connect_GB.pdf), as 0x0079/Qwixx's rules research
(section 4.4) and the German reviews retell it. The Steps: "11 Felder schwarz eingekreist ...
eine fünfte Wertungsreihe, die beim Spielende nach der selben Punktetabelle auch gewertet
wird" (spieletest.at: eleven framed cells, a fifth row scored on the same table); "the stair
cells count twice" (rules research). The Chain: "Wird eine Ziffer davon angekreuzt, muss auch
die andere angekreuzt werden. Dabei spielt es keine Rolle, ob die Reihe bereits geschlossen
wurde oder der Spieler zuvor weiter rechts liegende Zahlen angekreuzt hatte"
(brettspiele-magazin.de: cross one, and the other must be crossed too, whether its row is
already closed or the player has crossed numbers further right). Both: "jeweils sechs
unterschiedliche Blätter (A-F) ... So spielt jeder Mitspieler ... auf einem eigenen Blatt".

Chain pad A joins red 6-yellow 6, red 11-yellow 11, yellow 3-green 11, yellow 8-green 6,
green 9-blue 9, green 4-blue 4. The Steps' pad A frames red 2 3 4, yellow 5 6 7, green 6 5 4,
blue 3 2. A fixture is a list of steps of tests/support/sheet_steps.py; Sam plays alone.
"""

from __future__ import annotations

import tomllib

import pytest
from support.rules import report
from support.sheet_steps import Check, Do, R, Refuse, play, solo

from firmware_py.journal.lines import event_to_line, parse_line, replay
from firmware_py.rules import Game, Mark, Pass, Start, Undo, plain
from sheets import SheetError, load_sheet, parse_sheet
from sheets.loader import SHEET_DIR

CHAIN, STEPS = "connected-chain", "connected-steps"


def cross(row: str, number: int, player: str = "Sam") -> Mark:
    return Mark(player, row, number)


def white(number: int) -> R:
    """A roll whose white sum is `number` (colour dice show 1)."""
    return R(1, number - 1) if number <= 7 else R(6, number - 6)


def crossings(*cells: tuple[str, int]) -> list:
    """Sam's turns, each crossing one cell with the white sum."""
    return [step for row, number in cells for step in solo(white(number), cross(row, number))]


CHAIN_FIXTURES = {
    # "Wird eine Ziffer davon angekreuzt, muss auch die andere angekreuzt werden."
    "a cross on a circled cell crosses the cell joined to it": [
        *crossings(("red", 6)),
        Check("Sam", marks={"red": [6], "yellow": [6]}, total=2),
    ],
    "either end of a pair sets off the other": [
        *crossings(("green", 4)),
        Check("Sam", marks={"green": [4], "blue": [4]}, total=2),
    ],
    # "... oder der Spieler zuvor weiter rechts liegende Zahlen angekreuzt hatte."
    "the joined cell is crossed left of the row's crosses": [
        *crossings(("yellow", 9), ("red", 6)),
        Check("Sam", marks={"yellow": [6, 9], "red": [6]}, crosses={"yellow": 2}, total=4),
    ],
    # The cross set off is a cross: cells left of it are passed for good, in its own row.
    "the cross set off passes the cells left of it": [
        *crossings(("red", 6)),
        Do(white(3)),
        Refuse(cross("yellow", 3), ("yellow 3",)),
        Check("Sam", not_offered=(cross("yellow", 3),), offered=(cross("green", 3),)),
    ],
    "a pair crossed at both ends sets off nothing more": [
        *crossings(("yellow", 6)),
        Check("Sam", marks={"red": [6], "yellow": [6]}),
        *crossings(("red", 7)),
        Check("Sam", marks={"red": [6, 7], "yellow": [6]}, total=4),
    ],
    # The cross set off counts towards the lock: four crosses of Sam's and one of the chain.
    "the cross set off counts towards the lock": [
        *crossings(("yellow", 2), ("yellow", 4), ("yellow", 5), ("red", 6), ("yellow", 7)),
        Check("Sam", crosses={"yellow": 5}),
        Do(white(12)),
        Check("Sam", offered=(cross("yellow", 12),)),
        Do(cross("yellow", 12)),
        Do(Pass("Sam")),
        Check("Sam", locked=("yellow",), crosses={"yellow": 7}),
    ],
    # "Dabei spielt es keine Rolle, ob die Reihe bereits geschlossen wurde."
    "the joined cell is crossed in a locked row": [
        *crossings(("blue", 12), ("blue", 11), ("blue", 10), ("blue", 8), ("blue", 7)),
        *crossings(("blue", 2)),
        Check("Sam", locked=("blue",), crosses={"blue": 7}),
        *crossings(("green", 4)),
        Check("Sam", marks={"green": [4], "blue": [12, 11, 10, 8, 7, 4, 2]}),
        Check("Sam", crosses={"blue": 8}, points={"blue": 36}, over=False),
    ],
}

STEPS_FIXTURES = {
    # "eine fünfte Wertungsreihe ... nach der selben Punktetabelle": 3 crosses in the stair, 6.
    "the stair's crossed cells score again as a fifth row": [
        *crossings(("red", 2), ("red", 3), ("yellow", 5)),
        Check("Sam", steps=3, points={"red": 3, "yellow": 1}, total=3 + 1 + 6),
    ],
    "a cell off the stair scores in its row only": [
        *crossings(("red", 5), ("blue", 9)),
        Check("Sam", steps=0, total=2),
    ],
    # The lock number blue 2 is a stair cell on pad A; the lock cross beside it is not.
    "the lock number counts once for the stair, the lock cross not": [
        *crossings(("blue", 12), ("blue", 11), ("blue", 10), ("blue", 9), ("blue", 8)),
        *crossings(("blue", 2)),
        Check("Sam", steps=1, crosses={"blue": 7}, total=28 + 1),
    ],
    "nothing changes what may be crossed": [
        Do(white(4)),
        Check("Sam", offered=(cross("red", 4), cross("blue", 4))),
        Do(cross("green", 4)),
        Do(Pass("Sam")),
        Check("Sam", steps=1),
        Do(white(5)),
        Refuse(cross("green", 5), ("green 5",)),
    ],
}


@pytest.mark.parametrize("steps", CHAIN_FIXTURES.values(), ids=CHAIN_FIXTURES.keys())
def test_chain_fixture(steps):
    play(CHAIN, ("Sam",), steps)


@pytest.mark.parametrize("steps", STEPS_FIXTURES.values(), ids=STEPS_FIXTURES.keys())
def test_steps_fixture(steps):
    play(STEPS, ("Sam",), steps)


def test_undo_takes_back_the_cross_and_the_one_it_set_off():
    """While action 1 is open (Ben has not decided), Sam takes back red 6: yellow 6 goes too."""
    play(
        CHAIN,
        ("Sam", "Ben"),
        [
            Do(white(6)),
            Do(cross("red", 6)),
            Check("Sam", marks={"red": [6], "yellow": [6]}),
            Do(Undo("Sam")),
            Check("Sam", marks={"red": [], "yellow": []}, total=0),
        ],
    )


def test_a_chain_cross_is_journalled_as_the_cross_made_and_replayed_with_its_partner():
    """docs/game-log.md: the line names the cell crossed; a referee outside the tower reads
    the cross it set off from the seat's pad, as replay does."""
    line = event_to_line(cross("red", 6))
    assert parse_line(line) == cross("red", 6)
    start = event_to_line(Start(CHAIN, ("Sam",)))
    game = replay([start, event_to_line(white(6).on(Game.start(Start(CHAIN, ("Sam",))))), line])
    sheet = report(game)["players"]["Sam"]
    assert sheet["pad"] == "A"
    assert sheet["rows"]["yellow"]["marks"] == [6]


TWO_PADS = """
name = "two-pads"
title = "Two pads"
dice_faces = 6
lock_threshold = 5
lock_numbers = 1
penalty_points = 5
penalties_to_end = 4
locks_to_end = 2
score = [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78]
[[rows]]
lock = "red"
numbers = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
[[rows]]
lock = "yellow"
numbers = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
[[rows]]
lock = "green"
numbers = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]
[[rows]]
lock = "blue"
numbers = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]
[[pads]]
name = "A"
links = [[["red", 6], ["yellow", 6]]]
[[pads]]
name = "B"
links = [[["red", 6], ["green", 6]]]
"""


def test_each_seat_plays_its_own_pad_round_again_past_the_last():
    """ "jeweils sechs unterschiedliche Blätter (A-F) ... jeder Mitspieler ... auf einem eigenen
    Blatt": seat 1 plays pad A, seat 2 pad B, seat 3 pad A again; a cross sets off the cell of
    the player's own pad."""
    sheet = parse_sheet(tomllib.loads(TWO_PADS), "two-pads.toml")
    game = Game(sheet, ("Ann", "Ben", "Cy"))
    assert [player.pad.name for player in game.players] == ["A", "B", "A"]
    game.apply(white(6).on(game))
    for name in ("Ann", "Ben", "Cy"):
        game.apply(cross("red", 6, name))
    ann, ben = report(game)["players"]["Ann"], report(game)["players"]["Ben"]
    assert (ann["rows"]["yellow"]["marks"], ann["rows"]["green"]["marks"]) == ([6], [])
    assert (ben["rows"]["yellow"]["marks"], ben["rows"]["green"]["marks"]) == ([], [6])


@pytest.mark.parametrize(
    ("pads", "words"),
    [
        ('[[pads]]\nname = "A"\nlinks = [[["red", 12], ["yellow", 12]]]', "red 12 locks the row"),
        ('[[pads]]\nname = "A"\nlinks = [[["red", 6], ["red", 7]]]', "two cells of the same row"),
        (
            '[[pads]]\nname = "A"\n'
            'links = [[["red", 6], ["yellow", 6]], [["red", 6], ["blue", 6]]]',
            "red 6 is in two pairs",
        ),
        ('[[pads]]\nname = "A"\nsteps = [["red", 13]]', "row red has no number 13"),
        ('[[pads]]\nname = "A"', "needs steps"),
    ],
)
def test_a_malformed_pad_is_refused_in_words(pads, words):
    base = (SHEET_DIR / "classic.toml").read_text(encoding="utf-8")
    with pytest.raises(SheetError, match=words):
        parse_sheet(tomllib.loads(base + "\n" + pads), "mine.toml")


def test_pairs_are_lettered_top_to_bottom_left_to_right_whatever_the_files_order():
    """The letters a, b, ... that name a pair on the phone page, in `qwixx-tower sheets` and
    on the pad (which letters the pairs it is sent as it meets them, firmware_py/pad/
    padlinks.py) follow the sheet as printed, not the order a family typed its pairs in."""
    base = (SHEET_DIR / "classic.toml").read_text(encoding="utf-8")
    typed = (
        '[[pads]]\nname = "A"\nlinks = [[["green", 4], ["blue", 4]], [["yellow", 6], ["red", 6]]]'
    )
    (pad,) = parse_sheet(tomllib.loads(base + "\n" + typed), "mine.toml").pads
    red, yellow, green, blue = range(4)
    assert pad.links == (((red, 4), (yellow, 4)), ((green, 8), (blue, 8)))


def test_the_shipped_pads_hold_the_texts_counts():
    """Eleven framed stair cells; twelve circled cells in six pairs."""
    assert all(len(pad.steps) == 11 for pad in load_sheet(STEPS).pads)
    assert all(len(pad.links) == 6 for pad in load_sheet(CHAIN).pads)


def fast_path_cross(closed_rows: list[int], blue_numbers: tuple[int, ...]) -> tuple[list, int]:
    """On the playouts' fast path (plain_links.py), Sam crosses green 4 (joined to blue 4 on
    pad A) with blue `blue_numbers` crossed before and `closed_rows` closed at the table; the
    row masks and Sam's open cells after."""
    game = Game.start(Start(CHAIN, ("Sam",)))
    bits = game.tables.derived(plain.CellBits)
    blue = load_sheet(CHAIN).rows[3].numbers
    rows = [0, 0, 0, sum(1 << blue.index(n) for n in blue_numbers)]
    threshold = load_sheet(CHAIN).lock_threshold
    opens = [bits.open_cells(rows, sum(1 << r for r in closed_rows), threshold)]
    cross = bits.links.cross(plain._cross, list(closed_rows))
    green_4 = next(e for e in bits.cell.values() if e[:2] == (2, 8))
    cross(rows, opens, 0, green_4, bits.lock_bits, threshold)
    return rows, opens[0] & bits.row_bits[3]


def test_the_fast_path_opens_a_lock_the_chain_brings_to_its_crosses_only_in_an_open_row():
    """Blue 12 11 10 9 crossed (four), green 4 sets off blue 4: five crosses, so blue's lock
    number opens, as the referee has it (`Crossing.can_cross`), unless blue is closed."""
    rows, blue_open = fast_path_cross([], (12, 11, 10, 9))
    assert rows[3] >> 8 & 1  # blue 4 crossed
    blue_3, blue_2 = 1 << 3 * 11 + 9, 1 << 3 * 11 + 10  # (blue's cells follow 33 others)
    assert blue_open == blue_3 | blue_2  # right of blue 4: 3, and 2 (the lock number) opened
    rows, blue_open = fast_path_cross([3], (12, 11, 10, 9))
    assert rows[3] >> 8 & 1 and blue_open == 0  # crossed in the locked row, which stays shut
