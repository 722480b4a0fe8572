"""The suite's terminal (`support.terminal`): pyte, which has no alternate screen, draws what
the tower shows on its alternate screen and nothing it prints after leaving it, however the
kernel cuts the tower's bytes into pieces."""

from __future__ import annotations

import pyte
import pytest
from support.terminal import LEAVE_ALTERNATE_SCREEN, BeforeLeaving

from firmware_py.show.terminal import ALTERNATE_SCREEN, LAST_WORDS, MAIN_SCREEN, in_place

COLUMNS, LINES = 80, 24
SHOWN = [f"line {n} of the drawn tower" for n in range(1, LINES)]  # the last row kept free
LAST_NEWS = [f"news {n}, left in the terminal" for n in range(1, LAST_WORDS + 1)]
WRITTEN = (
    ALTERNATE_SCREEN + in_place(SHOWN) + MAIN_SCREEN + "".join(f"{n}\r\n" for n in LAST_NEWS)
).encode()


def drawn(pieces: list[bytes]) -> pyte.HistoryScreen:
    """A terminal's screen after pyte drew, of `pieces` read one after another, what the
    suite's terminal draws."""
    screen = pyte.HistoryScreen(COLUMNS, LINES, history=1000)
    stream = pyte.ByteStream(screen)
    before_leaving = BeforeLeaving()
    for piece in pieces:
        stream.feed(before_leaving.take(piece))
    return screen


@pytest.mark.parametrize("cut", range(1, len(LEAVE_ALTERNATE_SCREEN)))
def test_leaving_cut_in_two_by_the_kernel_is_still_seen_and_nothing_scrolls(cut):
    """A busy machine's full terminal buffer cut the sequence that leaves the alternate screen
    in two: the last news was drawn and scrolled the screen by 5 lines, and the whole-game test
    said the tower flooded the scrollback."""
    at = WRITTEN.index(LEAVE_ALTERNATE_SCREEN) + cut
    screen = drawn([WRITTEN[:at], WRITTEN[at:]])
    assert len(screen.history.top) == 0
    assert [line.rstrip() for line in screen.display[: len(SHOWN)]] == SHOWN


def test_a_piece_ending_in_an_escape_that_is_not_the_leaving_is_drawn_at_once():
    """What ends a piece and only looks like the start of the leaving is drawn (a test waiting
    for the prompt sees it) once it is clear it is something else."""
    before_leaving = BeforeLeaving()
    assert before_leaving.take(b"press to start\x1b[K\x1b[J") == b"press to start\x1b[K\x1b[J"
    assert before_leaving.take(b"Ann rolls\x1b[?10") == b"Ann rolls"
    assert before_leaving.take(b"49h") == b"\x1b[?1049h"
    assert not before_leaving.left


def test_every_byte_after_the_leaving_is_kept_from_pyte():
    pieces = [WRITTEN[i : i + 7] for i in range(0, len(WRITTEN), 7)]  # cut everywhere
    screen = drawn(pieces)
    assert len(screen.history.top) == 0
    assert not any(news in "\n".join(screen.display) for news in LAST_NEWS)
