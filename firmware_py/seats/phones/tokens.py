"""Seat tokens, renewed at every hello: which token opens which phone's seat.

A phone joins with the table code and is given a token; the device id the seats (and the
journal) know it by is a digest of that first token, and stays. At every hello after that the
phone is given a new token, and the one it came with stays good only until the new one has
been used once (the page says it kept it, or says hello with it): so a hello whose answer a
power cut lost still gets back in, and whoever read one old frame on an open network cannot
take the seat once the real player has said hello again. The tower keeps, for each phone, the
digest of the token it holds and of the one just given (never a token itself), in the state
directory through the journal, written before the new token leaves the tower.

A phone the note does not know (it joined and has not said hello since) is known by its first
token alone, as its device id is that token's digest.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Callable

from firmware_py.journal.journal import Journal, JournalError

log = logging.getLogger(__name__)

TOKENS_KEPT = 64  # phones whose tokens are noted at most (a table seats a few)


def new_token() -> str:
    return secrets.token_urlsafe(18)


def device_of(token: str) -> str:
    """The device id the seats know a phone by: a digest of the token it joined with (the
    token itself stays on the phone; journals and logs see only this)."""
    return "phone-" + digest(token)[:16]


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class SeatTokens:
    """Each phone's good tokens, by digest: the one it holds, and the one it was just given
    (not yet used; "" when none), noted through `journal`. `seated(device)` says whether a
    device still holds a phone seat: only theirs are kept."""

    def __init__(self, journal: Journal, seated: Callable[[str], bool]) -> None:
        self.journal = journal
        self.seated = seated
        noted = journal.noted_phone_tokens()
        self._good = {device: pair[:2] for device, pair in noted.items() if len(pair) >= 2}

    def device(self, token: str) -> str | None:
        """The phone `token` opens, or None: a token that was renewed and whose successor
        has been used (or a phone the note knows, shown a token it was never given)."""
        shown = digest(token)
        for device, good in self._good.items():
            if shown in good:
                return device
        first = device_of(token)
        return None if first in self._good else first

    def renew(self, device: str, token: str) -> str | None:
        """A hello from `device` with `token`: a new token for it, noted durably before it is
        returned. None when it cannot be noted (the phone keeps the token it has)."""
        held, given = self._good.get(device, [digest(token), ""])
        if digest(token) == given:
            held = given  # the token given last time was used: the older one is no good now
        fresh = new_token()
        return fresh if self._note(device, [held, digest(fresh)]) else None

    def kept(self, device: str, token: str) -> None:
        """The phone kept the token it was given: the one before it is no good any more."""
        given = self._good.get(device, ["", ""])[1]
        if given and digest(token) == given:
            self._note(device, [given, ""])

    def _note(self, device: str, good: list[str]) -> bool:
        """`device`'s good tokens from now on, durably; False (and the note as it was) when
        the journal cannot write them."""
        before = dict(self._good)
        self._good[device] = good
        self._good = {d: pair for d, pair in self._good.items() if self.seated(d)}
        while len(self._good) > TOKENS_KEPT:
            del self._good[next(iter(self._good))]
        try:
            self.journal.note_phone_tokens(self._good)
        except JournalError as error:
            log.warning("a phone's new seat token cannot be kept: %s", error)
            self._good = before
            return False
        return True
