"""A tower's result as it publishes it on the bus, for the league's tournament tests."""

from __future__ import annotations

import json


def result(tower: str, number: int, scores: dict[str, int], tag: tuple[int, int] | None) -> bytes:
    """A tower's result as it publishes it, tagged with (tournament, round) when begun for one."""
    players = [
        {"name": name, "seat": seat, "kind": "computer", "level": "easy", "score": score,
         "penalties": 0, "place": 1 + sum(other > score for other in scores.values())}
        for seat, (name, score) in enumerate(scores.items(), start=1)
    ]  # fmt: skip
    payload = {
        "id": f"{tower}-{number:06d}", "tower": tower, "game": number, "variant": "classic",
        "started": None, "finished": f"2026-11-27T19:{number:02d}:00+00:00", "reason": "locks",
        "players": players, "winners": [p["name"] for p in players if p["place"] == 1],
    }  # fmt: skip
    if tag is not None:
        payload["round"] = {"tournament": tag[0], "round": tag[1]}
    return json.dumps(payload).encode()
