"""Each pad's last request on disk, so a request retried after a tower restart gets its answer.

A pad sends a request again until it is answered. The pad link answers a repeat from memory, but
that memory dies with the tower: killed after journalling a decision and before answering it,
the tower would refuse the pad's retry after its restart ("already marked"), which confuses
the player although nothing is applied twice. So before a request is decided (and so before its
event can reach the journal) the hub writes down here which request it is (pad, boot number,
sequence number, fields) and where the game's log ended at that moment, fsynced. After a
restart, a retry of that very request is recognised: if the log holds its event right where it
then ended, it was applied, and the answer is yes; otherwise it was never applied, and it is
decided as new.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from firmware_py.gamelog import parse_line
from firmware_py.rules import Refused

log = logging.getLogger(__name__)

LEDGER_NAME = "pad-requests.json"


class RequestLedger:
    """The last request of each pad (by ident), with the game log's end when it arrived."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._entries: dict[str, dict] = self._load()

    def note(self, ident: str, boot: int, seq: int, fields: dict, log_end: tuple[str, int]) -> None:
        """Write down the request about to be decided, durably, before it is decided."""
        self._entries[ident] = {"boot": boot, "seq": seq, "fields": fields, "log": list(log_end)}
        try:
            self._save()
        except OSError as error:  # a retry after a restart may then be refused: not worse
            log.warning("cannot write %s: %s", self.path, error)

    def applied(self, ident: str, boot: int, seq: int, fields: dict, event) -> bool:
        """True if this is the pad's last noted request and its `event` is in the game log
        right where the log ended when the request arrived."""
        entry = self._entries.get(ident)
        if entry is None or (entry["boot"], entry["seq"], entry["fields"]) != (boot, seq, fields):
            return False
        path, end = entry["log"]
        return bool(path) and _event_at(Path(path), end) == event

    def _load(self) -> dict[str, dict]:
        try:
            return json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}

    def _save(self) -> None:
        """Replace the file atomically: a new file, fsynced, renamed over the old one."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fresh = self.path.with_suffix(".tmp")
        with open(fresh, "w") as file:
            json.dump(self._entries, file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(fresh, self.path)
        fd = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _event_at(path: Path, offset: int):
    """The event on the log's line starting at byte `offset`, or None."""
    try:
        with open(path, "rb") as file:
            file.seek(offset)
            line = file.readline()
        return parse_line(line.decode("utf-8")) if line.endswith(b"\n") else None
    except (OSError, UnicodeDecodeError, Refused):
        return None
