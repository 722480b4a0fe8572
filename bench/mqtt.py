"""The tower on a real MQTT broker (issue 41): how soon a roll is a message on the broker, what
the bus costs the tower, and how soon it is back after the broker restarts.

Debian's mosquitto with TLS and a password file (as the tests start it, tests/support), the
real `run` process with computer players, and a listener subscribed to everything:

- roll to message: each roll event carries the moment the tower saw the roll (`time`, after
  the journal's fsync); the listener notes when the message arrived; the same clock.
- CPU and resident memory of the whole `run` process over the same games, with [mqtt] and
  without it (a process of its own each, no forking; CPU from its own rusage).
- reconnect: the broker killed, and started again on its port a second later; from the moment
  it takes connections again to the tower's "online" heard (each restart after the tower has
  been connected long enough for its back-off to start afresh).
- results from the journal: the first game the tower without [mqtt] finished, copied into a
  journal of RESULTS games (its log and its note of seats), published by the tower's own
  results part (firmware_py/bus/results.py, `Results.publish_all`, each result with its
  `previous` looked up and the note of what is published kept durably after each) to a
  publisher that returns at once, so the broker's acknowledgement is not in the figure:
  seconds for all of them and milliseconds a result; then all of them again, as a league's
  "resend all" asks (a new league file).

    .venv/bin/python bench/mqtt.py [--games 5] [--pace 0.02] [--restarts 5] [--results 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from support.bus_listener import BusListener  # noqa: E402
from support.mosquitto import Broker, Pki  # noqa: E402
from support.tower import Tower  # noqa: E402

from firmware_py.bus.link import STEADY  # noqa: E402
from firmware_py.bus.results import Results  # noqa: E402
from firmware_py.journal.journal import SEATS, Journal, log_path, read_game  # noqa: E402

PLAYERS = ["--players", "Ann,Ben,Cleo"]


def tower(folder: Path, sections: str, games: int, pace: float) -> Tower:
    """The real `run` (the tests' one tower helper), a process of this one's own: no forking
    from a warm zygote, so its CPU and memory are its whole run's."""
    folder.mkdir(parents=True, exist_ok=True)
    return Tower(*PLAYERS, folder=folder, pace=pace, games=games, sections=sections, fork=False)


def finished(run: Tower) -> tuple[float, float]:
    """CPU seconds and the highest resident memory (MB) of a tower that ran to its end."""
    _, status, usage = os.wait4(run.process.pid, 0)
    run.process.returncode = os.waitstatus_to_exitcode(status)
    assert run.process.returncode == 0, f"the tower ended with {run.process.returncode}"
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def roll_latencies(listener: BusListener) -> list[float]:
    """Milliseconds from each roll the tower saw to its message on the listener."""
    found = []
    for message in listener.on("qwixx/t1/event"):
        event = message.json()
        if event["event_type"] == "roll":
            seen = datetime.fromisoformat(event["time"]).timestamp()
            found.append((message.at - seen) * 1000)
    return found


def reconnect_seconds(broker: Broker, listener: BusListener, restarts: int) -> list[float]:
    """Seconds from the broker taking connections again to the tower's "online" heard."""
    found = []
    for _ in range(restarts):
        broker.kill()
        time.sleep(1.0)  # the tower notices, and is waiting to try again
        heard = len(listener.heard)
        broker.start()
        back = time.time()
        online = listener.wait_for("qwixx/t1/availability", lambda m: m.text == "online", heard)
        found.append(online.at - back)
        time.sleep(STEADY + 1)  # connected long enough: its back-off starts afresh
    return found


def journal_of(played: Path, folder: Path, games: int) -> Journal:
    """A journal in `folder` of `games` copies of the first game finished in the state
    directory `played` (its log and its note of seats), numbered from 1."""
    first = next(path for path in Journal(played).games() if read_game(path).game.over)
    folder.mkdir(parents=True)
    for number in range(1, games + 1):
        log = log_path(folder, number)
        shutil.copy(first, log)
        shutil.copy(first.with_suffix(SEATS), log.with_suffix(SEATS))
    return Journal(folder)


def publishing(results: Results) -> tuple[int, float]:
    """One pass of `results.publish_all` to a publisher that returns at once: the results
    published, and its seconds."""
    published = 0

    async def publish(payload: str) -> None:
        nonlocal published
        published += 1

    began = time.perf_counter()
    asyncio.run(results.publish_all(publish))
    return published, time.perf_counter() - began


def from_the_journal(played: Path, folder: Path, games: int) -> list[tuple[int, float]]:
    """`publishing` from a journal of `games` games in `folder` (`journal_of`), the first
    time and again when all are asked for again (as a league with a new file asks)."""
    results = Results(journal_of(played, folder / "journal", games), "t1", "bench")
    first = publishing(results)
    results.resend(0)
    return [first, publishing(results)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--pace", type=float, default=0.02)
    parser.add_argument("--restarts", type=int, default=5)
    parser.add_argument("--results", type=int, default=1000, help="games in the journal published")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        pki = Pki.make(folder / "pki")
        with Broker(folder / "broker", pki) as broker, BusListener(broker) as listener:
            with tower(folder / "on", broker.mqtt_section(), args.games, args.pace) as on:
                cpu_on, rss_on = finished(on)
            with tower(folder / "off", "", args.games, args.pace) as off:
                cpu_off, rss_off = finished(off)
            first, again = from_the_journal(folder / "off" / "state", folder, args.results)
            latencies = sorted(roll_latencies(listener))
            ours = ("qwixx/", "homeassistant/device/")
            sent = sum(message.topic.startswith(ours) for message in listener.heard)
            with tower(folder / "again", broker.mqtt_section(), 10_000, 0.5) as keeps:
                listener.wait_for(
                    "qwixx/t1/availability", lambda m: m.text == "online", len(listener.heard)
                )
                reconnects = reconnect_seconds(broker, listener, args.restarts)
                keeps.stop()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    print(f"{args.games} games of 3 computer players at pace {args.pace} s, TLS, on this machine")
    print(
        f"roll to message on the broker: median {statistics.median(latencies):.1f} ms, "
        f"p99 {p99:.1f} ms, max {latencies[-1]:.1f} ms over {len(latencies)} rolls "
        "(goal: p99 < 20 ms)"
    )
    extra = cpu_on - cpu_off
    print(
        f"tower CPU over the games: {cpu_on:.2f} s with [mqtt], {cpu_off:.2f} s without "
        f"({extra / cpu_off:+.0%}: {extra / args.games * 1000:.0f} ms a game, "
        f"{extra / max(1, sent) * 1000:.2f} ms a message over {sent} messages)"
    )
    print(
        f"tower resident memory, highest: {rss_on:.1f} MB with [mqtt], {rss_off:.1f} MB "
        f"without ({rss_on - rss_off:+.1f} MB)"
    )
    print(
        f"back on the bus after a broker restart: median {statistics.median(reconnects):.2f} s, "
        f"max {max(reconnects):.2f} s over {len(reconnects)} restarts"
    )
    for (published, seconds), what in ((first, "published"), (again, "published again")):
        print(
            f"results from the journal of {args.results} games: {published} {what} in "
            f"{seconds:.2f} s ({seconds / max(1, published) * 1000:.2f} ms a result)"
        )


if __name__ == "__main__":
    main()
