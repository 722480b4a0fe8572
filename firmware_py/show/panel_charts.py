"""A finished game's figures on the 128x64 main display, as pages of its game-over turns:
each player's breakdown as a bar chart (a page each, highest total first), then the game's
story as a line chart.

Drawn to be read from a chair a metre away: bars 8 pixels tall, every number in the displays'
10-pixel letters, one player a page. The display has one colour, so a row is its letter (R,
Y, G, B), a lock the player crossed is that letter lit in a box, and a player's line on the
story is told by its dots (solid, dotted, dashed ...) and its final total at its end (the
players' pages before it say whose total that is: a name is never cut to fit a label).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import TYPE_CHECKING

from PIL import ImageDraw

from firmware_py.show.font import drawable, picture, width
from firmware_py.show.whole import SMALL, fitted
from firmware_py.view import TableView

if TYPE_CHECKING:
    from firmware_py.story import GameStory, PlayerFigures

WIDTH, HEIGHT = 128, 64
BAR_LEFT, BAR_ROOM, BAR_HEIGHT, ROW_PITCH = 9, 62, 8, 11
POINTS_RIGHT = 92  # a row's points end here; its crosses follow
PLOT_LEFT, PLOT_RIGHT, PLOT_TOP, PLOT_BOTTOM = 13, 106, 1, 52
PATTERNS = ((1,), (1, 0), (1, 1, 1, 0, 0), (1, 1, 0), (1, 0, 0))  # a player's line: its dots

Draw = ImageDraw.ImageDraw
Page = Callable[[Draw, TableView], None]


def story_pages(view: TableView) -> list[Page]:
    """The pages a finished game adds to the game-over turns: each player's bars, the story
    (none without a story)."""
    story = view.story
    if story is None:
        return []
    ranked = story.breakdown.ranked()
    pages: list[Page] = [_player_page(player) for player in ranked]
    return [*pages, story_page]


def words(draw: Draw, xy: tuple[int, int], shown: str, fill: int = 1) -> None:
    """Drawable words at `xy` in the displays' small letters."""
    image, (left, top) = picture(shown)
    draw.bitmap((xy[0] + left, xy[1] + top), image, fill=fill)


def right_aligned(draw: Draw, x: int, y: int, shown: str) -> None:
    words(draw, (x - width(shown), y), drawable(shown))


def _player_page(player: PlayerFigures) -> Page:
    def page(draw: Draw, view: TableView) -> None:
        story = view.story
        assert story is not None  # (the page is made from it)
        breakdown_page(draw, player, story.breakdown.most_points(), view.page,
                       won=player.name in story.breakdown.winners)  # fmt: skip

    return page


def breakdown_page(draw: Draw, player: PlayerFigures, most: int, page: int = 0, *,
                   won: bool = False) -> None:  # fmt: skip
    """One player's breakdown: name (whole, in turns if it must) and total on the top line;
    a bar per row, its points and crosses after it, its letter lit where the player locked
    it; penalties (and bonus points) on the bottom line."""
    total = str(player.total)
    room = WIDTH - width(total) - (14 if won else 4)
    shape = fitted(player.name, room, 10, (SMALL,))
    words(draw, (0, 0), shape.page(page)[0] if shape.page(page) else "")
    right_aligned(draw, WIDTH - 1, 0, total)
    if won:
        star(draw, WIDTH - width(total) - 10, 1)
    for index, row in enumerate(player.rows):
        y = 11 + index * ROW_PITCH
        _row_letter(draw, y, row.colour[0].upper(), lit=row.locked)
        length = round(BAR_ROOM * row.points / max(1, most))
        if length:
            draw.rectangle((BAR_LEFT, y + 1, BAR_LEFT + length - 1, y + BAR_HEIGHT), fill=1)
        right_aligned(draw, POINTS_RIGHT, y, str(row.points))
        words(draw, (POINTS_RIGHT + 4, y), f"{row.crosses}x")
    bottom = f"penalty {player.penalties}: -{player.penalty_points}"
    if player.bonus_points:
        bottom = f"pen. -{player.penalty_points} bonus +{player.bonus_points}"
    words(draw, (0, 55), drawable(bottom))


def star(draw: Draw, x: int, y: int) -> None:
    """A small filled star, 7 px wide: the winner's mark, as on the scores page."""
    draw.polygon(
        [(x + 3, y), (x + 4, y + 2), (x + 6, y + 2), (x + 5, y + 4), (x + 6, y + 7),
         (x + 3, y + 5), (x, y + 7), (x + 1, y + 4), (x, y + 2), (x + 2, y + 2)],
        fill=1,
    )  # fmt: skip


def _row_letter(draw: Draw, y: int, letter: str, *, lit: bool) -> None:
    """A row's letter; lit in a box where the player crossed the row's lock."""
    if lit:
        draw.rectangle((0, y, 6, y + 9), fill=1)
        words(draw, (1, y), letter, fill=0)
    else:
        words(draw, (1, y), letter)


def story_page(draw: Draw, view: TableView) -> None:
    """Every player's total after each roll as a line (each its own dots), the zero line and
    the highest total marked on the left, each line's final total at its end;
    a lock as a lit box on the line, a penalty as a cross. The rolls counted below."""
    story = view.story
    if story is None:
        return
    low, high = min(0, story.lowest()), story.highest()

    def point(roll: int, total: int) -> tuple[int, int]:
        x = PLOT_LEFT + round((PLOT_RIGHT - PLOT_LEFT) * roll / max(1, story.rolls))
        y = PLOT_BOTTOM - round((PLOT_BOTTOM - PLOT_TOP) * (total - low) / max(1, high - low))
        return x, y

    # the highest total from the panel's edge: three digits (Big Points' 180) are wider than
    # the margin, and the lines start low at the left, far below it
    words(draw, (0, 0), drawable(str(high)))
    right_aligned(draw, PLOT_LEFT - 2, point(0, 0)[1] - 5, "0")
    for x in range(PLOT_LEFT, PLOT_RIGHT + 1, 2):
        draw.point((x, point(0, 0)[1]), fill=1)  # the zero line, dotted
    for seat, name in enumerate(story.names):
        line = [point(roll, total) for roll, total in enumerate(story.line_of(name))]
        _dotted_line(draw, line, PATTERNS[seat % len(PATTERNS)])
    _marks(draw, story, point)
    _end_names(draw, story, point)
    _legend(draw, story.rolls)


def _dotted_line(draw: Draw, points: list[tuple[int, int]], pattern: tuple[int, ...]) -> None:
    """A line through `points`, each pixel lit as `pattern` says, counted along the line."""
    step = 0
    for (x0, y0), (x1, y1) in pairwise(points):
        steps = max(abs(x1 - x0), abs(y1 - y0), 1)
        for k in range(steps):
            if pattern[step % len(pattern)]:
                x = x0 + round((x1 - x0) * k / steps)
                y = y0 + round((y1 - y0) * k / steps)
                draw.point((x, y), fill=1)
            step += 1
    if points:
        draw.point(points[-1], fill=1)


def _marks(draw: Draw, story: GameStory, point: Callable[[int, int], tuple[int, int]]) -> None:
    from firmware_py.story import LOCK  # (game over's: loaded then, not at the start)

    for mark in story.marks:
        x, y = point(mark.roll, story.totals[mark.roll][story.names.index(mark.player)])
        if mark.kind == LOCK:
            draw.rectangle((x - 2, y - 2, x + 2, y + 2), fill=1)
        else:
            for d in range(-2, 3):
                draw.point((x + d, y + d), fill=1)
                draw.point((x + d, y - d), fill=1)


def _end_names(draw: Draw, story: GameStory, point: Callable[[int, int], tuple[int, int]]
               ) -> None:  # fmt: skip
    """Each line's final total at its end, nudged apart to a line each (equal totals share
    one label: their lines end on the same point)."""
    finals = sorted({story.totals[-1][seat] for seat in range(len(story.names))}, reverse=True)
    placed: list[int] = []
    for total in finals:
        wanted = point(story.rolls, total)[1] - 5
        placed.append(max(wanted, placed[-1] + 10) if placed else max(0, wanted))
    shift = max(0, placed[-1] - (PLOT_BOTTOM - 4)) if placed else 0
    for total, top in zip(finals, placed, strict=True):
        words(draw, (PLOT_RIGHT + 5, top - shift), str(total))


def _legend(draw: Draw, rolls: int) -> None:
    """The bottom line: how many rolls, and what a lit box and a cross on a line mean."""
    shown = f"{rolls} rolls"
    words(draw, (0, 55), shown)
    x = width(shown) + 8
    draw.rectangle((x, 58, x + 4, 62), fill=1)
    words(draw, (x + 7, 55), "lock")
    x += 7 + width("lock") + 6
    for d in range(-2, 3):
        draw.point((x + 2 + d, 60 + d), fill=1)
        draw.point((x + 2 + d, 60 - d), fill=1)
    words(draw, (x + 7, 55), "penalty")
