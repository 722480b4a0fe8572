"""The roll button's menu at the table: what a short and a long press mean while it is open.

A long press opens the menu (the table is then in its MENU phase, over whatever was on). In it a
short press moves to the next line or value, a long press chooses the line or keeps the value;
the lines are a new game, the variant, the number of players, the computer players' level, a
pad's player's name (`pad_naming`) and back. Nobody pressing for a while closes it. The pages
themselves (`firmware_py.menu`) know nothing of the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from firmware_py.menu import (
    BACK,
    CONFIRM,
    LEVEL,
    LIST,
    NAME_PAD,
    NEW_GAME,
    PAD_PLAYER,
    PAD_SEAT,
    PLAYERS,
    VARIANT,
    Menu,
    menu_view,
)
from firmware_py.seating import COMPUTER, DEFAULT_LEVEL, LEVELS, SeatSpec
from firmware_py.table.pad_naming import PadNaming
from firmware_py.table.state import Variant
from firmware_py.view import MenuView
from sheets import load_sheet, sheets_that_load


class MenuTable(Variant, Protocol):
    """What the menu reads of the table (the variant, whether a game is on), and what it asks
    of it: another variant, a new game."""

    def playing(self) -> bool: ...
    def choose_variant(self, variant: str) -> None: ...
    def new_game(self) -> None: ...
    def tell(self, words: str) -> None: ...


class MenuSeats(Protocol):
    """The table's seats as the menu shows them and its players and level pages change them
    (`Seating`)."""

    @property
    def seats(self) -> Sequence[SeatSpec]: ...
    def names(self) -> list[str]: ...
    def one_more(self) -> None: ...
    def set_levels(self, level: str) -> None: ...


class ButtonMenu:
    """The menu the roll button opens (`open`: its pages, None while it is closed). Its
    players and level pages change the table's `seating`; it closes by itself when nobody
    pressed for a while by the table's `clock`."""

    def __init__(self, table: MenuTable, seating: MenuSeats, clock: Callable[[], float]) -> None:
        self.table = table
        self.seating = seating
        self.clock = clock
        self.open: Menu | None = None
        self.naming = PadNaming()  # "name a pad" (its namer given by `Table.name_pads_by`)

    def long_press(self) -> None:
        """Open the menu, or in it choose the line (or keep the value)."""
        if self.open is None:
            self.open = Menu(self.clock())
        else:
            self._choose(self.open)

    def short_press(self) -> bool:
        """The next line, the next value, or yes to a new game; True when the table has a
        change to show (a new game shows itself)."""
        table, menu = self.table, self.open
        assert menu is not None  # the table routes here only while the menu is open
        menu.touch(self.clock())
        if menu.page == LIST:
            menu.next_item()
        elif menu.page == VARIANT:
            names = sheets_that_load()
            table.choose_variant(names[(names.index(table.variant) + 1) % len(names)])
        elif menu.page == PLAYERS:
            self.seating.one_more()
        elif menu.page == PAD_SEAT:
            self.naming.next_seat()
        elif menu.page == PAD_PLAYER:
            self.naming.next_name()
        elif menu.page == LEVEL:
            level = self.level()  # "mixed" goes to the first level
            following = LEVELS.index(level) + 1 if level in LEVELS else 0
            self.seating.set_levels(LEVELS[following % len(LEVELS)])
        else:  # CONFIRM: yes
            table.new_game()
            return False
        return True

    def _choose(self, menu: Menu) -> None:
        """Choose the line, keep the value, or no to a new game."""
        table = self.table
        menu.touch(self.clock())
        if menu.page in (PAD_SEAT, PAD_PLAYER):
            self._choose_pad(menu)
        elif menu.page != LIST:
            menu.back_to_list()
        elif menu.item == NEW_GAME:
            if table.playing():
                menu.open_page(CONFIRM)
            else:
                table.new_game()
        elif menu.item in (VARIANT, PLAYERS, LEVEL):
            menu.open_page(menu.item)
        elif menu.item == NAME_PAD:
            self.naming.open()
            menu.open_page(PAD_SEAT)
        elif menu.item == BACK:
            self.open = None

    def _choose_pad(self, menu: Menu) -> None:
        """On the pads' seats: pick the one shown (its names next), or back with none; on its
        names: keep the one shown, and back to the list (why not, in the news)."""
        if menu.page == PAD_SEAT and self.naming.pick_seat():
            menu.open_page(PAD_PLAYER)
            return
        if menu.page == PAD_PLAYER:
            refusal = self.naming.keep()
            if refusal is not None:
                self.table.tell(f"The pad's player is not named: {refusal.reason}")
        menu.back_to_list()

    def close(self) -> None:
        self.open = None

    def close_if_idle(self) -> bool:
        """Close the menu when nobody has pressed for a while; True when it closed."""
        if self.open is not None and self.open.idle(self.clock()):
            self.open = None
            return True
        return False

    def level(self) -> str:
        """The computer seats' level: theirs if they share one, "mixed" if not (the default
        level with no computer seat)."""
        seats = [s for s in self.seating.seats if s.kind == COMPUTER]
        levels = {seat.level or DEFAULT_LEVEL for seat in seats} or {DEFAULT_LEVEL}
        return levels.pop() if len(levels) == 1 else "mixed"

    def page(self) -> MenuView | None:
        """The menu's page as the main display shows it (None while the menu is closed)."""
        table, menu = self.table, self.open
        if menu is None:
            return None
        if menu.page == PAD_SEAT:
            return self.naming.seat_page(table.playing())
        if menu.page == PAD_PLAYER:
            return self.naming.name_page()
        names = sheets_that_load()
        return menu_view(
            menu,
            titles=[load_sheet(name).title for name in names],
            chosen=names.index(table.variant),
            seats=self.seating.names(),
            playing=table.playing(),
            level=self.level(),
        )
