"""What the league takes from a result topic (firmware_py/league/incoming.py): a tower's result
as docs/home-assistant.md describes it, and nothing else, said in words. Every device on a
café's network may publish anything on any topic."""

from __future__ import annotations

import json

import pytest

from firmware_py.league.incoming import MAX_RESULT, NotAResult, read_result


def result(**changes) -> dict:
    """A result as a tower publishes it (docs/home-assistant.md, "result")."""
    players = [
        {"name": "Ann", "seat": 1, "kind": "phone", "level": None, "score": 41, "penalties": 0,
         "place": 2},
        {"name": "Ben", "seat": 2, "kind": "pad", "level": None, "score": 54, "penalties": 1,
         "place": 1},
        {"name": "Cleo", "seat": 3, "kind": "computer", "level": "hard", "score": 30,
         "penalties": 2, "place": 3},
    ]  # fmt: skip
    data = {
        "id": "kitchen-000012-20261122T190405Z", "tower": "kitchen", "game": 12,
        "variant": "classic", "started": "2026-11-22T19:04:05+00:00",
        "finished": "2026-11-22T19:31:40+00:00", "reason": "locks", "winners": ["Ben"],
        "players": players,
    }  # fmt: skip
    data.update(changes)
    return data


def encoded(data: dict) -> bytes:
    return json.dumps(data).encode()


def test_the_documented_result_is_taken():
    taken = read_result("kitchen", encoded(result()))
    assert taken.id == "kitchen-000012-20261122T190405Z" and taken.number == 12
    assert [(p.name, p.place) for p in taken.players] == [("Ann", 2), ("Ben", 1), ("Cleo", 3)]
    assert taken.order == ("2026-11-22T19:31:40+00:00", "2026-11-22T19:04:05+00:00", taken.id)


def test_times_in_another_zone_are_ordered_in_utc():
    taken = read_result("kitchen", encoded(result(finished="2026-11-22T20:31:40+01:00")))
    assert taken.finished == "2026-11-22T19:31:40+00:00"


def tampered(players_change=None, **changes) -> bytes:
    data = result(**changes)
    if players_change:
        players_change(data["players"])
    return encoded(data)


def rename(name):
    def change(players):
        players[0]["name"] = name

    return change


def double_ann(players):
    players[1]["name"] = "ann"  # looks like Ann: a tower would have numbered it "ann 2"


def score(value):
    def change(players):
        players[0]["score"] = value

    return change


@pytest.mark.parametrize(
    "payload, words",
    [
        (b"\xff\xfe", "not JSON in UTF-8"),
        (b"[1, 2]", "a result not a JSON object"),
        (b"[" * 1500, "nested too deeply"),  # (RecursionError: the league stopped hearing)
        (b"{" + b" " * MAX_RESULT + b"}", f"a result is at most {MAX_RESULT}"),
        (tampered(id="hall-000012"), "is not a game of tower 'kitchen'"),
        (tampered(tower="hall"), "is not a game of tower 'kitchen'"),
        (tampered(id="kitchen/#"), "is not a game's id"),
        (tampered(game=13), "is not the number in its id"),
        (tampered(variant="<script>"), "variant"),
        (tampered(reason="boredom"), "reason"),
        (tampered(started="yesterday"), "is not a time"),
        (tampered(finished="2026-11-22T19:31:40"), "says no time zone"),
        # A time that reads but no clock can show (year 1 ahead of UTC, 9999 behind it)
        # overflowed in the conversion to UTC: the league stopped hearing the bus.
        (tampered(started="0001-01-01T00:00:00+01:00"), "is not a time"),
        (tampered(finished="9999-12-31T23:59:59-01:00"), "is not a time"),
        (tampered(players=[]), "players must be a list of 1 to 5"),
        (tampered(players=["Ann"]), "each player must be a JSON object"),
        (tampered(rename("Ann\u200b\u200b")), "is not a player's name as a tower seats one"),
        (tampered(rename("<b>" + "x" * 40)), "is not a player's name as a tower seats one"),
        (tampered(rename("\u0301" * 3)), "is not a player's name as a tower seats one"),
        (tampered(double_ann), "look alike"),
        (tampered(score(10**9)), "score"),
        (tampered(score(True)), "score"),
        (tampered(score(99)), "the scores say"),
        (tampered(winners=["Ann"]), "are not the highest scores"),
    ],
)
def test_what_is_not_a_tower_s_result_is_refused_in_words(payload, words):
    with pytest.raises(NotAResult) as refused:
        read_result("kitchen", payload)
    assert words in str(refused.value)


def test_a_name_in_another_script_is_a_name():
    """A tower seats "Zoë" and "Жанна" as typed (firmware_py/seats/names.py)."""

    def two(players):
        players[0]["name"], players[1]["name"] = "Zoë", "Жанна"

    taken = read_result("kitchen", tampered(two, winners=["Жанна"]))
    assert [p.name for p in taken.players][:2] == ["Zoë", "Жанна"]
