"""Tournament mode (issue 42) on a real broker: Debian's mosquitto started here, real `qwixx-tower
run` processes as the café's towers (computer players, --pace 0, [mqtt] commands =
["tournament"]), the real `qwixx-tower league`, and the organiser at its page (forms, a cookie).
The format is the German Qwixx championship's qualifiers' (docs/league.md, "Tournaments": five
rounds, the tables drawn again before each round, placement points summed)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest
from support import HANG
from support.bus_listener import BusListener
from support.journal import EVENT_NEWS
from support.league import League
from support.organiser import PASSWORD, Browser, round_games, seatings
from support.tower import Tower

PLAYERS = ["Ann (easy)", "Ben (easy)", "Cleo (medium)", "Dan (hard)", "Eve (easy)",
           "Finn (medium)", "Gus (easy)", "Hal (medium)", "Ida (easy)"]  # fmt: skip
NAMES = [line.split()[0] for line in PLAYERS]


def tournament_tower(tmp_path, broker, name: str, pace: float = 0) -> Tower:
    """A tower with no seats of its own: the league seats each round."""
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    section = broker.mqtt_section(tower_id=name, extra='commands = ["tournament"]\n')
    return Tower(folder=folder, pace=pace, sections=section)


def the_league(tmp_path, broker) -> League:
    secret = tmp_path / "organiser-password"
    secret.write_text(PASSWORD + "\n")
    return League(tmp_path / "league", broker, league=f'organiser_password_file = "{secret}"\n')


def rubbish_on_the_tournament_topic(broker, towers: dict[str, Tower]) -> None:
    """A guest's device publishes a forged start and garbage on every tower's tournament topic:
    each tower counts them and plays on (no game started, no traceback)."""
    forged = {"tournament": 1, "round": 1, "rounds": 2, "started": "not a time",
              "players": [{"name": " Mallory", "computer": "hard"}]}  # fmt: skip
    with BusListener(broker, "qwixx/+/nothing") as guest:
        for name in towers:
            for payload in (json.dumps(forged).encode(), b"\xff\xfe", b"{" * 3000):
                guest.publish(f"qwixx/{name}/tournament", payload)
    for tower in towers.values():
        tower.wait_for("messages from the bus ignored since the start: [1-9]")
        assert "Traceback" not in tower.output


def wait_for_round_over(league: League, organiser: Browser, number: int) -> str:
    found = league.output.wait_until(
        lambda _: "over: every table reported" in organiser.get()[1] or None, HANG, every=0.2
    )
    page = organiser.get()[1]
    assert found and f"Round {number} of" in page, page
    return page


def a_cup_of_six_begun(tmp_path, broker, league: League, rounds: int,
                       pace: float = 0) -> tuple[dict[str, Tower], Browser]:  # fmt: skip
    """Towers t1 and t2 on the bus and a cup of six players whose first round has begun."""
    league.wait_on_the_bus()
    towers = {f"t{n}": tournament_tower(tmp_path, broker, f"t{n}", pace) for n in (1, 2)}
    for tower in towers.values():
        tower.wait_ready()
    league.output.wait_until(lambda _: len(league.towers_online()) == 2 or None, HANG, 0.1)
    organiser = Browser(league.url)
    organiser.sign_in()
    organiser.act("create", name="Cup", rounds=str(rounds), players="\n".join(PLAYERS[:6]))
    organiser.act("draw")
    organiser.act("start")
    return towers, organiser


def test_a_tournament_of_two_rounds_on_three_towers(tmp_path, broker):
    """The organiser creates a tournament of nine players and two rounds; each round the league
        draws them across the towers (every player at one table, tables of three to five), each
        tower seats its players and plays the round's game when the organiser starts it, and the
        placement points are summed: every table's points average 3 a player. At the end the page
    and every tower name the top players."""
    with the_league(tmp_path, broker) as league:
        league.wait_on_the_bus()
        towers = {f"t{n}": tournament_tower(tmp_path, broker, f"t{n}") for n in (1, 2, 3)}
        for tower in towers.values():
            tower.wait_ready()
        league.output.wait_until(lambda _: len(league.towers_online()) == 3 or None, HANG, 0.1)
        organiser = Browser(league.url)
        assert "Organiser's password" in organiser.get()[1]
        assert "not the organiser's password" in organiser.sign_in("guess-1234")
        assert "signed in as the organiser" in organiser.sign_in()
        guest = Browser(league.url)  # another device on the café's Wi-Fi
        assert guest.post("/tournament/create", rounds="1", players="A\nB\nC")[0] == 403
        elsewhere = organiser.post("/tournament/end", origin="http://evil.example")
        assert elsewhere[0] == 403  # another site open in the organiser's browser
        organiser.act("create", name="Friday cup", rounds="2", players="\n".join(PLAYERS))
        for number in (1, 2):
            page = organiser.act("draw")
            assert f"round {number}'s tables are drawn" in page, page
            drawn = seatings(league.database)[number]
            seated = sorted(name for players in drawn.values() for name in players)
            assert seated == sorted(NAMES) and all(3 <= len(p) <= 5 for p in drawn.values())
            for name, players in drawn.items():
                towers[name].wait_for(f"round {number} of 2: {', '.join(players)}")
            if number == 1:
                rubbish_on_the_tournament_topic(broker, towers)
            assert f"round {number} has begun" in organiser.act("start")
            page = wait_for_round_over(league, organiser, number)
        tables = sum(len(tables) for tables in seatings(league.database).values())
        assert len(round_games(league.database)) == tables  # each table's game counted once
        assert "tick" in organiser.act("end")  # a stray tap ends nothing
        page = organiser.act("end", sure="yes")
        points = [float(p) for p in re.findall(r"<td><b>([\d.]+)</b></td>", page)]
        assert len(points) == 9 and abs(sum(points) - 2 * 9 * 3) <= 0.05 * 9, page  # (shown to 0.1)
        assert "Winners" in page
        first = re.search(r'<ul class="winners"><li>1\. ([^:<]+): ([\d.]+)', page)
        assert first is not None, page
        for tower in towers.values():  # each tower names the top players too
            tower.wait_for(rf"Friday cup is over \(ended at \d\d:\d\d\): 1\. {first[1]} {first[2]}")
            tower.__exit__()


def test_a_tower_restarted_mid_round_carries_its_game_on_and_it_counts_once(tmp_path, broker):
    """A tower's plug pulled in the middle of the round's game: started again, it carries the
    game on from its journal (its seating heard again, retained, starts nothing new) and the
    game's result counts once for its table; the round closes when both tables reported."""
    with the_league(tmp_path, broker) as league:
        towers, organiser = a_cup_of_six_begun(tmp_path, broker, league, rounds=1, pace=0.05)
        pulled = towers["t1"]
        pulled.wait_for("round 1 begins")
        pulled.wait_until(lambda lines: sum(bool(EVENT_NEWS.match(line)) for line in lines) > 5)
        assert "t1" in organiser.get()[1].split("still playing:")[1]
        pulled.kill()
        pulled.start()
        wait_for_round_over(league, organiser, 1)
        games = round_games(league.database)
        assert [(tower, game.split("-")[1]) for _, tower, game in games] == [
            ("t1", "000001"), ("t2", "000001")]  # fmt: skip
        assert len(list((tmp_path / "t1" / "state").glob("game-*.jsonl"))) == 1
        for tower in towers.values():
            tower.__exit__()


def edited(database: Path, sql: str) -> None:
    """The league's file changed by hand, as an organiser with `sqlite3` would."""
    db = sqlite3.connect(database, isolation_level=None)
    try:
        db.execute(sql)
    finally:
        db.close()


def forge_the_record(broker) -> None:
    """A guest's device puts a record of its own in the league's place (retained): unsigned,
    then garbage. The league refuses both in words and puts its own back."""
    forged = {"record": json.dumps({"tournament": [9, "Mine", 1, "x", None, []]}),
              "signature": "0" * 64}  # fmt: skip
    with BusListener(broker, "qwixx/+/nothing") as guest:
        for payload in (json.dumps(forged).encode(), b"\xff{"):
            guest.publish("qwixx/league/cafe/tournament", payload, qos=1, retain=True)


@pytest.mark.parametrize("how", ["--rebuild", "damaged"])
def test_a_rebuilt_league_reads_its_tournament_back_from_the_broker(tmp_path, broker, how):
    """docs/league.md, "A rebuilt league keeps its tournament": the league's file is a cache;
    emptied (`--rebuild`), or set aside at the start as damaged (here: the tournament's end
    edited into a word), it gets the games from the towers' journals and the organiser's
    draw, starts and tables counted from the tournament's signed record, retained on the
    broker. A forged record is refused in words, and the league's own is put back."""
    with the_league(tmp_path, broker) as league:
        towers, organiser = a_cup_of_six_begun(tmp_path, broker, league, rounds=2)
        standings = wait_for_round_over(league, organiser, 1).split("Round 1 of")[1]
        drawn, counted = seatings(league.database), round_games(league.database)
        forge_the_record(broker)
        league.output.wait_until(
            lambda lines: sum("record on the broker is refused" in one for one in lines) >= 2,
            HANG)  # fmt: skip
        assert "not signed with this league's organiser's password" in league.output.text
        league.stop()
        if how == "damaged":
            edited(league.database, "UPDATE tournaments SET ended = 'online'")
            league.start()
            assert league.output.first(r"is damaged \(the ended of a row of tournaments", 0, HANG)
        else:
            league.start("--rebuild")
        assert league.output.first("read back from its record on the broker", 0, HANG)
        league.output.wait_until(lambda _: round_games(league.database) == counted or None,
                                 HANG, 0.1)  # fmt: skip
        assert seatings(league.database) == drawn
        organiser = Browser(league.url)
        organiser.sign_in()
        assert organiser.get()[1].split("Round 1 of")[1] == standings
        assert "round 2's tables are drawn" in organiser.act("draw")  # it goes on from there
        assert "Traceback" not in league.output.text
        for tower in towers.values():
            tower.__exit__()


def test_a_broken_towers_table_has_its_result_typed_in_by_hand(tmp_path, broker):
    """docs/league.md, "A result typed by hand": t1 breaks down mid-round, its players finish
    on paper, and the organiser types their scores on the page. A guest's post, scores that are
    not numbers and a table that is not in the round are refused in words; the result is marked
    as typed by hand and counts once (typed again: refused)."""
    with the_league(tmp_path, broker) as league:
        towers, organiser = a_cup_of_six_begun(tmp_path, broker, league, rounds=1, pace=0.05)
        towers["t1"].wait_for("round 1 begins")
        towers["t1"].kill()  # (for good: its plug pulled, and it stays out)
        league.output.wait_until(
            lambda _: "still playing: t1." in organiser.get()[1] or None, HANG, every=0.2
        )
        players = seatings(league.database)[1]["t1"]
        typed = {f"score-{seat}": str(30 - 5 * seat) for seat in range(len(players))}
        guest = Browser(league.url)
        assert guest.post("/tournament/by-hand", tower="t1", **typed)[0] == 403
        wrong = organiser.act("by-hand", tower="t1", **{**typed, "score-0": "12a"})
        assert f"{players[0]}'s score '12a' is not a sheet's total" in wrong
        assert "'t9' has no table in this round" in organiser.act("by-hand", tower="t9", **typed)
        page = organiser.act("by-hand", tower="t1", **typed)
        assert "t1's result is typed in by hand" in page
        assert "typed in by hand by the organiser" in page and "over: every table" in page
        assert "counts once" in organiser.act("by-hand", tower="t1", **typed)
        assert next(row[1:] for row in round_games(league.database)) == ("t1", "(by hand)")
        points = [float(p) for p in re.findall(r"<td><b>([\d.]+)</b></td>", page)]
        assert len(points) == 6 and abs(sum(points) - 6 * 3) <= 0.05 * 6, page
        assert "Traceback" not in league.output.text
        towers["t2"].__exit__()
