"""What the table publishes, as plain data: one `TableView` per change, for every presenter.

Screens draw a `TableView` and nothing else, so they never touch the rules engine and can be
tested as pictures from hand-made views. `table_view` builds the view of a game. Presenters
that follow the players' sheets (pads, the terminal) read the game and the lucky numbers the
view carries; the lock lights read which rows the change locked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from firmware_py.lucky import DraftView
from firmware_py.rules import ACTION1, Game, Mark, Pass, Undo
from firmware_py.rules.bonus_rows import boxes_in_reach
from firmware_py.rules.connections_reach import connections_in_reach
from firmware_py.rules.doubles import doubles_in_reach
from firmware_py.rules.swaps import swaps_in_reach
from sheets import COLOURS

if TYPE_CHECKING:  # (a finished game's story is told at game over: its module loads then)
    from firmware_py.story import GameStory


class Screen(StrEnum):
    """What the main display shows; a game's own phases (roll, action1, action2, over) are
    screens of their names too."""

    ATTRACT = "attract"
    SETUP = "setup"  # between games: the seats
    ROLLING = "rolling"
    LOCK = "lock"
    ERROR = "error"
    MENU = "menu"  # the roll button's menu
    LUCKY = "lucky"  # longo players choosing lucky numbers


ATTRACT, SETUP, ROLLING, LOCK = Screen.ATTRACT, Screen.SETUP, Screen.ROLLING, Screen.LOCK
ERROR, MENU, LUCKY = Screen.ERROR, Screen.MENU, Screen.LUCKY


@dataclass(frozen=True)
class Seat:
    """One player as the table shows them."""

    name: str
    total: int = 0
    penalties: int = 0
    decided: bool = False
    lucky: tuple[int, ...] = ()  # longo: the lucky numbers chosen so far
    level: str = ""  # a computer seat's level, where one was chosen: shown beside the name

    @property
    def label(self) -> str:
        """The name, and the level beside it where the seat has one: "Robo (hard)"."""
        return f"{self.name} ({self.level})" if self.level else self.name


@dataclass(frozen=True)
class MenuView:
    """One page of the roll button's menu: a title, its lines, the line picked (-1: none) and
    how to go on, in words (the family has no manual)."""

    title: str
    lines: tuple[str, ...]
    selected: int = -1
    hints: tuple[str, ...] = ()


@dataclass(frozen=True)
class TableView:
    """Everything a screen may show; `screen` says which moment of the game this is."""

    screen: str
    title: str = ""
    seats: tuple[Seat, ...] = ()
    active: str = ""
    white: tuple[int, int] | None = None
    colours: dict[str, int] = field(default_factory=dict)  # colour dice in play and their faces
    locked: tuple[str, ...] = ()
    waiting_for: tuple[str, ...] = ()
    winners: tuple[str, ...] = ()
    message: str = ""
    frame: int = 0  # animation step, for the rolling screen
    page: int = 0  # game over: which page shows (scores, how phones join), counting on
    menu: MenuView | None = None  # the menu's page, for the menu screen
    join_url: str = ""  # between games: where phones join (a QR code on the main display)
    join_code: str = ""  # and the table code they type
    absent: str = ""  # the table waits for a player whose pad or phone has gone: who, and a press
    story: GameStory | None = None  # game over: the breakdown and the story, as they are drawn
    bonus_boxes: tuple[str, ...] = ()  # Big Points: the active player's boxes the sums reach
    double_crosses: tuple[str, ...] = ()  # Double: the active player's crosses worth two, ditto
    # X-Change, in action 1: (field, number) the white sum may still be traded for
    swaps: tuple[tuple[int, int], ...] = ()
    # Connected: the active player's crosses the sums reach that set off a chain ("R6+Y6") or
    # lie on the stair ("R2"), and which of the two ("chain", "stair")
    connections: tuple[str, ...] = ()
    connected: str = ""
    # What presenters other than the screens read; screens never do.
    phase: str = ""  # the table's phase (table.phase.TablePhase)
    version: int = 0  # counts the changes published, so a delayed action can tell it is stale
    game: Game | None = field(default=None, compare=False, repr=False)  # the game as it is
    draft: DraftView | None = field(default=None, compare=False, repr=False)  # longo, before
    news: tuple[str, ...] = field(default=(), compare=False, repr=False)  # the last, newest last
    news_count: int = 0  # lines of news told since the start, kept or not
    # each player's last decision this game (the terminal says what its keyboard player did)
    decisions: Mapping[str, Mark | Pass | Undo] = field(default_factory=dict, compare=False)
    started: bool = False  # this change began a game
    new_locks: tuple[str, ...] = ()  # rows this change locked
    ended: bool = False  # this change ended the game

    @property
    def white_sum(self) -> int | None:
        return None if self.white is None else self.white[0] + self.white[1]

    def colour_sums(self, colour: str) -> tuple[int, ...]:
        """Action-2 sums with one colour die: each white die plus it; () when the die is gone."""
        if self.white is None or colour not in self.colours:
            return ()
        face = self.colours[colour]
        return tuple(sorted({self.white[0] + face, self.white[1] + face}, reverse=True))


def table_view(game: Game, *, screen: str | None = None, message: str = "") -> TableView:
    """The view of a game at this moment (the screen follows the phase unless one is given)."""
    decided = set(game.decisions) if game.phase == ACTION1 else set()
    seats = tuple(
        Seat(p.name, game.total(p.name), p.penalties, seat in decided, tuple(p.lucky))
        for seat, p in enumerate(game.players)
    )
    dice = game.dice
    in_play = set(game.dice_in_play())
    connected, connections = connections_in_reach(game, game.active_name)
    return TableView(
        screen=screen or game.phase,  # each phase has a screen of its name
        title=game.sheet.title,
        seats=seats,
        active=game.active_name,
        white=(dice.white[0], dice.white[1]) if dice else None,
        colours={c: f for c, f in dice.colours.items() if c in in_play} if dice else {},
        locked=tuple(COLOURS[row] for row in game.locked),
        waiting_for=tuple(game.waiting_for()),
        winners=tuple(game.winners()) if game.over else (),
        message=message,
        bonus_boxes=tuple(boxes_in_reach(game, game.active_name)) if not game.over else (),
        double_crosses=tuple(doubles_in_reach(game, game.active_name)),
        swaps=tuple(swaps_in_reach(game)),
        connected=connected,
        connections=connections,
    )
