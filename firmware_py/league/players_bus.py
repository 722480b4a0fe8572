"""The league's players to the towers, for the roll button's menu (docs/league.md, "Who a
player is"): a pad cannot type and the kiosk has no keyboard, so a tower whose [mqtt] commands
names "players" offers the league's players on its menu to name a pad's player. Each tower's
list is retained on `prefix/TOWER/players` with QoS 1 (a tower that connects or restarts hears
it at once), published again at each connection (a broker restarted without its persistence
forgot it), to a tower heard of for the first time, and when the list changes, at most every
GAP seconds (a burst of results changes it a thousand times a second, the menu needs it once).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Iterable

import aiomqtt

from firmware_py.league.ratings import Standing

log = logging.getLogger(__name__)

OFFERED = 40  # names a tower's menu offers: a tap each (firmware_py/bus/league_players.py)
GAP = 5.0  # seconds at least between two rounds of telling the towers
AGAIN = 1.0  # seconds before a list the broker did not take is tried again


def players_topic(prefix: str, tower: str) -> str:
    return f"{prefix}/{tower}/players"


def players_message(players: dict[str, Standing]) -> bytes:
    """The people the league rates (no computer), the most games first, then by name."""
    people = [one for key, one in players.items() if key.startswith("p:")]
    people.sort(key=lambda one: (-one.games, one.name))
    return json.dumps({"players": [one.name for one in people[:OFFERED]]}).encode()


async def tell_players(client: aiomqtt.Client, prefix: str, towers: Callable[[], Iterable[str]],
                       players: Callable[[], dict[str, Standing]],
                       changed: asyncio.Event) -> None:  # fmt: skip
    """Until cancelled (the connection's end): every tower `towers` names told `players`,
    again after each `changed`."""
    sent: dict[str, bytes] = {}  # what each tower was told on this connection
    while True:
        changed.clear()
        message, failed = players_message(players()), False
        for tower in towers():
            if sent.get(tower) == message:
                continue
            try:
                await client.publish(players_topic(prefix, tower), message, qos=1, retain=True)
                sent[tower] = message
            except aiomqtt.MqttError as error:
                log.warning("the league's players are sent to %s again in a moment: %s",
                            tower, error)  # fmt: skip
                failed = True
        await asyncio.sleep(AGAIN if failed else GAP)
        if not failed:
            await changed.wait()
