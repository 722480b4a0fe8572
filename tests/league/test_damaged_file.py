"""The league's file damaged (a power cut on the card) or edited by hand (an organiser with
`sqlite3`): the league starts and keeps every game beside a broken row, or sets a damaged file
aside and begins a new one the towers fill again; never a traceback (found by fuzzing,
tests/fuzz/targets_league_files.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from support.tournament_results import result

from firmware_py.league.core import League, open_league
from firmware_py.league.pages import league_page
from firmware_py.league.store import Store, StoreError
from firmware_py.league.tournament import read_entrants
from firmware_py.league.tournament_pages import tournament_page


def league_file(path: Path) -> Path:
    """A league's file with three games of tower t1, its ratings saved at its stop."""
    league = League(Store(path), "qwixx")
    for number in (1, 2, 3):
        league.take("qwixx/t1/result", result("t1", number, {"Ann": 30 + number, "Ben": 20}, None))
    league.save_ratings()
    league.store.close()
    return path


def edited(path: Path, sql: str, *values: object) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute(sql, values)
    db.close()


def games_rated(league: League) -> dict[str, int]:
    return {one.name: one.games for one in league.ratings.players.values()}


def front_page(league: League) -> str:
    store = league.store
    return league_page(league.ratings.standings(), store.towers(), league.tables,
                       league.clocks_ahead, store.latest(50), 100)  # fmt: skip


def test_a_game_edited_into_rubbish_is_left_out_and_the_games_beside_it_still_count(tmp_path):
    path = league_file(tmp_path / "league.sqlite")
    edited(path, "UPDATE games SET players = 'Ann 31, Ben 20' WHERE id = 't1-000002'")
    edited(path, "DELETE FROM rated")  # every game rated again at the start

    league = open_league(path, "qwixx")  # was: JSONDecodeError, the league not started

    assert [game.id for game in league.store.latest(50)] == ["t1-000003", "t1-000001"]
    assert games_rated(league)["Ann"] == 2


def test_saved_ratings_edited_into_rubbish_are_made_again_from_the_games(tmp_path):
    path = league_file(tmp_path / "league.sqlite")
    edited(path, "UPDATE rated SET last = 'yesterday'")

    league = open_league(path, "qwixx")  # was: JSONDecodeError, the league not started

    assert games_rated(league)["Ann"] == 3


def test_a_game_s_text_stored_as_bytes_still_lets_the_front_page_draw(tmp_path):
    path = league_file(tmp_path / "league.sqlite")
    edited(path, "UPDATE games SET variant = ? WHERE id = 't1-000002'", b"classic")

    page = front_page(open_league(path, "qwixx"))  # was: TypeError drawing the page

    assert "t1" in page


def test_a_name_damaged_on_the_card_is_shown_and_its_page_still_draws(tmp_path):
    path = league_file(tmp_path / "league.sqlite")
    edited(path, "UPDATE ratings SET name = CAST(X'416EFF' AS TEXT) WHERE name = 'Ann'")

    page = front_page(open_league(path, "qwixx"))  # was: OperationalError, no page

    assert "An\ufffd" in page


@pytest.mark.parametrize(
    "sql, value",
    [("UPDATE ratings SET mu = ? WHERE name = 'Ann'", "high"),
     ("UPDATE ratings SET name = ? WHERE name = 'Ann'", b"Ann"),
     ("UPDATE ratings SET key = ? WHERE name = 'Ann'", None)],
)  # fmt: skip
def test_saved_ratings_edited_into_values_of_other_kinds_are_made_again(tmp_path, sql, value):
    """A saved rating whose number became text, whose name became bytes or whose key became
    NULL made the front page end in a traceback (TypeError); now the saved ratings are not
    used and every game is rated again, as for saved ratings that are no JSON."""
    path = league_file(tmp_path / "league.sqlite")
    edited(path, sql, value)

    league = open_league(path, "qwixx")

    assert ">Ann</a>" in front_page(league) and games_rated(league) == {"Ann": 3, "Ben": 3}


@pytest.mark.parametrize("name", [b"t2", None])
def test_a_tower_whose_name_is_no_text_is_left_out_and_the_page_draws(tmp_path, name):
    """A tower's name in the file edited into bytes or NULL: the front page ended in a
    traceback (bytes and text cannot be sorted together). Now that row is left out; tower
    t1 is shown and asked for the games after its newest, as before."""
    path = league_file(tmp_path / "league.sqlite")
    edited(path, "INSERT INTO towers VALUES (?, 1)", name)

    league = open_league(path, "qwixx")

    assert "t1" in front_page(league) and league.asked_again() == {"t1": 4}


@pytest.mark.parametrize("damage", ["a page zeroed", "no SQLite file"])
def test_a_file_damaged_on_the_card_is_set_aside_and_a_new_one_begun(tmp_path, damage):
    """Nobody at a café should have to delete the league's file for the league to start: a
    damaged file (once: a traceback, or a page failing later in the evening; then: a refusal
    to start until someone ran --rebuild) is kept in quarantine/ as it was, and a new file is
    begun, which the towers fill again from their journals (docs/league.md)."""
    path = league_file(tmp_path / "league.sqlite")
    data = bytearray(path.read_bytes())
    if damage == "a page zeroed":
        data[4096 + 8 : 4096 + 64] = bytes(56)  # the second page's cells, zeroed by a power cut
    else:
        data = bytearray(b"rubbish a power cut left " * 200)
    path.write_bytes(bytes(data))

    league = open_league(path, "qwixx")
    assert league.store.games() == 0 and front_page(league)
    assert (tmp_path / "quarantine" / "league.sqlite").read_bytes() == bytes(data)


def test_a_file_that_cannot_be_had_is_said_and_left_where_it_is(tmp_path):
    """What is no damage (here a folder where the file goes; likewise no permission, a card
    gone read-only or failing, another process holding the file) is said in words, and
    nothing is moved: a new file would not help."""
    path = tmp_path / "league.sqlite"
    (path / "kept").mkdir(parents=True)
    with pytest.raises(StoreError, match="cannot be used"):
        open_league(path, "qwixx")
    assert (path / "kept").is_dir() and not (tmp_path / "quarantine").exists()


def test_a_game_number_edited_into_text_does_not_stop_the_league_asking_the_towers(tmp_path):
    """The league asks each tower from the game after its newest (docs/league.md): a newest
    game whose number an organiser edited into text is not one to count from."""
    path = league_file(tmp_path / "league.sqlite")
    edited(path, "UPDATE games SET number = 'three' WHERE number = 3")
    league = open_league(path, "qwixx")
    assert league.asked_again() == {"t1": 3}  # after game 2, the newest with a number


SCHEMA_DAMAGE = {  # what was done to a league's file, in one connection
    "a column dropped": "ALTER TABLE games DROP COLUMN reason",
    "a column added": "ALTER TABLE games ADD COLUMN note TEXT",
    "a column renamed in sqlite_master": "PRAGMA writable_schema = ON; UPDATE sqlite_master "
    "SET sql = replace(sql, 'online', 'on_bus') WHERE name = 'towers'",
    "a table dropped": "DROP TABLE placings",
    "a table made a view": "DROP TABLE seatings; CREATE VIEW seatings AS SELECT 1 AS round",
    "a trigger put on a table": "CREATE TRIGGER refuse BEFORE INSERT ON games "
    "BEGIN SELECT RAISE(ABORT, 'no'); END",
}


def schema_edited(path: Path, script: str) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(script)
    db.close()


@pytest.mark.parametrize("damage", SCHEMA_DAMAGE)
def test_a_file_whose_tables_are_not_the_league_s_is_set_aside_and_the_page_answers(
    tmp_path, damage
):
    """SQLite's integrity_check reads pages, not the tables' meaning: a file whose tables were
    changed (by hand, or by a damaged sqlite_master) started, then a page failed later in the
    evening ("no such column: online"), or every result from the bus did ("table games has 7
    columns but 8 values were supplied"), or players' pages lost their games. Now it is
    damaged, as a file a power cut broke: kept in quarantine/ as it was, a new file begun."""
    path = league_file(tmp_path / "league.sqlite")
    schema_edited(path, SCHEMA_DAMAGE[damage])
    data = path.read_bytes()

    league = open_league(path, "qwixx")

    assert (tmp_path / "quarantine" / "league.sqlite").read_bytes() == data
    assert league.store.games() == 0 and "t1" not in front_page(league)
    league.take("qwixx/t1/result", result("t1", 4, {"Ann": 30, "Ben": 20}, None))  # filled again
    assert "t1" in front_page(league) and league.tournament.store.tables(1) == {}
    assert len(league.store.latest(50, player=league.ratings.standings()[0].key)) == 1


def test_a_file_of_an_older_league_gets_the_tables_it_lacks_and_keeps_its_games(tmp_path):
    """A file from before the ratings were saved and before tournaments (no such tables, nor
    the index on when a tower's games began, keys made the first way) is no damage: the tables
    and the index are made, its games kept and keyed anew, nothing set aside."""
    path = league_file(tmp_path / "league.sqlite")
    for table in ("ratings", "rated", "tournaments", "entrants", "seatings", "round_games"):
        edited(path, f"DROP TABLE {table}")
    edited(path, "DROP INDEX games_of_tower_begun")
    edited(path, "PRAGMA application_id = 0")  # (not stamped with its tables: older)
    edited(path, "PRAGMA user_version = 1")

    league = open_league(path, "qwixx")

    assert not (tmp_path / "quarantine").exists()
    assert [game.id for game in league.store.latest(50)] == ["t1-000003", "t1-000002", "t1-000001"]
    assert games_rated(league) == {"Ann": 3, "Ben": 3} and league.tournament.store.tables(1) == {}
    league.save_ratings()  # (into a table made)
    league.store.close()
    assert open_league(path, "qwixx").saved.load() is not None


def a_round_played(path: Path) -> list[str]:
    """A league's file whose tournament's first round is drawn (two tables of three, at two of
    three towers), begun, and each table's game in; the towers of its tables."""
    league = League(Store(path), "qwixx")
    league.tournament.create("Cup", 2, read_entrants("Ann\nBen\nCleo\nDan\nEve\nFinn"))
    league.tournament.draw(["t1", "t2", "t3"])
    league.tournament.start()
    tables = league.tournament.round_now()[1]
    for number, table in enumerate(tables, start=1):
        scores = {name: 40 - seat for seat, name in enumerate(table.players)}
        league.take(f"qwixx/{table.tower}/result", result(table.tower, number, scores, (1, 1)))
    league.store.close()
    return [table.tower for table in tables]


def the_tournament_page(league: League) -> str:
    tournament = league.tournament
    return tournament_page(tournament.header, *tournament.round_now(), tournament.totals(), "")


@pytest.mark.parametrize(
    "column, value",
    [("round_games.scores", "Ann 40, Ben 39"), ("round_games.scores", '["Ann", 40]'),
     ("seatings.players", b"Ann, Ben")],
)  # fmt: skip
def test_a_tournament_table_edited_into_rubbish_still_lets_the_tournament_page_draw(
    tmp_path, column, value
):
    """A table's players or scores in the file edited (or damaged) into what is no JSON of
    the league's: the tournament's page ended in a traceback (JSONDecodeError, AttributeError;
    found by fuzzing league_file). That table is shown without them, said in the log; the
    round's other tables as they were."""
    path = tmp_path / "league.sqlite"
    first, edited_one = a_round_played(path)
    table, name = column.split(".")
    edited(path, f"UPDATE {table} SET {name} = ? WHERE tower = ?", value, edited_one)
    league = open_league(path, "qwixx")

    page = the_tournament_page(league)  # was: a traceback

    assert f"<b>{first}</b>" in page and f"<b>{edited_one}</b>" in page
    kept = league.tournament.round_now()[1][0]
    assert kept.tower == first and len(kept.players) == len(kept.scores) == 3


@pytest.mark.parametrize(
    "column, value",
    [("tournaments.ended", "online"), ("tournaments.rounds", 10**9), ("tournaments.name", b"Cup"),
     ("entrants.name", b"Ann"), ("entrants.left_after", "one"), ("seatings.round", 1.5),
     ("seatings.drawn", "at eight"), ("seatings.drawn", "0001-01-01T00:00:00+01:00"),
     ("round_games.tower", b"t1")],
)  # fmt: skip
def test_a_tournament_value_of_another_kind_sets_the_file_aside_and_its_record_restores_it(
    tmp_path, column, value
):
    """The organiser's decisions edited (or damaged past SQLite's checks) into values of kinds
    the league never writes there: the tournament's page ended in a traceback ("Invalid
    isoformat string: 'online'", found by fuzzing league_rows), or a billion rounds filled the
    points table. Now the file is damaged at the start: kept in quarantine/ as it was, a new
    one begun; the tournament comes back whole from its signed record on the broker (here
    the record the league made before the edit), the games from the towers."""
    path = tmp_path / "league.sqlite"
    a_round_played(path)
    before = League(Store(path), "qwixx")
    before.tournament.key = b"the-organisers-secret"
    record, header, totals = (
        before.tournament.record(),
        before.tournament.header,
        before.tournament.totals(),
    )
    before.store.close()
    table, name = column.split(".")
    edited(path, f"UPDATE {table} SET {name} = ? WHERE rowid = 1", value)
    data = path.read_bytes()

    league = open_league(path, "qwixx")

    assert (tmp_path / "quarantine" / "league.sqlite").read_bytes() == data
    assert league.tournament.header is None and "No tournament" in the_tournament_page(league)
    league.tournament.key = b"the-organisers-secret"
    assert record is not None and league.tournament.read_back(record)
    assert league.tournament.header == header and league.tournament.totals() == totals
    assert "Cup" in the_tournament_page(league)
