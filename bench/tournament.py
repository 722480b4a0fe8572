"""A café's tournament at its biggest (issue 42): what the tournament adds to the league's work.

In the league's own code, in this process (no broker: the bus is timed by bench/league.py):

- results: a round's tagged results taken (`League.take`: checked, kept once, rated, and
  counted for the round), per second; the same number of untagged results, for comparison.
- page: /tournament's HTML (the round's tables, every player's points by round), median and p99
  in milliseconds, with ENTRANTS players after ROUNDS rounds.
- draw: one round's tables drawn across twenty towers, in milliseconds.

    .venv/bin/python bench/tournament.py [--entrants 100] [--rounds 10]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT)]

from firmware_py.league.core import League  # noqa: E402
from firmware_py.league.draw import draw_round  # noqa: E402
from firmware_py.league.store import Store  # noqa: E402
from firmware_py.league.tournament import read_entrants  # noqa: E402
from firmware_py.league.tournament_pages import tournament_page  # noqa: E402

TOWERS = [f"t{n}" for n in range(1, 21)]
BEGAN = datetime(2026, 11, 27, 19, 0, tzinfo=UTC)


ENDED = iter(range(1_000_000))  # the games end one after the other (the ratings' cheap case)


def result(
    tower: str, number: int, players: tuple[str, ...], tag: dict[str, object] | None
) -> bytes:
    scores = {name: random.randint(-10, 90) for name in players}
    placings = [
        {"name": name, "seat": seat, "kind": "phone", "level": None, "score": score,
         "penalties": 0, "place": 1 + sum(other > score for other in scores.values())}
        for seat, (name, score) in enumerate(scores.items(), start=1)
    ]  # fmt: skip
    payload = {
        "id": f"{tower}-{number:06d}", "tower": tower, "game": number, "variant": "classic",
        "started": None, "finished": (BEGAN + timedelta(seconds=next(ENDED))).isoformat(),
        "reason": "locks", "players": placings,
        "winners": [p["name"] for p in placings if p["place"] == 1],
    }  # fmt: skip
    if tag is not None:
        payload["round"] = tag
    return json.dumps(payload).encode()


def play_tournament(league: League, rounds: int) -> tuple[float, int]:
    """Every round drawn, started and reported; seconds spent taking the tagged results."""
    taking, taken = 0.0, 0
    for number in range(1, rounds + 1):
        league.tournament.draw(TOWERS)
        league.tournament.start()
        _, tables = league.tournament.round_now()
        messages = [(f"qwixx/{t.tower}/result",
                     result(t.tower, number, t.players, {"tournament": 1, "round": number}))
                    for t in tables]  # fmt: skip
        began = time.perf_counter()
        for topic, payload in messages:
            league.take(topic, payload)
        taking += time.perf_counter() - began
        taken += len(messages)
    return taking, taken


def untagged_rate(league: League, games: int, players: list[str]) -> float:
    messages = [("qwixx/t1/result", result("t1", 1000 + n, tuple(players[:5]), None))
                for n in range(games)]  # fmt: skip
    began = time.perf_counter()
    for topic, payload in messages:
        league.take(topic, payload)
    return games / (time.perf_counter() - began)


def page_times(league: League, repeat: int = 200) -> list[float]:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        round_, tables = league.tournament.round_now()
        tournament_page(league.tournament.header, round_, tables, league.tournament.totals(), "")
        times.append((time.perf_counter() - began) * 1000)
    return sorted(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    random.seed(1)
    names = [f"Player {n}" for n in range(1, args.entrants + 1)]
    with tempfile.TemporaryDirectory() as folder:
        league = League(Store(Path(folder) / "league.sqlite"), "qwixx")
        for tower in TOWERS:
            league.take(f"qwixx/{tower}/availability", b"online")
        league.tournament.create("Bench cup", args.rounds, read_entrants("\n".join(names)))
        seconds, taken = play_tournament(league, args.rounds)
        print(f"tagged results taken: {taken / seconds:.0f} a second ({taken} results)")
        print(f"untagged results taken: {untagged_rate(league, taken, names):.0f} a second")
        times = page_times(league)
        p99 = times[int(len(times) * 0.99) - 1]
        print(f"/tournament page ({args.entrants} players, {args.rounds} rounds): "
              f"median {statistics.median(times):.1f} ms, p99 {p99:.1f} ms")  # fmt: skip
        chance = random.Random(2)
        began = time.perf_counter()
        for _ in range(100):
            draw_round(names, TOWERS, chance)
        print(f"a round's draw: {(time.perf_counter() - began) * 10:.2f} ms")
        league.store.close()


if __name__ == "__main__":
    main()
