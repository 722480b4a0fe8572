"""A player's head-to-head chart, checked by what it says: each rival's name, and the games
ahead of them and behind them as two labelled bars of lengths in proportion, drawn narrow
enough (RIVALS_WIDTH units, at most 15rem on the page) to fit a 360 px phone at 200 % text."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

import pytest

from firmware_py.journal.figures import Rival
from firmware_py.show import svg

SVG = "{http://www.w3.org/2000/svg}"


def test_head_to_head_names_each_rival_with_bars_for_ahead_and_behind_in_proportion():
    rivals = [Rival("Ben", games=4, ahead=1, behind=3), Rival("Ann", games=2, ahead=2)]
    chart = ElementTree.fromstring(svg.rivals_chart("Cleo", rivals))
    words = [t.text for t in chart.iter(f"{SVG}text")]
    assert words == ["Ben", "ahead", "1", "behind", "3", "Ann", "ahead", "2", "behind", "0"]
    widths = [float(r.get("width")) for r in chart.iter(f"{SVG}rect")]
    assert widths[1:] == pytest.approx([3 * widths[0], 2 * widths[0], 0], abs=0.2)  # units
    assert chart.get("viewBox").split()[2] == str(svg.RIVALS_WIDTH)
    assert all(
        float(r.get("x")) + float(r.get("width")) + 30 <= svg.RIVALS_WIDTH
        for r in chart.iter(f"{SVG}rect")
    )  # the count fits after the longest bar
    described = chart.find(f"{SVG}desc").text
    assert "Against Ben: 4 games, Cleo ahead 1, behind 3, level 0." in described
