"""Where the tower keeps its files."""

from __future__ import annotations

import os
from pathlib import Path

CONFIG_FILE = Path("/etc/qwixx-tower/config.toml")
LEAGUE_FILE = Path("/etc/qwixx-tower/league.toml")  # `qwixx-tower league`'s (docs/league.md)


def default_state_dir(name: str = "qwixx-tower") -> Path:
    """systemd's StateDirectory= when run as a unit, else the user's XDG state directory
    (`name` in it: the tower's, or the league's "qwixx-league")."""
    given = os.environ.get("STATE_DIRECTORY")
    if given:
        return Path(given.split(":")[0])
    base = os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state"
    return Path(base) / name
