"""The figures of a game and of a player as HTML pieces for the phone pages: each chart
(`show/svg.py`) in a figure, its sentence under it, and the same figures as tables a screen
reader can walk, folded under the chart (`<details>`) so the phone shows the picture first.

Only markup: the page's style (`seats/phones/static/app.css`) lays it out; nothing here needs a
script. Every name is escaped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape

from firmware_py.journal.figures import HeatMap, PlayerHistory, Rival, SheetFigures
from firmware_py.show.svg import (
    ROWS,
    breakdown_chart,
    breakdown_words,
    heat_chart,
    heat_words,
    rivals_chart,
    story_chart,
    story_words,
    trend_chart,
)
from firmware_py.show.text_width import width_of
from firmware_py.story import Breakdown, GameStory, PlayerFigures
from firmware_py.words import plural

TREND_AT_LEAST = 3  # games on a sheet before its trend is drawn
# How wide (in rem, so at any text size) a table folded under a chart needs its box to show
# its columns side by side; in a narrower box each row is a block (`app.css`, the query on
# `--room`). A table needing more than the widest is always shown as blocks.
ROOMS = (20, 30)
CELL_EDGES = 0.9  # rem: a cell's padding (0.4rem a side) and its border
RIVALS_DRAWN = 12  # other players in the head-to-head chart (the most met); the table has all


class PageDrawings:
    """The charts of the history's pages on the phones (`seats/phones/history_pages`, which
    asks for them as `Drawings`: the seats stage does not import this one)."""

    def game(self, story: GameStory) -> str:
        return game_figures(story)

    def player(self, history: PlayerHistory) -> str:
        return player_figures(history)


def game_figures(story: GameStory, level: int = 2) -> str:
    """A game's breakdown and story: two charts, their sentences, their tables."""
    heading = f"h{level}"
    return "".join([
        '<section class="figures" aria-label="How the game went">',
        f"<{heading}>Points per row</{heading}>",
        _figure(breakdown_chart(story.breakdown), breakdown_words(story.breakdown)),
        _folded("Points per row as tables", breakdown_tables(story.breakdown)),
        f"<{heading}>The game roll by roll</{heading}>",
        _figure(story_chart(story), story_words(story)),
        _folded("Scores after each roll as a table", story_table(story)),
        "</section>",
    ])  # fmt: skip


def _figure(chart: str, words: str) -> str:
    """A chart with its sentence as the caption (hidden from screen readers, which hear the
    same sentence as the chart's description). The chart is drawn to fit a phone at 200 % text
    (`svg.PICTURE`); its box would still scroll sideways on a narrower screen, and takes the
    focus so that a keyboard scrolls it too."""
    title = re.search(r'<title id="([^"]+)"', chart)
    named = f' aria-labelledby="{title[1]}"' if title else ' aria-label="chart"'
    box = f'<div class="chart-box" tabindex="0" role="region"{named}>'
    caption = f'<figcaption aria-hidden="true">{escape(words)}</figcaption>'
    return f"<figure>{box}{chart}</div>{caption}</figure>"


def _folded(summary: str, content: str) -> str:
    return f"<details><summary>{escape(summary)}</summary>{content}</details>"


def _table(caption: str, head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A table: a caption, column headings (none: `head` empty), and rows whose first cell
    heads the row. Each cell under a heading carries it (`data-label`): where the text is too
    large for the columns side by side, each row is a block and each cell shows its heading
    beside its figure (`app.css`, `_room_class`); the roles are written out because a browser may
    drop a table's own when its parts are laid out as blocks (WebKit does)."""
    header = "".join(f'<th scope="col" role="columnheader">{escape(cell)}</th>' for cell in head)
    thead = f'<thead role="rowgroup"><tr role="row">{header}</tr></thead>' if head else ""
    body = "".join(_row(head, row) for row in rows)
    table = (f'<table role="table"><caption>{escape(caption)}</caption>{thead}'
             f'<tbody role="rowgroup">{body}</tbody></table>')  # fmt: skip
    # Laid out as blocks at large text, a table fits the phone; on a screen narrower still it
    # scrolls in its own box (which takes the focus, so that a keyboard scrolls it too), never
    # the page.
    room = _room_class(head, rows)
    box = f'class="table-box{room}" tabindex="0" role="region" aria-label="{escape(caption)}"'
    return f"<div {box}>{table}</div>"


def _room_class(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """The class that tells `app.css` how wide a box the table's columns need side by side:
    each column as wide as its widest word (headings and the first column bold), in DejaVu
    Sans (the widest font a phone has), and its padding; none for the narrowest step."""
    need = 0.0
    for column, cells in enumerate(zip(head, *rows, strict=False)):
        words = [(word, column == 0 or row == 0)
                 for row, cell in enumerate(cells) for word in cell.split()]  # fmt: skip
        need += max((width_of(word, 1, bold) for word, bold in words), default=0) + CELL_EDGES
    room = next((room for room in ROOMS if need <= room), None)
    return "" if room == ROOMS[0] else f" room-{room or 'none'}"


def _row(head: Sequence[str], row: Sequence[str]) -> str:
    """A row of a table, each cell labelled with its column's heading (when there are)."""

    def label(column: int) -> str:
        return f' data-label="{escape(head[column])}"' if column < len(head) else ""

    first = f'<th scope="row" role="rowheader"{label(0)}>{escape(row[0])}</th>'
    rest = "".join(f'<td role="cell"{label(column)}>{escape(cell)}</td>'
                   for column, cell in enumerate(row[1:], 1))  # fmt: skip
    return f'<tr role="row">{first}{rest}</tr>'


def breakdown_tables(breakdown: Breakdown) -> str:
    """A small table per player (highest total first): each row's points and crosses, the
    bonus, the penalties, the total."""
    return "".join(_player_table(player, player.name in breakdown.winners)
                   for player in breakdown.ranked())  # fmt: skip


def _player_table(player: PlayerFigures, won: bool) -> str:
    rows = [
        (f"{row.colour} ({ROWS[row.colour][2]})", str(row.points),
         str(row.crosses) + (", locked" if row.locked else ""))
        for row in player.rows
    ]  # fmt: skip
    if player.bonus_points:
        rows.append(("bonus", str(player.bonus_points), ""))
    rows.append(("penalties", f"-{player.penalty_points}", str(player.penalties)))
    rows.append(("total", str(player.total), ""))
    caption = f"{player.name}{' (won)' if won else ''}: {player.total} points"
    return _table(caption, ("row", "points", "crosses"), rows)


def story_table(story: GameStory) -> str:
    """Every player's total after each roll."""
    rows = [(str(roll), *map(str, totals)) for roll, totals in enumerate(story.totals)]
    return _table("Totals after each roll (0: before the first)", ("roll", *story.names), rows)


# ---- a player ---------------------------------------------------------------------------------


def player_figures(history: PlayerHistory, level: int = 2) -> str:
    """A player's figures: the sheets they played (mean, best, trend), head to head, and a
    heat-map of each sheet."""
    heading = f"h{level}"
    parts = [
        f"<p>{escape(player_words(history))}</p>",
        f"<{heading}>Per sheet</{heading}>",
        sheets_table(history.sheets),
    ]
    for sheet in history.sheets:
        if sheet.games >= TREND_AT_LEAST:
            parts.append(_figure(trend_chart(sheet.totals, sheet.variant), trend_words(sheet)))
    if history.rivals:
        parts += [f"<{heading}>Head to head</{heading}>",
                  _figure(rivals_chart(history.name, history.rivals[:RIVALS_DRAWN]),
                          rivals_words(history)),
                  _folded("Head to head as a table", rivals_table(history.rivals))]  # fmt: skip
    for heat in history.heat:
        parts += [f"<{heading}>Where the crosses went: {escape(heat.variant)}</{heading}>",
                  _figure(heat_chart(heat), heat_words(heat)),
                  _folded(f"The {heat.variant} sheet as tables", heat_tables(heat))]  # fmt: skip
    return "".join(parts)


def player_words(history: PlayerHistory) -> str:
    rate = round(100 * history.win_rate)
    alike = [name for name in history.seated_as if name != history.name]
    also = f" (also seated as {', '.join(alike)})" if alike else ""
    return (f"{history.name}{also}: {plural(history.games, 'game')}, "
            f"{plural(history.wins, 'win')} ({rate} %).")  # fmt: skip


def sheets_table(sheets: Sequence[SheetFigures]) -> str:
    """A small table per sheet, its figures stacked (games, mean, best, trend; a line each):
    two columns fit a 360 px phone at 200 % text, where one table of five columns (sheet,
    games, mean, best, trend) had to be scrolled sideways."""
    tables = [_table(sheet.variant, (), [("games", str(sheet.games)),
                                         ("mean", f"{round(sheet.mean)}"),
                                         ("best", str(sheet.best)),
                                         ("trend", trend_in_words(sheet))])
              for sheet in sheets]  # fmt: skip
    return f'<div class="sheets">{"".join(tables)}</div>'


def trend_in_words(sheet: SheetFigures) -> str:
    """The trend in a few words: "up 6" on the games before, or not yet."""
    trend = sheet.trend()
    if trend is None:
        return "not yet"
    last, before = trend
    change = round(last - before)
    return "level" if change == 0 else f"{'up' if change > 0 else 'down'} {abs(change)}"


def trend_words(sheet: SheetFigures) -> str:
    trend = sheet.trend()
    if trend is None:
        return f"{sheet.variant}: mean {round(sheet.mean)}, best {sheet.best}."
    last, before = trend
    return (f"{sheet.variant}: the last 10 games {round(last)} points on average, the 10 before "
            f"{round(before)} ({trend_in_words(sheet)}).")  # fmt: skip


def rivals_words(history: PlayerHistory) -> str:
    """Head to head in sentences, of the players the chart shows (and how many it leaves to
    the table)."""
    words = [f"Against {r.name}: ahead {r.ahead}, behind {r.behind}, level {r.level}."
             for r in history.rivals[:RIVALS_DRAWN]]  # fmt: skip
    more = len(history.rivals) - RIVALS_DRAWN
    if more > 0:
        words.append(f"{plural(more, 'other player')} met less often: in the table.")
    return " ".join(words)


def rivals_table(rivals: Sequence[Rival]) -> str:
    rows = [(r.name, str(r.games), str(r.ahead), str(r.behind), str(r.level)) for r in rivals]
    return _table("Head to head", ("against", "games", "ahead", "behind", "level"), rows)


def heat_tables(heat: HeatMap) -> str:
    """A table per row of the sheet: each number, how often crossed, skipped, left open."""
    tables = []
    for row, colour in enumerate(ROWS):
        rows = [(str(number), str(c), str(s), str(o)) for number, (c, s, o)
                in zip(heat.numbers()[row], heat.cells[row], strict=False)]  # fmt: skip
        caption = f"{colour} ({ROWS[colour][2]}) row, {plural(heat.games, 'game')}"
        tables.append(_table(caption, ("number", "crossed", "skipped", "left open"), rows))
    return "".join(tables)
