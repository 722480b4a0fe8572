"""The log kept off the drawn screen: a person running `qwixx-tower run` in a terminal sees
the tower drawn full screen, and the log writes to the same terminal. A line of log written
there landed in the middle of the drawing and the next redraw wiped it out of sight: the one
place that said why the tower could not save was gone when the person looked. Now the log's
lines wait, and are written under the last news when the tower gives the terminal back."""

from __future__ import annotations

import io
import logging
import os

from support.disk import fill, tmpfs
from support.terminal import LEAVE_ALTERNATE_SCREEN, TowerTerminal

from firmware_py.app.held_log import KEPT, log_held_while_drawn


def test_an_error_logged_under_the_drawn_screen_is_shown_when_the_tower_stops(tmp_path):
    with tmpfs(tmp_path / "disk") as disk:
        fill(disk)  # the tower cannot save: it says so in the news, and logs it as an error
        tower = TowerTerminal(["--state-dir", str(disk / "games"), "--human", "Ann"], log_here=True)
        try:
            tower.wait_for("annot save games")
        finally:
            tower.stop()
    drawn, left, after = tower.raw.partition(LEAVE_ALTERNATE_SCREEN)
    assert left, "the tower never gave the terminal back"
    assert b"ERROR" not in drawn  # nothing written over the drawn screen
    logged = [line for line in after.decode().splitlines() if line.startswith("ERROR ")]
    assert len(logged) == 1 and "cannot save games: the disk is full" in logged[0], after


class Terminal(io.StringIO):
    """What the log writes to, posing as a terminal (`isatty`) as the tower's standard error
    does when a person runs it."""

    def isatty(self) -> bool:
        return True


def logging_to(stream: io.StringIO) -> logging.Handler:
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logging.getLogger().addHandler(handler)
    return handler


def test_the_lines_wait_in_order_and_a_long_failure_keeps_its_last_lines():
    terminal = Terminal()
    handler = logging_to(terminal)
    log = logging.getLogger("qwixx-test-held")
    try:
        with log_held_while_drawn(True, terminal):
            for n in range(KEPT + 5):
                log.error("failure %d", n)
            assert terminal.getvalue() == ""  # nothing over the screen while it is drawn
        log.error("after the screen")
    finally:
        logging.getLogger().removeHandler(handler)
    lines = terminal.getvalue().splitlines()
    assert lines[0] == "(5 earlier lines of the log left out)"
    assert lines[1:] == [f"ERROR failure {n}" for n in range(5, KEPT + 5)] + [
        "ERROR after the screen"
    ]


def test_a_log_to_the_journal_is_written_as_it_comes_under_a_drawn_screen():
    """Under systemd the log is a pipe to the journal: each line goes as it comes."""
    reader, writer = os.pipe()
    with os.fdopen(writer, "w") as pipe, os.fdopen(reader) as journal:
        handler = logging_to(pipe)
        try:
            with log_held_while_drawn(True, pipe):
                logging.getLogger("qwixx-test-held").error("to the journal")
                pipe.flush()
                os.set_blocking(reader, False)
                assert journal.read() == "ERROR to the journal\n"
        finally:
            logging.getLogger().removeHandler(handler)


def test_a_terminal_with_nothing_drawn_has_the_log_as_it_comes():
    """--plain: the news and the log are lines in turn, nothing to tear."""
    terminal = Terminal()
    handler = logging_to(terminal)
    try:
        with log_held_while_drawn(False, terminal):
            logging.getLogger("qwixx-test-held").error("plain")
            assert terminal.getvalue() == "ERROR plain\n"
    finally:
        logging.getLogger().removeHandler(handler)
