"""A finished game's figures, checked by what they say: the story and breakdown of a known
game (tests/golden/story-game.jsonl: Ann, Ben and Cleo; Ben locks red at roll 18, Cleo green
at roll 21; penalties for Ben at roll 11, Cleo at 18, Ann at 19), the phones' SVG charts read
back as values and labels, the main display's pages and the terminal's lines as golden
pictures. After a deliberate change of a picture, look at it and refresh it with
QWIXX_UPDATE_GOLDEN=1 ./dev test tests/show/test_game_figures.py."""

from __future__ import annotations

import io
import os
import re
import xml.etree.ElementTree as ElementTree
from dataclasses import replace

import pytest
from PIL import Image, ImageChops
from support.paths import GOLDEN
from support.table import make_table
from support.terminal_picture import terminal_picture

from firmware_py.app.assembly import attach_terminal
from firmware_py.journal.figures import Rival
from firmware_py.journal.lines import parse_line
from firmware_py.rules import Game
from firmware_py.seating import SeatSpec
from firmware_py.show import svg
from firmware_py.show.blocks import breakdown_lines, cells, story_lines
from firmware_py.show.figures_html import game_figures, rivals_table
from firmware_py.show.panel_charts import story_pages
from firmware_py.show.screens import over_pages, render
from firmware_py.story import LOCK, PENALTY, StoryMark, story_of
from firmware_py.view import table_view

SVG = "{http://www.w3.org/2000/svg}"
LOG = GOLDEN / "story-game.jsonl"


def known_events():
    return [parse_line(line) for line in LOG.read_text().splitlines() if line.strip()]


def known_game() -> Game:
    start, *events = known_events()
    game = Game.start(start)
    for event in events:
        game.apply(event)
    return game


@pytest.fixture(scope="module")
def story():
    return story_of(known_events(), number=16)


def over_view(story):
    return replace(table_view(known_game()), story=story)


# ---- the figures ------------------------------------------------------------------------------


def test_the_story_has_every_players_total_after_each_roll_from_zero_to_the_end(story):
    game = known_game()
    assert story.rolls == 21 and len(story.totals) == 22
    assert story.totals[0] == (0, 0, 0)
    assert story.totals[-1] == tuple(game.total(name) for name in ("Ann", "Ben", "Cleo"))
    assert story.totals[-1] == (29, 47, 43)
    assert story.number == 16


def test_the_story_marks_each_lock_and_penalty_at_its_roll(story):
    assert story.marks == (
        StoryMark(11, "Ben", PENALTY),
        StoryMark(18, "Ben", LOCK, "red"),
        StoryMark(18, "Cleo", PENALTY),
        StoryMark(19, "Ann", PENALTY),
        StoryMark(21, "Cleo", LOCK, "green"),
    )


def test_each_players_rows_bonus_and_penalties_add_up_to_their_total(story):
    breakdown = story.breakdown
    for player in breakdown.players:
        rows = sum(row.points for row in player.rows)
        assert rows + player.bonus_points - player.penalty_points == player.total
    assert breakdown.winners == ("Ben",) and breakdown.reason == "locks"
    assert breakdown.locks == (("red", ("Ben",)), ("green", ("Cleo",)))
    ben = next(player for player in breakdown.players if player.name == "Ben")
    assert [row.locked for row in ben.rows] == [True, False, False, False]


# ---- the phones' SVG, read back ---------------------------------------------------------------


def parsed(chart: str) -> ElementTree.Element:
    return ElementTree.fromstring(chart)


def texts(root: ElementTree.Element) -> list[str]:
    return ["".join(node.itertext()) for node in root.iter(f"{SVG}text")]


def test_every_chart_is_an_image_named_and_described_for_a_screen_reader(story):
    for chart in (svg.breakdown_chart(story.breakdown), svg.story_chart(story)):
        root = parsed(chart)
        assert root.get("role") == "img"
        title, desc = root.get("aria-labelledby").split()
        ids = {node.get("id"): "".join(node.itertext()) for node in root.iter() if node.get("id")}
        assert ids[title] and ids[desc], "a chart without its name or its sentence"
        assert "Ben won with 47 points" in ids[desc] or "At the end: Ann 29, Ben 47" in ids[desc]


def test_the_breakdown_draws_each_rows_points_as_a_bar_on_one_scale_with_its_letter(story):
    root = parsed(svg.breakdown_chart(story.breakdown))
    labels = texts(root)
    assert labels[0] == "Ben ★ won: 47 points"  # highest total first
    ben = next(player for player in story.breakdown.players if player.name == "Ben")
    for row in ben.rows:
        crosses = "1 cross" if row.crosses == 1 else f"{row.crosses} crosses"
        assert f"{row.points}, {crosses}" in labels
    bars = [rect for rect in root.iter(f"{SVG}rect") if rect.get("height") == str(svg.BAR)]
    players = story.breakdown.ranked()
    points = [row.points for player in players for row in player.rows]
    widths = [float(rect.get("width")) for rect in bars]
    assert len(widths) == len(points) == 12
    scale = max(widths) / max(points)
    assert all(
        abs(width - point * scale) < 0.1 for width, point in zip(widths, points, strict=True)
    )
    # every row's letter, and a boxed letter for each lock crossed: Ben's red, Cleo's green
    assert [labels.count(letter) for letter in "RYGB"] == [3 + 1, 3, 3 + 1, 3]


def test_the_story_draws_a_line_per_player_through_every_roll_and_marks_on_them(story):
    root = parsed(svg.story_chart(story))
    lines = list(root.iter(f"{SVG}polyline"))
    assert len(lines) == 3
    for polyline in lines:
        assert len(polyline.get("points").split()) == story.rolls + 1
    dashes = {polyline.get("stroke-dasharray") for polyline in lines}
    assert len(dashes) == 3, "each player's line needs a dash of its own, not only a colour"
    labels = texts(root)
    assert {"Ann 29", "Ben 47", "Cleo 43"} <= set(labels)
    crosses = [path for path in root.iter(f"{SVG}path") if path.get("d").count("M") == 2]
    assert len(crosses) == 3 + 1  # a penalty each, and the legend's
    desc = "".join(next(root.iter(f"{SVG}desc")).itertext())
    assert "Roll 18: Ben locked red." in desc and "Roll 21: Cleo locked green." in desc
    assert "Roll 11: Ben took a penalty." in desc


def test_the_story_puts_a_lock_where_its_player_stood_at_that_roll(story):
    root = parsed(svg.story_chart(story))
    ben_line = next(
        polyline for polyline in root.iter(f"{SVG}polyline")
        if polyline.get("stroke-dasharray") == svg.DASHES[1]
    )  # fmt: skip
    at_18 = ben_line.get("points").split()[18]
    x, y = (float(value) for value in at_18.split(","))
    boxes = [rect for rect in root.iter(f"{SVG}rect") if rect.get("width") == str(svg.LOCK_BOX)]
    assert any(abs(float(b.get("x")) + svg.LOCK_BOX / 2 - x) < 0.1
               and abs(float(b.get("y")) + svg.LOCK_BOX / 2 - y) < 0.1
               for b in boxes), "Ben's red lock is not on his line at roll 18"  # fmt: skip


def test_the_phones_figures_carry_tables_with_the_same_numbers(story):
    html = game_figures(story)
    for player in story.breakdown.players:
        assert f"<caption>{player.name}{' (won)' if player.name == 'Ben' else ''}: " \
               f"{player.total} points</caption>" in html  # fmt: skip
    assert ('<th scope="row" role="rowheader" data-label="roll">21</th>'
            '<td role="cell" data-label="Ann">29</td><td role="cell" data-label="Ben">47</td>'
            '<td role="cell" data-label="Cleo">43</td>') in html  # fmt: skip
    assert html.count("<svg") == 2 and html.count("<table") == 4


def test_a_table_says_how_wide_a_box_its_columns_need_side_by_side(story):
    """Narrower than that (in rem, so at 200 % text too), each row of a folded table is a
    block whose cells show their column's heading (`data-label`, app.css). The game's tables
    fit 20 times the text size (a 360 px phone at the usual size, DejaVu Sans's widths); head
    to head's five columns need 30, and with a name of 24 W's more than any phone has: always
    blocks."""
    html = game_figures(story)
    assert 'class="table-box room' not in html
    assert '<td role="cell" data-label="points">' in html
    assert 'class="table-box room-30"' in rivals_table([Rival("Ben", 2, 1, 1, 0)])
    assert 'class="table-box room-none"' in rivals_table([Rival("W" * 24, 2, 1, 1, 0)])


def test_a_name_in_a_chart_is_escaped():
    events = known_events()
    start = events[0]._replace(players=("<b>Ann</b>", "Ben", "Cleo"))
    renamed = [start, *(event._replace(player="<b>Ann</b>") if getattr(event, "player", "")
                        == "Ann" else event for event in events[1:])]  # fmt: skip
    html = game_figures(story_of(renamed))
    assert "<b>Ann" not in html and "&lt;b&gt;Ann&lt;/b&gt;" in html


# ---- the main display's pages -----------------------------------------------------------------


def same_as_golden(picture: Image.Image, name: str) -> None:
    golden = GOLDEN / name
    if os.environ.get("QWIXX_UPDATE_GOLDEN"):
        picture.save(golden)
    assert golden.exists(), f"no reference picture {golden.name}; see this module's docstring"
    changed = ImageChops.logical_xor(picture.convert("1"), Image.open(golden).convert("1"))
    assert changed.getbbox() is None, f"{golden.name} differs inside {changed.getbbox()}"


def test_game_over_turns_through_each_players_bars_and_the_story(story):
    view = over_view(story)
    assert len(story_pages(view)) == 3 + 1
    assert len(over_pages(view)) == 2 + 3 + 1  # the winner, the scores, then the figures
    assert story_pages(replace(view, story=None)) == []


@pytest.mark.parametrize(("page", "name"), [(2, "ben"), (3, "cleo"), (4, "ann"), (5, "story")])
def test_a_figures_page_of_the_main_display_matches_its_picture(story, page, name):
    same_as_golden(render(replace(over_view(story), page=page), "main"),
                   f"over-figures-{name}-main.png")  # fmt: skip


def test_the_bars_read_at_a_metre_eight_pixels_tall_in_the_displays_letters(story):
    picture = render(replace(over_view(story), page=2), "main")  # Ben's bars
    bar = picture.crop((9, 12, 80, 20))
    assert bar.getbbox() is not None and bar.getbbox()[3] - bar.getbbox()[1] == 8


# ---- the terminal -----------------------------------------------------------------------------


def test_the_terminal_draws_the_figures_in_block_characters_within_80_columns(story):
    lines = [*breakdown_lines(story.breakdown), *story_lines(story)]
    assert all(len(line) <= 80 for line in lines)
    assert lines[0].startswith("*Ben") and "(R)" in lines[0]  # the winner, his red lock
    assert re.search(r"\(G\)", lines[1]) and lines[1].startswith(" Cleo")
    assert lines[4].startswith(" Ann ") and "x" in lines[4]  # Ann's penalty, on her line
    same_as_golden(terminal_picture(lines), "terminal-over-figures.png")


def test_the_drawn_terminal_at_80x24_shows_the_figures_under_the_game_over(story, tmp_path):
    """A classic terminal at game over: who won and the locks, every player's bars and the
    story, all within 80 columns and 24 lines (the displays' drawings give way to them)."""
    table = make_table(tmp_path, [SeatSpec("Ann"), SeatSpec("Ben"), SeatSpec("Cleo")])
    size = lambda: os.terminal_size((80, 24))  # noqa: E731
    console, _ = attach_terminal(table, table.hardware, full_screen=True, out=io.StringIO(),
                                 size=size)  # fmt: skip
    try:
        console.refresh(over_view(story))
        lines = console.screen_lines(80, 24)
    finally:
        console.close()
        table.hardware.close()
    assert len(lines) <= 24 and all(cells(line) <= 80 for line in lines)
    assert "Game over: Ben won   locked: red, green" in lines
    figures = [*breakdown_lines(story.breakdown), *story_lines(story)]
    assert lines[lines.index(figures[0]) :][: len(figures)] == figures  # whole, in order
    screen = lines + [""] * (24 - len(lines))  # the whole screen, its empty lines below
    same_as_golden(terminal_picture(screen), "terminal-over-80x24.png")
