"""A player's head-to-head chart, checked by what it says: each rival's name, and the games
ahead of them and behind them as two labelled bars of lengths in proportion. Every chart is
drawn narrow enough (svg.PICTURE units, at most 15rem on the page) to fit a 360 px phone at
200 % text: each of its words, measured in the font the page draws, lies inside its picture.
A player's means read as a person says them (0, not -0)."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

import pytest
from PIL import ImageFont
from support.paths import GOLDEN

from firmware_py.app import history_text
from firmware_py.journal.figures import HeatMap, PlayerHistory, Rival, SheetFigures
from firmware_py.journal.lines import parse_line
from firmware_py.show import figures_html, svg
from firmware_py.story import story_of
from sheets import load_sheet

SVG = "{http://www.w3.org/2000/svg}"
KNOWN = GOLDEN / "story-game.jsonl"  # Ann 29, Ben 47, Cleo 43: Ben won
DEJAVU = "/usr/share/fonts/truetype/dejavu"  # Debian's fonts-dejavu-core: what the page draws


def test_head_to_head_names_each_rival_with_bars_for_ahead_and_behind_in_proportion():
    rivals = [Rival("Ben", games=4, ahead=1, behind=3), Rival("Ann", games=2, ahead=2)]
    chart = ElementTree.fromstring(svg.rivals_chart("Cleo", rivals))
    words = [t.text for t in chart.iter(f"{SVG}text")]
    assert words == ["Ben", "ahead", "1", "behind", "3", "Ann", "ahead", "2", "behind", "0"]
    widths = [float(r.get("width")) for r in chart.iter(f"{SVG}rect")]
    assert widths[1:] == pytest.approx([3 * widths[0], 2 * widths[0], 0], abs=0.2)  # units
    assert chart.get("viewBox").split()[2] == str(svg.PICTURE)
    assert all(
        float(r.get("x")) + float(r.get("width")) + 30 <= svg.WIDTH
        for r in chart.iter(f"{SVG}rect")
    )  # the count fits after the longest bar
    described = chart.find(f"{SVG}desc").text
    assert "Against Ben: 4 games, Cleo ahead 1, behind 3, level 0." in described


def test_a_mean_just_below_zero_is_0_everywhere_it_is_shown_never_minus_0():
    """A player's games on a sheet of -1, 0 and 0 points have a mean of 0: the phone's page
    showed '-0' (the mean, -0.33, formatted with its sign) in the sheets' table, under the trend
    chart and in its words, and `history` in the terminal did the same."""
    sheet = SheetFigures("mixx-b", games=3, mean=-1 / 3, best=0, totals=(-1, 0, 0))
    history = PlayerHistory("Ann", games=3, wins=0, sheets=(sheet,), rivals=(), heat=())
    page = figures_html.player_figures(history)
    assert '<td role="cell">0</td>' in page and "mean 0" in page and "-0" not in page
    assert history_text.player_text(history)[3].split()[:4] == ["mixx-b", "3", "0", "0"]
    assert figures_html.trend_words(sheet) == "mixx-b: mean 0, best 0."


@pytest.mark.parametrize("variant", ["classic", "longo"])
def test_the_heat_maps_figures_fit_their_cells_on_any_sheet(variant):
    """Longo's rows have 15 numbers, not 11: its heat-map's numbers ran together at 360 px
    ("101112131415"), and so would the shares under them ("100100"). Each figure, measured in
    the chart's font (DejaVu Sans, as the page draws it), is narrower than its cell by 2 units
    at least, with every cell crossed in the one game (three digits under each). A row wraps
    onto as few lines as keep its figures that wide: classic's 11 numbers as 6 and 5, Longo's
    15 as 5, 5 and 5."""
    rows = load_sheet(variant).rows
    heat = HeatMap(variant, 1, tuple(((1, 0, 0),) * len(row.numbers) for row in rows))
    chart = ElementTree.fromstring(svg.heat_chart(heat))
    per_line, cell = svg.heat_layout(len(rows[0].numbers))
    assert per_line == {"classic": 6, "longo": 5}[variant]
    figures = [t for t in chart.iter(f"{SVG}text") if t.text.isdigit()]
    assert len(figures) == 2 * sum(len(row.numbers) for row in rows)  # a number, a share each
    for figure in figures:
        assert _drawn_width(figure) <= cell - 2, (figure.text, figure.get("font-size"))


def _drawn_width(text: ElementTree.Element) -> float:
    """How wide chromium draws a text of a chart: DejaVu Sans at its size, bold or not."""
    bold = "-Bold" if text.get("font-weight") == "bold" else ""
    font = ImageFont.truetype(f"{DEJAVU}/DejaVuSans{bold}.ttf", float(text.get("font-size")))
    return font.getlength("".join(text.itertext()))


LONGEST = ("Alexandra-Charlotte Bell", "W" * 24)  # 24 characters: the longest name a seat takes


def _every_chart(longest: str) -> dict[str, str]:
    """Each chart of a player's page and a game's, with the longest names and figures."""
    heat = HeatMap("longo", 100, tuple(((100, 0, 0),) * len(row.numbers)
                                       for row in load_sheet("longo").rows))  # fmt: skip
    rivals = [Rival(longest, games=1000, ahead=999, behind=1), Rival("Ann", games=1)]
    start, *events = [parse_line(line) for line in KNOWN.read_text().splitlines()]
    renamed = story_of([start._replace(players=(longest, *start.players[1:])), *(
        event._replace(player=longest) if getattr(event, "player", "") == "Ann" else event
        for event in events)])  # fmt: skip
    return {
        "trend": svg.trend_chart([-20, 110, 0, 99], "mixx-b"),
        "rivals": svg.rivals_chart(longest, rivals),
        "heat": svg.heat_chart(heat),
        "breakdown": svg.breakdown_chart(renamed.breakdown),
        "story": svg.story_chart(renamed),
    }


@pytest.mark.parametrize("longest", LONGEST)
@pytest.mark.parametrize("kind", ["trend", "rivals", "heat", "breakdown", "story"])
def test_every_word_of_a_narrow_chart_lies_inside_its_picture(kind, longest):
    """Drawn 240 units wide (so that a 360 px phone shows it whole at 200 % text), a chart
    keeps every word inside its picture, measured in DejaVu Sans, the font the page names
    first and the widest of them: a long name is cut with "…" (whole in the sentence and the
    tables), never past the chart's edge; every word is FONT units or more."""
    chart = ElementTree.fromstring(_every_chart(longest)[kind])
    left, _, width, _ = (float(part) for part in chart.get("viewBox").split())
    assert width == svg.PICTURE
    for text in chart.iter(f"{SVG}text"):
        drawn, x = _drawn_width(text), float(text.get("x"))
        start = {"start": x, "middle": x - drawn / 2, "end": x - drawn}[text.get("text-anchor")]
        assert left <= start and start + drawn <= left + width, ("".join(text.itertext()), start)
        assert float(text.get("font-size")) >= svg.FONT
