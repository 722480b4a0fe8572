"""The roll button's menu: new game, variant, players, level, a pad's player's name, back, all
with the one button.

A long press (hold) opens the menu. On its list a short press (tap) moves to the next line and a
hold picks it; on the variant, players and level pages a tap shows the next value and a hold
keeps it (the level is that of every computer seat). "name a pad" picks a pad's seat, then
its player among the names offered (`table.pad_naming`: the league's players, a tournament's
players drawn here), as a pad cannot type and the kiosk has no keyboard.
Starting a new game while one is unfinished asks first: tap to confirm, hold to go back. Every
page says so on the screen. This module is the menu's state and its pages as data
(`MenuView`); the table applies what a choice means.
"""

from __future__ import annotations

from firmware_py.seating import DEFAULT_LEVEL, LEVELS
from firmware_py.view import MenuView

NEW_GAME, VARIANT, PLAYERS, LEVEL, BACK = "new game", "variant", "players", "level", "back"
NAME_PAD = "name a pad"
ITEMS = (NEW_GAME, VARIANT, PLAYERS, LEVEL, NAME_PAD, BACK)
LIST, CONFIRM = "list", "confirm"  # pages besides VARIANT and PLAYERS
PAD_SEAT, PAD_PLAYER = "pad's seat", "pad's player"  # the two pages of "name a pad"
IDLE_SECONDS = 30.0  # the menu closes by itself after this long without a press
COLUMN = 10  # characters of a name in the players page's two columns

LIST_HINTS = ("tap: next hold: pick",)
VALUE_HINTS = ("tap: next hold: keep",)
CONFIRM_HINTS = ("tap: yes, start anew", "hold: no, go back")


class Menu:
    """Which page of the menu is open, which line is picked, and when it was last touched."""

    def __init__(self, now: float) -> None:
        self.page = LIST
        self.index = 0
        self.touched = now

    @property
    def item(self) -> str:
        return ITEMS[self.index]

    def touch(self, now: float) -> None:
        self.touched = now

    def idle(self, now: float) -> bool:
        """True once nobody has pressed for IDLE_SECONDS: time to close."""
        return now - self.touched >= IDLE_SECONDS

    def next_item(self) -> None:
        self.index = (self.index + 1) % len(ITEMS)

    def open_page(self, page: str) -> None:
        self.page = page

    def back_to_list(self) -> None:
        self.page = LIST


def short_title(title: str) -> str:
    """A sheet's title in a menu line's width: 'Qwixx gemixxt, version A' -> 'gemixxt A'."""
    words = title.replace(", version", "").split()
    return " ".join(words[1:]) if len(words) > 1 and words[0] == "Qwixx" else title


def menu_view(
    menu: Menu,
    *,
    titles: list[str],
    chosen: int,
    seats: list[str],
    playing: bool,
    level: str = DEFAULT_LEVEL,
) -> MenuView:
    """The open page as data: `titles` of every sheet, `chosen` the index of the one to play,
    `seats` the players' names, `playing` whether a game is unfinished, `level` the computer
    seats' level ("mixed" where they differ)."""
    variant = titles[chosen]
    if menu.page == CONFIRM:
        return MenuView("New game?", _abandon_words(), -1, CONFIRM_HINTS)
    if menu.page == VARIANT:
        return MenuView("Variant", tuple(short_title(t) for t in titles), chosen, VALUE_HINTS)
    if menu.page == PLAYERS:
        lines = _two_columns(seats) or ("nobody: pads join", "with a press")
        return MenuView(f"Players: {len(seats)} (0-5)", lines, -1, VALUE_HINTS)
    if menu.page == LEVEL:
        selected = LEVELS.index(level) if level in LEVELS else -1
        return MenuView("Computers play", LEVELS, selected, VALUE_HINTS)
    lines = (
        NEW_GAME + (" (ends this)" if playing else ""),
        f"{VARIANT}: {short_title(variant)}",
        f"{PLAYERS}: {len(seats)}",
        f"{LEVEL}: {level}",
        NAME_PAD,
        BACK,
    )
    return MenuView("Menu", lines, menu.index, LIST_HINTS)


def _abandon_words() -> tuple[str, ...]:
    return ("The game on now ends", "unfinished; it stays", "in the history.")


def _two_columns(names: list[str]) -> tuple[str, ...]:
    """Names whole, two to a line where both take ten characters or fewer (a short name joins
    the first line that holds one short name alone), a longer name on a line of its own."""
    lines: list[str] = []
    alone = -1  # the line that holds one short name alone, if any
    for name in names:
        if len(name) > COLUMN:
            lines.append(name)
        elif alone >= 0:
            lines[alone] = f"{lines[alone]:<{COLUMN}} {name}"
            alone = -1
        else:
            lines.append(name)
            alone = len(lines) - 1
    return tuple(lines)
