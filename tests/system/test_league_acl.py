"""The broker's ACL file of docs/league.md ("Set up"), read from the page and loaded into
Debian's mosquitto, its users named as the tests' logins (the tower's "t1", the league's
"league"): a real tower and the real league play an evening under it. Mosquitto drops what an
ACL refuses without a word to the client, so a line missing from the page shows only here: the
tower's games reach the league, the league's tournament record is kept on the broker, and the
tower's password cannot publish a result for another tower."""

from __future__ import annotations

import re
import textwrap
import uuid
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from support import HANG
from support.bus_listener import BusListener
from support.league import League
from support.mosquitto import LISTENER, PASSWORD, USER, Broker
from support.organiser import PASSWORD as ORGANISER
from support.organiser import Browser
from support.tournament_results import result
from support.tower import Tower

ROOT = Path(__file__).resolve().parents[2]
ACL = re.compile(r"```\n( *user t1\n.*?)```", re.S)  # the page's block that begins "user t1"


def the_pages_acl() -> str:
    """docs/league.md's ACL file, for the tests' users."""
    found = ACL.search((ROOT / "docs" / "league.md").read_text(encoding="utf-8"))
    assert found, "docs/league.md shows no ACL file beginning with 'user t1'"
    return (
        textwrap.dedent(found[1])
        .replace("user t1\n", f"user {USER}\n")
        .replace("user league\n", f"user {LISTENER}\n")
    )


@pytest.fixture
def acl_broker(tmp_path, pki):
    acl = tmp_path / "acl"
    acl.write_text(the_pages_acl())
    with Broker(tmp_path / "broker", pki, limits=f"acl_file {acl}\n") as running:
        yield running


def towers_login(broker: Broker) -> mqtt.Client:
    """A device holding tower t1's password, connected, its network loop running."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"t1-copy-{uuid.uuid4()}")
    client.username_pw_set(USER, PASSWORD)
    client.tls_set(ca_certs=str(broker.pki.ca))
    client.connect("localhost", broker.port)
    client.loop_start()
    return client


def t1s_games(league: League) -> list[str]:
    return [game for game in league.games() if game.startswith("t1-")]


def test_an_evening_under_the_pages_acl(tmp_path, acl_broker):
    secret = tmp_path / "organiser-password"
    secret.write_text(ORGANISER + "\n")
    with League(tmp_path / "league", acl_broker,
                league=f'organiser_password_file = "{secret}"\n') as league:  # fmt: skip
        league.wait_on_the_bus()
        forger = towers_login(acl_broker)
        forged = result("t2", 1, {"Mallory": 99, "Ann": 10}, None)
        forger.publish("qwixx/t2/result", forged, qos=1).wait_for_publish(HANG)
        forger.loop_stop()
        folder = tmp_path / "t1"
        folder.mkdir()
        with Tower("--players", "Ann,Ben", folder=folder, pace=0, games=2,
                   sections=acl_broker.mqtt_section(tower_id="t1")):  # fmt: skip
            kept = league.output.wait_until(lambda _: len(t1s_games(league)) == 2 or None, HANG)
            assert kept, f"the league never kept t1's games: {league.games()}"
        assert league.games() == t1s_games(league)  # (and not t2's, forged with t1's password)
        organiser = Browser(league.url)
        organiser.sign_in()
        organiser.act("create", name="Friday cup", rounds="1", towers="t1",
                      players="Robo (easy)\nBot (hard)\nCy (medium)")  # fmt: skip
        with BusListener(acl_broker, "qwixx/league/cafe/tournament") as reader:
            record = reader.wait_for("qwixx/league/cafe/tournament")
            assert record.retain and b"Friday cup" in record.payload
