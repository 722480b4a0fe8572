"""The tournament's record on the broker (firmware_py/league/tournament_record.py;
docs/league.md, "A rebuilt league keeps its tournament"): an emptied league file gets the
tournament back from it whole, and a record not signed with the organiser's password, or
rubbish, is refused in words and changes nothing."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_py.league.core import League
from firmware_py.league.store import Store
from firmware_py.league.tournament import read_entrants
from firmware_py.league.tournament_record import RecordRefused, read_record

KEY = b"the-organisers-secret"


def a_league() -> League:
    league = League(Store(Path(":memory:")), "qwixx")
    league.tournament.clock = lambda: datetime(2026, 11, 27, 19, 0, tzinfo=UTC)
    league.tournament.chance = random.Random(7)
    league.tournament.key = KEY
    return league


def a_tournament_one_round_closed() -> League:
    league = a_league()
    league.tournament.create("Cup", 3, read_entrants("Ann\nBen\nCleo\nDan\nEve\nRobo (hard)"))
    league.tournament.draw(["t1", "t2"])
    league.tournament.start()
    league.tournament.close_round()
    league.tournament.leave("Ben")
    return league


def test_an_emptied_file_gets_the_whole_tournament_back():
    before = a_tournament_one_round_closed()
    record = before.tournament.record()
    assert record is not None
    after = a_league()
    assert after.tournament.read_back(record)
    assert after.tournament.header == before.tournament.header
    assert after.tournament.rounds() == before.tournament.rounds()
    assert after.tournament.totals() == before.tournament.totals()  # Ben's leaving too
    assert set(after.tournament.outbox) == {"t1", "t2"}  # the towers hear their seats again
    assert not after.tournament.read_back(record)  # the file's own wins: nothing twice


def test_a_signed_record_that_is_not_json_is_refused_in_words_and_changes_nothing():
    """A record signed with the league's own password whose body is not JSON (a league of
    another version, a damaged retained message): refused in words, counted, the tournament
    sent again; it ended the league's connection to the broker in a traceback (found by
    tools/fuzz.py league_bus)."""
    league = a_tournament_one_round_closed()
    header, body = league.tournament.header, "not a record {"
    signature = hmac.new(KEY, body.encode(), hashlib.sha256).hexdigest()
    with pytest.raises(RecordRefused, match="signed, but it is not a record this league can"):
        read_record(json.dumps({"record": body, "signature": signature}).encode(), KEY)
    league.take_record(json.dumps({"record": body, "signature": signature}).encode())
    assert league.tournament.header == header and league.tournament.record_sent is None
    assert league.store.counts().get("malformed") == 1


def test_a_record_signed_with_another_password_is_refused_in_words():
    record = a_tournament_one_round_closed().tournament.record()
    assert record is not None
    with pytest.raises(RecordRefused, match="not signed with this league's organiser's password"):
        read_record(record, b"another-password")
    forged = json.loads(record)
    forged["record"] = forged["record"].replace('"Cup"', '"Mine"')
    with pytest.raises(RecordRefused, match="not signed"):
        read_record(json.dumps(forged).encode(), KEY)


@given(st.binary(max_size=300))
def test_rubbish_on_the_record_topic_changes_nothing(payload):
    league = a_league()
    league.take_record(payload)  # (logged and counted, never raised)
    assert league.tournament.header is None
