"""How the tower reaches the broker: an aiomqtt client made from [mqtt], and whatever went
wrong said in one sentence a maker can act on ("refused the user name or password").

The password is read from its file at every connection (a changed password needs no restart),
through the journal's reading of regular files only: a FIFO named there cannot hang the tower.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import aiomqtt
from aiomqtt.exceptions import MqttConnectError
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from firmware_py.bus.settings import MqttConfig
from firmware_py.bus.topics import OFFLINE, Topics
from firmware_py.errors import TowerError
from firmware_py.journal.disk import read_regular

TIMEOUT = 5.0  # seconds the broker has to answer the connection, a subscription, a QoS 1 message
KEEPALIVE = 15  # seconds: a broker silent for 1.5 times this is taken for gone
MAX_PASSWORD = 4096  # bytes of a password file
MAX_PACKET = 1_048_576  # bytes: the largest message is a tournament's record, 512 KB at most
SESSION_KEPT = 0xFFFFFFFF  # MQTT 5's "never expires"
REFUSED_LOGIN = (4, 5, 134, 135)  # bad user name or password, not authorised (MQTT 3 and 5)

# aiomqtt and paho log every message an over-full queue drops, and every socket error: the tower
# says what matters once, in its own words, so theirs are kept for a debugging session.
quiet = logging.getLogger("firmware_py.bus.mqtt")
quiet.setLevel(logging.ERROR)
# An acknowledgement that comes after aiomqtt gave up waiting for it (a broker slowed by a
# flood) is logged by aiomqtt as an error with a traceback: nothing went wrong at the tower.
LATE_ANSWER = "Unexpected message ID"
quiet.addFilter(lambda record: not str(record.msg).startswith(LATE_ANSWER))


class LinkTrouble(TowerError):
    """A file [mqtt] names cannot be read (the password, the CA's certificate)."""


def client_for(settings: MqttConfig, *, will: bool = True, role: str = "") -> aiomqtt.Client:
    """An aiomqtt client for the broker of `settings`, in this loop (not connected yet); with
    `will`, the broker says "offline" for the tower if the connection is lost. A `role`
    ("doctor") gives it a client id of its own: a broker drops the older of two connections
    with one id, and doctor must not push the running tower off."""
    topics = Topics.of(settings)
    return broker_client(
        settings,
        f"qwixx-tower-{settings.tower_id}{'-' + role if role else ''}",
        will=aiomqtt.Will(topics.availability, OFFLINE, qos=1, retain=True) if will else None,
        max_queued_incoming_messages=64,
    )


def broker_client(
    settings: MqttConfig, identifier: str, *, kept: bool = False, **options: Any
) -> aiomqtt.Client:
    """An aiomqtt client for the broker of `settings` (its address, login, TLS, timeouts), with
    `identifier` and aiomqtt's other `options`: the tower's and the league's. It speaks MQTT 5
    and tells the broker the largest packet it takes (MAX_PACKET): a broker must not send it
    a larger one, so no device on the bus can hand the tower or the league a message of
    hundreds of megabytes. `kept`: the broker keeps the session (its subscriptions and their
    messages) while the client is away, for ever: the league's."""
    properties = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]  # (paho)
    properties.MaximumPacketSize = MAX_PACKET
    if kept:
        properties.SessionExpiryInterval = SESSION_KEPT
    return aiomqtt.Client(
        settings.host,
        settings.port,
        username=settings.username,
        password=password(settings),
        identifier=identifier,
        logger=quiet,
        tls_params=tls_parameters(settings),
        timeout=TIMEOUT,
        keepalive=KEEPALIVE,
        protocol=aiomqtt.ProtocolVersion.V5,
        clean_start=not kept,
        properties=properties,
        **options,
    )


def tls_parameters(settings: MqttConfig) -> aiomqtt.TLSParameters | None:
    """TLS as [mqtt] asks for it: its CA file (checked readable), else the system's CAs."""
    if not settings.tls:
        return None
    if settings.ca_file is not None:
        readable(settings.ca_file, "ca_file")
    return aiomqtt.TLSParameters(ca_certs=str(settings.ca_file) if settings.ca_file else None)


def password(settings: MqttConfig) -> str | None:
    """The password from `password_file` (its last line break left out), None without one."""
    if settings.password_file is None:
        return None
    try:
        data = read_regular(settings.password_file)
    except OSError as error:
        raise LinkTrouble(
            f"cannot read password_file {settings.password_file}: {error.strerror or error}"
        ) from error
    if len(data) > MAX_PASSWORD:
        raise LinkTrouble(f"password_file {settings.password_file} is not a password: too long")
    return data.decode("utf-8", "replace").rstrip("\r\n")


def readable(path: Path, key: str) -> None:
    if not os.access(path, os.R_OK) or not path.is_file():
        why = "no such file" if not path.exists() else "the tower may not read it"
        raise LinkTrouble(f"cannot read {key} {path}: {why}")


def trouble_words(error: BaseException) -> str:
    """What went wrong, as the end of "the MQTT broker at HOST ..." (or a file's trouble)."""
    if isinstance(error, LinkTrouble):
        return str(error)
    if isinstance(error, MqttConnectError):
        code = getattr(error.rc, "value", error.rc)
        if code in REFUSED_LOGIN:
            return "refused the user name or password: check username and password_file"
        return f"refused the connection ({error})"
    text = str(error)
    known = (
        ("timed out", f"accepted the connection but did not answer within {TIMEOUT:g} s"),
        (
            "CERTIFICATE_VERIFY_FAILED",
            "showed a certificate the tower does not trust: check "
            "ca_file (and that host is the name in the certificate)",
        ),
        ("WRONG_VERSION_NUMBER", "does not speak TLS on that port: check tls and port"),
        ("Connection refused", "refused the connection: is it running, on that port?"),
        ("Name or service not known", "is a host name nobody here knows"),
        ("Temporary failure in name resolution", "cannot be looked up: no name server answers"),
        ("No route to host", "cannot be reached: no route to it"),
        ("Network is unreachable", "cannot be reached: this network leads nowhere"),
    )
    for clue, words in known:
        if clue in text:
            return words
    if isinstance(error, aiomqtt.MqttError):
        return "closed the connection"
    return f"cannot be reached: {text or type(error).__name__}"
