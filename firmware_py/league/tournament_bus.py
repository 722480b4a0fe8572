"""The tournament's seatings to the towers, on the league's connection to the broker: each
tower's message retained on `prefix/TOWER/tournament` with QoS 1 (a tower that connects or
restarts hears its table's latest at once), every tower's again at each connection (a broker
restarted without its persistence forgot them), and each change as it comes. A publication
the broker does not acknowledge in time is tried again a moment later, unless a newer message
for that tower came meanwhile."""

from __future__ import annotations

import asyncio
import logging

import aiomqtt

from firmware_py.league.tournament import Tournament

log = logging.getLogger(__name__)
AGAIN = 1.0  # seconds before a seating the broker did not take is tried again


def seating_topic(prefix: str, tower: str) -> str:
    return f"{prefix}/{tower}/tournament"


async def tell_towers(client: aiomqtt.Client, prefix: str, tournament: Tournament,
                      record_topic: str) -> None:  # fmt: skip
    """Until cancelled (the connection's end): what the towers must hear of the tournament,
    and its record (tournament_record.py) kept retained on `record_topic`."""
    tournament.outbox.clear()
    tournament.outbox.update(tournament.messages())
    tournament.record_sent = None  # (the broker may have lost it)
    while True:
        tournament.changed.clear()
        waiting, tournament.outbox = tournament.outbox, {}
        record = tournament.record()
        failed = False
        if record is not None and record != tournament.record_sent:
            try:
                await client.publish(record_topic, record, qos=1, retain=True)
                tournament.record_sent = record
            except aiomqtt.MqttError as error:
                log.warning("the tournament's record is sent again in a moment: %s", error)
                failed = True
        for tower, payload in waiting.items():
            try:
                await client.publish(seating_topic(prefix, tower), payload, qos=1, retain=True)
            except aiomqtt.MqttError as error:
                log.warning("the seating of %s is sent again in a moment: %s", tower, error)
                tournament.outbox.setdefault(tower, payload)  # (unless a newer one came)
                failed = True
        if failed:
            await asyncio.sleep(AGAIN)
        elif not tournament.outbox:
            await tournament.changed.wait()
