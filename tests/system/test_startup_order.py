"""Start-up order through the real process: after a power cut the table reads its journal back
and gives every seat back before any door (the pad hub, the web server) takes a hello. With the
web server on and the machine busy, a pad whose player is in the saved game gets its seat back
at every restart (its hello was once taken before the journal was read, and the seat lost)."""

from __future__ import annotations

from support.busy import busy_cpu
from support.journal import saved_game
from support.tower import Tower

from drivers.simulated.pad import PtyPad
from firmware_py.seating import COMPUTER, PAD, SeatSpec

RESTARTS = 8
# The tower and its four busy neighbours share one niceness: the tower is as starved as on a
# machine at load 5, while the rest of the suite, side by side at niceness 0, keeps its CPU.
NICENESS = 10


def test_a_pad_keeps_its_seat_at_every_restart_of_a_busy_tower_with_phones_on(tmp_path):
    """The pad answers the tower's hello the moment it comes, as a pad waiting for its tower
    does: the earliest hello a restarting tower can get."""
    pad = PtyPad(tmp_path / "pad")
    pad.answer_hellos("pad-1")
    saved_game(tmp_path / "state", [SeatSpec("Ann", PAD, "pad-1"), SeatSpec("Bot", COMPUTER)])
    with (
        busy_cpu(4, NICENESS),
        Tower(folder=tmp_path, pace=30, pads=[pad], web=True, niceness=NICENESS) as tower,
    ):
        for restart in range(RESTARTS):
            assert pad.expect("hello")
            # her sheet (a first STATE may be the join screen, sent as the pad is first heard)
            assert pad.expect("state", player="Ann"), f"restart {restart}: the pad lost its seat"
            tower.join_url()  # and phones may join
            tower.kill()  # a power cut
            pad.drain()  # what the killed tower said last
            tower.start()
    pad.unplug()
