"""The two ways into the table for a phone, and the guard on the short one.

The QR code's link carries the table's key: a long random secret that stays the same across
games and restarts (kept in the state directory, `join_key`), so a printed QR code keeps
working; nobody can guess it. The four-digit table code is for a person whose phone has no
camera: it is new at every start and after every game, and 10,000 codes could be tried in
seconds, so wrong codes are limited three ways: per connection (the hub closes it after a few),
per address (WRONG_CODES_A_MINUTE), and for the whole table whatever the addresses
(TABLE_WRONG_CODES at once, then TABLE_WRONG_CODES_A_MINUTE): from any number of devices,
trying every code takes longer than a day. While that budget is spent, every typed code waits
(a guess cannot be told from a person), and the QR code still gets in.
"""

from __future__ import annotations

import secrets
from collections import deque
from dataclasses import dataclass

from firmware_py.seats.phones.budget import Bucket

CODE_DIGITS = 4
WRONG_CODES_A_MINUTE = 6  # wrong codes from one address before that address waits a minute
ADDRESSES_KEPT = 256  # addresses whose wrong codes are counted (the oldest are forgotten)
TABLE_WRONG_CODES = 20  # wrong typed codes the table takes at once, from all addresses ...
TABLE_WRONG_CODES_A_MINUTE = 8  # ... and then a minute: 10,000 codes take 21 hours. More than
# one address may send (WRONG_CODES_A_MINUTE): one device alone never makes the others wait.
ADDRESS_WAITS = "too many wrong table codes from this phone: wait a minute, then join"
TABLE_WAITS = (
    "too many wrong table codes were typed at this table just now: scan the QR code on the "
    "tower's display, or type the code again in a minute"
)


def new_table_code(old: str = "") -> str:
    """Four random digits, new at every tower start and after every game (never the `old`
    one again): only who sees the tower can join."""
    while (code := f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}") == old:
        pass
    return code


@dataclass(frozen=True)
class WrongCode:
    """Why a code opens nothing, in words; `counted` when it was judged and found wrong (a
    code refused unjudged, while its address or the table waits, is not)."""

    words: str
    counted: bool


class TableCodes:
    """The table's key (the QR link's) and its typed code, and the wrong codes tried lately."""

    def __init__(self, key: str, code: str | None = None) -> None:
        self.key = key
        self.code = code or new_table_code()
        self._by_address: dict[str, deque[float]] = {}  # address -> when, the last minute's
        self._table: Bucket | None = None

    def renew(self) -> None:
        """A new typed code (a game ended): whoever saw the old one cannot use it."""
        self.code = new_table_code(self.code)

    def check(self, address: str, given: object, now: float) -> WrongCode | None:
        """None when `given` (the key, or the typed code) opens the table for `address`."""
        typed = str(given).strip() if isinstance(given, (str, int)) else ""
        if secrets.compare_digest(typed.encode(), self.key.encode()):
            return None  # the QR link: a secret nobody guesses, never made to wait
        wrong = self._recent(address, now)
        if len(wrong) >= WRONG_CODES_A_MINUTE:
            return WrongCode(ADDRESS_WAITS, counted=False)
        guessable = len(typed) == CODE_DIGITS and typed.isdigit()
        table = self._table_budget(now)
        if guessable and table.level(now) < 1:
            return WrongCode(TABLE_WAITS, counted=False)
        if secrets.compare_digest(typed.encode(), self.code.encode()):
            return None
        wrong.append(now)
        if guessable:
            table.take(now)
        shown = typed if len(typed) <= 2 * CODE_DIGITS else "that code"
        return WrongCode(
            f"{shown or 'nothing'} is not this table's code: the tower's display shows it "
            "between games",
            counted=True,
        )

    def _recent(self, address: str, now: float) -> deque[float]:
        """The wrong codes from `address` in the last minute (the newest address last: the
        oldest are forgotten beyond ADDRESSES_KEPT)."""
        wrong = self._by_address.pop(address, deque())
        self._by_address[address] = wrong
        while len(self._by_address) > ADDRESSES_KEPT:
            del self._by_address[next(iter(self._by_address))]
        while wrong and wrong[0] < now - 60:
            wrong.popleft()
        return wrong

    def _table_budget(self, now: float) -> Bucket:
        if self._table is None:  # made at the first code, on the clock the hub reads
            self._table = Bucket(TABLE_WRONG_CODES, TABLE_WRONG_CODES_A_MINUTE / 60, now)
        return self._table
