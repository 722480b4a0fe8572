"""The café's league on a real broker (issue 42): Debian's mosquitto started here (TLS, a
password file), several real `qwixx-tower run` processes as towers (computer players), and the
real `qwixx-tower league` process reading their results: killed and started again in the middle
of the evening it loses nothing and counts nothing twice; started from an empty file it asks
the towers for their journals; a device publishing rubbish is counted and ignored; its page
shows names as typed, escaped."""

from __future__ import annotations

import html
import json
import re
import sqlite3
import threading
import urllib.request
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from support import HANG
from support.bus_listener import BusListener
from support.league import League, reading
from support.mosquitto import LISTENER, LISTENER_PASSWORD, Broker, guest_client
from support.tournament_results import result
from support.tower import Tower

from firmware_py.bus.results import NOTE
from firmware_py.journal.journal import number_of, read_game

PACE = 0  # computer players decide at once
PAGE_AT_ONCE = 3.0  # seconds: a page that takes longer has waited for something


def tower(tmp_path, broker, name, games=None, players="Ann,Ben,Cleo"):
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    return Tower("--players", players, folder=folder, pace=PACE, games=games,
                 sections=broker.mqtt_section(tower_id=name))  # fmt: skip


def results(listener: BusListener) -> dict[str, dict]:
    """Every distinct result the broker carried, by game id."""
    return {m.json()["id"]: m.json() for m in listener.heard if m.topic.endswith("/result")}


def games_and_placings(league: League) -> tuple[int, int]:
    """The games and the placings the league's file holds, read at one moment: one statement
    reads one snapshot of the file (its write-ahead log), while results keep arriving."""
    with reading(league.database) as db:
        query = "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM placings)"
        games, placings = db.execute(query).fetchone()
        return int(games), int(placings)


def wait_for_games(league: League, ids: set[str]) -> None:
    found = league.output.wait_until(lambda _: set(league.games()) == ids or None, HANG, every=0.1)
    assert found, f"the league keeps {sorted(league.games())}, the towers published {sorted(ids)}"


def test_killed_mid_evening_the_league_loses_nothing_and_counts_nothing_twice(tmp_path, broker):
    """Three towers play; the league is killed (SIGKILL) after its first results and started
    again while they play on: it ends with every game the towers published, each once, and
    each player's games counted once on the page."""
    heard = BusListener(broker, "qwixx/+/result")
    with heard, League(tmp_path / "league", broker) as league:
        league.wait_on_the_bus()
        towers = [tower(tmp_path, broker, f"t{n}", games=4) for n in (1, 2, 3)]
        league.output.wait_until(lambda _: len(league.games()) >= 2 or None, HANG, every=0.05)
        league.kill()
        heard.wait_until(lambda: len(results(heard)) >= 5)  # games end while it is away
        league.start()
        for each in towers:
            assert each.wait_for_exit() == 0
            each.__exit__()
        published = results(heard)
        wait_for_games(league, set(published))
        assert games_and_placings(league)[1] == sum(len(r["players"]) for r in published.values())
        status, page = league.get("/")
        assert status == 200
        plays = sum(1 for r in published.values() for p in r["players"] if p["name"] == "Ann")
        row = re.search(
            r'>Ann</a>.*?</td><td>[^<]*</td><td class="skill">[^<]*</td><td>(\d+)</td>', page
        )
        assert row is not None and int(row[1]) == plays, page  # Ann's games, each once
        assert league.counts().get("malformed", 0) == 0


def test_a_league_file_held_by_another_program_stops_nothing_and_its_games_come_again(
    tmp_path, broker
):
    """An organiser's `sqlite3` holds the league's file mid-edit (BEGIN IMMEDIATE) past the
    second a write waits: the next result stopped the league's listener for good ("database is
    locked"), and no game was kept again that evening. Now the league says so in its log and
    on its page, goes on, and keeps every game once the file is free: the towers are asked
    again at the next round."""
    heard = BusListener(broker, "qwixx/+/result")
    with heard, League(tmp_path / "league", broker, league="catch_up = 1\n") as league:
        league.wait_on_the_bus()
        with tower(tmp_path, broker, "t1") as one:
            league.output.wait_until(lambda _: league.games() or None, HANG, every=0.05)
            held = sqlite3.connect(league.database, isolation_level=None)
            held.execute("BEGIN IMMEDIATE")
            before = len(results(heard))
            heard.wait_until(lambda: len(results(heard)) >= before + 2)  # games while held
            said = "the league's file cannot be written now (database is locked)"
            assert league.output.first(re.escape(said), 0, HANG), league.output.text
            assert said in html.unescape(league.get("/")[1])
            held.execute("ROLLBACK")
            held.close()
            while_held = set(results(heard))
            league.output.wait_until(
                lambda _: set(league.games()) >= while_held or None, HANG, every=0.1
            )
            assert league.output.first("the league's file is written again", 0, HANG)
            assert said not in html.unescape(league.get("/")[1])
            one.stop()
        assert league.process.poll() is None  # the league never stopped


def test_the_league_page_answers_at_once_while_its_file_is_held(tmp_path, broker):
    """While an organiser's `sqlite3` held the file, each tower's result waited for it in the
    league's one thread, which the page shares: with 10 results in flight the page took 15 s
    to answer. Now, once a write has waited in vain, none waits until the file is free: the
    page answers within PAGE_AT_ONCE (10 ms when nothing is held), and a result sent again
    once the file is free is kept."""
    with League(tmp_path / "league", broker, league="catch_up = 1\n") as league:
        league.wait_on_the_bus()
        held = sqlite3.connect(league.database, isolation_level=None)
        held.execute("BEGIN IMMEDIATE")
        guest = guest_client(broker)
        scores = {"Ann": 30, "Ben": 20}
        for number in range(1, 11):
            guest.publish("qwixx/g1/result", result("g1", number, scores, None), qos=1)
        assert league.output.first("the league's file cannot be written now", 0, HANG)
        for _ in range(3):
            with urllib.request.urlopen(league.url, timeout=PAGE_AT_ONCE) as answer:
                assert answer.status == 200
        held.execute("ROLLBACK")
        held.close()
        guest.publish("qwixx/g1/result", result("g1", 1, scores, None), qos=1)  # sent again
        assert league.output.first("the league's file is written again", 0, HANG)
        # (a result of the ten still on its way when the file was freed may be kept too)
        kept = league.output.wait_until(lambda _: "g1-000001" in league.games() or None, HANG)
        assert kept, league.games()
        guest.loop_stop()


@pytest.mark.parametrize("how", ["--rebuild", "damaged"])
def test_an_empty_league_file_is_filled_again_from_the_towers_journals(tmp_path, broker, how):
    """`league --rebuild` empties its file, and a file damaged on the card is set aside and a
    new one begun at the start (docs/league.md); every tower heard of (its retained
    availability) is asked to publish its journal again, and the league holds the same games
    as before."""
    heard = BusListener(broker, "qwixx/+/result")
    with heard, tower(tmp_path, broker, "t1") as one, tower(tmp_path, broker, "t2") as two:
        with League(tmp_path / "league", broker) as league:
            league.wait_on_the_bus()
            league.output.wait_until(lambda _: len(league.games()) >= 4 or None, HANG, every=0.05)
            assert league.stop() == 0
            kept = set(league.games())  # (read beside it, as another reader would)
            assert not Path(f"{league.database}-wal").exists()  # stopped cleanly: one file
            if how == "damaged":
                for extra in ("-wal", "-shm"):  # (the card's damage took the whole file)
                    Path(f"{league.database}{extra}").unlink(missing_ok=True)
                league.database.write_bytes(b"what a power cut left " * 100)
                league.start()
                quarantine = league.database.parent / "quarantine" / league.database.name
                assert quarantine.read_bytes() == b"what a power cut left " * 100
            else:
                league.start("--rebuild")
            assert league.output.first(r"^0 games kept", 0, HANG), league.output.text
            league.output.wait_until(lambda _: set(league.games()) >= kept or None, HANG, 0.1)
            games, placings = games_and_placings(league)
            assert placings == 3 * games  # each game's players once
        one.stop(), two.stop()


def test_rubbish_on_the_bus_is_counted_and_ignored_and_names_are_escaped(tmp_path, broker):
    """A device on the café's network publishes what it likes: not JSON, a result in another
    tower's name, a name that is markup, a flood of copies. The league keeps the one real
    result once, counts the rest, and its page shows the name as typed, never as markup."""
    with League(tmp_path / "league", broker) as league:
        league.wait_on_the_bus()
        guest = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="guest")
        guest.username_pw_set(LISTENER, LISTENER_PASSWORD)
        guest.tls_set(ca_certs=str(broker.pki.ca))
        guest.connect("localhost", broker.port)
        guest.loop_start()
        good = {
            "id": "t7-000001", "tower": "t7", "game": 1, "variant": "classic", "started": None,
            "finished": "2026-11-22T19:00:00+00:00", "reason": "locks", "winners": ["<b>Zed"],
            "players": [
                {"name": "<b>Zed", "seat": 1, "kind": "pad", "level": None, "score": 30,
                 "penalties": 0, "place": 1},
                {"name": "Ann", "seat": 2, "kind": "pad", "level": None, "score": 20,
                 "penalties": 0, "place": 2},
            ],
        }  # fmt: skip
        # Each of the last two stopped the league's listener: brackets nested past Python's
        # depth (RecursionError), a time that overflows on its way to UTC (OverflowError).
        year_one = {**good, "started": "0001-01-01T00:00:00+01:00"}
        rubbish = [b"\xff" * 10, b"{}", json.dumps({**good, "tower": "t8"}).encode(),
                   b"x" * 100_000, b"[" * 1500, json.dumps(year_one).encode()]  # fmt: skip
        for payload in rubbish:
            guest.publish("qwixx/t7/result", payload, qos=1).wait_for_publish(HANG)
        for _ in range(20):
            guest.publish("qwixx/t7/result", json.dumps(good), qos=1).wait_for_publish(HANG)
        guest.publish("qwixx/t7/state", b"[not a state", qos=1).wait_for_publish(HANG)
        guest.loop_stop()
        # The state goes to the league at QoS 0 (its subscription's), the results at QoS 1 with
        # 20 in flight: the broker keeps no order between the two, so the state may be counted
        # after the last copy. Every count is waited for, then checked exact.
        counted = league.output.wait_until(
            lambda _: (league.counts().get("duplicate") == 19
                       and league.counts().get("malformed", 0) >= len(rubbish) + 1) or None,
            HANG, every=0.05,
        )  # fmt: skip
        assert counted, league.counts()
        assert league.games() == ["t7-000001"]
        assert league.counts()["malformed"] == len(rubbish) + 1
        page = league.get("/")[1]
        assert "&lt;b&gt;Zed" in page and "<b>Zed" not in page
        assert league.get("/player/p%3Anobody")[0] == 404
        request = urllib.request.Request(league.url, headers={"Host": "attacker.example"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=HANG)
        assert refused.value.code == 421  # DNS rebinding: a page that is not the league's
        assert league.stop() == 0


def test_a_message_of_megabytes_never_reaches_the_league(tmp_path, broker):
    """MQTT lets a device holding any password publish up to 256 MB, and the league read each
    message whole before refusing it: one of 150 MB took it to 490 MB of memory, more than a
    Zero 2 W has. The broker set up as docs/league.md says (max_packet_size 1048576, as every
    test's broker here) disconnects the device instead; the league never hears of it and
    keeps the next real game."""
    with League(tmp_path / "league", broker) as league:
        league.wait_on_the_bus()
        gone = threading.Event()
        guest = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="guest")
        guest.on_disconnect = lambda *_: gone.set()
        guest.username_pw_set(LISTENER, LISTENER_PASSWORD)
        guest.tls_set(ca_certs=str(broker.pki.ca))
        guest.connect("localhost", broker.port)
        guest.loop_start()
        guest.publish("qwixx/t7/result", b"x" * 4_000_000, qos=0)
        assert gone.wait(HANG), "the broker kept the guest that sent 4 MB"
        guest.loop_stop()
        with tower(tmp_path, broker, "t1", games=1) as one:
            assert one.wait_for_exit() == 0
        league.output.wait_until(lambda _: league.games() or None, HANG, every=0.05)
        assert league.counts().get("malformed", 0) == 0  # the 4 MB never came


def test_even_on_a_broker_without_a_size_limit_the_league_never_gets_megabytes(tmp_path, pki):
    """A broker set up without max_packet_size (a café that skipped that line) passes on a
    device's 4 MB publish. The league speaks MQTT 5 and tells the broker the largest packet
    it takes (1 MB), which the broker must not exceed: it drops the message for the league,
    which never hears of it and keeps the next real game."""
    loose = Broker(tmp_path / "broker", pki, packet_limit=False)
    with loose, League(tmp_path / "league", loose) as league:
        league.wait_on_the_bus()
        guest = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="guest")
        guest.username_pw_set(LISTENER, LISTENER_PASSWORD)
        guest.tls_set(ca_certs=str(pki.ca))
        guest.connect("localhost", loose.port)
        guest.loop_start()
        guest.publish("qwixx/t7/result", b"x" * 4_000_000, qos=1).wait_for_publish(HANG)
        guest.loop_stop()  # (taken by the broker: it has no limit)
        with tower(tmp_path, loose, "t1", games=1) as one:
            assert one.wait_for_exit() == 0
        league.output.wait_until(lambda _: league.games() or None, HANG, every=0.05)
        assert league.counts().get("malformed", 0) == 0  # the 4 MB never came


def test_the_broker_restarted_mid_evening_loses_no_game(tmp_path, broker):
    """The broker is killed mid-evening and started again without its memory (persistence
    off: the league's session and whatever it held are gone, results among them that it had
    acknowledged to the towers). Towers and league come back by themselves; the league asks
    each tower for the games after the newest it keeps, and ends with every game the towers
    finished, each once. (The towers play on meanwhile, as at a café: a tower that had ended
    its evening before the league was back on the bus could not be asked.)"""
    with League(tmp_path / "league", broker) as league:
        league.wait_on_the_bus()
        towers = [tower(tmp_path, broker, f"t{n}") for n in (1, 2)]
        league.output.wait_until(lambda _: len(league.games()) >= 1 or None, HANG, every=0.05)
        broker.kill()
        broker.start()
        league.wait_on_the_bus(connections=2)
        on = league.output.wait_until(lambda _: played_on(league) or None, HANG, every=0.1)
        assert on, per_tower(league)
        for each in towers:
            each.stop()
            each.__exit__()
        published = {f"t{n}": published_games(tmp_path / f"t{n}") for n in (1, 2)}
        assert all(n >= 3 for n in published.values()), published
        league.output.wait_until(lambda _: per_tower(league) == published or None, HANG, 0.1)
        assert per_tower(league) == published
        assert games_and_placings(league) == (sum(published.values()), 3 * sum(published.values()))
        assert league.counts().get("malformed", 0) == 0


def played_on(league: League) -> bool:
    """Both towers' games are coming in again: three of each kept."""
    counted = per_tower(league)
    return counted.get("t1", 0) >= 3 and counted.get("t2", 0) >= 3


def published_games(folder) -> int:
    """How many games the tower finished and the broker acknowledged (its note of results
    published; a game ended as the tower was stopped waits for its next start)."""
    through = json.loads((folder / "state" / NOTE).read_text())["through"]
    logs = [path for path in tower_games(folder) if number_of(path.name) <= through]
    return sum(read_game(path).game.over for path in logs)


def tower_games(folder) -> list:
    return sorted((folder / "state").glob("game-*.jsonl"))


def per_tower(league: League) -> dict[str, int]:
    counted: dict[str, int] = {}
    for game in league.games():
        counted[game.split("-")[0]] = counted.get(game.split("-")[0], 0) + 1
    return counted


def test_results_the_broker_could_not_queue_are_asked_for_again(tmp_path, pki):
    """A broker that keeps only two messages for a client that falls behind (mosquitto keeps
    1,000 by default: a whole evening's burst overflows it) drops the newest results while the
    league is stalled; every `catch_up` seconds the league asks each tower for the games after
    its newest, and ends with every game the tower played."""
    limits = "max_inflight_messages 1\nmax_queued_messages 1\n"
    with Broker(tmp_path / "broker", pki, limits=limits) as broker:
        heard = BusListener(broker, "qwixx/+/result")
        asked = BusListener(broker, "qwixx/+/results/resend")
        with heard, League(tmp_path / "league", broker, league="catch_up = 1\n") as league:
            league.wait_on_the_bus()
            with tower(tmp_path, broker, "t1") as one:
                league.output.wait_until(lambda _: league.games() or None, HANG, every=0.05)
                league.pause()
                before = len(results(heard))
                heard.wait_until(lambda: len(results(heard)) >= before + 4)
                league.go_on()
                published = set(results(heard))
                found = league.output.wait_until(
                    lambda _: set(league.games()) >= published or None, HANG, every=0.1
                )
                asks = [m.text for m in asked.heard]
                assert found, (sorted(published - set(league.games())), asks, one.lines[-5:])
                one.stop()


def test_the_page_is_up_before_the_broker_and_the_league_joins_it_when_it_comes(tmp_path, pki):
    """Under systemd the league is ready once its page listens, broker or not: the page says
    no tower has been heard of, the log says once why the broker does not answer, and when the
    broker starts the league is on the bus by itself."""
    broker = Broker(tmp_path / "broker", pki)  # not started yet
    with League(tmp_path / "league", broker) as league:
        league.wait_ready()
        status, page = league.get("/")
        assert status == 200 and "No tower has been heard of yet." in page
        said = league.output.wait_until(
            lambda lines: any("the league tries again by itself" in line for line in lines), HANG
        )
        assert said, league.output.text
        with broker:
            league.wait_on_the_bus()
            said_while_away = sum("tries again by itself" in line for line in league.output.lines)
        assert said_while_away == 1  # (the broker's stop after this is an outage of its own)
