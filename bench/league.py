"""The café's league under load (issue 42): how fast it takes the towers' results, and how fast
its page answers with a big league stored.

Debian's mosquitto with TLS and a password file (as the tests start it, tests/support) and the
real `qwixx-tower league` process (tests/support/league.py):

- ingest: TOWERS towers (one MQTT client each) publish GAMES results of five players each
  at full speed, QoS 1, in the order the games end (a second apart), each client on its own
  connection, so the broker hands some over out of order; from the first publication to the
  last game committed in the league's file (read beside it): games per second.
- start-up: the league stopped and started again over STORED games already in its file (the
  ratings replayed): seconds to its page; and once more, from the ratings it saved at its stop.
- page: the front page (standings, tables, the evening) and a player's page, asked one after
  the other over HTTP: median and p99 in milliseconds, with STORED games in the file.

    .venv/bin/python bench/league.py [--towers 20] [--games 100] [--stored 100000]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import quote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import paho.mqtt.client as mqtt  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402
from support.league import League, reading  # noqa: E402
from support.mosquitto import LISTENER, LISTENER_PASSWORD, Broker, Pki  # noqa: E402

from firmware_py.league.identity import player_key  # noqa: E402
from firmware_py.league.incoming import Placing, read_result  # noqa: E402
from firmware_py.league.store import Store  # noqa: E402

NAMES = [f"P{number:03d}" for number in range(300)]  # the café's regulars


def result(tower: str, number: int, chance: random.Random, spread: int = 20) -> dict[str, object]:
    """A five-player classic game of `tower`, as a tower publishes it; the towers' games end
    a second apart (`spread` towers), each tower's every `spread` seconds."""
    names = chance.sample(NAMES, 5)
    scores = [chance.randint(-10, 120) for _ in names]
    players = [
        {"name": name, "seat": seat, "kind": "pad", "level": None, "score": score,
         "penalties": chance.randint(0, 4), "place": 1 + sum(o > score for o in scores)}
        for seat, (name, score) in enumerate(zip(names, scores, strict=True), start=1)
    ]  # fmt: skip
    second = number * spread + int(tower[1:])
    finished = datetime(2026, 11, 22, 18, tzinfo=UTC) + timedelta(seconds=second)
    return {
        "id": f"{tower}-{number:06d}", "tower": tower, "game": number, "variant": "classic",
        "started": None, "finished": finished.isoformat(), "reason": "locks",
        "players": players, "winners": [p["name"] for p in players if p["place"] == 1],
    }  # fmt: skip


def kept(league: League) -> int:
    with reading(league.database) as db:
        return int(db.execute("SELECT count(*) FROM games").fetchone()[0])


def publisher(broker: Broker, tower: str, source: str = "", queued: int = 0) -> mqtt.Client:
    """A client with the listener's login (which may publish), connected from the address
    `source` when given (127.x: each device its own); it refuses a publication beyond `queued`
    waiting (0: no limit) with MQTT_ERR_QUEUE_SIZE."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"bench-{tower}")
    client.username_pw_set(LISTENER, LISTENER_PASSWORD)
    client.tls_set(ca_certs=str(broker.pki.ca))
    client.max_inflight_messages_set(100)
    client.max_queued_messages_set(queued)
    client.connect("localhost", broker.port, bind_address=source)
    client.loop_start()
    return client


def ingest(broker: Broker, league: League, towers: int, games: int) -> float:
    """Games a second from the first publication to the last game committed."""
    chance = random.Random(1)
    clients = {f"t{n:02d}": publisher(broker, f"t{n:02d}") for n in range(towers)}
    payloads = [
        (tower, json.dumps(result(tower, number, chance, towers)))
        for number in range(1, games + 1)
        for tower in clients
    ]  # in the order they end
    began = time.perf_counter()
    sent = [clients[tower].publish(f"qwixx/{tower}/result", payload, qos=1)
            for tower, payload in payloads]  # fmt: skip
    for each in sent:
        each.wait_for_publish(60)
    while kept(league) < len(payloads):
        time.sleep(0.02)
    took = time.perf_counter() - began
    for client in clients.values():
        client.loop_stop()
        client.disconnect()
    return len(payloads) / took


def fill(database: Path, stored: int) -> None:
    """`stored` games straight into the league's file (20 towers), as the league keeps them."""
    store = Store(database)
    store.db.execute("PRAGMA synchronous=OFF")  # the bench's filling only
    chance = random.Random(2)
    for number in range(1, stored // 20 + 1):
        for tower in range(20):
            name = f"f{tower:02d}"
            store.add(read_result(name, json.dumps(result(name, number, chance)).encode()))
    store.close()


def timings(league: League, path: str, times: int) -> tuple[float, float]:
    """`times` loads of the page at `path`, one after the other, each from a loopback address
    of its own: one guest's load each, as the page's budget serves a guest (an address that
    asked nothing lately), so the figures time the page and not the budget's refusals."""
    where = urlsplit(league.url)
    took = []
    for number in range(times):
        source = (f"127.0.{number // 250 + 1}.{number % 250 + 1}", 0)
        began = time.perf_counter()
        connection = http.client.HTTPConnection(where.hostname or "", where.port, timeout=60,
                                                source_address=source)  # fmt: skip
        try:
            connection.request("GET", path)
            answer = connection.getresponse()
            answer.read()
        finally:
            connection.close()
        assert answer.status == 200, f"{path} answered {answer.status}"
        took.append((time.perf_counter() - began) * 1000)
    took.sort()
    return statistics.median(took), took[int(len(took) * 0.99) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--towers", type=int, default=20)
    parser.add_argument("--games", type=int, default=100, help="games each tower publishes")
    parser.add_argument("--stored", type=int, default=100_000)
    parser.add_argument("--asks", type=int, default=300, help="page loads timed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        # (the café's broker as docs/league.md sets it up: room for a whole evening's burst)
        limits = "max_queued_messages 100000\n"
        with Broker(base / "broker", Pki.make(base / "pki"), limits=limits) as broker:
            league = League(base / "league", broker)
            league.wait_on_the_bus()
            rate = ingest(broker, league, args.towers, args.games)
            print(f"ingest: {args.towers * args.games} games of 5 players from {args.towers} "
                  f"towers at full speed: {rate:.0f} games/s")  # fmt: skip
            league.stop()
            fill(league.database, args.stored)
            began = time.perf_counter()
            league.start()
            print(f"start-up with {kept(league)} games stored: "
                  f"{time.perf_counter() - began:.1f} s to the page")  # fmt: skip
            key = quote(player_key(Placing("P001", 1, "pad", None, 0, 0, 1)), safe="")
            for path, what in (("/", "front page"), (f"/player/{key}", "a player's page")):
                median, p99 = timings(league, path, args.asks)
                print(f"{what} with {kept(league)} games: median {median:.1f} ms, "
                      f"p99 {p99:.1f} ms ({args.asks} loads)")  # fmt: skip
            league.stop()  # (its ratings saved in its file)
            began = time.perf_counter()
            league.start()
            print(f"start-up again, from the ratings it saved: "
                  f"{time.perf_counter() - began:.1f} s to the page")  # fmt: skip
            league.stop()


if __name__ == "__main__":
    main()
