"""The table views of the screen tests' golden pictures, also drawn by the bus and phone tests."""

from __future__ import annotations

from firmware_py.menu import CONFIRM, PLAYERS, VARIANT, Menu, menu_view
from firmware_py.table.pad_naming import PadNaming
from firmware_py.view import MenuView, Seat, TableView

SEATS = (Seat("Ann", 70, 2, True), Seat("Ben", 59, 0, False), Seat("Cleo", 26, 4, True))
DICE = {"red": 6, "yellow": 2, "blue": 6}
TITLES = ["Qwixx Bonus, version A", "Qwixx Bonus, version B", "Qwixx", "Qwixx Longo",
          "Qwixx gemixxt, version A", "Qwixx gemixxt, version B"]  # fmt: skip
NAMES = ["Ann", "Ben", "Computer 1", "Computer 2", "Bartholomew"]


def pad_names_page(offered: list[str], picked: int) -> MenuView:
    """The menu's page of names offered for the pad's seat "Player 2", `picked` shown."""
    naming = PadNaming()
    naming.seats, naming.names, naming.name = ["Player 2"], ["Player 2", *offered], picked
    return naming.name_page()


def menu_at(page: str, index: int = 0, *, playing: bool = False) -> TableView:
    """The menu screen on `page`, with line `index` picked, for the sheets above."""
    menu = Menu(0.0)
    menu.page, menu.index = page, index
    view = menu_view(menu, titles=TITLES, chosen=5, seats=NAMES, playing=playing)
    return TableView("menu", menu=view)


LONGO = (
    Seat("Ann", 12, 0, False, (5, 10)),
    Seat("Ben", 8, 1, True, (7, 12)),
    Seat("Cleo", 3, 0, False, (4, 11)),
)
CROWD = ("Alexandra", "Ben", "Cleo", "Dmitri")
UNICODE = ("Łukasz", "Zoë", "Ørjan", "Дмитрий", "李雷")
# The longest name a player may type (MAX_NAME characters), and one with an emoji the font
# lacks: drawn whole everywhere (issue 39), the emoji left out.
LONGEST = "Alexandra-Charlotte Bell"
LONG_SEATS = (Seat(LONGEST, 70, 1, True), Seat("Ben", 59, 0, False), Seat("Mia \U0001f3b2", 26, 4))
VIEWS = {
    "attract": TableView("attract", title="Qwixx Longo", seats=SEATS),
    "attract-nobody": TableView(
        "attract", title="Qwixx", message="nobody is seated: hold the button, then choose players"
    ),
    "setup": TableView("setup", title="Qwixx", seats=SEATS, message="press: start"),
    # the kiosk at power-on: the options display says how to join, not an empty score list
    "setup-nobody": TableView("setup", title="Qwixx", message="press a button on a pad to join"),
    "roll": TableView("roll", active="Ben", locked=("green",)),
    "rolling": TableView("rolling", active="Ben", seats=SEATS, frame=2),
    "action1": TableView(
        "action1", active="Ann", white=(4, 1), colours=DICE, locked=("green",),
        waiting_for=("Ben", "Cleo"),
    ),
    "action1-crowd": TableView(
        "action1", active="Alexandra", white=(4, 1), colours=DICE, waiting_for=CROWD,
    ),
    "action1-lucky": TableView(
        "action1", active="Ann", seats=LONGO, white=(3, 4), colours=DICE,
        waiting_for=("Ann", "Ben", "Cleo"),
    ),
    "action2": TableView("action2", active="Ann", white=(6, 6), colours={**DICE, "green": 3}),
    # Big Points: the bonus boxes the active player's colour sums reach, under the sums
    "action1-swap": TableView("action1", active="Ann", white=(5, 6), colours=DICE,
                              waiting_for=("Ben",), swaps=((3, 3), (8, 9))),
    "action2-bonus": TableView("action2", active="Ann", white=(4, 1), colours=DICE,
                               bonus_boxes=("RY 3", "RY 7", "RY 10", "GB 10", "GB 7")),
    # Qwixx Double: the active player's crosses worth two those sums reach, under the sums
    "action2-double": TableView("action2", active="Ann", white=(4, 1), colours=DICE,
                                double_crosses=("R 5", "Y 9", "G 5")),
    # Qwixx Connected: the crosses those sums reach that set off the chain, or on the stair
    "action2-chain": TableView("action2", active="Ann", white=(3, 5), colours=DICE,
                               connected="chain", connections=("R11+Y11", "B9+G9")),
    "action2-stair": TableView("action2", active="Ann", white=(1, 4), colours=DICE,
                               connected="stair", connections=("Y6",)),
    "lock": TableView("lock", active="Ann", white=(6, 6), colours=DICE, locked=("green",),
                      waiting_for=("Ben",)),
    # a lock in action 2 ends the turn: no dice on the table, so the options show the scores
    "lock-turn-over": TableView("lock", active="Ben", seats=SEATS, locked=("green", "red")),
    "over": TableView("over", seats=(SEATS[2], SEATS[1], SEATS[0]), locked=("green", "red"),
                      winners=("Ann",)),
    "over-tie": TableView("over", seats=(Seat("Alexandra", 40), Seat("Ben", 40), SEATS[2]),
                          winners=("Alexandra", "Ben")),
    # game over: the scores take turns with the QR code and the table code, and say how to
    # start the next game; five players leave no room below the scores: a page of its own
    "over-join": TableView("over", seats=SEATS, winners=("Ann",), page=2,
                           join_url="http://192.168.1.20:8080/?code=4821", join_code="4821"),
    "over-five-next": TableView("over", seats=tuple(Seat(n, 10 * i) for i, n in enumerate(
        ("Alexandra", "Ben", "Cleo", "Dmitri", "Eve"))), winners=("Eve",), page=2),
    "over-scores": TableView("over", seats=SEATS, winners=("Ann",), page=1),
    # a second page: the next name the table waits for, and the rest of a long message
    "action1-next": TableView(
        "action1", active="Ann", white=(4, 1), colours=DICE, waiting_for=("Ben", "Cleo"), page=1,
    ),
    "roll-message": TableView("roll", active="Ben", page=1,
                              message="carrying on game 1: Ann, Ben, Cleo, classic"),
    "longo-scores": TableView("roll", active="Ben", seats=LONGO),
    "unicode": TableView("setup", title="Qwixx", seats=tuple(Seat(n) for n in UNICODE)),
    "unicode-over": TableView("over", seats=tuple(Seat(n, 5 + i) for i, n in enumerate(UNICODE)),
                              winners=("李雷",)),
    "error": TableView("error", message="Ben's pad is not answering: check its USB cable"),
    "setup-longest": TableView("setup", title="Qwixx", seats=LONG_SEATS,
                               message=f"{LONGEST} joined: press to start"),
    "action1-longest": TableView("action1", active=LONGEST, seats=LONG_SEATS, white=(4, 1),
                                 colours=DICE, waiting_for=(LONGEST, "Ben")),
    "over-longest": TableView("over", seats=LONG_SEATS, winners=(LONGEST,)),
    "over-longest-scores": TableView("over", seats=LONG_SEATS, winners=(LONGEST,), page=1),
    "lucky-longest": TableView(
        "lucky", title="Qwixx Longo", waiting_for=(LONGEST,),
        seats=(Seat("Ann", lucky=(5, 10)), Seat(LONGEST), Seat("Ben", lucky=(7,))),
    ),
    "menu": menu_at("list", 1, playing=True),
    "menu-variant": menu_at(VARIANT),
    "menu-players": menu_at(PLAYERS),
    "menu-confirm": menu_at(CONFIRM),
    # "name a pad": the names offered for a pad's seat (table/pad_naming.py), the third picked
    "menu-pad-player": TableView("menu", menu=pad_names_page(["Oma", "Ben", "Cleo", "Ida"], 2)),
    "lucky": TableView(
        "lucky", title="Qwixx Longo", waiting_for=("Ben", "Cleo"),
        seats=(Seat("Ann", lucky=(5, 10)), Seat("Ben", lucky=(7,)), Seat("Cleo"),
               Seat("Computer 1", lucky=(3, 14))),
    ),
}  # fmt: skip
