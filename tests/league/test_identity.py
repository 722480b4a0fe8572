"""Who a player is across the café's tables (firmware_py/league/identity.py, docs/league.md
"Who a player is"): the name, compared as the seats compare names (firmware_py/seats/names.py),
so that a player who types her name otherwise at the next table is still one player."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from firmware_py.league.core import League
from firmware_py.league.identity import player_key
from firmware_py.league.incoming import Placing
from firmware_py.league.store import Store
from firmware_py.seats.names import looks_alike


def result(tower: str, number: int, minute: int, *names: str, kind: str = "phone") -> bytes:
    """A finished game of `tower` in which `names` placed in that order."""
    players = [
        {"name": name, "seat": seat, "kind": kind, "level": None, "score": 60 - 10 * seat,
         "penalties": 0, "place": seat}
        for seat, name in enumerate(names, start=1)
    ]  # fmt: skip
    game = {
        "id": f"{tower}-{number:06d}", "tower": tower, "game": number, "variant": "classic",
        "started": None, "finished": f"2026-11-22T19:{minute:02d}:00+00:00", "reason": "locks",
        "winners": [names[0]], "players": players,
    }  # fmt: skip
    return json.dumps(game).encode()


def person(name: str) -> Placing:
    return Placing(name, 1, "phone", None, 0, 0, 1)


def test_one_player_whatever_case_or_script_she_types_her_name_in_at_each_table():
    """Ian types "Ian" at table 1, "ian" on his phone at table 2, "IAN" at table 3, and at
    table 4 his phone's keyboard gives a Cyrillic I: the seats take all four for one name
    (names.py: the skeleton with case folded), and the league has one Ian with four games."""
    league = League(Store(Path(":memory:")), "qwixx")
    for number, spelled in enumerate(("Ian", "ian", "IAN", "\u0406an"), start=1):
        league.take(f"qwixx/t{number}/result", result(f"t{number}", 1, number, spelled, "Zed"))
    people = {one.key: one for one in league.ratings.standings()}
    assert len(people) == 2, [one.name for one in people.values()]
    ian = people[player_key(person("ian"))]
    assert (ian.games, ian.wins, ian.name) == (4, 4, "\u0406an")  # spelled as in his latest game
    assert len(league.store.latest(10, player=ian.key)) == 4  # his page lists all four


NAME = st.text(st.sampled_from("AaBbIiLlNnOoEeRrSsTt 0123"), min_size=1, max_size=12)


@given(NAME)
def test_a_name_in_any_case_is_one_key(name):
    """The case a name is typed in never makes a second player."""
    keys = {player_key(person(spelled)) for spelled in (name, name.upper(), name.lower())}
    assert len(keys) == 1


@given(NAME, NAME)
def test_names_with_one_key_are_names_a_table_refuses_side_by_side(one, other):
    """One key is one player only where a tower would not seat both names at one table: two
    people whose names the seats tell apart are never merged by the league."""
    if player_key(person(one)) == player_key(person(other)):
        assert looks_alike(one, other)


def test_a_computer_is_not_the_person_of_its_name():
    assert player_key(person("Robo")) != player_key(Placing("Robo", 1, "computer", "hard", 0, 0, 1))


def test_a_file_of_keys_made_the_old_way_is_keyed_again_at_start(tmp_path):
    """A league file from before (keys with case kept: "Ian" as "p:lan", saved ratings of
    those keys) is keyed again when the league starts: Ian's page lists his games of every
    spelling, and the standings have one Ian."""
    path = tmp_path / "league.sqlite"
    first = League(Store(path), "qwixx")
    for number, spelled in enumerate(("Ian", "ian"), start=1):
        first.take(f"qwixx/t{number}/result", result(f"t{number}", 1, number, spelled, "Zed"))
    first.save_ratings()
    old = first.store.db
    old.execute("UPDATE placings SET player = 'p:lan' WHERE name = 'Ian'")
    old.execute("UPDATE ratings SET key = 'p:lan' WHERE name = 'Ian'")
    old.execute("PRAGMA user_version = 1")
    first.store.close()
    again = League(Store(path), "qwixx")
    ian = next(one for one in again.ratings.standings() if one.key == "p:ian")
    assert (ian.games, len(again.ratings.standings())) == (2, 2)
    assert len(again.store.latest(10, player="p:ian")) == 2


def test_every_table_s_unnamed_pad_is_nobody_in_the_league():
    """A pad's seat nobody named goes by "Player 2" at every table (docs/league.md): two
    strangers at two tables are not one player. Such a seat is in the game's result and its
    row of games, but never in the standings nor rated: the named players are rated by their
    places among themselves."""
    league = League(Store(Path(":memory:")), "qwixx")
    league.take("qwixx/t1/result", result("t1", 1, 1, "Player 2", "Ann", "Ben", kind="pad"))
    league.take("qwixx/t2/result", result("t2", 1, 2, "Player 2", "Cleo", kind="pad"))
    rated = {one.name: (one.games, one.wins) for one in league.ratings.standings()}
    assert rated == {"Ann": (1, 0), "Ben": (1, 0), "Cleo": (1, 0)}
    by_name = {one.name: one for one in league.ratings.standings()}
    assert by_name["Ann"].mu > 25 > by_name["Ben"].mu  # Ann above Ben, whatever Player 2 did
    assert league.store.latest(10, player=player_key(person("Player 2"))) == []
    assert len(league.store.latest(10)) == 2
