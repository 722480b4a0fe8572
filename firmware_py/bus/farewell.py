"""The device taken off the bus once [mqtt] is: Home Assistant forgets it.

Home Assistant removes a discovered device when its discovery topic gets an empty retained
message. A tower whose [mqtt] section is gone no longer knows its broker, so every connection
notes the broker and the topics in the state directory (`mqtt-device.json`, no password: the
file it is read from). At the next start without [mqtt] (or with enabled = false) the tower
connects once more, empties its retained topics (the device, its state, its availability) and
forgets the note; a broker that does not answer is tried again with the link's back-off for as
long as the tower runs. A tower whose id or prefix changed empties its old topics the same way
when it connects (`leftovers`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from pathlib import Path
from typing import Any

import aiomqtt

from firmware_py.bus.connect import LinkTrouble, client_for, trouble_words
from firmware_py.bus.outbox import Message
from firmware_py.bus.settings import DEVICE_NOTE, MqttConfig
from firmware_py.bus.topics import Topics
from firmware_py.journal.disk import read_regular
from firmware_py.journal.journal import JournalError, write_durably
from firmware_py.json_text import json_value

log = logging.getLogger(__name__)

FIRST_DELAY, MAX_DELAY = 1.0, 60.0  # seconds between tries to say goodbye


def retained_topics(settings: MqttConfig) -> list[str]:
    """The topics the tower leaves a retained message on."""
    topics = Topics.of(settings)
    return [topics.discovery, topics.state, topics.availability]


def remember(settings: MqttConfig, state_dir: Path) -> None:
    """Note the broker and topics of this connection (durably; skipped when unchanged)."""
    record = {
        key: str(value) if isinstance(value, Path) else value
        for key, value in dataclasses.asdict(settings).items()
    }
    record["commands"] = list(settings.commands)
    path = state_dir / DEVICE_NOTE
    try:
        if path.exists() and json_value(read_regular(path)) == record:
            return
        write_durably(path, record)
    except (OSError, ValueError, JournalError) as error:
        log.warning("the MQTT device cannot be noted in %s: %s", state_dir, error)


def remembered(state_dir: Path) -> MqttConfig | None:
    """The broker and topics noted at the last connection (None: none, or unreadable)."""
    try:
        record: dict[str, Any] = json_value(read_regular(state_dir / DEVICE_NOTE))
        for key in ("ca_file", "password_file"):
            record[key] = Path(record[key]) if record.get(key) else None
        record["commands"] = tuple(record.get("commands", ()))
        return MqttConfig(**record)
    except (OSError, ValueError, TypeError, KeyError):
        return None


def leftovers(settings: MqttConfig, state_dir: Path) -> list[Message]:
    """Empty retained messages for the topics an earlier tower id or prefix left on this
    same broker (its device then leaves Home Assistant)."""
    before = remembered(state_dir)
    if before is None or (before.host, before.port) != (settings.host, settings.port):
        return []
    old = set(retained_topics(before)) - set(retained_topics(settings))
    return [Message(topic, "", retain=True) for topic in sorted(old)]


async def farewell(state_dir: Path) -> None:
    """Empty the retained topics the note names, then forget it; tried again until it works
    (cancelled when the tower stops)."""
    settings = remembered(state_dir)
    delay, said = FIRST_DELAY, False
    while settings is not None:
        try:
            async with client_for(settings, will=False, role="farewell") as client:
                for topic in retained_topics(settings):
                    await client.publish(topic, b"", qos=1, retain=True)
        except (aiomqtt.MqttError, OSError, LinkTrouble) as error:
            if not said:
                log.warning(
                    "the tower cannot take its device off the MQTT broker at %s yet: the broker %s",
                    settings.address,
                    trouble_words(error),
                )
                said = True
            await asyncio.sleep(delay)
            delay = min(delay * 2, MAX_DELAY)
            continue
        log.info(
            "the tower's device is off the MQTT broker at %s ([mqtt] is gone)", settings.address
        )
        try:
            (state_dir / DEVICE_NOTE).unlink(missing_ok=True)
        except OSError as error:  # a read-only disk: emptied again at the next start
            log.warning("%s cannot be removed: %s", DEVICE_NOTE, error.strerror)
        return
