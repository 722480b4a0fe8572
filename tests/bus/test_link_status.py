"""What the tower says of its broker: once when it stops answering (with why, in words a maker
acts on), not again at each try of the back-off, and once when it answers again."""

from __future__ import annotations

import errno
import socket

import aiomqtt
from aiomqtt.exceptions import MqttConnectError

from firmware_py.bus.connect import LinkTrouble, trouble_words
from firmware_py.bus.link import LinkStatus

ADDRESS = "mqtt.local:8883 (TLS)"


def test_the_news_hears_once_each_way():
    news: list[str] = []
    status = LinkStatus(ADDRESS, news.append)
    status.up()  # the first connection is no news
    refused = ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused")
    for _ in range(5):  # the back-off's tries
        status.down(refused)
    assert news == [
        "the MQTT broker at mqtt.local:8883 (TLS) refused the connection: is it running, on "
        "that port?: the tower tries again by itself, and the game goes on"
    ]
    status.up()
    status.up()
    assert news[1:] == [
        "the MQTT broker at mqtt.local:8883 (TLS) answers again: the tower is back on the bus"
    ]
    status.down(aiomqtt.MqttError("Disconnected during message iteration"))
    assert len(news) == 3 and status.trouble == "closed the connection"
    assert status.connections == 3 and not status.connected


def test_each_trouble_in_words_a_maker_acts_on():
    cases = [
        (MqttConnectError(5), "refused the user name or password: check username and "),
        (MqttConnectError(135), "refused the user name or password"),
        (TimeoutError("timed out"), "accepted the connection but did not answer within 5 s"),
        (socket.gaierror(-2, "Name or service not known"), "is a host name nobody here knows"),
        (LinkTrouble("cannot read password_file /x: no such file"), "cannot read password_file"),
        (OSError("[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed"), "check ca_file"),
        (OSError("[SSL: WRONG_VERSION_NUMBER] wrong version number"), "check tls and port"),
    ]
    for error, words in cases:
        assert words in trouble_words(error), (error, trouble_words(error))
