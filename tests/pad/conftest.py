"""The pad tests' table: `table(...)` makes a tower with the real pad firmware joined as Ann
(support.firmware.PadTable), and closes each one the test made when it ends."""

from __future__ import annotations

import pytest
from support.firmware import PadTable


@pytest.fixture
def table(tmp_path):
    made: list[PadTable] = []

    def make(*, bots=("Bot",), variant="classic", beat_ms=None, heap="", join=True) -> PadTable:
        made.append(
            PadTable(tmp_path, bots=bots, variant=variant, beat_ms=beat_ms, heap=heap, join=join)
        )
        return made[-1]

    yield make
    for each in made:
        each.close()
