"""A finished game's figures for the phones: drawn once when its end is shown, and added to
every player's view while it is.

The drawing is the show stage's (`show/figures_html.py`), which the seats stage does not
import: the app hands the drawing function in (`app/assembly.py`, `attach_phones`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (a finished game's story: told at game over, its module loaded then)
    from firmware_py.story import GameStory

Figures = Callable[["GameStory"], str]  # a finished game's charts and tables, as HTML


class GameOverFigures:
    """The figures of the game whose end the table shows ("" while none is)."""

    def __init__(self, figures: Figures | None = None) -> None:
        self.figures = figures
        self.story: GameStory | None = None
        self.drawn = ""
        self.ended: Callable[[], None] = lambda: None  # told of a game's end: the history

    def keep(self, story: GameStory | None) -> None:
        """The table's view changed: its story drawn, once (a new game has none); a game's
        end is told (`ended`: the history's pages read it at once)."""
        if story is not self.story:
            self.story = story
            self.drawn = self.figures(story) if story is not None and self.figures else ""
            if story is not None:
                self.ended()

    def add_to(self, view: dict[str, Any]) -> None:
        """A player's view at game over gets the figures and the game's number (its page in
        the history)."""
        if view.get("phase") == "over" and self.drawn and self.story is not None:
            view["figures"], view["game"] = self.drawn, self.story.number
