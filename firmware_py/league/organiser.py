"""Who may run the tournament from the league's page: whoever knows the organiser's password.

The page is open to every device on the café's Wi-Fi, guests' included, and the organiser's own
phone or laptop is not known beforehand, so the organiser's actions (create a tournament, draw
and start a round, a player leaving, the end) need a secret only the organiser has: a password
kept in a file on the league's machine (`[league] organiser_password_file`, readable by the
league's user only, as the broker's password is). Typed once on the page, it gives that browser
a session (a random token in a cookie: HttpOnly, SameSite=Strict, so another site open in the
same browser cannot act with it) until the league stops. Wrong passwords are limited per device
(TRIES a minute), so a guest cannot guess it; without the file, tournaments are off.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable
from pathlib import Path

from firmware_py.errors import TowerError
from firmware_py.journal.disk import read_regular

TRIES = 5  # wrong passwords a device may type in WINDOW seconds
WINDOW = 60.0
DEVICES_KEPT = 1024  # devices whose wrong tries are remembered
SESSIONS_KEPT = 8  # organisers' browsers at once: the oldest is signed out
COOKIE = "organiser"
MIN_PASSWORD = 8  # characters
PASSWORD_MOST = 4096  # bytes of the password's file


class OrganiserPasswordError(TowerError):
    """The organiser's password file cannot be read, or holds too short a password."""


def read_password(path: Path) -> str:
    """The organiser's password from its file: a regular file of at most PASSWORD_MOST bytes
    (a FIFO would hold the league's start, /dev/zero fill its memory)."""
    try:
        password = read_regular(path, PASSWORD_MOST).decode("utf-8").strip()
    except OSError as error:
        why = error.strerror or str(error)
        raise OrganiserPasswordError(f"the organiser's password file {path}: {why}") from error
    except UnicodeDecodeError as error:
        raise OrganiserPasswordError(f"the organiser's password file {path}: {error}") from error
    if len(password) < MIN_PASSWORD:
        raise OrganiserPasswordError(
            f"the organiser's password in {path} needs at least {MIN_PASSWORD} characters"
        )
    return password


class Organisers:
    """The password, the sessions it gave, and each device's wrong tries."""

    def __init__(self, password: str | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.password = password.encode() if password else None
        self.clock = clock
        self.sessions: list[str] = []
        self.wrong: dict[str, tuple[float, int]] = {}  # device: (first wrong try, tries since)

    @property
    def on(self) -> bool:
        return self.password is not None

    def sign_in(self, device: str, typed: str) -> str | None:
        """A session's token for the right password; None for a wrong one, or when this device
        has typed TRIES wrong ones in the last WINDOW seconds (then even the right one waits)."""
        if self.password is None or self.waiting(device):
            return None
        if not hmac.compare_digest(typed.encode()[:256], self.password):
            self._count_wrong(device)
            return None
        token = secrets.token_urlsafe(32)
        self.sessions = [*self.sessions, token][-SESSIONS_KEPT:]
        return token

    def waiting(self, device: str) -> bool:
        first, tries = self.wrong.get(device, (0.0, 0))
        return tries >= TRIES and self.clock() - first < WINDOW

    def _count_wrong(self, device: str) -> None:
        now = self.clock()
        first, tries = self.wrong.get(device, (now, 0))
        if now - first >= WINDOW:
            first, tries = now, 0
        if device not in self.wrong and len(self.wrong) >= DEVICES_KEPT:
            self.wrong.pop(next(iter(self.wrong)))
        self.wrong[device] = (first, tries + 1)

    def is_organiser(self, token: str | None) -> bool:
        """A session's token, as the cookie brought it. A token the league gave is ASCII; any
        other text is none of them (compare_digest raises TypeError on text beyond ASCII: a
        guest's cookie of "é" answered 500 while the organiser was signed in)."""
        if not token or not token.isascii():
            return False
        return any(hmac.compare_digest(token, one) for one in self.sessions)
