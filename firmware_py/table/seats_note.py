"""Seats kept across a power cut between games: the table's seats are noted on disk whenever
they change, and read back at start-up when no game or lucky draft is there to give them back.

A game notes its seats when it begins (`games.note_seats`), so a power cut during a game gives
every seat back; but a pad or a phone that joined after the last game ended was known only in
memory, and lost its seat (and a phone its way back in without the code). Only seats held by
devices are read back: computer and keyboard seats come from the command line and the
configuration, which may have changed since.
"""

from __future__ import annotations

import logging

from firmware_py.journal.journal import Journal, JournalError
from firmware_py.seating import DEVICES, Seating, seat_from_record
from firmware_py.view import TableView

log = logging.getLogger(__name__)


class SeatsNote:
    """A presenter: after a change, the table's `seating` is noted in its `journal` if it
    differs from the last note."""

    def __init__(self, seating: Seating, journal: Journal) -> None:
        self.seating = seating
        self.journal = journal
        self.noted = list(seating.seats)

    def __call__(self, view: TableView) -> None:
        seats = self.seating.seats
        if seats == self.noted:
            return
        self.noted = list(seats)  # a disk that fails is tried again at the next change only
        try:
            self.journal.note_table_seats(seats)
        except JournalError as error:
            log.warning("%s; after a restart seats joined between games are lost", error)


def restore_device_seats(seating: Seating, journal: Journal) -> None:
    """The seats pads and phones held when the tower stopped, back at the end of the table
    (as many as there is room for, none under a name already seated)."""
    for record in journal.noted_table_seats():
        seat = seat_from_record(record)
        if seat is None or seat.kind not in DEVICES or not seat.pad:
            continue
        if seating.full() or seating.taken(seat.name):
            continue
        seating.add(seat)
