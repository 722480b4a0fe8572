"""The MQTT tests' broker: Debian's mosquitto with TLS from a CA made once a module, and a
password file (support.mosquitto)."""

import pytest
from support.mosquitto import Broker, Pki, need_mosquitto


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    need_mosquitto()
    return Pki.make(tmp_path_factory.mktemp("pki"))


@pytest.fixture
def broker(tmp_path, pki):
    with Broker(tmp_path / "broker", pki) as running:
        yield running
