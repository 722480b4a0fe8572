"""The tournament's record on the broker (docs/league.md, "A rebuilt league keeps its
tournament"): the league's file is a cache of what was published, and the organiser's draw,
starts, closed tables and players who left are published by no tower. So the league publishes
them itself, as a tower publishes its results: the latest tournament whole (its entrants, every
round's seatings, each table's game kept), retained with QoS 1 on
`prefix/league/LEAGUE/tournament`, again at each change and each connection. A league whose
file was emptied (`--rebuild`) reads it back from there before the towers' journals come.

The record is signed with the organiser's password (HMAC-SHA256): anyone on the café's Wi-Fi
may be able to publish there if the broker's ACL lets them, and a forged record would hand out
points. A record not signed with this league's password, or not one the league wrote, is
refused in words and changes nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
from typing import Any

from firmware_py.errors import TowerError
from firmware_py.json_text import json_value
from firmware_py.league.tournament_store import TournamentStore

MAX_RECORD = 512 * 1024  # bytes: 100 players, 10 rounds of 20 tables take about 60 KiB


class RecordRefused(TowerError, ValueError):
    """A record on the broker that the league does not take, and why, in words."""


def record_topic(prefix: str, league: str) -> str:
    """Four levels (a tower's are three): never taken for a tower's topic."""
    return f"{prefix}/league/{league}/tournament"


def record_message(store: TournamentStore, key: bytes) -> bytes | None:
    """The latest tournament, signed; None before the first."""
    header = store.current()
    if header is None:
        return None
    number = header.id
    body = json.dumps({
        "tournament": [number, header.name, header.rounds, header.created, header.ended,
                       header.towers],
        "entrants": [[one.name, one.computer, one.left_after] for one in store.entrants(number)],
        "seatings": store.db.execute(
            "SELECT round, tower, players, drawn, started FROM seatings WHERE tournament = ? "
            "ORDER BY round, tower", (number,)).fetchall(),
        "games": store.db.execute(
            "SELECT round, tower, game, scores FROM round_games WHERE tournament = ? "
            "ORDER BY round, tower", (number,)).fetchall(),
    }, ensure_ascii=False)  # fmt: skip
    signature = hmac.new(key, body.encode(), hashlib.sha256).hexdigest()
    return json.dumps({"record": body, "signature": signature}).encode()


def read_record(payload: bytes, key: bytes | None) -> dict[str, Any]:
    """The record in a message, once its signature is this league's; RecordRefused if not."""
    if key is None:
        raise RecordRefused("this league has no organiser's password to check it with")
    if len(payload) > MAX_RECORD:
        raise RecordRefused(f"it is larger than {MAX_RECORD // 1024} KiB")
    try:
        outer = json_value(payload)
        body, signature = outer["record"], outer["signature"]
        if not isinstance(body, str) or not isinstance(signature, str):
            raise TypeError
    except (ValueError, TypeError, KeyError):
        raise RecordRefused("it is not a record the league wrote") from None
    expected = hmac.new(key, body.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(signature.encode(), expected.encode()):
        raise RecordRefused("it is not signed with this league's organiser's password")
    try:  # (signed, yet not a record: written by a league of another version, or damaged)
        record = json_value(body)
    except ValueError:
        raise RecordRefused("it is signed, but it is not a record this league can read") from None
    if not isinstance(record, dict):
        raise RecordRefused("it is not a record the league wrote")
    return record


def restore(store: TournamentStore, record: dict[str, Any]) -> bool:
    """The record's tournament into the file, when the file knows no tournament as new (an
    emptied file, or an older one); False when the file's is as new (the file wins)."""
    header = store.current()
    try:
        number, name, rounds, created, ended, towers = record["tournament"]
        if header is not None and header.id >= number:
            return False
        with store.db:
            store.db.execute("BEGIN IMMEDIATE")
            store.db.execute(
                "INSERT INTO tournaments VALUES (?, ?, ?, ?, ?, ?)",
                (number, name, rounds, created, ended, json.dumps(towers)),
            )
            store.db.executemany(
                "INSERT INTO entrants VALUES (?, ?, ?, ?)",
                [(number, *one) for one in record["entrants"]],
            )
            store.db.executemany(
                "INSERT INTO seatings VALUES (?, ?, ?, ?, ?, ?)",
                [(number, *one) for one in record["seatings"]],
            )
            store.db.executemany("INSERT INTO round_games VALUES (?, ?, ?, ?, ?)",
                                 [(number, *one) for one in record["games"]])  # fmt: skip
    except (KeyError, TypeError, ValueError, sqlite3.Error) as error:
        raise RecordRefused(f"it cannot be read back ({error})"[:200]) from None
    return True
