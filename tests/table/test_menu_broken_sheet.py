"""A sheet file a maker broke by hand (their own Connected pads, saved as Latin-1) while the
tower runs: the roll button's menu opened on it, loading every sheet's title, and stopped the
tower with a traceback. The variant page now leaves the broken sheet out, the log says which
and why, and the table goes on with the sheets that load."""

from __future__ import annotations

import logging

import pytest
from support.table import clocked_table, hold, run_table, tap

import sheets.loader
from firmware_py.seating import KEYBOARD, SeatSpec
from sheets import sheet_names


@pytest.fixture
def double_b_broken(tmp_path, monkeypatch):
    """The shipped sheets, double-b.toml among them broken by hand."""
    folder = tmp_path / "sheets"
    folder.mkdir()
    for shipped in sheets.loader.SHEET_DIR.glob("*.toml"):
        (folder / shipped.name).write_bytes(shipped.read_bytes())
    (folder / "double-b.toml").write_bytes(b'name = "Double B \xe4"\n')
    monkeypatch.setattr(sheets.loader, "SHEET_DIR", folder)
    forget_what_was_read()
    yield
    forget_what_was_read()


def forget_what_was_read() -> None:
    sheets.loader.load_sheet.cache_clear()
    sheets.loader._sheets_that_load.cache_clear()


def test_the_variant_page_leaves_out_a_broken_sheet_and_says_why(tmp_path, double_b_broken, caplog):
    table, clock = clocked_table(tmp_path, [SeatSpec("Kim", KEYBOARD), SeatSpec("Bot")])
    offered = len(sheet_names()) - 1

    async def steps() -> None:
        await hold(table, clock)
        await tap(table, clock)  # the variant line
        await hold(table, clock)  # the variant page: every sheet that loads
        page = table.view().menu
        assert "Double B" not in page.lines and "Double A" in page.lines
        for _ in range(offered):  # round the page, past where Double B was
            await tap(table, clock)
        assert table.view().menu.selected == page.selected

    with caplog.at_level(logging.WARNING, logger="sheets.loader"):
        run_table(table, steps)
    said = [r.getMessage() for r in caplog.records if "leaves out" in r.getMessage()]
    assert said == ["the menu leaves out a sheet: double-b.toml: not UTF-8 text (byte 18): "
                    "save it as UTF-8"]  # fmt: skip
