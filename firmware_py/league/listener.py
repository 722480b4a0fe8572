"""The league on the café's broker: subscribed to every tower's results (QoS 1), availability
and state, made again with a back-off when the broker goes, never a server between towers.

Nothing is lost however the league or the broker stops:
- The league's session is persistent (kept, never expiring, under a fixed client id): while
  the league is away the broker keeps the results for it.
- A result is acknowledged to the broker (PUBACK) only once it is committed to the league's
  file (paho's manual acknowledgement): a league killed in between gets it again.
- At every connection, before subscribing, the league notes each tower's newest game number
  it keeps, and asks each tower to publish its journal again from the next number on
  (`prefix/TOWER/results/resend`, docs/home-assistant.md): a result the broker took from a
  tower but lost (restarted without persistence) before the league had it comes again.
- Every CATCH_UP seconds too: a broker that dropped results it could not queue for the league
  (a burst of a whole evening's games, when every tower catches up at once) dropped the newest.
- A tower that says "online" (also its retained availability, at the league's connection) is
  asked the same way: for its whole journal the first time (a new tower, or an empty league
  file being rebuilt).
Besides, the league tells the towers the tournament's seatings (`tournament_bus`) and its
players, for the towers' menus (`players_bus`).
Copies are dropped by the game's id, so asking too often costs a little time, never a count.
"""

from __future__ import annotations

import asyncio
import logging
import random

import aiomqtt

from firmware_py.bus.connect import (
    LinkTrouble,
    broker_client,
    trouble_words,
)
from firmware_py.bus.settings import MqttConfig
from firmware_py.league.core import League
from firmware_py.league.players_bus import tell_players
from firmware_py.league.tournament_bus import tell_towers
from firmware_py.league.tournament_record import record_topic

log = logging.getLogger(__name__)

FIRST_DELAY, MAX_DELAY = 0.5, 30.0  # seconds between tries: doubling from the first to the most
IN_FLIGHT = 20  # results the broker sends before the league acknowledges one
CATCH_UP = 60.0  # seconds between two rounds of asking every tower for what may be missing


def league_client(settings: MqttConfig) -> aiomqtt.Client:
    """An aiomqtt client with a persistent session of its own id, acknowledging by hand."""
    client = broker_client(
        settings,
        f"qwixx-league-{settings.tower_id}",
        kept=True,
        max_inflight_messages=IN_FLIGHT,
    )
    client._client.manual_ack_set(True)  # aiomqtt has no word for it: paho's own client
    return client


class Listener:
    """The league's connection: `run` until cancelled."""

    def __init__(self, settings: MqttConfig, league: League, catch_up: float = CATCH_UP) -> None:
        self.settings = settings
        self.league = league
        self.catch_up = catch_up
        self.connected = asyncio.Event()
        self.trouble = ""  # why the broker cannot be reached now, in words
        self.record = record_topic(settings.prefix, settings.tower_id)

    async def run(self) -> None:
        delay = FIRST_DELAY
        while True:
            try:
                await self._session()
            except (aiomqtt.MqttError, OSError, LinkTrouble) as error:
                self._lost(trouble_words(error))  # a file [mqtt] names unreadable: the same
            if self.connected.is_set():
                delay = FIRST_DELAY
            self.connected.clear()
            await asyncio.sleep(delay * random.uniform(0.8, 1.2))
            delay = min(MAX_DELAY, delay * 2)

    def _lost(self, words: str) -> None:
        """Said once an outage (the first why), however often it is tried again."""
        if not self.trouble:
            log.warning("the MQTT broker at %s %s: the league tries again by itself",
                        self.settings.address, words)  # fmt: skip
        self.trouble = words

    async def _session(self) -> None:
        async with league_client(self.settings) as client:
            if self.trouble:
                log.warning("the MQTT broker at %s answers again", self.settings.address)
            self.trouble = ""
            prefix = self.settings.prefix
            missing = self.league.asked_again()  # noted before any result can arrive
            kinds = (("result", 1), ("availability", 1), ("state", 0))
            await client.subscribe([(f"{prefix}/+/{kind}", qos) for kind, qos in kinds])
            await client.subscribe(self.record, qos=1)  # (before any tower is asked)
            for tower, first in missing.items():
                await self._ask_again(client, tower, first)
            self.connected.set()
            log.info("the league hears the towers on the MQTT broker at %s", self.settings.address)
            catching_up = asyncio.create_task(self._catch_up(client))
            telling = asyncio.create_task(
                tell_towers(client, prefix, self.league.tournament, self.record)
            )
            league = self.league
            naming = asyncio.create_task(tell_players(
                client, prefix, league.store.towers, lambda: league.ratings.players,
                league.players_changed))  # fmt: skip
            try:
                await self._read(client)
            finally:
                for task in (catching_up, telling, naming):
                    task.cancel()

    async def _read(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            payload = message.payload if isinstance(message.payload, bytes) else b""
            if str(message.topic) == self.record:
                self.league.take_record(payload)
                if message.qos > 0:
                    client._client.ack(message.mid, message.qos)
                continue
            heard = self.league.take(str(message.topic), payload, retained=message.retain)
            if message.qos > 0:
                client._client.ack(message.mid, message.qos)  # committed: now the broker
            if heard.resend_to is not None:
                await self._ask_again(client, heard.resend_to, heard.resend_from)

    async def _catch_up(self, client: aiomqtt.Client) -> None:
        """Every `catch_up` seconds, each tower asked for the games after its newest kept, or
        from a gap its results showed: a broker whose queue for the league overflowed
        (mosquitto keeps 1,000 messages a client by default, and drops the newest beyond) has
        dropped the last ones of a burst."""
        while True:
            await asyncio.sleep(self.catch_up)
            try:
                for tower, first in self.league.asked_again().items():
                    await self._ask_again(client, tower, first)
            except aiomqtt.MqttError:
                pass  # not answered in time (the league stalled): asked again next round

    async def _ask_again(self, client: aiomqtt.Client, tower: str, first: int) -> None:
        """Ask a tower to publish its finished games again, from game `first` (0: all)."""
        topic = f"{self.settings.prefix}/{tower}/results/resend"
        await client.publish(topic, str(first) if first else "all", qos=1)
