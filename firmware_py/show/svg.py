"""The charts the phones show, drawn by the tower as SVG text: no library, no script, no
network, so they work on any phone and offline, and a test reads what they say.

Every chart is an `<svg role="img">` named by its `<title>` and described by its `<desc>` (a
sentence a screen reader reads); the page puts a table of the same figures beside it
(`show/figures_html.py`). Colour never says anything alone: a row's bar carries its letter
(R, Y, G, B) and its shape (triangle, circle, square, diamond, as the phone's patterns draw
them), a player's line its own dash and its name at its end, a lock the row's letter in a
box, a penalty a cross. Every colour is the phone page's own (`static/app.css`), text at
4.5:1 or more against what is behind it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from html import escape

from firmware_py.journal.figures import HeatMap, Rival
from firmware_py.show import text_width
from firmware_py.story import LOCK, Breakdown, GameStory, PlayerFigures
from firmware_py.words import plural

# A chart's picture is PICTURE units wide, and app.css draws it 15rem wide at most: at the usual
# text size a unit is a CSS px (a chart 240 px wide, its words FONT px); at 200 % text on a
# 360 px phone, 334 px inside the page's margins and the chart's frame, the chart is as wide as
# the page and its smallest words (FONT, 15 units: 20.9 px) two thirds of the page's text size
# or more (tests/system/test_history_browser.py measures both). So
# nothing of a chart is ever out of sight to the side: it is drawn narrow, its parts stacked.
# What it draws keeps MARGIN units from the frame the page puts around it.
MARGIN = 6
PICTURE = 240
WIDTH = PICTURE - 2 * MARGIN  # the width a chart draws in
FONT = 15
INK, PAPER, GRID, MUTED = "#1b1b1b", "#ffffff", "#c8c8c8", "#4a4a4a"
ROWS = {  # a row's colour, the dark ink for its text, its letter and its shape
    "red": ("#c62832", "#9e1620", "R", "triangle"),
    "yellow": ("#f2c400", "#6b5200", "Y", "circle"),
    "green": ("#247a37", "#1d6b2f", "G", "square"),
    "blue": ("#1f5fbf", "#1a4f9e", "B", "diamond"),
}
PLAYER_INKS = ("#1b1b1b", "#8a4b00", "#5b3b8c", "#00707a", "#a0206e")
DASHES = ("", "7 4", "2 3", "9 3 2 3", "4 2")  # a player's line: its own dash, not only colour
_ids = itertools.count(1)
STEPS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)  # round steps between grid lines
Scale = Callable[[float], float]  # a figure (a roll, a score) to where it is drawn


# ---- pieces -----------------------------------------------------------------------------------


def svg(width: float, height: float, title: str, desc: str, body: Iterable[str],
        kind: str = "chart") -> str:  # fmt: skip
    """A chart: `body`, drawn in `width` x `height` units, in a picture MARGIN wider on every
    side, named and described."""
    key = f"{kind}-{next(_ids)}"
    box = f"{-MARGIN} {-MARGIN} {_n(width + 2 * MARGIN)} {_n(height + 2 * MARGIN)}"
    return (
        f'<svg class="chart {kind}" viewBox="{box}" role="img" '
        f'aria-labelledby="{key}-t {key}-d" xmlns="http://www.w3.org/2000/svg" '
        f'font-family="DejaVu Sans, Arial, sans-serif" font-size="{FONT}">'
        f'<title id="{key}-t">{escape(title)}</title><desc id="{key}-d">{escape(desc)}</desc>'
        f"{''.join(body)}</svg>"
    )


def text(x: float, y: float, words: str, *, anchor: str = "start", fill: str = INK,
         size: int = FONT, bold: bool = False) -> str:  # fmt: skip
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{_n(x)}" y="{_n(y)}" text-anchor="{anchor}" fill="{fill}" '
            f'font-size="{size}"{weight}>{escape(words)}</text>')  # fmt: skip


def rect(x: float, y: float, width: float, height: float, fill: str, **more: str) -> str:
    extra = "".join(f' {key.replace("_", "-")}="{value}"' for key, value in more.items())
    return (f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(max(width, 0))}" '
            f'height="{_n(max(height, 0))}" fill="{fill}"{extra}/>')  # fmt: skip


def shape(kind: str, x: float, y: float, size: float, fill: str) -> str:
    """A row's shape centred at (x, y): the phone's patterns (triangle, circle, square,
    diamond), so that a row reads without its colour."""
    half = size / 2
    if kind == "circle":
        return f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(half)}" fill="{fill}"/>'
    if kind == "square":
        return rect(x - half * 0.85, y - half * 0.85, size * 0.85, size * 0.85, fill)
    corners = {
        "triangle": [(x, y - half), (x + half, y + half), (x - half, y + half)],
        "diamond": [(x, y - half), (x + half, y), (x, y + half), (x - half, y)],
    }[kind]
    return f'<polygon points="{" ".join(f"{_n(a)},{_n(b)}" for a, b in corners)}" fill="{fill}"/>'


def row_label(colour: str, x: float, y: float) -> str:
    """A row's letter and shape, its name for the eye whatever colours it sees."""
    _, dark, letter, kind = ROWS[colour]
    return shape(kind, x + 5, y - 4, 9, dark) + text(x + 13, y, letter, fill=dark, bold=True)


def width_of(words: str, size: float = FONT, bold: bool = False) -> float:
    """How wide `words` are drawn at `size`, in the chart's units."""
    return text_width.width_of(words, size, bold)


def fitted(words: str, room: float, size: float = FONT, bold: bool = False) -> str:
    """`words`, cut with "…" to fit `room` units."""
    return text_width.fitted(words, room, size, bold)


def _n(value: float) -> str:
    """A number as SVG writes it: whole where it is, else to one decimal."""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


# ---- a game's breakdown -----------------------------------------------------------------------

BAR_ROW = 34  # units from one row to the next: its words, its bar under them
BAR = 10  # a bar's height
LABEL = 32  # room for a row's shape and letter before its words and bar
LINE = 18  # units from one line of words to the next


def breakdown_chart(breakdown: Breakdown) -> str:
    """Each player (highest total first): their name and total, a bar per row (its points and
    crosses written above it, and a boxed letter where they crossed its lock), and their
    penalties and bonus points. Bars share one scale, so rows compare across players; their
    words above them, not beside, leave them the chart's whole width on a narrow phone."""
    scale = (WIDTH - LABEL) / breakdown.most_points()
    body, y = [], 0.0
    for player in breakdown.ranked():
        drawn, y = _player_bars(player, y, scale, player.name in breakdown.winners)
        body += drawn
    title = "Each player's points, row by row"
    return svg(WIDTH, y + 4, title, breakdown_words(breakdown), body, "breakdown")


def _player_bars(player: PlayerFigures, top: float, scale: float, won: bool
                 ) -> tuple[list[str], float]:  # fmt: skip
    """A player's name and total (on a line of their own each if they do not fit on one);
    each row's letter and shape, its points and crosses, and its bar under them; then the
    penalties and the bonus, a line each."""
    total = f"{' ★ won' if won else ''}: {player.total} points"
    if width_of(player.name + total, bold=True) <= WIDTH:
        heading = [player.name + total]
    else:  # a long name: whole on its line (cut only past the chart's width), the total under
        heading = [fitted(player.name, WIDTH, bold=True), total.removeprefix(": ").lstrip()]
    body = [text(0, top + 16 + LINE * line, words, bold=True)
            for line, words in enumerate(heading)]  # fmt: skip
    y = top + 4 + LINE * len(heading)
    for row in player.rows:
        colour, dark, _, _ = ROWS[row.colour]
        words = f"{row.points}, {plural(row.crosses, 'cross', 'crosses')}"
        body += [row_label(row.colour, 0, y + 16), text(LABEL, y + 16, words, fill=dark)]
        if row.locked:
            body.append(_lock_box(LABEL + width_of(words) + 14, y + 10.5, row.colour))
        body.append(rect(LABEL, y + 21, row.points * scale, BAR, colour, stroke=dark))
        y += BAR_ROW
    extras = [f"penalties {player.penalties} (-{player.penalty_points})"]
    if player.bonus_points:
        extras.append(f"bonus +{player.bonus_points}")
    for words in extras:
        body.append(text(LABEL, y + 14, words, fill=MUTED))
        y += LINE + 2
    return body, y + 10


def breakdown_words(breakdown: Breakdown) -> str:
    """The breakdown in sentences: who won with how much, and each player's rows."""
    ranked = breakdown.ranked()
    winners = " and ".join(breakdown.winners) or ranked[0].name
    lines = [f"{winners} won with {ranked[0].total} points."]
    for player in ranked:
        rows = ", ".join(
            f"{row.colour} {row.points} ({plural(row.crosses, 'cross', 'crosses')}"
            f"{', locked' if row.locked else ''})"
            for row in player.rows
        )
        bonus = f", bonus {player.bonus_points}" if player.bonus_points else ""
        cost = f" (-{player.penalty_points})" if player.penalty_points else ""
        penalties = (
            plural(player.penalties, "penalty", "penalties") if player.penalties else ("no penalty")
        )
        lines.append(f"{player.name} {player.total}: {rows}{bonus}, {penalties}{cost}.")
    for colour, who in breakdown.locks:
        lines.append(f"{colour.capitalize()} locked by {' and '.join(who) or 'nobody'}.")
    return " ".join(lines)


# ---- a game's story ---------------------------------------------------------------------------

PLOT_LEFT, PLOT_TOP, PLOT_HEIGHT = 36, 10, 150
PLOT_RIGHT = WIDTH - 9  # room for half a lock's box at the last roll
KEY_ROW = 21  # units from one line of the key under the chart to the next


def story_chart(story: GameStory) -> str:
    """Every player's total after each roll, a line each (its own dash); a lock drawn as the
    row's letter in a box of its colour, a penalty as a cross, on the player's line at the roll
    it happened. Under it the key: each player's dash, name and total, highest first, then
    what a box and a cross mean (names under the chart, not at the lines' ends, leave the
    lines the chart's width)."""
    low, high = min(0, story.lowest()), story.highest()
    rolls = max(1, story.rolls)

    def x(roll: float) -> float:
        return PLOT_LEFT + (PLOT_RIGHT - PLOT_LEFT) * roll / rolls

    def y(points: float) -> float:
        return PLOT_TOP + PLOT_HEIGHT * (high - points) / max(1, high - low)

    body = _axes(low, high, rolls, x, y)
    for seat, name in enumerate(story.names):
        line = story.line_of(name)
        points = " ".join(f"{_n(x(roll))},{_n(y(total))}" for roll, total in enumerate(line))
        dash = f' stroke-dasharray="{DASHES[seat]}"' if DASHES[seat] else ""
        body.append(f'<polyline points="{points}" fill="none" stroke="{PLAYER_INKS[seat]}" '
                    f'stroke-width="2.5"{dash}/>')  # fmt: skip
    body += _story_marks(story, x, y)
    key_y: float = PLOT_TOP + PLOT_HEIGHT + 36
    players, key_y = _players_key(story, key_y)
    body += players + _story_legend(key_y)
    height = key_y + KEY_ROW + 8
    return svg(WIDTH, height, "The game roll by roll", story_words(story), body, "story")


def _axes(low: int, high: int, rolls: int, x: Scale, y: Scale) -> list[str]:
    """Grid lines at round scores, the zero line darker, and the rolls counted below."""
    body = []
    step = _step(high - low)
    for points in range(low - low % step, high + 1, step):
        if points < low:
            continue
        colour = INK if points == 0 else GRID
        body.append(f'<line x1="{PLOT_LEFT}" x2="{PLOT_RIGHT}" y1="{_n(y(points))}" '
                    f'y2="{_n(y(points))}" stroke="{colour}" stroke-width="1"/>')  # fmt: skip
        body.append(text(PLOT_LEFT - 4, y(points) + 5, str(points), anchor="end", fill=MUTED))
    bottom = PLOT_TOP + PLOT_HEIGHT
    for roll in range(0, rolls + 1, _step(rolls, 4)):
        body.append(text(x(roll), bottom + 17, str(roll), anchor="middle", fill=MUTED))
    body.append(text((PLOT_LEFT + PLOT_RIGHT) / 2, bottom + 33, "rolls", anchor="middle",
                     fill=MUTED))  # fmt: skip
    return body


def _step(span: int, lines: int = 5) -> int:
    """A round step that cuts `span` into about `lines` parts (1, 2, 5, 10, 20, 50 ...)."""
    for step in STEPS:
        if span / step <= lines:
            return step
    return max(1, span)


def _story_marks(story: GameStory, x: Scale, y: Scale) -> list[str]:
    body = []
    for mark in story.marks:
        seat = story.names.index(mark.player)
        cx, cy = x(mark.roll), y(story.totals[mark.roll][seat])
        if mark.kind == LOCK:
            body.append(_lock_box(cx, cy, mark.colour))
        else:
            body.append(f'<path d="M{_n(cx - 5)},{_n(cy - 5)}L{_n(cx + 5)},{_n(cy + 5)}'
                        f'M{_n(cx + 5)},{_n(cy - 5)}L{_n(cx - 5)},{_n(cy + 5)}" '
                        f'stroke="{INK}" stroke-width="2.5"/>')  # fmt: skip
    return body


LOCK_BOX = 18  # a lock's box, its letter FONT units tall


def _lock_box(cx: float, cy: float, colour: str) -> str:
    """A lock: the row's letter in a box of its ink, centred at (cx, cy)."""
    _, dark, letter, _ = ROWS[colour]
    half = LOCK_BOX / 2
    return rect(cx - half, cy - half, LOCK_BOX, LOCK_BOX, PAPER, stroke=dark,
                stroke_width="2") + text(cx, cy + 5.5, letter, anchor="middle", fill=dark,
                                         bold=True)  # fmt: skip


def _players_key(story: GameStory, top: float) -> tuple[list[str], float]:
    """Each player's line as a short sample of its dash, then their name and final total,
    highest first, a line each; and where the key's next line goes."""
    final = story.totals[-1]
    body = []
    for seat in sorted(range(len(story.names)), key=lambda seat: -final[seat]):
        dash = f' stroke-dasharray="{DASHES[seat]}"' if DASHES[seat] else ""
        ink = PLAYER_INKS[seat]
        body.append(f'<line x1="0" x2="26" y1="{_n(top - 5)}" y2="{_n(top - 5)}" '
                    f'stroke="{ink}" stroke-width="2.5"{dash}/>')  # fmt: skip
        total = f" {final[seat]}"
        name = fitted(story.names[seat], WIDTH - 32 - width_of(total))
        body.append(text(32, top, name + total, fill=ink))
        top += KEY_ROW
    return body, top


def _story_legend(y: float) -> list[str]:
    """What a box and a cross on a line mean, a line each."""
    below = y + KEY_ROW
    return [
        _lock_box(9, y - 5, "red"),
        text(24, y, "a row locked: its letter", fill=MUTED),
        f'<path d="M4,{_n(below - 10)}L14,{_n(below)}M14,{_n(below - 10)}L4,{_n(below)}" '
        f'stroke="{INK}" stroke-width="2.5"/>',
        text(24, below, "a penalty", fill=MUTED),
    ]


def story_words(story: GameStory) -> str:
    """The story in sentences: who led when, the locks and penalties, the end."""
    lines = []
    leaders = [_leader(story, roll) for roll in range(1, story.rolls + 1)]
    changes = [roll for roll in range(1, len(leaders)) if leaders[roll] != leaders[roll - 1]]
    if leaders:
        last_change = changes[-1] + 1 if changes else 1
        lead = leaders[-1] or "nobody alone"
        lines.append(f"{story.rolls} rolls. The lead changed {plural(len(changes), 'time')}; "
                     f"{lead} led from roll {last_change} on.")  # fmt: skip
    for mark in story.marks:
        what = f"locked {mark.colour}" if mark.kind == LOCK else "took a penalty"
        lines.append(f"Roll {mark.roll}: {mark.player} {what}.")
    final = ", ".join(f"{name} {total}" for name, total in
                      zip(story.names, story.totals[-1], strict=True))  # fmt: skip
    lines.append(f"At the end: {final}.")
    return " ".join(lines)


def _leader(story: GameStory, roll: int) -> str:
    """Who alone had the most points after `roll` ("" when several shared it)."""
    totals = story.totals[roll]
    best = max(totals)
    leaders = [name for name, total in zip(story.names, totals, strict=True) if total == best]
    return leaders[0] if len(leaders) == 1 else ""


# ---- a player's history -----------------------------------------------------------------------

RIVAL_ROW = 72  # units from one rival's name to the next: the name, then two bars under it
BAR_START = 58  # units: where the bars start, after the words "ahead" and "behind"
HEAT_LINE = 70  # units from one line of a heat-map's row to the next (a row may wrap)
HEAT_GAP = 10  # ... and between two rows of the sheet
# A heat-map's cell at its narrowest: "100" under it at FONT (3 digits of 0.636 em) and 2
# units to spare, so "100100" never runs together
HEAT_CELL = 3 * 0.64 * FONT + 2


def trend_chart(totals: Sequence[int], variant: str) -> str:
    """A player's totals on one sheet, oldest to newest (the last 20 at most), as dots on a
    line, with their mean as a dashed line."""
    shown = list(totals[-20:])
    low, high = min(0, *shown), max(1, *shown)
    height, left, right = 100, 36, WIDTH - 8
    mean = sum(shown) / len(shown)

    def x(index: float) -> float:
        return left + (right - left) * index / max(1, len(shown) - 1)

    def y(points: float) -> float:
        return 8 + (height - 16) * (high - points) / max(1, high - low)

    body = [text(left - 4, y(high) + 5, str(high), anchor="end", fill=MUTED),
            text(left - 4, y(low) + 5, str(low), anchor="end", fill=MUTED),
            f'<line x1="{left}" x2="{right}" y1="{_n(y(mean))}" y2="{_n(y(mean))}" '
            f'stroke="{MUTED}" stroke-dasharray="4 3"/>']  # fmt: skip
    points = " ".join(f"{_n(x(i))},{_n(y(total))}" for i, total in enumerate(shown))
    body.append(f'<polyline points="{points}" fill="none" stroke="{INK}" stroke-width="2"/>')
    body += [f'<circle cx="{_n(x(i))}" cy="{_n(y(t))}" r="3" fill="{INK}"/>'
             for i, t in enumerate(shown)]  # fmt: skip
    words = (f"The last {plural(len(shown), 'game')} on {variant}, oldest first: "
             f"{', '.join(map(str, shown))}; mean {round(mean)}.")  # fmt: skip
    return svg(WIDTH, height, f"Trend on {variant}", words, body, "trend")


def rivals_chart(name: str, rivals: Sequence[Rival]) -> str:
    """Head to head: for each other player, their name on a line of its own,
    then the games `name` finished ahead of them and behind them as two bars from the left,
    each with its word and its count; ties are in the words."""
    most = max([1, *(max(r.ahead, r.behind) for r in rivals)])
    unit = (WIDTH - BAR_START - 30) / most
    body, y = [], 0
    for rival in rivals:
        body.append(text(0, y + 16, fitted(rival.name, WIDTH, bold=True), bold=True))
        for line, (word, games, fill) in enumerate(
            (("ahead", rival.ahead, "#1d6b2f"), ("behind", rival.behind, "#9e1620"))
        ):
            top = y + 22 + line * 22
            body += [
                text(0, top + 15, word, fill=MUTED),
                rect(BAR_START, top + 2, games * unit, 17, fill),
                text(BAR_START + games * unit + 4, top + 15, str(games), bold=True),
            ]
        y += RIVAL_ROW
    words = " ".join(
        f"Against {r.name}: {plural(r.games, 'game')}, {name} ahead {r.ahead}, behind "
        f"{r.behind}, level {r.level}."
        for r in rivals
    )
    return svg(WIDTH, y, f"{name} head to head", words, body, "rivals")


def heat_layout(count: int) -> tuple[int, float]:
    """How a heat-map lays out rows of `count` numbers: how many cells a line (a row wraps
    onto as few lines as fit, its cells spread evenly: 11 numbers as 6 and 5, Longo's 15 as 5,
    5 and 5, as the phone's sheet wraps) and a cell's width in units."""
    most = max(1, int((WIDTH - LABEL) // HEAT_CELL))
    lines = -(-count // most)
    per_line = -(-count // lines)
    return per_line, (WIDTH - LABEL) / per_line


def heat_chart(heat: HeatMap) -> str:
    """The sheet as a grid, each cell a small bar: how often it was crossed (the row's colour,
    from the bottom), skipped (hatched grey), left open (white, at the top); its number above,
    the share crossed below. A row wraps onto more lines where its cells would be too narrow
    for their figures (`heat_layout`); its letter and shape stand before its first line."""
    numbers = heat.numbers()
    per_line, cell = heat_layout(max(len(row) for row in numbers))
    hatch = f"skipped-{next(_ids)}"  # an id of its own: a page may show several sheets
    pattern = (f'<defs><pattern id="{hatch}" width="5" height="5" patternUnits="userSpaceOnUse" '
               'patternTransform="rotate(45)"><rect width="5" height="5" fill="#ffffff"/>'
               f'<rect width="2.5" height="5" fill="{MUTED}"/></pattern></defs>')  # fmt: skip
    body, y = [pattern], 0.0
    for row, colour in enumerate(ROWS):
        body += _heat_row(heat, row, colour, y, (per_line, cell), f"url(#{hatch})")
        y += HEAT_LINE * -(-len(numbers[row]) // per_line) + HEAT_GAP
    legend, height = _heat_legend(y + 12, f"url(#{hatch})")
    words = heat_words(heat)
    title = f"Where the crosses went on {heat.variant}"
    return svg(WIDTH, height, title, words, body + legend, "heat")


def _heat_legend(y: float, hatched: str) -> tuple[list[str], float]:
    """What a cell's parts mean, a line each: crossed (solid), skipped (hatched), left open
    (white), and the number under it; and the chart's height below them."""
    body = []
    for fill, words in ((ROWS["blue"][0], "crossed"), (hatched, "skipped"),
                        (PAPER, "left open")):  # fmt: skip
        body.append(rect(0, y - 12, 14, 14, fill, stroke=INK))
        body.append(text(22, y, words, fill=INK))
        y += KEY_ROW
    body.append(text(0, y, "under each cell: % of", fill=INK))
    body.append(text(0, y + KEY_ROW, "the games it was crossed", fill=INK))
    return body, y + KEY_ROW + 8


def _heat_row(heat: HeatMap, row: int, colour: str, top: float, layout: tuple[int, float],
              hatched: str) -> list[str]:  # fmt: skip
    """A row of the sheet: its letter and shape, then its cells, `layout` (cells a line, a
    cell's width) of them a line."""
    fill, dark, _, _ = ROWS[colour]
    per_line, cell = layout
    body = [row_label(colour, 0, top + 40)]
    games = max(1, heat.games)
    bar = 30
    for position, number in enumerate(heat.numbers()[row]):
        crossed, skipped, _ = heat.cells[row][position]
        x = LABEL + position % per_line * cell
        y = top + position // per_line * HEAT_LINE
        body.append(text(x + cell / 2, y + 14, str(number), anchor="middle", fill=dark,
                         bold=True))  # fmt: skip
        body.append(rect(x + 2, y + 18, cell - 4, bar, PAPER, stroke=dark))
        done = bar * crossed / games
        body.append(rect(x + 2, y + 18 + bar - done, cell - 4, done, fill))
        gone = bar * skipped / games
        body.append(rect(x + 2, y + 18 + bar - done - gone, cell - 4, gone, hatched))
        body.append(text(x + cell / 2, y + 64, f"{round(100 * crossed / games)}",
                         anchor="middle", fill=INK))  # fmt: skip
    return body


def heat_words(heat: HeatMap) -> str:
    """The heat-map in sentences: per row, the numbers crossed most and skipped most."""
    lines = [f"Over {plural(heat.games, 'game')} on {heat.variant}."]
    for row, colour in enumerate(ROWS):
        cells = list(zip(heat.numbers()[row], heat.cells[row], strict=False))
        most = max(cells, key=lambda item: item[1][0])
        skipped = max(cells, key=lambda item: item[1][1])
        crossed = (f"{most[0]} crossed most ({plural(most[1][0], 'time')})" if most[1][0]
                   else "nothing crossed")  # fmt: skip
        gone = (f"{skipped[0]} skipped most ({plural(skipped[1][1], 'time')})" if skipped[1][1]
                else "nothing skipped")  # fmt: skip
        lines.append(f"{colour.capitalize()}: {crossed}, {gone}.")
    return " ".join(lines)
