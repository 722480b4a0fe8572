"""Where the tower keeps its files."""

from __future__ import annotations

import os
from pathlib import Path

CONFIG_FILE = Path("/etc/qwixx-tower/config.toml")


def default_state_dir() -> Path:
    """systemd's StateDirectory= when run as a unit, else the user's XDG state directory."""
    given = os.environ.get("STATE_DIRECTORY")
    if given:
        return Path(given.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(base) / "qwixx-tower"
