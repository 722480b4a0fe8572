"""A client of the test's broker that hears every message (paho-mqtt, in its own thread), as
a house's Home Assistant or a café's league would: subscribed to "#" with QoS 1, connecting
again by itself at once when the broker comes back. Each message is kept with the moment it
arrived (the wall clock: the tower stamps its events with it too)."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from support import HANG
from support.mosquitto import LISTENER, LISTENER_PASSWORD, Broker


@dataclass(frozen=True)
class Heard:
    topic: str
    payload: bytes
    retain: bool
    qos: int
    at: float  # time.time() when it arrived

    @property
    def text(self) -> str:
        return self.payload.decode()

    def json(self) -> Any:
        return json.loads(self.payload)


class BusListener:
    """Every message on the broker, from its start (retained ones as the broker keeps them)."""

    def __init__(self, broker: Broker, topic: str = "#") -> None:
        self.heard: list[Heard] = []
        self.connections = 0
        self._changed = threading.Condition()
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"listener-{uuid.uuid4()}")
        client.username_pw_set(LISTENER, LISTENER_PASSWORD)
        client.tls_set(ca_certs=str(broker.pki.ca))
        client.reconnect_delay_set(0.05, 0.25)
        client.on_connect = lambda c, userdata, flags, code, props: self._connected(topic)
        client.on_message = lambda c, userdata, message: self._heard(message)
        self.client = client  # (before its thread starts: the connection may be quicker)
        client.connect_async("localhost", broker.port, keepalive=10)
        client.loop_start()
        self.wait_until(lambda: self.connections > 0)

    def _connected(self, topic: str) -> None:
        self.client.subscribe(topic, qos=1)
        with self._changed:
            self.connections += 1
            self._changed.notify_all()

    def _heard(self, message: mqtt.MQTTMessage) -> None:
        heard = Heard(
            message.topic, bytes(message.payload), bool(message.retain), message.qos, time.time()
        )
        with self._changed:
            self.heard.append(heard)
            self._changed.notify_all()

    def on(self, topic: str) -> list[Heard]:
        with self._changed:
            return [message for message in self.heard if message.topic == topic]

    def wait_until(self, wanted: Callable[[], Any], timeout: float = HANG) -> Any:
        """Until `wanted()` is truthy (asked whenever a message arrives); its value."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not (found := wanted()):
                left = deadline - time.monotonic()
                assert left > 0, f"never heard it; the last messages: {self.heard[-8:]}"
                self._changed.wait(min(left, 0.2))
        return found

    def wait_for(
        self,
        topic: str,
        match: Callable[[Heard], bool] = lambda m: True,
        after: int = 0,
        timeout: float = HANG,
    ) -> Heard:
        """The first message on `topic` (from index `after` of `heard`) that `match`es."""

        def found() -> Heard | None:
            return next((m for m in self.heard[after:] if m.topic == topic and match(m)), None)

        return self.wait_until(found, timeout)  # type: ignore[no-any-return]

    def publish(
        self,
        topic: str,
        payload: bytes | str,
        *,
        qos: int = 0,
        retain: bool = False,
        wait: bool = True,
    ) -> None:
        info = self.client.publish(topic, payload, qos=qos, retain=retain)
        if wait:
            info.wait_for_publish(timeout=HANG)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()

    def __enter__(self) -> BusListener:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
