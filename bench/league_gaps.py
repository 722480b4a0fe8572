"""The league's resend requests and its page while guests forge results that show gaps.

DEVICES guest devices that hold the broker's listener password, each from its own 127.x
address, in processes of their own, publish results of three towers whose `previous` names a
game the league lacks (a gap each), for SECONDS: at full speed (QoS 1, as fast as the broker
acknowledges, 100 in flight a device), or RATE results a second from each device. The real
`qwixx-tower league` process on Debian's mosquitto (as bench/league.py starts them), asking the
towers what they may lack every CATCH_UP seconds; a guest from another address opens its front
page once a second (bench/league_flood.py's).

Printed: the forged results sent and the games the league kept; the resend requests heard on
each tower's `results/resend` topic, from the attack's start to CATCH_UP + 1 s after its end,
beside the league's catch-up rounds in that time (the design: a gap is asked for once, at the
next round, however many results show it: at most one request a tower a round); the guest's
page loads, with their median, p99 and worst in milliseconds.

    .venv/bin/python bench/league_gaps.py [--devices 5] [--seconds 20] [--rate 0]
                                          [--catch-up 2]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

import paho.mqtt.client as mqtt  # noqa: E402
from league import publisher, result  # noqa: E402
from league_flood import PROCESSES, guest_during, load_words  # noqa: E402
from support.bus_listener import BusListener  # noqa: E402
from support.league import League  # noqa: E402
from support.mosquitto import Broker, Pki  # noqa: E402
from web_attacks import address  # noqa: E402

TOWERS = ("g0", "g1", "g2")  # the towers the forged results name
QUEUED = 200  # results a device holds back while the broker has 100 unacknowledged
FULL_WAIT = 0.005  # seconds a device at full speed waits when the broker is behind


def forged(tower: str, number: int, chance: random.Random) -> str:
    """A tower's result (bench/league.py's) that follows a game the league never got: its
    `previous` is the odd number before it, which no device sends."""
    data = result(tower, number, chance, spread=len(TOWERS))
    data["previous"] = f"{tower}-{number - 1:06d}"
    return json.dumps(data)


def forge(
    broker: Broker,
    devices: range,
    every: int,
    seconds: float,
    rate: float,
    sent: multiprocessing.Queue[int],
) -> None:
    """Devices of `devices` (numbers, of `every` in all) publishing forged results until the
    time is up, round after round, each its own even game numbers; how many the broker
    acknowledged put on `sent` (a publication refused for a full queue is not sent)."""
    chance = random.Random(devices.start)
    clients = [(n, publisher(broker, f"guest{n:03d}", address(1, n), QUEUED)) for n in devices]
    count, round_, began = 0, 0, time.monotonic()
    last: dict[int, mqtt.MQTTMessageInfo] = {}  # each device's last publication taken
    while time.monotonic() < began + seconds:
        full = False
        for n, client in clients:
            tower, number = TOWERS[round_ % len(TOWERS)], 2 * (round_ * every + n) + 2
            info = client.publish(f"qwixx/{tower}/result", forged(tower, number, chance), qos=1)
            full |= info.rc == mqtt.MQTT_ERR_QUEUE_SIZE
            if info.rc == mqtt.MQTT_ERR_SUCCESS:
                count, last[n] = count + 1, info
        round_ += 1
        if rate:
            time.sleep(max(0.0, began + round_ / rate - time.monotonic()))
        elif full:
            time.sleep(FULL_WAIT)
    for n, client in clients:
        if n in last:
            last[n].wait_for_publish(60)  # (acknowledged in order: all it took before it)
        client.loop_stop()
        client.disconnect()
    sent.put(count)


def attack(
    broker: Broker, league: League, devices: int, seconds: float, rate: float
) -> tuple[int, list[float | None]]:
    """The forged results sent, and the guest's page loads during the attack."""
    sent: multiprocessing.Queue[int] = multiprocessing.Queue()
    shares = [range(part, devices, PROCESSES) for part in range(min(PROCESSES, devices))]
    workers = [multiprocessing.Process(target=forge,
                                       args=(broker, share, devices, seconds, rate, sent))
               for share in shares]  # fmt: skip
    loads = guest_during(league.url, workers, seconds)
    return sum(sent.get(timeout=60) for _ in workers), loads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--rate", type=float, default=0.0, help="forged results a second a device (0: full speed)"
    )
    parser.add_argument(
        "--catch-up", type=float, default=2.0, help="the league's seconds between two rounds"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        with Broker(base / "broker", Pki.make(base / "pki")) as broker:
            asks = BusListener(broker, "qwixx/+/results/resend")
            with asks, League(base / "league", broker,
                              league=f"catch_up = {args.catch_up}\n") as league:  # fmt: skip
                league.wait_on_the_bus()
                began = time.monotonic()
                sent, loads = attack(broker, league, args.devices, args.seconds, args.rate)
                time.sleep(args.catch_up + 1)  # the round after the last result
                heard = time.monotonic() - began
                asked = Counter(message.topic.split("/")[1] for message in asks.heard)
                kept = len(league.games())
    speed = f"{args.rate:g} a second each" if args.rate else "full speed"
    print(f"forged: {args.devices} devices at {speed} for {args.seconds:.0f} s: {sent} results "
          f"sent, {kept} games kept by the league")  # fmt: skip
    per_tower = {tower: asked.get(tower, 0) for tower in TOWERS}
    rounds = heard / args.catch_up
    print(f"resend requests per tower over {heard:.0f} s: {per_tower}, in about {rounds:.0f} "
          f"catch-up rounds (one every {args.catch_up:g} s)")  # fmt: skip
    print(f"guest (one load a second): {load_words(loads)}")


if __name__ == "__main__":
    main()
