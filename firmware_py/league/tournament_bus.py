"""The tournament's seatings to the towers, on the league's connection to the broker: each
tower's message retained on `prefix/TOWER/tournament` with QoS 1 (a tower that connects or
restarts hears its table's latest at once), every tower's again at each connection (a broker
restarted without its persistence forgot them), and each change as it comes."""

from __future__ import annotations

import aiomqtt

from firmware_py.league.tournament import Tournament


def seating_topic(prefix: str, tower: str) -> str:
    return f"{prefix}/{tower}/tournament"


async def tell_towers(client: aiomqtt.Client, prefix: str, tournament: Tournament) -> None:
    """Until cancelled (the connection's end): what the towers must hear of the tournament."""
    tournament.outbox.clear()
    tournament.changed.clear()
    for tower, payload in tournament.messages().items():
        await client.publish(seating_topic(prefix, tower), payload, qos=1, retain=True)
    while True:
        await tournament.changed.wait()
        tournament.changed.clear()
        waiting, tournament.outbox = tournament.outbox, {}
        for tower, payload in waiting.items():
            await client.publish(seating_topic(prefix, tower), payload, qos=1, retain=True)
