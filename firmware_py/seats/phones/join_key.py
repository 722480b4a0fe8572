"""The table's key, the secret in the QR code's link: made once, kept in the state directory
(`join-key.json`, written so that a power cut leaves the old file or the new one), so the link,
and a printed QR code, stay good across games and restarts. Deleting the file gives the table a
new key at the next start (the old link then opens nothing)."""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
from pathlib import Path

from firmware_py.journal import disk
from firmware_py.json_text import json_value

log = logging.getLogger(__name__)

KEY_FILE = "join-key.json"
KEY_BYTES = 12  # 96 random bits, 16 characters: the link still fits the display's QR code
WELL_FORMED = re.compile(r"[A-Za-z0-9_-]{16,64}")


def new_join_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def noted_join_key(state_dir: Path) -> str | None:
    """The key kept in `state_dir`, None without one (nothing is written: for `doctor`)."""
    try:
        key = json_value(disk.read_regular(state_dir / KEY_FILE))["key"]
    except (OSError, ValueError, TypeError, KeyError):
        return None  # none yet, or unreadable
    return key if isinstance(key, str) and WELL_FORMED.fullmatch(key) else None


def kept_join_key(state_dir: Path) -> str:
    """The key kept in `state_dir`, or a new one, kept there for the next start (when it
    cannot be kept, the log says so and this run uses it all the same)."""
    path = state_dir / KEY_FILE
    key = noted_join_key(state_dir)
    if key is not None:
        return key
    key = new_join_key()
    try:
        _write_durably(path, {"key": key})
    except OSError as error:
        log.warning(
            "the QR code's key cannot be kept in %s (%s): a printed QR code stops working at "
            "the next start",
            path,
            error.strerror or error,
        )
    return key


def _write_durably(path: Path, record: object) -> None:
    """Replace `path` by `record` as JSON, readable by the tower's user alone."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = path.with_suffix(".tmp")
    descriptor = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with open(descriptor, "w", encoding="utf-8") as file:
        json.dump(record, file)
        file.flush()
        os.fsync(file.fileno())
    os.replace(fresh, path)
    disk.fsync_directory(path.parent)
