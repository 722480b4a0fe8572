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
from firmware_py.story import LOCK, Breakdown, GameStory, PlayerFigures
from firmware_py.words import plural

WIDTH = 360  # the charts' own units: a 360 px phone draws them one to one
FONT = 13
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
    """A chart: `body` in a picture `width` x `height` units, named and described."""
    key = f"{kind}-{next(_ids)}"
    return (
        f'<svg class="chart {kind}" viewBox="0 0 {_n(width)} {_n(height)}" role="img" '
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


def _n(value: float) -> str:
    """A number as SVG writes it: whole where it is, else to one decimal."""
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


# ---- a game's breakdown -----------------------------------------------------------------------

BAR_ROW = 15  # units from one row's bar to the next
LABEL = 34  # room for a row's shape and letter before its bar
NUMBERS = 104  # room after the bars for "78, 12 crosses"


def breakdown_chart(breakdown: Breakdown) -> str:
    """Each player (highest total first): their name and total, a bar per row (its points;
    the crosses and points written after it, a boxed L where they crossed its lock), and their
    penalties and bonus points. Bars share one scale, so rows compare across players."""
    scale = (WIDTH - LABEL - NUMBERS) / breakdown.most_points()
    body, y = [], 0.0
    for player in breakdown.ranked():
        drawn, y = _player_bars(player, y, scale, player.name in breakdown.winners)
        body += drawn
    title = "Each player's points, row by row"
    return svg(WIDTH, y + 4, title, breakdown_words(breakdown), body, "breakdown")


def _player_bars(player: PlayerFigures, top: float, scale: float, won: bool
                 ) -> tuple[list[str], float]:  # fmt: skip
    star = " ★ won" if won else ""
    # the total beside the name, not at the far side: in large text the chart scrolls sideways
    body = [text(0, top + 15, f"{player.name}{star}: {player.total} points", bold=True)]
    y = top + 22
    for row in player.rows:
        colour, dark, _, _ = ROWS[row.colour]
        body.append(row_label(row.colour, 0, y + 10))
        body.append(rect(LABEL, y, row.points * scale, 11, colour, stroke=dark))
        words = f"{row.points}, {plural(row.crosses, 'cross', 'crosses')}"
        end = LABEL + row.points * scale
        if row.locked:
            body.append(_lock_box(end + 11, y + 5.5, row.colour))
            end += 18
        body.append(text(end + 4, y + 10, words, fill=dark, size=12))
        y += BAR_ROW
    extras = [f"penalties {player.penalties} (-{player.penalty_points})"]
    if player.bonus_points:
        extras.append(f"bonus +{player.bonus_points}")
    body.append(text(LABEL, y + 10, ", ".join(extras), fill=MUTED, size=12))
    return body, y + BAR_ROW + 4


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

PLOT_LEFT, PLOT_TOP, PLOT_HEIGHT = 34, 10, 170
PLOT_RIGHT = WIDTH - 78  # room for the names at the lines' ends


def story_chart(story: GameStory) -> str:
    """Every player's total after each roll, a line each (its own dash, its name at its end);
    a lock drawn as the row's letter in a box of its colour, a penalty as a cross, on the
    player's line at the roll it happened."""
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
    body += _end_labels(story, y)
    legend_y = PLOT_TOP + PLOT_HEIGHT + 36
    body += _story_legend(legend_y)
    return svg(WIDTH, legend_y + 8, "The game roll by roll", story_words(story), body, "story")


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
        body.append(text(PLOT_LEFT - 4, y(points) + 4, str(points), anchor="end", fill=MUTED,
                         size=12))  # fmt: skip
    bottom = PLOT_TOP + PLOT_HEIGHT
    for roll in range(0, rolls + 1, _step(rolls, 6)):
        body.append(text(x(roll), bottom + 15, str(roll), anchor="middle", fill=MUTED, size=12))
    body.append(text((PLOT_LEFT + PLOT_RIGHT) / 2, bottom + 28, "rolls", anchor="middle",
                     fill=MUTED, size=12))  # fmt: skip
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


def _lock_box(cx: float, cy: float, colour: str) -> str:
    """A lock: the row's letter in a box of its ink, centred at (cx, cy)."""
    _, dark, letter, _ = ROWS[colour]
    return rect(cx - 7, cy - 7, 14, 14, PAPER, stroke=dark, stroke_width="2") + text(
        cx, cy + 4.5, letter, anchor="middle", fill=dark, size=12, bold=True
    )


def _end_labels(story: GameStory, y: Scale) -> list[str]:
    """Each line's name and total at its end, nudged apart where lines end close together."""
    ends = sorted((y(story.totals[-1][seat]), seat) for seat in range(len(story.names)))
    placed: list[float] = []
    for wanted, _ in ends:
        placed.append(max(wanted, placed[-1] + FONT + 1) if placed else wanted)
    body = []
    for (_, seat), at in zip(ends, placed, strict=True):
        name, total = story.names[seat], story.totals[-1][seat]
        dash = f' stroke-dasharray="{DASHES[seat]}"' if DASHES[seat] else ""
        ink = PLAYER_INKS[seat]
        body.append(f'<line x1="{PLOT_RIGHT + 3}" x2="{PLOT_RIGHT + 15}" y1="{_n(at)}" '
                    f'y2="{_n(at)}" stroke="{ink}" stroke-width="2.5"{dash}/>')  # fmt: skip
        body.append(text(PLOT_RIGHT + 18, at + 4, f"{_short(name)} {total}",
                         fill=PLAYER_INKS[seat], size=12))  # fmt: skip
    return body


def _short(name: str, room: int = 9) -> str:
    return name if len(name) <= room else name[: room - 1] + "…"


def _story_legend(y: float) -> list[str]:
    return [
        _lock_box(7, y - 4, "red"),
        text(18, y, "a row locked (its letter)", fill=MUTED, size=12),
        f'<path d="M206,{_n(y - 9)}L216,{_n(y + 1)}M216,{_n(y - 9)}L206,{_n(y + 1)}" '
        f'stroke="{INK}" stroke-width="2.5"/>',
        text(221, y, "a penalty", fill=MUTED, size=12),
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
# The head-to-head chart's width in its units; app.css draws it 15rem wide at most, so at 200 %
# text on a 360 px phone it is the page's width and its words (RIVAL_FONT) are two thirds of
# the page's text size or more
RIVALS_WIDTH = 240
RIVAL_FONT = 15
BAR_START = 58  # units: where the bars start, after the words "ahead" and "behind"
HEAT_ROW = 74  # units from one row of the sheet to the next in the heat-map
DIGIT, BOLD_DIGIT = 0.64, 0.7  # a digit's width in DejaVu Sans (0.636 em), bold (0.696 em)


def trend_chart(totals: Sequence[int], variant: str) -> str:
    """A player's totals on one sheet, oldest to newest (the last 20 at most), as dots on a
    line, with their mean as a dashed line."""
    shown = list(totals[-20:])
    low, high = min(0, *shown), max(1, *shown)
    height, left, right = 90, 34, WIDTH - 8
    mean = sum(shown) / len(shown)

    def x(index: float) -> float:
        return left + (right - left) * index / max(1, len(shown) - 1)

    def y(points: float) -> float:
        return 8 + (height - 16) * (high - points) / max(1, high - low)

    body = [text(left - 4, y(high) + 4, str(high), anchor="end", fill=MUTED, size=12),
            text(left - 4, y(low) + 4, str(low), anchor="end", fill=MUTED, size=12),
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
    """Head to head, drawn narrow so it fits a 360 px phone at 200 % text with no scrolling
    (`svg.chart.rivals` in app.css): for each other player, their name on a line of its own,
    then the games `name` finished ahead of them and behind them as two bars from the left,
    each with its word and its count; ties are in the words."""
    most = max([1, *(max(r.ahead, r.behind) for r in rivals)])
    unit = (RIVALS_WIDTH - BAR_START - 30) / most
    body, y = [], 0
    for rival in rivals:
        body.append(text(0, y + 16, rival.name, size=RIVAL_FONT, bold=True))
        for line, (word, games, fill) in enumerate(
            (("ahead", rival.ahead, "#1d6b2f"), ("behind", rival.behind, "#9e1620"))
        ):
            top = y + 22 + line * 22
            body += [text(0, top + 15, word, fill=MUTED, size=RIVAL_FONT),
                     rect(BAR_START, top + 2, games * unit, 17, fill),
                     text(BAR_START + games * unit + 4, top + 15, str(games), size=RIVAL_FONT,
                          bold=True)]  # fmt: skip
        y += RIVAL_ROW
    words = " ".join(
        f"Against {r.name}: {plural(r.games, 'game')}, {name} ahead {r.ahead}, behind "
        f"{r.behind}, level {r.level}."
        for r in rivals
    )
    return svg(RIVALS_WIDTH, y, f"{name} head to head", words, body, "rivals")


def heat_chart(heat: HeatMap) -> str:
    """The sheet as a grid, each cell a small bar: how often it was crossed (the row's colour,
    from the bottom), skipped (hatched grey), left open (white, at the top); its number above,
    the share crossed below."""
    numbers = heat.numbers()
    cells = max(len(row) for row in numbers)
    cell = (WIDTH - LABEL) / cells
    hatch = f"skipped-{next(_ids)}"  # an id of its own: a page may show several sheets
    pattern = (f'<defs><pattern id="{hatch}" width="5" height="5" patternUnits="userSpaceOnUse" '
               'patternTransform="rotate(45)"><rect width="5" height="5" fill="#ffffff"/>'
               f'<rect width="2.5" height="5" fill="{MUTED}"/></pattern></defs>')  # fmt: skip
    body, y = [pattern], 0.0
    for row, colour in enumerate(ROWS):
        body += _heat_row(heat, numbers[row], row, colour, y, cell, f"url(#{hatch})")
        y += HEAT_ROW
    body += _heat_legend(y + 14, f"url(#{hatch})")
    words = heat_words(heat)
    return svg(WIDTH, y + 40, f"Where the crosses went on {heat.variant}", words, body, "heat")


def _heat_legend(y: float, hatched: str) -> list[str]:
    """What a cell's parts mean: crossed (solid), skipped (hatched), left open (white); and,
    on a line of its own, the number under it."""
    body = []
    x = 0.0
    for fill, words in ((ROWS["blue"][0], "crossed"), (hatched, "skipped"),
                        (PAPER, "left open")):  # fmt: skip
        body.append(rect(x, y - 11, 13, 13, fill, stroke=INK))
        body.append(text(x + 18, y, words, fill=INK))
        x += 34 + 8 * len(words)
    body.append(text(0, y + 22, "under each cell: % of games it was crossed", fill=INK))
    return body


def _heat_row(heat: HeatMap, numbers: Sequence[int], row: int, colour: str, top: float,
              cell: float, hatched: str) -> list[str]:  # fmt: skip
    fill, dark, _, _ = ROWS[colour]
    body = [row_label(colour, 0, top + 38)]
    games = max(1, heat.games)
    # narrower cells (Longo's 15 numbers a row), smaller figures: "10 11 12", not "101112"
    number_size = min(15, int((cell - 3) / (2 * BOLD_DIGIT)))  # two digits, 3 units apart
    share_size = min(FONT, int((cell - 2) / (3 * DIGIT)))  # "100", 2 units apart
    for position, number in enumerate(numbers):
        crossed, skipped, _ = heat.cells[row][position]
        x, bar = LABEL + position * cell, 34
        body.append(text(x + cell / 2, top + 14, str(number), anchor="middle", fill=dark,
                         size=number_size, bold=True))  # fmt: skip
        body.append(rect(x + 2, top + 18, cell - 4, bar, PAPER, stroke=dark))
        done = bar * crossed / games
        body.append(rect(x + 2, top + 18 + bar - done, cell - 4, done, fill))
        gone = bar * skipped / games
        body.append(rect(x + 2, top + 18 + bar - done - gone, cell - 4, gone, hatched))
        body.append(text(x + cell / 2, top + 67, f"{round(100 * crossed / games)}",
                         anchor="middle", fill=INK, size=share_size))  # fmt: skip
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
