"""A finished game's figures in a terminal, in block characters: what the main display shows
as bars and a line chart, in lines of at most 80 columns (the terminal of `qwixx-tower run`,
and `qwixx-tower history --game N`).

The breakdown is a line per player: their total, then each row as its letter and a bar of
eighth blocks (▏ to █) as long as its points, the points after it; a lock the player crossed
shows its letter in parentheses, "(R)", as the terminal marks a lit lock light. The story is a
line per player: their total after each roll as a column of one of eight heights (▁ to █), all
players on one scale, with a lock as its row's letter and a penalty as "x" at the roll it came.
Letters, never colours, say which row.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from firmware_py.story import Breakdown, GameStory, PlayerFigures

EIGHTHS = " ▏▎▍▌▋▊▉"  # a cell's left part filled, in eighths (the full cell is █)
FULL = "█"
HEIGHTS = "▁▂▃▄▅▆▇█"  # a column's height, lowest to highest
NAME_CELLS = 10  # a name's column, as in the terminal's sheet lines
BAR_CELLS = 6  # the longest bar of the breakdown


def cells(text: str) -> int:
    """The terminal cells `text` takes: two for a wide (East Asian) letter, none for a
    combining mark, one for the rest."""
    return sum(_cells(char) for char in text)


def _cells(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def in_cells(text: str, width: int) -> str:
    """`text` cut to at most `width` cells and padded with spaces to exactly `width`."""
    kept, used = "", 0
    for char in text:
        if used + _cells(char) > width:
            break
        kept, used = kept + char, used + _cells(char)
    return kept + " " * (width - used)


def bar(value: int, most: int, width: int) -> str:
    """A bar of `width` cells at most, as long as `value` of `most`, in eighths of a cell;
    padded with spaces to `width`."""
    eighths = round(8 * width * max(0, value) / max(1, most))
    whole, part = divmod(eighths, 8)
    drawn = FULL * whole + (EIGHTHS[part] if part else "")
    return drawn + " " * (width - len(drawn))


def breakdown_lines(breakdown: Breakdown) -> list[str]:
    """A line per player, highest total first: a star for a winner, the name, the total,
    each row's bar and points, the penalties (and bonus points): at most 80 columns."""
    most = breakdown.most_points()
    return [_player_line(p, most, p.name in breakdown.winners) for p in breakdown.ranked()]


def _player_line(player: PlayerFigures, most: int, won: bool) -> str:
    head = f"{'*' if won else ' '}{in_cells(player.name, NAME_CELLS)}{player.total:>4} "
    rows = " ".join(
        f"{_letter(row.colour, row.locked)}{bar(row.points, most, BAR_CELLS)}{row.points:>3}"
        for row in player.rows
    )
    bonus = f" +{player.bonus_points}" if player.bonus_points else ""
    penalties = f"-{player.penalty_points}" if player.penalty_points else "0"
    return f"{head}{rows} {penalties:>3}{bonus}"


def _letter(colour: str, locked: bool) -> str:
    letter = colour[0].upper()
    return f"({letter})" if locked else f" {letter} "


def story_lines(story: GameStory, columns: int = 80) -> list[str]:
    """A line per player (seat order): the name, then a column per roll (several rolls a
    column where they do not fit, the last of them shown), its height their total on one
    scale for everyone; a lock as its row's letter, a penalty as "x"; the total at the end.
    The first line says what the columns are."""
    room = max(8, columns - NAME_CELLS - 7)
    rolls = story.rolls
    per = max(1, -(-rolls // room))  # rolls a column
    low, high = min(0, story.lowest()), story.highest()
    marks = _marks_by_column(story, per)
    lines = [f"{'':{NAME_CELLS + 1}}the game: a column per {_rolls(per)}, "
             f"{rolls} rolls; R Y G B lock, x penalty"[:columns]]  # fmt: skip
    for seat, name in enumerate(story.names):
        line = story.line_of(name)
        drawn = "".join(
            marks.get((seat, column)) or _height(line[min(rolls, (column + 1) * per)], low, high)
            for column in range(-(-rolls // per))
        )
        lines.append(f" {in_cells(name, NAME_CELLS)}{drawn} {line[-1]:>4}")
    return lines


def _rolls(per: int) -> str:
    return "roll" if per == 1 else f"{per} rolls"


def _height(total: int, low: int, high: int) -> str:
    level = round((len(HEIGHTS) - 1) * (total - low) / max(1, high - low))
    return HEIGHTS[level]


def _marks_by_column(story: GameStory, per: int) -> dict[tuple[int, int], str]:
    """Each player's marks at the column of their roll: a lock's letter over a penalty."""
    from firmware_py.story import LOCK  # (game over's: loaded then, not at the start)

    marks: dict[tuple[int, int], str] = {}
    for mark in story.marks:
        key = (story.names.index(mark.player), (mark.roll - 1) // per)
        if mark.kind == LOCK:
            marks[key] = mark.colour[0].upper()
        else:
            marks.setdefault(key, "x")
    return marks
