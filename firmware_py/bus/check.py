"""doctor's sentence about the broker: it answers (and how the tower logs in), or why not."""

from __future__ import annotations

import asyncio

import aiomqtt

from firmware_py.bus.connect import TIMEOUT, LinkTrouble, client_for, trouble_words
from firmware_py.bus.settings import MqttConfig
from firmware_py.bus.topics import Topics


def broker_check(settings: MqttConfig) -> tuple[bool, str]:
    """Connect once and subscribe (the broker's answer proves it serves): ok and one sentence."""
    return asyncio.run(_check(settings))


async def _check(settings: MqttConfig) -> tuple[bool, str]:
    topics = Topics.of(settings)
    try:
        async with client_for(settings, will=False, role="doctor") as client:
            await client.subscribe(topics.home_assistant_status, timeout=TIMEOUT)
    except (aiomqtt.MqttError, OSError, LinkTrouble, ValueError) as error:
        return False, f"MQTT broker {settings.address}: {trouble_words(error)}"
    who = f" as {settings.username}" if settings.username else " without a user name"
    discovery = (
        f"Home Assistant finds it at {topics.discovery}"
        if settings.discovery
        else "no Home Assistant discovery"
    )
    return True, (
        f"MQTT broker {settings.address} answers: logged in{who}; the tower publishes "
        f"under {topics.base}/, {discovery}"
    )
